/**
 * XLSX column widths sized for what a spreadsheet displays, so no number shows as `####`.
 *
 * A streamed sheet writes its column widths before its first row, so a section's widths are known
 * ahead of its rows: numbers from the section's {@link RenderSection.extents} (the smallest and
 * largest value of each numeric column, computed while the rows were spooled: the widest displayed
 * number is one of the two), formatted with the column's number format; the totals lines from the
 * section's totals (bold, so a little wider); dates, booleans and headers from their fixed texts;
 * text from a bounded sample of rows (90th percentile of lengths, at most {@link TEXT_MAX_WIDTH}
 * characters: longer text is cut or wraps, numbers never are). A section without extents is read
 * once for them.
 *
 * @module
 */

import type { Column, ColumnType } from "../report/model.ts";
import { ExtentAccumulator, type Extents } from "../report/extents.ts";
import type { RenderSection } from "./renderer.ts";
import { isNumericType } from "./format.ts";
import { currencyCode, displayText, type DisplayValue, numberFormat } from "./xlsx_formats.ts";

/**
 * The widest a column gets for text (characters); numbers widen a column up to Excel's 255.
 *
 * @example
 * ```ts
 * import { TEXT_MAX_WIDTH } from "./xlsx_widths.ts";
 * console.log(TEXT_MAX_WIDTH); // 60
 * ```
 */
export const TEXT_MAX_WIDTH = 60;

/** Excel's widest column. */
const EXCEL_MAX_WIDTH = 255;
/** Characters of room beyond the text: the cell's padding and a margin for wider glyphs. */
const PADDING = 2;
/** How much wider bold text is than regular text, at most. */
const BOLD_FACTOR = 1.1;

/** The parts of a cell style that change how wide its text is. */
export interface WidthStyle {
  /** The Excel number format. */
  readonly numFmt?: string;
  /** The font (bold text is wider). */
  readonly font?: { readonly bold?: boolean };
}

/**
 * The width (Excel characters) a column needs to show `text` whole.
 *
 * @example
 * ```ts
 * import { widthOf } from "./xlsx_widths.ts";
 * console.log(widthOf("EUR 123,456,789.12")); // 20
 * console.log(widthOf("EUR 123,456,789.12", true)); // 22
 * ```
 */
export function widthOf(text: string, bold = false): number {
  return Math.ceil(text.length * (bold ? BOLD_FACTOR : 1)) + PADDING;
}

/**
 * Widths of a sheet's columns, widened cell by cell to fit what each cell displays: text up to
 * {@link TEXT_MAX_WIDTH}, numbers, dates and booleans whole.
 *
 * @example
 * ```ts
 * import { ColumnWidths } from "./xlsx_widths.ts";
 * const widths = new ColumnWidths([10, 10]);
 * widths.fit(1, -123456789.12, { numFmt: '"EUR" #,##0.00;-"EUR" #,##0.00', font: { bold: true } });
 * console.log(widths.widths()); // [10, 23]
 * ```
 */
export class ColumnWidths {
  #widths: number[];

  /** @param minimums Each column's width before any cell widens it. */
  constructor(minimums: readonly number[]) {
    this.#widths = [...minimums];
  }

  /** Widens column `index` (0-based) to show `value` under `style`. */
  fit(index: number, value: DisplayValue, style?: WidthStyle): void {
    const text = displayText(value, style?.numFmt);
    if (text === "") return;
    let width = widthOf(text, style?.font?.bold === true);
    const result = value !== null && typeof value === "object" && !(value instanceof Date)
      ? value.result
      : value;
    if (typeof result === "string") width = Math.min(TEXT_MAX_WIDTH, width);
    this.#widen(index, width);
  }

  /** Widens column `index` (0-based) to at least `width`. */
  widen(index: number, width: number): void {
    this.#widen(index, width);
  }

  #widen(index: number, width: number): void {
    const current = this.#widths[index] ?? 0;
    this.#widths[index] = Math.min(EXCEL_MAX_WIDTH, Math.max(current, width));
  }

  /** The widths so far. */
  widths(): number[] {
    return [...this.#widths];
  }
}

/** Default width (characters) of a column type. */
function typeWidth(type: ColumnType): number {
  switch (type) {
    case "date":
      return 12;
    case "datetime":
      return 17;
    case "boolean":
      return 8;
    case "currency":
      return 16;
    case "number":
      return 12;
    case "integer":
      return 10;
    case "percent":
      return 9;
    default:
      return 14;
  }
}

/** A currency code standing for any: every code is three letters, so every one is as wide. */
const ANY_CODE = "WWW";

/** Options of {@link sectionWidths}. */
export interface SectionWidthOptions {
  /** Rows read to size text columns that have no `width` (default 200). */
  readonly sampleRows?: number;
}

/** What one pass over the rows found: text lengths of sampled rows and, when asked, extents. */
interface RowScan {
  readonly lengths: Map<number, number[]>;
  readonly extents: Extents;
}

/** Reads the sample of text lengths, and every row when the section has no extents. */
async function scanRows(section: RenderSection, sampleRows: number): Promise<RowScan> {
  const columns = section.columns;
  const lengths = new Map<number, number[]>();
  columns.forEach((c, i) => {
    if (c.width === undefined && c.type === "text" && sampleRows > 0) lengths.set(i, []);
  });
  const tracker = section.extents || !columns.some((c) => isNumericType(c.type))
    ? undefined
    : new ExtentAccumulator(columns);
  if ((lengths.size === 0 && !tracker) || section.rowCount === 0) {
    return { lengths, extents: section.extents ?? {} };
  }
  let n = 0;
  for await (const row of section.rows()) {
    if (n < sampleRows) {
      for (const [i, list] of lengths) {
        const v = row[columns[i].key];
        if (v !== null && v !== undefined) list.push(String(v).length);
      }
    }
    n++;
    if (tracker) tracker.add(row);
    else if (n >= sampleRows) break;
  }
  return { lengths, extents: section.extents ?? tracker?.result() ?? {} };
}

/** The 90th percentile of a list of lengths (sorted in place), or 0 for none. */
function p90(lengths: number[]): number {
  if (lengths.length === 0) return 0;
  lengths.sort((a, b) => a - b);
  return lengths[Math.min(lengths.length - 1, Math.floor(lengths.length * 0.9))];
}

/** The cells a column's values and totals display, fitted into `widths`. */
function fitValues(
  widths: ColumnWidths,
  index: number,
  column: Column,
  section: RenderSection,
  extents: Extents,
): void {
  const format = numberFormat(column, column.type === "currency" ? ANY_CODE : undefined);
  const extent = extents[column.key];
  if (extent) {
    widths.fit(index, extent.min, { numFmt: format });
    widths.fit(index, extent.max, { numFmt: format });
  }
  if (column.type === "date" || column.type === "datetime") {
    widths.fit(index, new Date(Date.UTC(2000, 11, 31, 23, 59, 59)), { numFmt: format });
  }
  if (column.type === "boolean") widths.fit(index, false);
  if (!(section.totalsSpec?.sum ?? []).includes(column.key)) return;
  for (const [line, values] of Object.entries(section.totals)) {
    const numFmt = numberFormat(column, currencyCode(line));
    widths.fit(index, values[column.key], { numFmt, font: { bold: true } });
  }
}

/**
 * The widths of a section's columns (characters): a column's own `width`, else its type's default
 * and its sampled text (90th-percentile length, at most {@link TEXT_MAX_WIDTH}); at least its
 * header (with room for the filter button); widened to show every number, date and totals figure
 * whole.
 *
 * @example
 * ```ts
 * import { sectionWidths } from "./xlsx_widths.ts";
 * import { memorySection } from "../report/spool.ts";
 * const section = memorySection({
 *   id: "costs",
 *   title: "Costs",
 *   columns: [{ key: "cost", label: "Cost", type: "currency" }],
 *   rows: [{ cost: 123456789.12, currency: "EUR" }],
 *   totals: { sum: ["cost"], perCurrency: "currency" },
 * });
 * console.log(await sectionWidths(section)); // [22]
 * ```
 */
export async function sectionWidths(
  section: RenderSection,
  options: SectionWidthOptions = {},
): Promise<number[]> {
  const columns = section.columns;
  const scan = await scanRows(section, Math.max(0, options.sampleRows ?? 200));
  const widths = new ColumnWidths(columns.map((c) => {
    const header = Math.min(TEXT_MAX_WIDTH, c.label.length + 4); // room for the filter button
    if (c.width !== undefined && c.width > 0) {
      return Math.min(EXCEL_MAX_WIDTH, Math.max(c.width, header));
    }
    const sampled = p90(scan.lengths.get(columns.indexOf(c)) ?? []);
    const text = sampled > 0 ? Math.min(TEXT_MAX_WIDTH, sampled + 2) : 0;
    return Math.max(6, typeWidth(c.type), header, text);
  }));
  columns.forEach((c, i) => fitValues(widths, i, c, section, scan.extents));
  return widths.widths();
}
