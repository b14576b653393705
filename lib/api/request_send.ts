/**
 * One attempt of a call on the wire: `fetch` under a time-out combined with the caller's
 * `AbortSignal`, the body read whole and parsed as JSON, and the answer classified for the retry
 * policy. A body cut short or not JSON (on a 2xx) is a failure with no status, like a network
 * failure; the caller's abort is rethrown as is.
 *
 * @module
 */

import type { PreparedCall } from "./request_call.ts";
import type { ClientStats, TimerClock } from "./request_types.ts";
import type { Outcome } from "./retry.ts";

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
  /** `bytes` is added to. */
  readonly stats: ClientStats;
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
}

/**
 * Sends one attempt with `headers` and reads its answer whole. Rethrows the caller's abort; any
 * other failure (the time-out, a network error, a body cut short, a 2xx body that is not JSON)
 * is returned as `failure`, for the retry policy to judge.
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
    response = await options.fetch(call.url, {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: call.body }),
      signal: combined,
    });
    const buffer = new Uint8Array(await response.arrayBuffer());
    bytes = buffer.byteLength;
    options.stats.bytes += bytes;
    body = parseBody(new TextDecoder().decode(buffer), response.ok);
    return { status: response.status, response, body, bytes, timedOut: false };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
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

/** A body's JSON; text for a failed answer that is not JSON; a `SyntaxError` for a 2xx's. */
function parseBody(text: string, ok: boolean): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    if (ok) throw new SyntaxError("the response body is not valid JSON", { cause: error });
    return text;
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
