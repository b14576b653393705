/**
 * The query context a report's data function receives: the run's cache and limiter shared by
 * every report of a run (a pack), so that no request is made twice and concurrency adapts to
 * the server's pressure across all of them.
 *
 * @module
 */

import { RunCache } from "./cache.ts";
import { fanOut } from "./fan_out.ts";
import { AdaptiveLimiter } from "./limiter.ts";
import { indexBy, type Source, toArray } from "./collect.ts";
import { compactItem } from "./compact.ts";
import type { ClientEvent } from "../api/request.ts";

/**
 * The default cap on detail calls in flight (`--max-concurrency`).
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_CONCURRENCY } from "./context.ts";
 * console.log(DEFAULT_MAX_CONCURRENCY); // 64
 * ```
 */
export const DEFAULT_MAX_CONCURRENCY = 64;

/** Options of {@link createQueryContext}. */
export interface QueryContextOptions {
  /** The user's cap on detail calls in flight (default 64; the adaptive limit starts lower). */
  readonly maxConcurrency?: number;
  /** Cancels fan-outs. */
  readonly signal?: AbortSignal;
}

/** Shared, cached, bounded access to the API for data functions. */
export interface QueryContext {
  /** The shared limiter (the CLI wires client events to it with {@link backOffOnPressure}). */
  readonly limiter: AdaptiveLimiter;
  /** The shared cache. */
  readonly cache: RunCache;
  /** A whole (small) collection as an array, read once per run under `key`. */
  all<T>(key: string, load: () => Source<T>): Promise<T[]>;
  /** A collection indexed by `keyOf`, read once per run under `key`. */
  index<T, K>(key: string, load: () => Source<T>, keyOf: (item: T) => K): Promise<Map<K, T>>;
  /** One call made once per run under `key` (detail calls: summaries, hardware, …). */
  once<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** One call per item, bounded by the shared limiter, in input order, deduplicated by `key`. */
  fanOut<T, R>(
    items: Source<T>,
    key: (item: T) => string,
    load: (item: T) => Promise<R>,
  ): AsyncGenerator<[T, R]>;
}

/**
 * Creates the query context of a run.
 *
 * @example
 * ```ts
 * import { createQueryContext } from "./context.ts";
 * const q = createQueryContext({ maxConcurrency: 4 });
 * const squares = [];
 * for await (const [n, sq] of q.fanOut([1, 2, 2], (n) => `sq:${n}`, (n) => Promise.resolve(n * n))) {
 *   squares.push([n, sq]);
 * }
 * console.log(squares, q.cache.size); // [[1,1],[2,4],[2,4]] 2
 * ```
 */
export function createQueryContext(options: QueryContextOptions = {}): QueryContext {
  const limiter = new AdaptiveLimiter({ max: options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY });
  const cache = new RunCache();
  return {
    limiter,
    cache,
    // Kept for the run: compact copies (see `compact.ts`), made as the items arrive.
    all: (key, load) => cache.get(`all:${key}`, () => toArray(load(), compactItem)),
    index: (key, load, keyOf) =>
      cache.get(`index:${key}`, () => indexBy(load(), keyOf, compactItem)),
    once: (key, load) => cache.get(`once:${key}`, load),
    fanOut: (items, key, load) =>
      fanOut(
        items,
        (item) => cache.get(`once:${key(item)}`, async () => compactItem(await load(item))),
        {
          limiter,
          signal: options.signal,
        },
      ),
  };
}

/**
 * A client's `onEvent` that halves `limiter` when the service signals pressure (a 503 retried,
 * or a 429 without `Retry-After`), then passes every event on to `next`. A 429 with
 * `Retry-After` is a rate limit the client's shared gate already honours (every request waits
 * until then): halving the concurrency too would only lengthen each window's burst, not lower
 * the rate.
 *
 * @example
 * ```ts
 * import { backOffOnPressure } from "./context.ts";
 * import { AdaptiveLimiter } from "./limiter.ts";
 * const limiter = new AdaptiveLimiter({ max: 16, initial: 8 });
 * const onEvent = backOffOnPressure(limiter);
 * onEvent({ type: "retry", method: "GET", path: "/x", reason: "server", status: 503, attempt: 1, delayMs: 0 });
 * console.log(limiter.limit); // 4
 * ```
 */
export function backOffOnPressure(
  limiter: AdaptiveLimiter,
  next?: (event: ClientEvent) => void,
): (event: ClientEvent) => void {
  return (event) => {
    const pressure = event.type === "rateLimit"
      ? !event.fromRetryAfter
      : event.type === "retry" && event.status === 503;
    if (pressure) {
      limiter.backOff();
    }
    next?.(event);
  };
}
