/**
 * Fan-out: one detail call per item, with bounded adaptive concurrency, results in input order.
 *
 * @module
 */

import { AdaptiveLimiter } from "./limiter.ts";

/** Options of {@link fanOut}. */
export interface FanOutOptions {
  /** A shared limiter (the query context's), else a new one with `concurrency`. */
  readonly limiter?: AdaptiveLimiter;
  /** The cap on calls in flight when no limiter is given (default 64; the limit starts lower). */
  readonly concurrency?: number;
  /** Cancels the fan-out: no new call starts and the iteration throws the abort reason. */
  readonly signal?: AbortSignal;
}

/**
 * Calls `fn` for every item with bounded concurrency and yields `[item, result]` pairs in the
 * order of the input, reading the input lazily so memory stays bounded by the window. Calls are
 * pipelined: the next item's call starts as soon as a slot frees, while earlier ones are still in
 * flight or waiting to be yielded (no batch or phase barrier).
 *
 * @example
 * ```ts
 * import { fanOut } from "./fan_out.ts";
 * const ids = ["a", "b", "c"];
 * for await (const [id, len] of fanOut(ids, (id) => Promise.resolve(id.length))) {
 *   console.log(id, len);
 * }
 * ```
 */
export async function* fanOut<T, R>(
  items: AsyncIterable<T> | Iterable<T>,
  fn: (item: T) => Promise<R>,
  options: FanOutOptions = {},
): AsyncGenerator<[T, R]> {
  const limiter = options.limiter ?? new AdaptiveLimiter({ max: options.concurrency ?? 64 });
  const window: { item: T; result: Promise<R> }[] = [];
  const iterator = (Symbol.asyncIterator in items)
    ? (items as AsyncIterable<T>)[Symbol.asyncIterator]()
    : (async function* () {
      yield* items as Iterable<T>;
    })();
  // Keep a window a little larger than the limit so slots never idle while we yield.
  const windowSize = () => Math.max(2, limiter.limit * 2);
  let done = false;
  try {
    while (true) {
      while (!done && window.length < windowSize()) {
        options.signal?.throwIfAborted();
        const next = await iterator.next();
        if (next.done) {
          done = true;
          break;
        }
        const result = limiter.run(() => {
          options.signal?.throwIfAborted();
          return fn(next.value);
        });
        result.catch(() => {}); // surfaced in order below
        window.push({ item: next.value, result });
      }
      const head = window.shift();
      if (!head) return;
      yield [head.item, await head.result];
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}
