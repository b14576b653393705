/**
 * Which failures of a tenant's pack are worth another attempt on the queue. Transient: the
 * network (a refused, reset or timed-out connection, a DNS failure, "fetch failed" after the
 * client's own retries), a 429 or a 5xx. Permanent: 400, 401, 403, 404, 422, a permission this
 * process lacks, a bad pack or tenants entry; those answer the same next time, so they are not
 * retried.
 *
 * Report failures reach the queue as the messages kept in the manifest, so the rule reads
 * messages; {@link isTransientError} adds what an error object says about itself.
 *
 * @module
 */

import { ApiError, NetworkError, RateLimitError, ServerError } from "../api/errors.ts";

/** Words of failures that will answer the same next time. */
const PERMANENT =
  /\b(400|401|403|404|422)\b|forbidden|unauthori[sz]ed|scope|requires \w+ access|--allow-|permission set|not ?capable|are blocked/i;

/**
 * Words of failures that may pass: the client's network failure text ("request failed: fetch
 * failed (after 4 retries)", "timed out after 30000 ms"), the causes Deno and the OS give
 * (connection refused or reset, DNS lookups, broken pipes), and statuses 429 and 5xx.
 */
const TRANSIENT =
  /\b(429|5\d\d)\b|network|fetch failed|request failed|error sending request|timed? ?out|connection|ECONN|EAI_AGAIN|ENOTFOUND|EPIPE|ETIMEDOUT|refused|reset|broken pipe|dns|unreachable/i;

/**
 * Whether a failure message is worth another attempt.
 *
 * @example
 * ```ts
 * import { isTransient } from "./transient.ts";
 * console.log(isTransient("GET /computers: request failed: fetch failed (after 4 retries)")); // true
 * console.log(isTransient("the service answered 503")); // true
 * console.log(isTransient("the service answered 403 Forbidden")); // false
 * ```
 */
export function isTransient(message: string): boolean {
  if (PERMANENT.test(message)) return false;
  return TRANSIENT.test(message);
}

/**
 * Whether a thrown error is worth another attempt: the client's {@link NetworkError},
 * {@link ServerError} and {@link RateLimitError}, a `TypeError` from `fetch` or a connection
 * error of Deno's; other {@link ApiError}s and permission errors are not; anything else is
 * judged by its message (see {@link isTransient}).
 *
 * @example
 * ```ts
 * import { isTransientError } from "./transient.ts";
 * console.log(isTransientError(new TypeError("fetch failed"))); // true
 * console.log(isTransientError(new Deno.errors.NotCapable("Requires net access"))); // false
 * ```
 */
export function isTransientError(error: unknown): boolean {
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return false;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (PERMANENT.test(message)) return false;
  if (error instanceof NetworkError || error instanceof ServerError) return true;
  if (error instanceof RateLimitError) return true;
  if (error instanceof ApiError) return false;
  if (
    error instanceof Deno.errors.ConnectionRefused ||
    error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.TimedOut ||
    error instanceof Deno.errors.NotConnected
  ) return true;
  if (error instanceof TypeError && /fetch|request|connect/i.test(message)) return true;
  return isTransient(message);
}
