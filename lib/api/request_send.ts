/**
 * One attempt of a call on the wire: `fetch` under a time-out combined with the caller's
 * `AbortSignal`, redirects followed by hand within the base URL's origin (at most
 * {@link MAX_REDIRECTS}), the body read whole up to the size limit and parsed as JSON, and the
 * answer classified for the retry policy. A body cut short, not UTF-8 or not JSON (on a 2xx) is a
 * failure with no status, like a network failure; a redirect elsewhere, a body over the limit, JSON
 * nested too deep or a body in a declared charset other than UTF-8 is refused (never retried); the
 * caller's abort is rethrown as is.
 *
 * @module
 */

import { BodyTooLarge, bytes as inBytes, readBodyLimited } from "./body_limit.ts";
import { RefusedResponseError } from "./errors.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json_depth.ts";
import type { PreparedCall } from "./request_call.ts";
import type { ClientStats, TimerClock } from "./request_types.ts";
import type { Outcome } from "./retry.ts";
import { redirectTarget } from "./same_origin.ts";

/**
 * The most redirects one attempt follows (each within the base URL's origin).
 *
 * @example
 * ```ts
 * import { MAX_REDIRECTS } from "./request_send.ts";
 * console.log(MAX_REDIRECTS); // 5
 * ```
 */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The global timers, looked up when used (so a test's fake timers installed later apply).
 *
 * @example
 * ```ts
 * import { GLOBAL_CLOCK } from "./request_send.ts";
 * const handle = GLOBAL_CLOCK.setTimeout(() => console.log("never"), 1000);
 * GLOBAL_CLOCK.clearTimeout(handle);
 * ```
 */
export const GLOBAL_CLOCK: TimerClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as number),
};

/** Marks a time-out abort apart from the caller's. */
class TimeoutSignal extends Error {}

/** What an attempt is sent with. */
export interface SendOptions {
  /** The fetch function. */
  readonly fetch: typeof fetch;
  /** Time-out of the attempt, headers and body, in ms (0 disables). */
  readonly timeoutMs: number;
  /** Timers for the time-out. */
  readonly clock: TimerClock;
  /** `bytes` is added to (and `requests`, for each redirect followed). */
  readonly stats: ClientStats;
  /** The most bytes a body may take, decompressed (see `body_limit.ts`). */
  readonly maxResponseBytes: number;
}

/** How an attempt ended: an answer (`status` set), or a failure (`failure` set). */
export interface Attempt {
  /** The status, or `undefined` when no usable answer came. */
  readonly status?: number;
  /** The response, when one came (also for a failure while reading its body). */
  readonly response?: Response;
  /** The parsed body (JSON, text for a non-2xx that is not JSON, `null` when empty). */
  readonly body: unknown;
  /** Body bytes read. */
  readonly bytes: number;
  /** Why no usable answer came. */
  readonly failure?: unknown;
  /** Whether the time-out fired. */
  readonly timedOut: boolean;
  /** Why the answer was refused (a redirect elsewhere, too large, too deep): never retried. */
  readonly refused?: RefusedResponseError;
}

/**
 * Sends one attempt with `headers` and reads its answer whole. Rethrows the caller's abort; an
 * answer refused (a redirect to another origin, a body over `maxResponseBytes`, JSON nested
 * deeper than `MAX_JSON_DEPTH`) is returned as `refused`; any other failure (the time-out, a
 * network error, a body cut short, a 2xx body that is not JSON) as `failure`, for the retry
 * policy to judge.
 *
 * @example
 * ```ts
 * import { GLOBAL_CLOCK, sendAttempt } from "./request_send.ts";
 * import { prepareCall } from "./request_call.ts";
 * import { createStats } from "./request_types.ts";
 * const call = prepareCall({ path: "/api/sam/v1/licenses" }, new URL("http://127.0.0.1:8080/"));
 * const attempt = await sendAttempt(call, call.headers, {
 *   fetch: () => Promise.resolve(Response.json({ items: [] })),
 *   timeoutMs: 1000,
 *   clock: GLOBAL_CLOCK,
 *   stats: createStats(),
 *   maxResponseBytes: 1024,
 * });
 * console.log(attempt.status, attempt.body); // 200 { items: [] }
 * ```
 */
export async function sendAttempt(
  call: PreparedCall,
  headers: Headers,
  options: SendOptions,
): Promise<Attempt> {
  const { signal } = call;
  let response: Response | undefined;
  let bytes = 0;
  let body: unknown = null;
  const timeout = new AbortController();
  const timer = options.timeoutMs > 0
    ? options.clock.setTimeout(
      () => timeout.abort(new TimeoutSignal("time-out")),
      options.timeoutMs,
    )
    : undefined;
  try {
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    response = await fetchFollowing(call, headers, combined, options);
    const buffer = await readBodyLimited(response, options.maxResponseBytes, (n) => {
      bytes += n;
      options.stats.bytes += n;
    });
    body = parseBody(buffer, response.ok, response.headers.get("content-type"));
    return { status: response.status, response, body, bytes, timedOut: false };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const refused = refusalOf(error, call);
    if (refused) return { body: null, bytes, refused, timedOut: false };
    return {
      ...(response ? { response } : {}),
      body,
      bytes,
      failure: error,
      timedOut: timeout.signal.aborted,
    };
  } finally {
    if (timer !== undefined) options.clock.clearTimeout(timer);
  }
}

/**
 * Fetches the call's URL without letting `fetch` follow redirects: a redirect is followed by
 * hand when it stays on an allowed origin (see `same_origin.ts`), at most {@link MAX_REDIRECTS}
 * times; a 303, or a 301 or 302 after a POST, is followed with a GET without the body. Throws a
 * `RefusedResponseError` for a redirect elsewhere or one too many.
 */
async function fetchFollowing(
  call: PreparedCall,
  headers: Headers,
  signal: AbortSignal,
  options: SendOptions,
): Promise<Response> {
  let url = call.url;
  let method: string = call.method;
  let body = call.body;
  for (let hop = 0;; hop++) {
    const response = await options.fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal,
      redirect: "manual",
    });
    if (!REDIRECTS.has(response.status)) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop === MAX_REDIRECTS) {
      throw new RefusedResponseError({
        refusal: "redirect",
        method: call.method,
        path: call.path,
        problem: `the service redirected more than ${MAX_REDIRECTS} times; not followed further`,
        received: `redirect ${hop + 1} to ${url.origin}`,
      });
    }
    url = redirectTarget(response.headers.get("location"), url, call.origins);
    if (response.status === 303 || (response.status <= 302 && method === "POST")) {
      method = "GET";
      body = undefined;
      headers = new Headers(headers);
      headers.delete("content-type");
    }
    options.stats.requests++;
  }
}

/** JSON nested deeper than {@link MAX_JSON_DEPTH}, before it is parsed. */
class TooDeep extends Error {}

/** A 2xx body that is not UTF-8 in the charset its Content-Type declares (not UTF-8 either). */
class DeclaredCharset extends Error {
  constructor(readonly charset: string) {
    super(`the response body is not UTF-8 (it declares charset=${charset})`);
  }
}

/** The refusal an attempt's failure stands for, named after the call; else `undefined`. */
function refusalOf(error: unknown, call: PreparedCall): RefusedResponseError | undefined {
  if (error instanceof RefusedResponseError) return error;
  const { method, path } = call;
  if (error instanceof BodyTooLarge) {
    return new RefusedResponseError({
      refusal: "size",
      method,
      path,
      problem: `${error.message}; not read further and not retried`,
      received: error.read === 0
        ? "a Content-Length over the limit"
        : `more than ${inBytes(error.limit)} (decompressed)`,
    });
  }
  if (error instanceof DeclaredCharset) {
    return new RefusedResponseError({
      refusal: "encoding",
      method,
      path,
      problem: `${error.message}; JSON must be UTF-8, so it was not read and not retried`,
      received: `a body in charset=${error.charset}`,
    });
  }
  if (error instanceof TooDeep) {
    return new RefusedResponseError({
      refusal: "depth",
      method,
      path,
      problem: `the response JSON is nested deeper than ${MAX_JSON_DEPTH} levels; not read`,
      received: "arrays or objects nested past the limit",
    });
  }
  return undefined;
}

/**
 * A body's JSON; text for a failed answer that is not JSON (or nests too deep); a `SyntaxError`
 * for a 2xx's that is not UTF-8 (JSON is UTF-8, RFC 8259 section 8.1: a Latin-1 body is refused,
 * never read with U+FFFD in place of its bytes) or not JSON, a {@link TooDeep} for one nested too
 * deep. A UTF-8 byte order mark is dropped.
 */
function parseBody(buffer: Uint8Array, ok: boolean, contentType: string | null): unknown {
  const deep = nestsDeeperThan(buffer, MAX_JSON_DEPTH);
  if (deep && ok) throw new TooDeep();
  const text = ok ? utf8(buffer, contentType) : new TextDecoder().decode(buffer);
  if (deep) return text;
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    if (ok) throw new SyntaxError("the response body is not valid JSON", { cause: error });
    return text;
  }
}

/**
 * The body as UTF-8 text. One that is not: a {@link DeclaredCharset} when its Content-Type
 * declares another charset (the service sends it so every time), else a `SyntaxError`, retried
 * like a body cut short (a cut can fall inside a character).
 */
function utf8(buffer: Uint8Array, contentType: string | null): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch (error) {
    const charset = /;\s*charset\s*=\s*"?([\w.:-]{1,40})/i.exec(contentType ?? "")?.[1];
    if (charset && !/^utf-?8$/i.test(charset)) throw new DeclaredCharset(charset);
    throw new SyntaxError(
      "the response body is not UTF-8; JSON must be UTF-8, so it was not read",
      { cause: error },
    );
  }
}

/**
 * The attempt as the retry policy sees it: an answer's status and `Retry-After`, or a network
 * failure.
 *
 * @example
 * ```ts
 * import { outcomeOf } from "./request_send.ts";
 * console.log(outcomeOf({ body: null, bytes: 0, failure: new TypeError("reset"), timedOut: false }));
 * // { kind: "network" }
 * ```
 */
export function outcomeOf(attempt: Attempt): Outcome {
  return attempt.status === undefined ? { kind: "network" } : {
    kind: "response",
    status: attempt.status,
    retryAfter: attempt.response?.headers.get("retry-after"),
  };
}
