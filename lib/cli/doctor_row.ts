/**
 * One row of `samkit doctor`'s readiness table, and the advice for an API error.
 *
 * @module
 */

import {
  ApiError,
  AuthError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
} from "../api/errors.ts";
import { redact } from "../api/redact.ts";
import { clip } from "./terminal_text.ts";

/**
 * A check's outcome: `ok`; `FAIL` (a report cannot run: not ready); `warn` (every report runs,
 * but something is worth fixing); `skip` (not checked, because a check it needs failed).
 */
export type CheckStatus = "ok" | "FAIL" | "warn" | "skip";

/** One row of the readiness table. */
export interface DoctorRow {
  /** What was checked (`token`, an area id, `registry path`, …). */
  readonly check: string;
  /** The outcome. */
  readonly status: CheckStatus;
  /** What was found. */
  readonly detail: string;
  /** What to do: given for every `FAIL` and `warn`. */
  readonly fix?: string;
  /** The OAuth2 scope of an area's reads, when the public service names one. */
  readonly scope?: string;
  /** The reports this failure stops. */
  readonly blocks?: readonly string[];
  /** The reports that run with less because of this failure. */
  readonly thins?: readonly string[];
}

/**
 * An error as one line for the table: its message, secrets redacted, at most 200 characters.
 *
 * @example
 * ```ts
 * import { errorLine } from "./doctor_row.ts";
 * console.log(errorLine(new Error("Authorization: Bearer abc.def failed")));
 * // "Authorization: Bearer <redacted> failed"
 * ```
 */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return clip(redact(text.replace(/\s+/g, " ")), 200);
}

/**
 * What to do about an error that is not a 403 or 404 (those name the area's own advice).
 *
 * @example
 * ```ts
 * import { genericFix } from "./doctor_row.ts";
 * import { ServerError } from "../api/errors.ts";
 * console.log(genericFix(new ServerError({ status: 503, method: "GET", path: "/x", message: "" })));
 * ```
 */
export function genericFix(error: unknown): string {
  if (error instanceof RateLimitError) {
    return "the service throttled even these few reads: wait a few minutes and run doctor again";
  }
  if (error instanceof ServerError) {
    return "the service failed (5xx): run doctor again later; if it persists, give the service " +
      "its request id";
  }
  if (error instanceof NetworkError) {
    return "check that the SAM API answers at the base URL (--base-url, SAM_BASE_URL or " +
      "SAM_REGION) from this machine";
  }
  if (error instanceof AuthError) {
    return "the token stopped being accepted during the checks: run doctor again; if it " +
      "persists, check the API client's credentials";
  }
  if (error instanceof ApiError) return "check that the base URL points at the SAM API";
  if (error instanceof Error && error.name === "ShapeError") {
    return "the service answered something that is not this resource: check that the base URL " +
      "(and --registry-prefix, if set) point at the SAM API";
  }
  return "run doctor again; if it persists, report the message above";
}

/**
 * The HTTP status and path of an API error, for a row's detail (`403 at /api/sam/v1/licenses`).
 *
 * @example
 * ```ts
 * import { statusAt } from "./doctor_row.ts";
 * import { NotFoundError } from "../api/errors.ts";
 * console.log(statusAt(new NotFoundError({ status: 404, method: "GET", path: "/x", message: "" })));
 * // "404 at /x"
 * ```
 */
export function statusAt(error: unknown): string {
  if (error instanceof ApiError) return `${error.status} at ${error.path}`;
  return error instanceof Error ? error.name : "error";
}

/**
 * Whether an error means the service answers but does not offer the read to this client.
 *
 * @example
 * ```ts
 * import { isRefusal } from "./doctor_row.ts";
 * import { PermissionError } from "../api/errors.ts";
 * console.log(isRefusal(new PermissionError({ status: 403, method: "GET", path: "/x", message: "" })));
 * // true
 * ```
 */
export function isRefusal(error: unknown): error is PermissionError | NotFoundError {
  return error instanceof PermissionError || error instanceof NotFoundError;
}
