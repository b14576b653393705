/**
 * How a section's columns sit side by side on a sheet: numbers and dates to the right, yes/no
 * centred, text to the left, and a text column right of a column aligned right indented one
 * step, so a number filling its cell never touches the text beside it ("12Registry list price",
 * "USD 42,709.25USD" read as one word).
 *
 * @module
 */

import type { ColumnType } from "../report/model.ts";
import { isNumericType } from "./format.ts";

/** Where a column's values (and its header) sit in their cells. */
export type ColumnAlignment = "left" | "right" | "center";

/**
 * Characters a column widens by for its indent: Excel and LibreOffice indent a step by about
 * three spaces, a little over one digit's width.
 *
 * @example
 * ```ts
 * import { INDENT_WIDTH } from "./xlsx_align.ts";
 * console.log(INDENT_WIDTH); // 2
 * ```
 */
export const INDENT_WIDTH = 2;

/**
 * A column's alignment by its type: numbers, dates and times right, yes/no centred, else left.
 *
 * @example
 * ```ts
 * import { columnAlignment } from "./xlsx_align.ts";
 * console.log(columnAlignment("currency"), columnAlignment("date")); // right right
 * console.log(columnAlignment("boolean"), columnAlignment("text")); // center left
 * ```
 */
export function columnAlignment(type: ColumnType): ColumnAlignment {
  if (isNumericType(type) || type === "date" || type === "datetime") return "right";
  return type === "boolean" ? "center" : "left";
}

/**
 * Which columns are indented: a column aligned left whose left neighbour is aligned right.
 *
 * @example
 * ```ts
 * import { indentedColumns } from "./xlsx_align.ts";
 * console.log(indentedColumns(["text", "integer", "text", "currency", "boolean", "text"]));
 * // [ false, false, true, false, false, false ]
 * ```
 */
export function indentedColumns(types: readonly ColumnType[]): boolean[] {
  return types.map((type, i) =>
    i > 0 && columnAlignment(type) === "left" && columnAlignment(types[i - 1]) === "right"
  );
}
