/**
 * Ranks of values in a sort order, ties sharing a rank: what a spool orders its groups by.
 *
 * @module
 */

/**
 * Each value's rank in `compare` order (the index of the first value equal to it once sorted);
 * values that compare equal share a rank.
 *
 * @example
 * ```ts
 * import { rankBy } from "./rank.ts";
 * console.log([...rankBy(["b", "a", "b", "c"], (x, y) => x.localeCompare(y))]); // [1, 0, 1, 3]
 * ```
 */
export function rankBy<T>(values: readonly T[], compare: (a: T, b: T) => number): Int32Array {
  const order = values.map((_, i) => i).sort((a, b) => compare(values[a], values[b]));
  const out = new Int32Array(values.length);
  for (let k = 1; k < order.length; k++) {
    const same = compare(values[order[k - 1]], values[order[k]]) === 0;
    out[order[k]] = same ? out[order[k - 1]] : k;
  }
  return out;
}
