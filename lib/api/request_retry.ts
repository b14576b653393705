/**
 * The retry step of a call: after the policy of `retry.ts` decided to try again, count and
 * report it (a 429 wait, or a retry after a 401, 5xx or network failure), drop a rejected token,
 * and wait — a `Retry-After` pause closes the gate every request of the client waits at.
 *
 * @module
 */

import type { Auth } from "./auth.ts";
import type { PreparedCall } from "./request_call.ts";
import type { ClientEvent, ClientStats } from "./request_types.ts";
import type { Decision, RetryAfterGate, RetryState, Sleep } from "./retry.ts";

/** A decision to try again. */
export type RetryDecision = Extract<Decision, { action: "retry" }>;

/** What the retry step works with: the client's counters, events, token source and waits. */
export interface RetryStepOptions {
  readonly stats: ClientStats;
  readonly emit: (event: ClientEvent) => void;
  readonly auth: Auth;
  readonly sleep: Sleep;
  /** The `Retry-After` pause shared by the client's requests. */
  readonly gate: RetryAfterGate;
}

/** The attempt that is retried. */
export interface RetriedAttempt {
  /** The attempt number, from 1. */
  readonly attempt: number;
  /** Its status, or `undefined` when no answer came. */
  readonly status?: number;
  /** The token it was sent with. */
  readonly token?: string;
}

/**
 * Whether a decision is acted on: every retry the policy decides, except a token renewal for a
 * call sent without credentials (the token request itself), which fails instead.
 *
 * @example
 * ```ts
 * import { mayRetry } from "./request_retry.ts";
 * const renew = { action: "retry", reason: "auth", delayMs: 0, fromRetryAfter: false } as const;
 * console.log(mayRetry(renew, true), mayRetry(renew, false)); // true false
 * ```
 */
export function mayRetry(decision: Decision, authenticate: boolean): decision is RetryDecision {
  return decision.action === "retry" && !(decision.reason === "auth" && !authenticate);
}

/**
 * Counts, reports and waits out a retry. Returns whether the wait was a `Retry-After` pause (the
 * next attempt then does not wait at the gate again).
 *
 * @example
 * ```ts
 * import { retryAfterDecision } from "./request_retry.ts";
 * import { noAuth } from "./auth.ts";
 * import { prepareCall } from "./request_call.ts";
 * import { createStats } from "./request_types.ts";
 * import { RetryAfterGate, RetryPolicy } from "./retry.ts";
 * const stats = createStats();
 * const call = prepareCall({ path: "/api/sam/v1/licenses" }, new URL("http://127.0.0.1:8080/"));
 * const state = new RetryPolicy().begin(true);
 * const decision = { action: "retry", reason: "server", delayMs: 0, fromRetryAfter: false } as const;
 * await retryAfterDecision(call, state, decision, { attempt: 1, status: 503 }, {
 *   stats, emit: () => {}, auth: noAuth(), sleep: () => Promise.resolve(), gate: new RetryAfterGate(),
 * });
 * console.log(stats.retries); // 1
 * ```
 */
export async function retryAfterDecision(
  call: PreparedCall,
  state: RetryState,
  decision: RetryDecision,
  tried: RetriedAttempt,
  options: RetryStepOptions,
): Promise<boolean> {
  reportRetry(call, state, decision, tried, options);
  if (decision.reason === "auth") options.auth.invalidate(tried.token);
  const { gate, sleep } = options;
  if (decision.fromRetryAfter) {
    gate.close(decision.delayMs);
    const ms = Math.max(decision.delayMs, gate.remainingMs());
    if (ms > 0) await sleep(ms, call.signal);
    return true;
  }
  if (decision.delayMs > 0) await sleep(decision.delayMs, call.signal);
  return false;
}

/** Counts the retry and reports it: a `rateLimit` event for a 429, else a `retry` event. */
function reportRetry(
  call: PreparedCall,
  state: RetryState,
  decision: RetryDecision,
  tried: RetriedAttempt,
  { stats, emit }: RetryStepOptions,
): void {
  const { method, path } = call;
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
    return;
  }
  stats.retries++;
  emit({
    type: "retry",
    method,
    path,
    reason: decision.reason,
    ...(tried.status === undefined ? {} : { status: tried.status }),
    attempt: tried.attempt,
    delayMs: decision.delayMs,
  });
}
