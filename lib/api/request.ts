/**
 * The one function that talks HTTP to the API. Everything else in samkit goes through it.
 *
 * Layers, outermost first: the `Authorization` header from an {@link Auth} → a time-out per
 * attempt combined with the caller's `AbortSignal` → the retry and throttle policy of
 * `retry.ts` → `fetch`. Bodies are read whole and parsed as JSON; a body cut short or not JSON
 * counts as a network failure (retried on reads). Failures become the named errors of
 * `errors.ts`, with messages scrubbed of every secret the client knows.
 *
 * @module
 */

import { type Auth, type AuthContext, noAuth } from "./auth.ts";
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
  ServerError,
} from "./errors.ts";
import { Redactor } from "./redact.ts";
import {
  defaultSleep,
  type Reason,
  RetryAfterGate,
  type RetryOptions,
  RetryPolicy,
  type Sleep,
} from "./retry.ts";

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
 * import { createStats } from "./request.ts";
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
   * query string), or an absolute URL of the same origin.
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
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of {@link createRequest}. */
export interface RequestOptions extends RetryOptions {
  /** The base URL (see `base_url.ts`). */
  readonly baseUrl: string;
  /** Where tokens come from (default: none). */
  readonly auth?: Auth;
  /** The fetch function (default the global one). */
  readonly fetch?: typeof fetch;
  /** Time-out of each attempt, headers and body, in ms (default 30 000; 0 disables). */
  readonly timeoutMs?: number;
  /** Every wait goes through this (default {@link defaultSleep}). */
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

const GLOBAL_CLOCK: TimerClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as number),
};

/** Marks a time-out abort apart from the caller's. */
class TimeoutSignal extends Error {}

/**
 * Builds the request function. Nothing else in samkit talks HTTP to the API.
 *
 * @example
 * ```ts
 * import { createRequest } from "./request.ts";
 * import { staticToken } from "./auth.ts";
 * const request = createRequest({
 *   baseUrl: "http://127.0.0.1:8080",
 *   auth: staticToken("tok"),
 *   fetch: (_url, _init) => Promise.resolve(Response.json({ items: [] })),
 * });
 * const res = await request({ path: "/api/sam/v1/licenses", query: { page_size: 10 } });
 * console.log(res.status, res.body); // 200 { items: [] }
 * ```
 */
export function createRequest(options: RequestOptions): RequestFn {
  const base = new URL(options.baseUrl.replace(/\/*$/, "/"));
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const auth = options.auth ?? noAuth();
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const sleep = options.sleep ?? defaultSleep;
  const clock = options.clock ?? GLOBAL_CLOCK;
  const monotonic = options.monotonic ?? (() => performance.now());
  const stats = options.stats ?? createStats();
  const redactor = options.redactor ?? new Redactor();
  const policy = new RetryPolicy(options);
  const gate = options.retryGate ?? new RetryAfterGate(monotonic);
  for (const secret of auth.secrets) redactor.add(secret, { pinned: true });

  const emit = (event: ClientEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A progress callback must not break a request.
    }
  };

  const authContext: AuthContext = {
    postForm: async (path, form, signal) =>
      (await request({
        method: "POST",
        path,
        body: form,
        authenticate: false,
        idempotent: true,
        ...(signal ? { signal } : {}),
      })).body,
  };

  const resolveUrl = (path: string, query: ApiRequest["query"]): URL => {
    let url: URL;
    if (/^https?:\/\//i.test(path)) {
      url = new URL(path);
      if (url.origin !== base.origin) {
        throw new TypeError(`Refusing to send credentials to another origin: ${url.origin}`);
      }
    } else {
      // Paths and link hrefs (`api/…`, `/api/…`) are both relative to the base URL.
      url = new URL(path.replace(/^\/+/, ""), base);
    }
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url;
  };

  async function request(req: ApiRequest): Promise<ApiResponse> {
    const method = req.method ?? "GET";
    const url = resolveUrl(req.path, req.query);
    const path = url.pathname;
    const idempotent = req.idempotent ??
      (method === "GET" || method === "PUT" || method === "DELETE");
    const authenticate = req.authenticate ?? true;
    const signal = req.signal;
    const headers = new Headers(options.headers);
    headers.set("accept", "application/json");
    let body: BodyInit | undefined;
    if (req.body !== undefined) {
      if (req.body instanceof URLSearchParams) {
        body = req.body.toString();
        headers.set("content-type", req.contentType ?? "application/x-www-form-urlencoded");
      } else if (typeof req.body === "string") {
        body = req.body;
        headers.set("content-type", req.contentType ?? "text/plain");
      } else {
        body = JSON.stringify(req.body);
        headers.set("content-type", req.contentType ?? "application/json");
      }
    }

    const state = policy.begin(idempotent);
    let waited = false;
    for (let attempt = 1;; attempt++) {
      // A pause another request was asked for holds this one too (not twice after its own wait).
      if (!waited) await gate.wait(sleep, signal);
      waited = false;
      signal?.throwIfAborted();
      let token: string | undefined;
      const attemptHeaders = new Headers(headers);
      if (authenticate) {
        token = await auth.token(authContext, signal);
        redactor.add(token);
        if (token !== undefined) attemptHeaders.set("authorization", `Bearer ${token}`);
      }

      stats.requests++;
      const started = monotonic();
      let response: Response | undefined;
      let bytes = 0;
      let parsed: unknown = null;
      let failure: unknown;
      let timedOut = false;
      const timeout = new AbortController();
      const timer = timeoutMs > 0
        ? clock.setTimeout(() => timeout.abort(new TimeoutSignal("time-out")), timeoutMs)
        : undefined;
      try {
        const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
        response = await doFetch(url, {
          method,
          headers: attemptHeaders,
          ...(body === undefined ? {} : { body }),
          signal: combined,
        });
        const buffer = new Uint8Array(await response.arrayBuffer());
        bytes = buffer.byteLength;
        stats.bytes += bytes;
        const text = new TextDecoder().decode(buffer);
        if (text.trim() !== "") {
          try {
            parsed = JSON.parse(text);
          } catch (error) {
            if (response.ok) {
              throw new SyntaxError("the response body is not valid JSON", { cause: error });
            }
            parsed = text;
          }
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        timedOut = timeout.signal.aborted;
        failure = error;
      } finally {
        if (timer !== undefined) clock.clearTimeout(timer);
      }
      const status = failure === undefined ? response?.status : undefined;
      emit({
        type: "request",
        method,
        path,
        ...(status === undefined ? {} : { status }),
        attempt,
        ms: monotonic() - started,
        bytes,
      });

      const decision = state.decide(
        status === undefined
          ? { kind: "network" }
          : { kind: "response", status, retryAfter: response?.headers.get("retry-after") },
      );
      if (decision.action === "done") {
        return { status: status!, headers: response!.headers, body: parsed, bytes };
      }
      if (decision.action === "retry" && !(decision.reason === "auth" && !authenticate)) {
        if (decision.reason === "rateLimit") {
          stats.rateLimitWaits++;
          emit({
            type: "rateLimit",
            method,
            path,
            wait: state.rateLimitWaits,
            delayMs: decision.delayMs,
            fromRetryAfter: decision.fromRetryAfter,
          });
        } else {
          stats.retries++;
          emit({
            type: "retry",
            method,
            path,
            reason: decision.reason,
            ...(status === undefined ? {} : { status }),
            attempt,
            delayMs: decision.delayMs,
          });
        }
        if (decision.reason === "auth") auth.invalidate(token);
        if (decision.fromRetryAfter) {
          gate.close(decision.delayMs);
          const ms = Math.max(decision.delayMs, gate.remainingMs());
          if (ms > 0) await sleep(ms, signal);
          waited = true;
        } else if (decision.delayMs > 0) await sleep(decision.delayMs, signal);
        continue;
      }

      // Fail.
      if (status === undefined) {
        const what = timedOut
          ? `timed out after ${timeoutMs} ms`
          : failure instanceof SyntaxError
          ? failure.message
          : `request failed: ${errorText(failure)}`;
        const retried = state.retries > 0 ? ` (after ${state.retries} retries)` : "";
        const notRetried = idempotent ? "" : " (not retried: the call is not idempotent)";
        throw new NetworkError({
          method,
          path,
          message: redactor.scrub(`${what}${retried}${notRetried}`),
          timedOut,
          cause: failure,
        });
      }
      throw buildError({
        status,
        method,
        path,
        body: parsed,
        headers: response!.headers,
        reason: decision.action === "fail" ? decision.reason : "client",
        retries: state.retries,
        waits: state.rateLimitWaits,
        idempotent,
        authKind: auth.kind,
        redactor,
        ...(decision.action === "fail" && decision.retryAfterMs !== undefined
          ? { retryAfterMs: decision.retryAfterMs }
          : {}),
      });
    }
  }

  return Object.assign(request, { baseUrl, stats, redactor, emit });
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * The API's message from an error body (`{"error": {"code", "message"}}`, or a bare `message`,
 * or text), and its code.
 *
 * @example
 * ```ts
 * import { errorBodyMessage } from "./request.ts";
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

function buildError(o: {
  status: number;
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
  reason: Reason;
  retries: number;
  waits: number;
  idempotent: boolean;
  authKind: Auth["kind"];
  redactor: Redactor;
  retryAfterMs?: number;
}): ApiError {
  const { message: apiMessage, code } = errorBodyMessage(o.body);
  const detail = apiMessage || REASON_PHRASE[o.status] || `HTTP ${o.status}`;
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
    case "auth": {
      const how = o.authKind === "static"
        ? "the static token was rejected and cannot be renewed"
        : o.authKind === "none"
        ? "the API needs credentials and none were given"
        : "the token was rejected again after it was renewed";
      return new AuthError(base(`${detail} (${how})`));
    }
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
        ? ` (after ${o.retries} retries)`
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
