/**
 * What a queued job carries: the tenant's entry (names of its credential variables or files,
 * never secrets), the pack document as enqueued (validated again by the worker against its own
 * report catalogue), and the output root.
 *
 * @module
 */

import type { Tenant } from "../tenants/tenants_file.ts";

/** The data of one pack job. */
export interface PackJobData {
  /** The tenant. */
  readonly tenant: Tenant;
  /** The pack file's path when enqueued (for messages). */
  readonly packFile: string;
  /** The pack document as read from the file. */
  readonly pack: unknown;
  /** Where runs go: `<outRoot>/<tenant id>/<pack>/<run>/` (default the pack's output). */
  readonly outRoot?: string;
}

/**
 * The singleton key of a tenant's jobs: one pack at a time per tenant, across all workers.
 *
 * @example
 * ```ts
 * import { singletonKeyOf } from "./pack_job.ts";
 * console.log(singletonKeyOf("acme")); // tenant:acme
 * ```
 */
export function singletonKeyOf(tenantId: string): string {
  return `tenant:${tenantId}`;
}

/**
 * Whether a report error is worth another attempt: the network, a timeout, 429 or a 5xx. A 401,
 * 403 or a bad request will answer the same next time.
 *
 * @example
 * ```ts
 * import { isTransient } from "./pack_job.ts";
 * console.log(isTransient("the service answered 503")); // true
 * console.log(isTransient("the service answered 403 Forbidden")); // false
 * ```
 */
export function isTransient(message: string): boolean {
  if (/\b(400|401|403|404|422)\b|forbidden|unauthori[sz]ed|scope/i.test(message)) return false;
  return /\b(429|5\d\d)\b|network|timed? ?out|connection|ECONN|refused|reset/i.test(message);
}
