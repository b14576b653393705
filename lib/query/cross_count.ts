/**
 * Cross-tabulated counts of a stream: how many items fall in each (row, column) pair, with
 * memory per pair (never per item), as a lookup `row → column → count`.
 *
 * @module
 */

import type { Source } from "./collect.ts";
import { groupStream } from "./group_by.ts";
import { count } from "./measures.ts";

/** A row or column value of a cross-tabulation. */
export type CrossKey = string | number;

/**
 * Counts the items of `source` per row and column; items whose row is `null` are skipped. A
 * `Paged` source read inconsistently is read again (as `groupStream` does).
 *
 * @example
 * ```ts
 * import { crossCount } from "./cross_count.ts";
 * const items = [{ pc: "C1", state: "ok" }, { pc: "C1", state: "ok" }, { pc: "C2", state: "bad" }];
 * const counts = await crossCount(items, (i) => i.pc, (i) => i.state);
 * console.log(counts.get("C1")?.get("ok"), counts.get("C2")?.get("ok")); // 2 undefined
 * ```
 */
export async function crossCount<T, R extends CrossKey, C extends CrossKey>(
  source: Source<T>,
  row: (item: T) => R | null,
  column: (item: T) => C,
): Promise<Map<R, Map<C, number>>> {
  const cells = await groupStream(source, (item) => {
    const r = row(item);
    return { row: r, column: r === null ? null : column(item) };
  }, { n: count() });
  const out = new Map<R, Map<C, number>>();
  for (const cell of cells) {
    if (cell.row === null) continue;
    const line = out.get(cell.row) ?? out.set(cell.row, new Map()).get(cell.row)!;
    line.set(cell.column as C, cell.n);
  }
  return out;
}
