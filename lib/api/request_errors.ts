/**
 * The failures of the request function as named errors: an answer's status and body become the
 * errors of `errors.ts`, a call that got no answer a {@link NetworkError}, every message scrubbed
 * of the secrets the client knows and on one line (the service's words quoted when they hold a
 * line break or a control character).
 *
 * @module
 */

import type { Auth } from "./auth.ts";
import {
  ApiError,
  type ApiErrorOptions,
  AuthError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RefusedResponseError,
  ServerError,
} from "./errors.ts";
import { oneLine } from "./one_line.ts";
import type { Redactor } from "./redact.ts";
import type { Reason } from "./retry.ts";

/**
 * The API's message from an error body (`{"error": {"code", "message"}}`, or a bare `message`,
 * or text), and its code.
 *
 * @example
 * ```ts
 * import { errorBodyMessage } from "./request_errors.ts";
 * console.log(errorBodyMessage({ error: { code: 400, message: "Bad filter" } }));
 * // { message: "Bad filter", code: 400 }
 * ```
 */
export function errorBodyMessage(body: unknown): { message: string; code?: string | number } {
  if (typeof body === "string") return { message: body.trim().slice(0, 300) };
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    const e = b.error;
    if (e && typeof e === "object") {
      const err = e as Record<string, unknown>;
      const code = typeof err.code === "string" || typeof err.code === "number"
        ? err.code
        : undefined;
      const message = typeof err.message === "string" ? err.message : "";
      return code === undefined ? { message } : { message, code };
    }
    if (typeof e === "string") return { message: e };
    if (typeof b.message === "string") return { message: b.message };
  }
  return { message: "" };
}

const REASON_PHRASE: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** What {@link answerError} needs to know about a failed call that got an answer. */
export interface AnswerFailure {
  /** The answer's status. */
  readonly status: number;
  readonly method: string;
  /** The path without its query string. */
  readonly path: string;
  /** The parsed body (JSON, or text when it was not JSON). */
  readonly body: unknown;
  readonly headers: Headers;
  /** Why the call failed (the retry policy's reason; `client` for other 4xx). */
  readonly reason: Reason;
  /** Retries spent on 5xx and network failures. */
  readonly retries: number;
  /** Waits spent on 429. */
  readonly waits: number;
  readonly idempotent: boolean;
  /** How the client authenticates, for what a 401 means. */
  readonly authKind: Auth["kind"];
  /** Scrubs the message. */
  readonly redactor: Redactor;
  /** For a 429: the wait the server asked for. */
  readonly retryAfterMs?: number;
}

/**
 * The named error of a call that got an answer and failed: {@link AuthError},
 * {@link PermissionError}, {@link RateLimitError}, {@link ServerError}, a 400, 404 or 409 error,
 * else an {@link ApiError}; the message is the API's (or the status's phrase) with what was
 * tried, scrubbed of secrets.
 *
 * @example
 * ```ts
 * import { answerError } from "./request_errors.ts";
 * import { Redactor } from "./redact.ts";
 * const error = answerError({
 *   status: 404, method: "GET", path: "/api/sam/v1/licenses/L9", body: null,
 *   headers: new Headers(), reason: "client", retries: 0, waits: 0, idempotent: true,
 *   authKind: "static", redactor: new Redactor(),
 * });
 * console.log(error.name, error.message.includes("Not Found")); // "NotFoundError" true
 * ```
 */
export function answerError(o: AnswerFailure): ApiError {
  const { message: apiMessage, code } = errorBodyMessage(o.body);
  const detail = oneLine(o.redactor.scrub(apiMessage)) || REASON_PHRASE[o.status] ||
    `HTTP ${o.status}`;
  const requestId = o.headers.get("x-request-id") ?? undefined;
  const base = (message: string): ApiErrorOptions => ({
    status: o.status,
    method: o.method,
    path: o.path,
    message: o.redactor.scrub(message),
    ...(code === undefined ? {} : { code }),
    ...(requestId === undefined ? {} : { requestId }),
  });
  switch (o.reason) {
    case "auth":
      return new AuthError(base(`${detail} (${authFailure(o.authKind)})`));
    case "permission": // The client names the operation and its scope (`forOperation`).
      return new PermissionError(base(detail));
    case "rateLimit": {
      const why = o.retryAfterMs !== undefined && o.waits === 0
        ? `the server asked to wait ${Math.round(o.retryAfterMs / 1000)} s, longer than allowed`
        : `gave up after ${o.waits} waits`;
      return new RateLimitError({
        ...base(`${detail} (rate limited: ${why})`),
        waits: o.waits,
        ...(o.retryAfterMs === undefined ? {} : { retryAfterMs: o.retryAfterMs }),
      });
    }
    case "server": {
      const note = !o.idempotent && o.status !== 501
        ? " (not retried: the call is not idempotent)"
        : o.retries > 0
        ? ` (after ${retriesText(o.retries)})`
        : "";
      return new ServerError(base(`${detail}${note}`));
    }
    default:
      if (o.status === 400) return new BadRequestError(base(detail));
      if (o.status === 404) return new NotFoundError(base(detail));
      if (o.status === 409) return new ConflictError(base(detail));
      return new ApiError(base(detail));
  }
}

/** What a final 401 means for each way of authenticating. */
function authFailure(kind: Auth["kind"]): string {
  return kind === "static"
    ? "the static token was rejected and cannot be renewed"
    : kind === "none"
    ? "the API needs credentials and none were given"
    : "the token was rejected again after it was renewed";
}

/** What {@link noAnswerError} needs to know about a call that got no answer. */
export interface NoAnswerFailure {
  readonly method: string;
  /** The path without its query string. */
  readonly path: string;
  /** What went wrong (a fetch failure, a body cut short, a body that is not JSON). */
  readonly failure: unknown;
  /** Whether the attempt's time-out fired. */
  readonly timedOut: boolean;
  /** The time-out of each attempt, in ms. */
  readonly timeoutMs: number;
  /** Retries spent. */
  readonly retries: number;
  readonly idempotent: boolean;
  /** Scrubs the message. */
  readonly redactor: Redactor;
}

/**
 * The {@link NetworkError} of a call that got no usable answer: timed out, failed, or answered a
 * body that is not JSON; with the retries spent or why none were tried, scrubbed of secrets.
 *
 * @example
 * ```ts
 * import { noAnswerError } from "./request_errors.ts";
 * import { Redactor } from "./redact.ts";
 * const error = noAnswerError({
 *   method: "GET", path: "/api/sam/v1/licenses", failure: new TypeError("connection reset"),
 *   timedOut: false, timeoutMs: 30_000, retries: 2, idempotent: true, redactor: new Redactor(),
 * });
 * console.log(error.message.includes("request failed: connection reset (after 2 retries)")); // true
 * ```
 */
export function noAnswerError(o: NoAnswerFailure): NetworkError {
  const what = o.timedOut
    ? `timed out after ${o.timeoutMs} ms`
    : o.failure instanceof SyntaxError
    ? o.failure.message
    : `request failed: ${oneLine(o.redactor.scrub(errorText(o.failure)))}`;
  const retried = o.retries > 0 ? ` (after ${retriesText(o.retries)})` : "";
  const notRetried = o.idempotent ? "" : " (not retried: the call is not idempotent)";
  return new NetworkError({
    method: o.method,
    path: o.path,
    message: o.redactor.scrub(`${what}${retried}${notRetried}`),
    timedOut: o.timedOut,
    cause: o.failure,
  });
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * A refusal of the request layer with its texts scrubbed of the secrets the client knows (a
 * link or `Location` a service sent may echo one); any other error as it is.
 *
 * @example
 * ```ts
 * import { scrubRefusal } from "./request_errors.ts";
 * import { RefusedResponseError } from "./errors.ts";
 * import { Redactor } from "./redact.ts";
 * const redactor = new Redactor();
 * redactor.add("tok-0123456789");
 * const error = scrubRefusal(
 *   new RefusedResponseError({
 *     refusal: "origin", method: "GET", path: "/x", problem: "a link is not a URL",
 *     received: '"http://[tok-0123456789"',
 *   }),
 *   redactor,
 * );
 * console.log(error instanceof Error && error.message.includes("tok-0123456789")); // false
 * ```
 */
export function scrubRefusal(error: unknown, redactor: Redactor): unknown {
  if (!(error instanceof RefusedResponseError)) return error;
  return new RefusedResponseError({
    refusal: error.refusal,
    method: error.method,
    path: redactor.scrub(error.path),
    problem: redactor.scrub(error.problem),
    received: redactor.scrub(error.received),
    ...(error.named ? { operation: error.operation, resource: error.resource } : {}),
  });
}

/** "1 retry", "4 retries". */
function retriesText(n: number): string {
  return n === 1 ? "1 retry" : `${n} retries`;
}
