/**
 * Reading a large collection for the few items a report keeps: each item is mapped as it
 * passes and only what the mapping returns is kept, so memory holds the kept items only.
 *
 * @module
 */

import { groupReduce, type Source } from "./collect.ts";

/**
 * The non-null results of `pick` over a source, in source order. A `Paged` source read
 * inconsistently is read again from the start (as `groupReduce` does), the result started afresh.
 *
 * @example
 * ```ts
 * import { filterMap } from "./filter_map.ts";
 * const odd = await filterMap([1, 2, 3], (n) => (n % 2 ? { n } : null));
 * console.log(odd); // [{ n: 1 }, { n: 3 }]
 * ```
 */
export async function filterMap<T, R>(
  source: Source<T>,
  pick: (item: T) => R | null | undefined,
): Promise<R[]> {
  const kept = await groupReduce(source, () => 0, (): R[] => [], (out, item) => {
    const result = pick(item);
    if (result !== null && result !== undefined) out.push(result);
    return out;
  });
  return kept.get(0) ?? [];
}
