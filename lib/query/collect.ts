/**
 * Collection helpers for data functions: index by key, join, group and aggregate, top-N. They
 * read async iterables once and keep only what they return.
 *
 * @module
 */

/** Anything that yields items. */
export type Source<T> = AsyncIterable<T> | Iterable<T>;

/**
 * Reads a source into a map keyed by `key(item)` (last one wins).
 *
 * @example
 * ```ts
 * import { indexBy } from "./collect.ts";
 * const byId = await indexBy([{ id: "a", n: 1 }], (x) => x.id);
 * console.log(byId.get("a")?.n); // 1
 * ```
 */
export async function indexBy<T, K>(source: Source<T>, key: (item: T) => K): Promise<Map<K, T>> {
  const map = new Map<K, T>();
  for await (const item of source) map.set(key(item), item);
  return map;
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
  const groups = new Map<K, A>();
  for await (const item of source) {
    const k = key(item);
    groups.set(k, reduce(groups.has(k) ? groups.get(k)! : init(), item));
  }
  return groups;
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
  const best: T[] = [];
  for await (const item of source) {
    best.push(item);
    if (best.length > n * 4) {
      best.sort((a, b) => score(b) - score(a));
      best.length = n;
    }
  }
  return best.sort((a, b) => score(b) - score(a)).slice(0, n);
}

/**
 * Reads a source into an array (for small collections such as the registry or states).
 *
 * @example
 * ```ts
 * import { toArray } from "./collect.ts";
 * console.log(await toArray([1, 2])); // [1, 2]
 * ```
 */
export async function toArray<T>(source: Source<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}
