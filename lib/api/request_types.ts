/**
 * What the request function speaks: the call ({@link ApiRequest}), its answer
 * ({@link ApiResponse}), the function itself ({@link RequestFn}) and its options, the traffic
 * counters and the progress events. `request.ts` re-exports every one.
 *
 * @module
 */

import type { Auth } from "./auth.ts";
import type { BodyLimitOptions } from "./body_limit.ts";
import type { Redactor } from "./redact.ts";
import type { Reason, RetryAfterGate, RetryOptions, Sleep } from "./retry.ts";

/** Counters of a client's traffic, updated as it runs. */
export interface ClientStats {
  /** HTTP requests sent (every attempt, token requests included). */
  requests: number;
  /** Retries after 401, 5xx and network failures. */
  retries: number;
  /** Waits after 429. */
  rateLimitWaits: number;
  /** Items read from collections. */
  itemsFetched: number;
  /** Response body bytes read. */
  bytes: number;
}

/**
 * Fresh zeroed {@link ClientStats}.
 *
 * @example
 * ```ts
 * import { createStats } from "./request_types.ts";
 * console.log(createStats().requests); // 0
 * ```
 */
export function createStats(): ClientStats {
  return { requests: 0, retries: 0, rateLimitWaits: 0, itemsFetched: 0, bytes: 0 };
}

/** A progress event, for a CLI's progress line. Never carries a secret. */
export type ClientEvent =
  | {
    readonly type: "request";
    readonly method: string;
    /** The path without its query string. */
    readonly path: string;
    /** The status, or `undefined` when no response came. */
    readonly status?: number;
    /** The attempt number, from 1. */
    readonly attempt: number;
    /** Time taken in ms. */
    readonly ms: number;
    readonly bytes: number;
  }
  | {
    readonly type: "retry";
    readonly method: string;
    readonly path: string;
    readonly reason: Reason;
    readonly status?: number;
    readonly attempt: number;
    readonly delayMs: number;
  }
  | {
    readonly type: "rateLimit";
    readonly method: string;
    readonly path: string;
    /** Which wait this is, from 1. */
    readonly wait: number;
    readonly delayMs: number;
    /** Whether the server's `Retry-After` set the delay. */
    readonly fromRetryAfter: boolean;
  }
  | {
    readonly type: "page";
    /** The operation id, when known. */
    readonly op?: string;
    readonly path: string;
    readonly pageNumber: number;
    readonly items: number;
    readonly totalPages?: number;
    readonly totalItems?: number;
  }
  | {
    /**
     * A filter names a field samkit's catalogue does not know: it is sent as written, for the
     * server (the authority on its own fields) to judge.
     */
    readonly type: "filterWarning";
    /** The operation id. */
    readonly op: string;
    /** The field, as written in the filter. */
    readonly field: string;
    /** What to tell the user. */
    readonly message: string;
  };

/** A query parameter value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** One call of the API. */
export interface ApiRequest {
  /** HTTP method (default GET). */
  readonly method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /**
   * A path of the base URL (`/api/sam/v1/licenses`, or `api/…` as links spell it; it may carry a
   * query string), or an absolute URL of the same origin. Whatever the URL parser reads as
   * another origin is refused (`RefusedResponseError`) and not sent.
   */
  readonly path: string;
  /** Query parameters, added to any the path carries. */
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** A body: an object (sent as JSON), `URLSearchParams` (a form) or a string. */
  readonly body?: unknown;
  /** The body's media type (default `application/json` for objects). */
  readonly contentType?: string;
  /** Cancels the call, its retries and its waits. */
  readonly signal?: AbortSignal;
  /**
   * Whether repeating the call is safe, so 5xx and network failures may be retried. Default:
   * true for GET, PUT and DELETE, false for POST and PATCH.
   */
  readonly idempotent?: boolean;
  /** Send the `Authorization` header (default true). */
  readonly authenticate?: boolean;
}

/** A successful response. */
export interface ApiResponse<T = unknown> {
  /** The HTTP status (2xx). */
  readonly status: number;
  /** The response headers. */
  readonly headers: Headers;
  /** The parsed JSON body, or `null` for an empty body. */
  readonly body: T;
  /** Body size in bytes. */
  readonly bytes: number;
}

/** The request function, with what it was built with. */
export interface RequestFn {
  /** Sends one call through every layer. */
  (request: ApiRequest): Promise<ApiResponse>;
  /** The base URL. */
  readonly baseUrl: string;
  /** The traffic counters. */
  readonly stats: ClientStats;
  /** Secrets known to this client, for scrubbing other messages. */
  readonly redactor: Redactor;
  /** Reports an event to the `onEvent` callback (used by the pager). */
  readonly emit: (event: ClientEvent) => void;
}

/** Timers for the per-attempt time-out (default: the global ones, looked up when used). */
export interface TimerClock {
  /** Calls `fn` after `ms` milliseconds; a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a call `setTimeout` scheduled. */
  clearTimeout(handle: unknown): void;
}

/** Options of {@link createRequest}. */
export interface RequestOptions extends RetryOptions, BodyLimitOptions {
  /** The base URL (see `base_url.ts`): http(s), without credentials, a query or a fragment. */
  readonly baseUrl: string;
  /** Where tokens come from (default: none). */
  readonly auth?: Auth;
  /** The fetch function (default the global one). */
  readonly fetch?: typeof fetch;
  /** Time-out of each attempt, headers and body, in ms (default 30 000; 0 disables). */
  readonly timeoutMs?: number;
  /** Every wait goes through this (default `defaultSleep` of `retry.ts`). */
  readonly sleep?: Sleep;
  /** Timers for time-outs (default the global `setTimeout`). */
  readonly clock?: TimerClock;
  /** Monotonic ms for durations (default `performance.now`). */
  readonly monotonic?: () => number;
  /** Progress events. Exceptions it throws are ignored. */
  readonly onEvent?: (event: ClientEvent) => void;
  /** Counters to update (default fresh ones). */
  readonly stats?: ClientStats;
  /** Known secrets (default a fresh set). */
  readonly redactor?: Redactor;
  /** Extra headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `Retry-After` pause shared by all requests (default one per request function). */
  readonly retryGate?: RetryAfterGate;
}
