/**
 * Rankings: the first `n` items by an order, numbered from 1.
 *
 * @module
 */

import type { Comparator } from "./sort.ts";

/**
 * The `top` first items of `items` in the order of `compare`, each with its `rank` (1-based);
 * all of them when `top` is not given.
 *
 * @example
 * ```ts
 * import { rank } from "./rank.ts";
 * import { desc } from "./sort.ts";
 * console.log(rank([{ a: "x", c: 1 }, { a: "y", c: 9 }], desc((r) => r.c), { top: 1 }));
 * // [{ rank: 1, a: "y", c: 9 }]
 * ```
 */
export function rank<T extends object>(
  items: Iterable<T>,
  compare: Comparator<T>,
  options: { readonly top?: number } = {},
): ({ rank: number } & T)[] {
  const sorted = [...items].sort(compare);
  const kept = options.top === undefined ? sorted : sorted.slice(0, options.top);
  return kept.map((item, i) => ({ rank: i + 1, ...item }));
}
