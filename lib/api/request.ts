/**
 * The one function that talks HTTP to the API. Everything else in samkit goes through it.
 *
 * Layers, outermost first: the `Authorization` header from an {@link Auth} → a time-out per
 * attempt combined with the caller's `AbortSignal` → the retry and throttle policy of
 * `retry.ts` → `fetch`. Every URL — path, link, redirect — stays on the base URL's origin
 * (`same_origin.ts`). Bodies are read whole up to `maxResponseBytes` (`body_limit.ts`) and parsed
 * as JSON; a body cut short or not JSON counts as a network failure (retried on reads); a body
 * too large or nested too deep, or a link or redirect elsewhere, is refused and never retried.
 * Failures become the named errors of `errors.ts`, with messages scrubbed of every secret the
 * client knows.
 *
 * Each phase has its own module: the call's URL, headers and body (`request_call.ts`), the token
 * (`request_auth.ts`), the attempt on the wire and its classification (`request_send.ts`), the
 * retry step (`request_retry.ts`) and the errors (`request_errors.ts`); this one runs them.
 *
 * @module
 */

import { type Auth, type AuthContext, noAuth } from "./auth.ts";
import { maxResponseBytesOf } from "./body_limit.ts";
import { authorise, tokenContext } from "./request_auth.ts";
import { prepareCall, type PreparedCall } from "./request_call.ts";
import { answerError, noAnswerError, scrubRefusal } from "./request_errors.ts";
import { mayRetry, retryAfterDecision } from "./request_retry.ts";
import { type Attempt, GLOBAL_CLOCK, outcomeOf, sendAttempt } from "./request_send.ts";
import {
  type ApiRequest,
  type ApiResponse,
  type ClientEvent,
  createStats,
  type RequestFn,
  type RequestOptions,
} from "./request_types.ts";
import { Redactor } from "./redact.ts";
import {
  type Decision,
  defaultSleep,
  RetryAfterGate,
  RetryPolicy,
  type RetryState,
} from "./retry.ts";
import { parseBase } from "./same_origin.ts";

export { errorBodyMessage } from "./request_errors.ts";
export {
  type ApiRequest,
  type ApiResponse,
  type ClientEvent,
  type ClientStats,
  createStats,
  type QueryValue,
  type RequestFn,
  type RequestOptions,
  type TimerClock,
} from "./request_types.ts";

/** What a request function is built with, its options' defaults filled in. */
interface Context {
  readonly base: URL;
  readonly options: RequestOptions;
  readonly auth: Auth;
  readonly authContext: AuthContext;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly sleep: NonNullable<RequestOptions["sleep"]>;
  readonly clock: NonNullable<RequestOptions["clock"]>;
  readonly monotonic: () => number;
  readonly stats: NonNullable<RequestOptions["stats"]>;
  readonly redactor: Redactor;
  readonly policy: RetryPolicy;
  readonly gate: RetryAfterGate;
  readonly emit: (event: ClientEvent) => void;
}

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
  const base = parseBase(options.baseUrl);
  const monotonic = options.monotonic ?? (() => performance.now());
  const ctx: Context = {
    base,
    options,
    auth: options.auth ?? noAuth(),
    authContext: tokenContext((req) => request(req)),
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: maxResponseBytesOf(options),
    sleep: options.sleep ?? defaultSleep,
    clock: options.clock ?? GLOBAL_CLOCK,
    monotonic,
    stats: options.stats ?? createStats(),
    redactor: options.redactor ?? new Redactor(),
    policy: new RetryPolicy(options),
    gate: options.retryGate ?? new RetryAfterGate(monotonic),
    emit: (event: ClientEvent) => {
      try {
        options.onEvent?.(event);
      } catch {
        // A progress callback must not break a request.
      }
    },
  };
  for (const secret of ctx.auth.secrets) ctx.redactor.add(secret, { pinned: true });
  const request = (req: ApiRequest) => send(ctx, req);
  const { stats, redactor, emit } = ctx;
  return Object.assign(request, {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    stats,
    redactor,
    emit,
  });
}

/** Sends one call: attempts until the retry policy is done with it, then answers or throws. */
async function send(ctx: Context, req: ApiRequest): Promise<ApiResponse> {
  const call = prepared(ctx, req);
  const { signal } = call;
  const state = ctx.policy.begin(call.idempotent);
  let waited = false;
  for (let attempt = 1;; attempt++) {
    // A pause another request was asked for holds this one too (not twice after its own wait).
    if (!waited) await ctx.gate.wait(ctx.sleep, signal);
    waited = false;
    signal?.throwIfAborted();
    const { headers, token } = call.authenticate
      ? await authorise(call, ctx.auth, ctx.authContext, ctx.redactor)
      : { headers: new Headers(call.headers), token: undefined };
    const sent = await sendTimed(ctx, call, headers, attempt);
    if (sent.refused) throw scrubRefusal(sent.refused, ctx.redactor);
    const decision = state.decide(outcomeOf(sent));
    if (decision.action === "done") {
      return {
        status: sent.status!,
        headers: sent.response!.headers,
        body: sent.body,
        bytes: sent.bytes,
      };
    }
    if (mayRetry(decision, call.authenticate)) {
      const tried = {
        attempt,
        ...(sent.status === undefined ? {} : { status: sent.status }),
        token,
      };
      waited = await retryAfterDecision(call, state, decision, tried, ctx);
      continue;
    }
    throw failure(ctx, call, state, decision, sent);
  }
}

/**
 * The call prepared; a link to another origin is refused here, before anything is sent (a call
 * without credentials may also reach the token endpoint's own origin).
 */
function prepared(ctx: Context, req: ApiRequest): PreparedCall {
  try {
    return prepareCall(req, ctx.base, {
      ...(ctx.options.headers ? { headers: ctx.options.headers } : {}),
      tokenOrigins: ctx.auth.origins ?? [],
    });
  } catch (error) {
    throw scrubRefusal(error, ctx.redactor);
  }
}

/** Sends an attempt, counting it and reporting it with its time taken. */
async function sendTimed(
  ctx: Context,
  call: PreparedCall,
  headers: Headers,
  attempt: number,
): Promise<Attempt> {
  ctx.stats.requests++;
  const started = ctx.monotonic();
  const sent = await sendAttempt(call, headers, ctx);
  ctx.emit({
    type: "request",
    method: call.method,
    path: call.path,
    ...(sent.status === undefined ? {} : { status: sent.status }),
    attempt,
    ms: ctx.monotonic() - started,
    bytes: sent.bytes,
  });
  return sent;
}

/** The named error of a call the policy gave up on (or a retry that may not be made). */
function failure(
  ctx: Context,
  call: PreparedCall,
  state: RetryState,
  decision: Decision,
  sent: Attempt,
): Error {
  const { method, path, idempotent } = call;
  if (sent.status === undefined) {
    return noAnswerError({
      method,
      path,
      failure: sent.failure,
      timedOut: sent.timedOut,
      timeoutMs: ctx.timeoutMs,
      retries: state.retries,
      idempotent,
      redactor: ctx.redactor,
    });
  }
  return answerError({
    status: sent.status,
    method,
    path,
    body: sent.body,
    headers: sent.response!.headers,
    reason: decision.action === "fail" ? decision.reason : "client",
    retries: state.retries,
    waits: state.rateLimitWaits,
    idempotent,
    authKind: ctx.auth.kind,
    redactor: ctx.redactor,
    ...(decision.action === "fail" && decision.retryAfterMs !== undefined
      ? { retryAfterMs: decision.retryAfterMs }
      : {}),
  });
}
