/**
 * The retry and throttle policy of the API client, as pure decisions: given what an attempt
 * ended with, retry (after how long, and why) or stop. `request.ts` applies the decisions; this
 * file holds no timers of its own beyond {@link defaultSleep}, which every wait goes through (or
 * through the `sleep` a caller injects), so tests can drive time with fake timers.
 *
 * The policy (spec sections 5 and 7):
 * - 401: get a new token and retry once; a second 401 in a row fails.
 * - 403: fail at once (abort, no retry).
 * - 429: wait `Retry-After` (seconds or an HTTP date), or a jittered exponential backoff when it
 *   is absent; at most `maxRateLimitWaits` waits.
 * - 500, 502, 503, 504 and network failures: bounded jittered retries, only for idempotent calls.
 * - Any other status: no retry.
 *
 * @module
 */

/**
 * Waits `ms` milliseconds, or rejects with the signal's reason as soon as it aborts.
 *
 * @example
 * ```ts
 * import type { Sleep } from "./retry.ts";
 * const waits: number[] = [];
 * const recordingSleep: Sleep = (ms) => (waits.push(ms), Promise.resolve());
 * await recordingSleep(1000);
 * console.log(waits); // [1000]
 * ```
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The default {@link Sleep}: `setTimeout` (looked up when called, so `@sinonjs/fake-timers`
 * controls it), cleared when the signal aborts.
 *
 * @example
 * ```ts
 * import { defaultSleep } from "./retry.ts";
 * const c = new AbortController();
 * const p = defaultSleep(60_000, c.signal);
 * c.abort(new Error("stop"));
 * await p.catch((e) => console.log(e.message)); // "stop"
 * ```
 */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * A pause shared by every request of one client (one run): a `Retry-After` that one request
 * receives closes the gate until then, and every other request waits at the gate before its
 * next attempt instead of discovering the pause with a 429 of its own.
 *
 * @example
 * ```ts
 * import { RetryAfterGate } from "./retry.ts";
 * let now = 0;
 * const gate = new RetryAfterGate(() => now);
 * gate.close(2000); // a 429 with Retry-After: 2
 * now = 500;
 * console.log(gate.remainingMs()); // 1500
 * await gate.wait((ms) => Promise.resolve(void (now += ms)));
 * console.log(now, gate.remainingMs()); // 2000 0
 * ```
 */
export class RetryAfterGate {
  #now: () => number;
  #openAt = -Infinity;

  /** @param now Monotonic ms (default `performance.now`). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Closes the gate for `ms` from now (a later close than the current one wins). */
  close(ms: number): void {
    this.#openAt = Math.max(this.#openAt, this.#now() + Math.max(0, ms));
  }

  /** How long the gate stays closed, in ms (0 when open). */
  remainingMs(): number {
    return Math.max(0, this.#openAt - this.#now());
  }

  /** Waits (once, with `sleep`) until the gate opens; returns at once when it is open. */
  async wait(sleep: Sleep, signal?: AbortSignal): Promise<void> {
    const ms = this.remainingMs();
    if (ms > 0) await sleep(ms, signal);
  }
}

/**
 * Retries allowed by default for 5xx and network failures of idempotent calls.
 *
 * @example
 * ```ts
 * import { DEFAULT_RETRIES } from "./retry.ts";
 * console.log(DEFAULT_RETRIES); // 4
 * ```
 */
export const DEFAULT_RETRIES = 4;

/** Tunables of the policy. */
export interface RetryOptions {
  /** Retries allowed for 5xx and network failures of idempotent calls (default 4). */
  readonly retries?: number;
  /** Waits allowed on 429 before failing with `RateLimitError` (default 8). */
  readonly maxRateLimitWaits?: number;
  /** First backoff step for 5xx and network retries, in ms (default 500). */
  readonly baseDelayMs?: number;
  /** First backoff step for a 429 without `Retry-After`, in ms (default 1000). */
  readonly rateLimitBaseDelayMs?: number;
  /** Longest backoff step, in ms (default 30 000). */
  readonly maxDelayMs?: number;
  /** A `Retry-After` longer than this fails at once instead of waiting (default 300 000 ms). */
  readonly maxRetryAfterMs?: number;
  /** Random source in [0, 1) for jitter (default `Math.random`). */
  readonly random?: () => number;
  /** Wall clock in epoch ms, for `Retry-After` HTTP dates (default `Date.now`). */
  readonly now?: () => number;
}

/** How an attempt ended. */
export type Outcome =
  | {
    readonly kind: "response";
    readonly status: number;
    /** The `Retry-After` header, when present. */
    readonly retryAfter?: string | null;
  }
  | { readonly kind: "network" };

/** Why an attempt is retried or the call fails. */
export type Reason = "auth" | "permission" | "rateLimit" | "server" | "network" | "client";

/** What to do after an attempt. */
export type Decision =
  | { readonly action: "done" }
  | {
    readonly action: "retry";
    readonly reason: Exclude<Reason, "permission" | "client">;
    /** How long to wait first (0 for a token renewal). */
    readonly delayMs: number;
    /** Whether the wait was asked for by `Retry-After`. */
    readonly fromRetryAfter: boolean;
  }
  | {
    readonly action: "fail";
    readonly reason: Reason;
    /** For a 429: the wait asked for, when there was one. */
    readonly retryAfterMs?: number;
  };

/**
 * The statuses retried on idempotent calls.
 *
 * @example
 * ```ts
 * import { RETRYABLE_STATUSES } from "./retry.ts";
 * console.log(RETRYABLE_STATUSES.has(503), RETRYABLE_STATUSES.has(501)); // true false
 * ```
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/**
 * The wait asked for by a `Retry-After` header, in ms: an integer (or decimal) number of
 * seconds, or an HTTP date in one of its three forms (measured against `now`, see
 * {@link parseHttpDate}). `undefined` when absent or unreadable: the caller backs off.
 *
 * @example
 * ```ts
 * import { parseRetryAfter } from "./retry.ts";
 * console.log(parseRetryAfter("1")); // 1000
 * const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
 * console.log(parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", () => now)); // 30000
 * ```
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: () => number = Date.now,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = parseHttpDate(text);
  return at === undefined ? undefined : Math.max(0, at - now());
}

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "\\d{2}:\\d{2}:\\d{2}";
/** The three forms of an HTTP date (RFC 9110 section 5.6.7), read case-insensitively. */
const HTTP_DATES: readonly RegExp[] = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`, "i"), // IMF-fixdate
  new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`, "i"), // RFC 850
  new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`, "i"), // asctime, in GMT
];

/**
 * The time of an HTTP date in one of its three forms, in epoch ms; `undefined` for any other
 * text, however much of it `Date.parse` would read (`"a 1"` as 2001, `"x 2030"` as 2030).
 *
 * @example
 * ```ts
 * import { parseHttpDate } from "./retry.ts";
 * console.log(parseHttpDate("Sun Nov  6 08:49:37 1994") === Date.UTC(1994, 10, 6, 8, 49, 37)); // true
 * console.log(parseHttpDate("x 2030")); // undefined
 * ```
 */
export function parseHttpDate(text: string): number | undefined {
  const form = HTTP_DATES.findIndex((r) => r.test(text));
  if (form < 0) return undefined;
  const at = Date.parse(form === 2 ? `${text} GMT` : text);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * A jittered exponential backoff step ("equal jitter"): between half and all of
 * `min(max, base * 2^attempt)`, so waits grow but never collapse to zero.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./retry.ts";
 * console.log(backoffDelay(0, { baseMs: 500, maxMs: 30_000, random: () => 0 })); // 250
 * console.log(backoffDelay(3, { baseMs: 500, maxMs: 30_000, random: () => 0.999 })); // 3998
 * ```
 */
export function backoffDelay(
  attempt: number,
  options: { baseMs: number; maxMs: number; random: () => number },
): number {
  const cap = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(cap / 2 + options.random() * (cap / 2));
}

/**
 * The policy's tunables, resolved. Create one per client and call {@link RetryPolicy.begin} once
 * per request.
 *
 * @example
 * ```ts
 * import { RetryPolicy } from "./retry.ts";
 * const policy = new RetryPolicy({ retries: 2, random: () => 0 });
 * const call = policy.begin(true);
 * console.log(call.decide({ kind: "response", status: 503 }));
 * // { action: "retry", reason: "server", delayMs: 250, fromRetryAfter: false }
 * console.log(call.decide({ kind: "response", status: 200 })); // { action: "done" }
 * ```
 */
export class RetryPolicy {
  /** Retries allowed for 5xx and network failures. */
  readonly retries: number;
  /** Waits allowed on 429. */
  readonly maxRateLimitWaits: number;
  /** First backoff step for 5xx and network retries. */
  readonly baseDelayMs: number;
  /** First backoff step for 429 without `Retry-After`. */
  readonly rateLimitBaseDelayMs: number;
  /** Longest backoff step. */
  readonly maxDelayMs: number;
  /** Longest `Retry-After` accepted. */
  readonly maxRetryAfterMs: number;
  /** Random source for jitter. */
  readonly random: () => number;
  /** Wall clock for HTTP dates. */
  readonly now: () => number;

  constructor(options: RetryOptions = {}) {
    this.retries = nonNegative(options.retries ?? DEFAULT_RETRIES, "retries");
    this.maxRateLimitWaits = nonNegative(options.maxRateLimitWaits ?? 8, "maxRateLimitWaits");
    this.baseDelayMs = nonNegative(options.baseDelayMs ?? 500, "baseDelayMs");
    this.rateLimitBaseDelayMs = nonNegative(options.rateLimitBaseDelayMs ?? 1000, "rateLimitBase");
    this.maxDelayMs = nonNegative(options.maxDelayMs ?? 30_000, "maxDelayMs");
    this.maxRetryAfterMs = nonNegative(options.maxRetryAfterMs ?? 300_000, "maxRetryAfterMs");
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** The decision state of one request; `idempotent` calls may be retried on 5xx and failures. */
  begin(idempotent: boolean): RetryState {
    return new RetryState(this, idempotent);
  }
}

/**
 * The decisions of one request: counts its retries, waits and token renewals.
 *
 * @example
 * ```ts
 * import { RetryPolicy } from "./retry.ts";
 * const call = new RetryPolicy().begin(true);
 * console.log(call.decide({ kind: "response", status: 401 }).action); // "retry"
 * console.log(call.decide({ kind: "response", status: 401 }).action); // "fail"
 * ```
 */
export class RetryState {
  #policy: RetryPolicy;
  #idempotent: boolean;
  #lastWasAuth = false;
  /** Retries spent on 5xx and network failures. */
  retries = 0;
  /** Waits spent on 429. */
  rateLimitWaits = 0;

  constructor(policy: RetryPolicy, idempotent: boolean) {
    this.#policy = policy;
    this.#idempotent = idempotent;
  }

  /** What to do after an attempt that ended with `outcome`. */
  decide(outcome: Outcome): Decision {
    const p = this.#policy;
    const wasAuth = this.#lastWasAuth;
    this.#lastWasAuth = false;
    if (outcome.kind === "network") {
      if (!this.#idempotent || this.retries >= p.retries) {
        return { action: "fail", reason: "network" };
      }
      return this.#retry("network", undefined);
    }
    const { status } = outcome;
    if (status < 400) return { action: "done" };
    if (status === 401) {
      if (wasAuth) return { action: "fail", reason: "auth" };
      this.#lastWasAuth = true;
      return { action: "retry", reason: "auth", delayMs: 0, fromRetryAfter: false };
    }
    if (status === 403) return { action: "fail", reason: "permission" };
    if (status === 429) {
      const asked = parseRetryAfter(outcome.retryAfter, p.now);
      if (this.rateLimitWaits >= p.maxRateLimitWaits) {
        return {
          action: "fail",
          reason: "rateLimit",
          ...(asked === undefined ? {} : { retryAfterMs: asked }),
        };
      }
      if (asked !== undefined && asked > p.maxRetryAfterMs) {
        return { action: "fail", reason: "rateLimit", retryAfterMs: asked };
      }
      const delayMs = asked ?? backoffDelay(this.rateLimitWaits, {
        baseMs: p.rateLimitBaseDelayMs,
        maxMs: p.maxDelayMs,
        random: p.random,
      });
      this.rateLimitWaits++;
      return { action: "retry", reason: "rateLimit", delayMs, fromRetryAfter: asked !== undefined };
    }
    if (RETRYABLE_STATUSES.has(status)) {
      if (!this.#idempotent || this.retries >= p.retries) {
        return { action: "fail", reason: "server" };
      }
      const asked = parseRetryAfter(outcome.retryAfter, p.now);
      return this.#retry(
        "server",
        asked !== undefined && asked <= p.maxDelayMs ? asked : undefined,
      );
    }
    return { action: "fail", reason: status >= 500 ? "server" : "client" };
  }

  #retry(reason: "server" | "network", asked: number | undefined): Decision {
    const p = this.#policy;
    const delayMs = asked ?? backoffDelay(this.retries, {
      baseMs: p.baseDelayMs,
      maxMs: p.maxDelayMs,
      random: p.random,
    });
    this.retries++;
    return { action: "retry", reason, delayMs, fromRetryAfter: asked !== undefined };
  }
}

function nonNegative(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`${name} must be a non-negative number`);
  return n;
}
