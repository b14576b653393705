/**
 * What every chart needs besides its spec and rows: a document-unique id, the locale, the
 * section's columns (to format labels and values as the table does), the report's time ("now")
 * and how many rows the section has (to say "first N of M"). Plus reading a row's label and number.
 *
 * @module
 */

import type { CellValue, Column, Row } from "../../report/model.ts";
import { formatCell, formatNumber, formatValue } from "../format.ts";

/** The setting a chart is drawn in. */
export interface ChartContext {
  /** A document-unique id (the section's anchor): the SVG's `<title>`/`<desc>` ids derive from it. */
  readonly id: string;
  /** Number and date locale. */
  readonly locale: string;
  /** The section's columns (labels and values are formatted as in the table). */
  readonly columns: readonly Column[];
  /** The report's generation time: the timeline's "now". */
  readonly now: Date;
  /** How many rows the section has (the rows passed may be fewer: the chart says so). */
  readonly total: number;
}

/**
 * The text of a row's `key` as the table shows it (`(blank)` when empty).
 *
 * @example
 * ```ts
 * import { labelOf } from "./context.ts";
 * const ctx = { id: "c", locale: "en-US", columns: [], now: new Date(0), total: 1 };
 * console.log(labelOf({ app: "Visio" }, "app", ctx), labelOf({}, "app", ctx)); // "Visio" "(blank)"
 * ```
 */
export function labelOf(row: Row, key: string, ctx: ChartContext): string {
  const column = ctx.columns.find((c) => c.key === key);
  const text = column
    ? formatCell(row, column, { locale: ctx.locale })
    : formatValue(row[key] ?? null, row[key] instanceof Date ? "date" : "text", {
      locale: ctx.locale,
    });
  return text.trim() === "" ? "(blank)" : text;
}

/**
 * A row's `key` as a finite number (anything else is `undefined`).
 *
 * @example
 * ```ts
 * import { numberOf } from "./context.ts";
 * console.log(numberOf({ n: 3 }, "n"), numberOf({ n: "3" }, "n")); // 3 undefined
 * ```
 */
export function numberOf(row: Row, key: string): number | undefined {
  const value: CellValue | undefined = row[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * A number formatted as the column `key` formats it (currency with the row's code), or plainly.
 *
 * @example
 * ```ts
 * import { valueText } from "./context.ts";
 * const ctx = { id: "c", locale: "en-US", columns: [], now: new Date(0), total: 1 };
 * console.log(valueText({}, "n", 1234.5, ctx)); // "1,234.50"
 * ```
 */
export function valueText(row: Row, key: string, value: number, ctx: ChartContext): string {
  const column = ctx.columns.find((c) => c.key === key);
  if (column) return formatCell({ ...row, [key]: value }, column, { locale: ctx.locale });
  return formatNumber(value, { locale: ctx.locale, decimals: Number.isInteger(value) ? 0 : 2 });
}

/**
 * "First 15 of 200 rows." when a chart shows fewer items than there are, else "".
 *
 * @example
 * ```ts
 * import { cutNote } from "./context.ts";
 * console.log(cutNote("First", 15, 200, "rows", "en-US")); // "First 15 of 200 rows."
 * ```
 */
export function cutNote(
  which: "First" | "Latest",
  shown: number,
  total: number,
  noun: string,
  locale: string,
): string {
  if (shown >= total) return "";
  const n = (v: number) => formatNumber(v, { locale, decimals: 0 });
  return `${which} ${n(shown)} of ${n(total)} ${noun}.`;
}
