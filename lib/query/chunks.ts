/**
 * Batches: an array cut into consecutive slices, for reads made a batch of items at a time
 * (an `-in` filter per batch) so that memory holds one batch.
 *
 * @module
 */

/**
 * Consecutive slices of `items` of `size` items (the last one shorter).
 *
 * @example
 * ```ts
 * import { chunks } from "./chunks.ts";
 * console.log([...chunks([1, 2, 3, 4, 5], 2)]); // [[1, 2], [3, 4], [5]]
 * ```
 */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  if (!(size >= 1)) throw new RangeError(`chunk size must be at least 1, got ${size}`);
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
