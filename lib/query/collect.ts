/**
 * Collection helpers for data functions: index by key, join, group and aggregate, top-N. They
 * read async iterables once and keep only what they return.
 *
 * A collection of the API client (a `Paged`) whose pages turn out inconsistent (see
 * `lib/api/integrity.ts`) is read again from page 1 by `indexBy`, `groupReduce`, `topN` and
 * `toArray`, at most `DEFAULT_REREADS` times, starting their result afresh each time: their
 * result only exists once the read is complete, so nothing wrong was handed out. `leftJoin`
 * streams, so it passes the `PagingIntegrityError` on.
 *
 * @module
 */

import { PagingIntegrityError } from "../api/errors.ts";
import { DEFAULT_REREADS, isPaged } from "../api/paginate.ts";

/** Anything that yields items. */
export type Source<T> = AsyncIterable<T> | Iterable<T>;

/**
 * Folds a source into a result made by `init()`. A `Paged` source read inconsistently is read
 * again with a fresh result, at most {@link DEFAULT_REREADS} times; then the error is thrown
 * with the number of reads made.
 */
async function fold<T, A>(
  source: Source<T>,
  init: () => A,
  step: (acc: A, item: T) => A,
): Promise<A> {
  for (let read = 1;; read++) {
    try {
      let acc = init();
      for await (const item of source) acc = step(acc, item);
      return acc;
    } catch (error) {
      if (!(error instanceof PagingIntegrityError) || !isPaged(source)) throw error;
      if (read > DEFAULT_REREADS) throw new PagingIntegrityError({ ...error, reads: read });
    }
  }
}

/**
 * Reads a source into a map keyed by `key(item)` (last one wins), each item as `keep` gives it
 * back (as it is by default; the run cache keeps compact copies).
 *
 * @example
 * ```ts
 * import { indexBy } from "./collect.ts";
 * const byId = await indexBy([{ id: "a", n: 1 }], (x) => x.id);
 * console.log(byId.get("a")?.n); // 1
 * ```
 */
export async function indexBy<T, K>(
  source: Source<T>,
  key: (item: T) => K,
  keep: (item: T) => T = (item) => item,
): Promise<Map<K, T>> {
  return await fold(source, () => new Map<K, T>(), (map, item) => map.set(key(item), keep(item)));
}

/**
 * Groups a source by key, folding each group with `reduce` from `init()`.
 *
 * @example
 * ```ts
 * import { groupReduce } from "./collect.ts";
 * const sums = await groupReduce(
 *   [{ v: "X", n: 2 }, { v: "X", n: 3 }, { v: "Y", n: 1 }],
 *   (r) => r.v,
 *   () => 0,
 *   (acc, r) => acc + r.n,
 * );
 * console.log(sums.get("X")); // 5
 * ```
 */
export async function groupReduce<T, K, A>(
  source: Source<T>,
  key: (item: T) => K,
  init: () => A,
  reduce: (acc: A, item: T) => A,
): Promise<Map<K, A>> {
  return await fold(source, () => new Map<K, A>(), (groups, item) => {
    const k = key(item);
    return groups.set(k, reduce(groups.has(k) ? groups.get(k)! : init(), item));
  });
}

/**
 * Streams `left` items joined with the matching item of an index (or `undefined` when none:
 * a left join, so nothing is dropped).
 *
 * @example
 * ```ts
 * import { leftJoin } from "./collect.ts";
 * const apps = new Map([["A1", { name: "Visio" }]]);
 * for await (const [lic, app] of leftJoin([{ applicationId: "A1" }], apps, (l) => l.applicationId)) {
 *   console.log(app?.name); // "Visio"
 * }
 * ```
 */
export async function* leftJoin<L, K, R>(
  left: Source<L>,
  right: ReadonlyMap<K, R>,
  key: (item: L) => K,
): AsyncGenerator<[L, R | undefined]> {
  for await (const item of left) yield [item, right.get(key(item))];
}

/**
 * The `n` largest items by `score`, kept in a bounded buffer while the source passes.
 *
 * @example
 * ```ts
 * import { topN } from "./collect.ts";
 * console.log(await topN([3, 1, 4, 1, 5], 2, (x) => x)); // [5, 4]
 * ```
 */
export async function topN<T>(
  source: Source<T>,
  n: number,
  score: (item: T) => number,
): Promise<T[]> {
  const best = await fold(source, (): T[] => [], (best, item) => {
    best.push(item);
    if (best.length > n * 4) {
      best.sort((a, b) => score(b) - score(a));
      best.length = n;
    }
    return best;
  });
  return best.sort((a, b) => score(b) - score(a)).slice(0, n);
}

/**
 * Reads a source into an array, each item as `keep` gives it back (as it is by default: a
 * `Paged` source then through its own `toArray()`). An inconsistent `Paged` read is read again
 * either way. With `keep`, each item is kept as it arrives, so a large collection's items as read
 * die young instead of all living until the last page (the run cache keeps compact copies).
 *
 * @example
 * ```ts
 * import { toArray } from "./collect.ts";
 * console.log(await toArray([1, 2])); // [1, 2]
 * console.log(await toArray([1, 2], (n) => n * 10)); // [10, 20]
 * ```
 */
export async function toArray<T>(source: Source<T>, keep?: (item: T) => T): Promise<T[]> {
  if (keep === undefined && isPaged<T>(source)) return await source.toArray();
  const copy = keep ?? ((item: T) => item);
  return await fold(source, (): T[] => [], (out, item) => {
    out.push(copy(item));
    return out;
  });
}
