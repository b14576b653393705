/**
 * XLSX column widths sized for what a spreadsheet displays, so no number shows as `####`.
 *
 * A streamed sheet writes its column widths before its first row, so a section's widths are known
 * ahead of its rows, from the section's {@link RenderSection.extents} (computed while the rows were
 * spooled; a section without them is read once for them): numbers from the smallest and largest
 * value of each numeric column (the widest displayed number is one of the two), formatted with the
 * column's number format; the totals lines from the section's totals (bold, so a little wider);
 * dates, booleans and headers from their fixed texts; text from its longest line, up to
 * {@link TEXT_MAX_WIDTH} characters. A text column whose longest line is wider wraps
 * ({@link SectionColumns.wrap}): its cells wrap and their rows are as high as their lines
 * (`./xlsx_wrap.ts`), so no text is cut where the next cell holds something.
 *
 * @module
 */

import type { Column, ColumnType } from "../report/model.ts";
import { ExtentAccumulator, type Extents, numberExtent, textExtent } from "../report/extents.ts";
import type { RenderSection } from "./renderer.ts";
import { totalsLineLabel } from "./xlsx_totals.ts";
import { rowsWithoutValue } from "../report/totals.ts";
import { isNumericType } from "./format.ts";
import { currencyCode, displayText, type DisplayValue, numberFormat } from "./xlsx_formats.ts";
import { INDENT_WIDTH, indentedColumns } from "./xlsx_align.ts";
import { wrappedLines } from "./xlsx_wrap.ts";

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

/** Lines a header wraps to (between words) before it widens its column further. */
const HEADER_LINES = 2;
/** Characters of a header cell kept for its filter button. */
const FILTER_BUTTON = 2;
/** Characters a header must save by wrapping: one saving less stays on one line. */
const WRAP_SAVING = 6;

/**
 * The width (characters) a header needs: its longest word whole beside the filter button and the
 * whole label in at most {@link HEADER_LINES} lines, up to {@link TEXT_MAX_WIDTH}; on one line
 * when wrapping would save less than {@link WRAP_SAVING} characters. A long header over short values wraps
 * rather than widens its column ("Of which no cost summary (not incl.)" over one-digit counts
 * takes 23 characters in two lines, not 40 in one).
 *
 * @example
 * ```ts
 * import { headerWidth } from "./xlsx_widths.ts";
 * console.log(headerWidth("Currency"), headerWidth("Days left")); // 12 13
 * console.log(headerWidth("Shortfall cost (unit price × shortfall)")); // 24
 * ```
 */
export function headerWidth(label: string): number {
  const oneLine = Math.min(TEXT_MAX_WIDTH, widthOf(label) + FILTER_BUTTON);
  const longest = Math.max(0, ...label.split(/\s+/).map((word) => word.length));
  let width = Math.min(TEXT_MAX_WIDTH, widthOf("x".repeat(longest)) + FILTER_BUTTON);
  // Lines as wrappedLines counts them in the room left beside the filter button.
  while (width < oneLine && wrappedLines(label, width - FILTER_BUTTON) > HEADER_LINES) width++;
  return oneLine - width < WRAP_SAVING ? oneLine : width;
}

/** A currency code standing for any: every code is three letters, so every one is as wide. */
const ANY_CODE = "WWW";

/** The section's extents: its own, else read from its rows once. */
async function extentsOf(section: RenderSection): Promise<Extents> {
  const columns = section.columns;
  const measured = columns.some((c) => isNumericType(c.type) || c.type === "text");
  if (section.extents || !measured || section.rowCount === 0) return section.extents ?? {};
  const tracker = new ExtentAccumulator(columns);
  for await (const row of section.rows()) tracker.add(row);
  return tracker.result();
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
  const extent = numberExtent(extents, column.key);
  if (extent) {
    widths.fit(index, extent.min, { numFmt: format });
    widths.fit(index, extent.max, { numFmt: format });
  }
  if (column.type === "date" || column.type === "datetime") {
    widths.fit(index, new Date(Date.UTC(2000, 11, 31, 23, 59, 59)), { numFmt: format });
  }
  if (column.type === "boolean") widths.fit(index, "Yes");
  if (!(section.totalsSpec?.sum ?? []).includes(column.key)) return;
  for (const [line, values] of Object.entries(section.totals)) {
    // A line's amounts may show a code even where the label names none: room for one.
    const code = currencyCode(line) ?? (column.type === "currency" ? ANY_CODE : undefined);
    const numFmt = numberFormat(column, code);
    widths.fit(index, values[column.key], { numFmt, font: { bold: true } });
  }
}

/** The totals lines' labels (bold) in the first column the totals do not sum, which holds them. */
function fitTotalsLabels(widths: ColumnWidths, section: RenderSection): void {
  const sums = section.totalsSpec?.sum ?? [];
  const index = section.columns.findIndex((c) => !sums.includes(c.key));
  if (!section.totalsSpec || index < 0) return;
  for (const [line, values] of Object.entries(section.totals)) {
    widths.fit(index, totalsLineLabel(line, values.rows, undefined, rowsWithoutValue(values)), {
      font: { bold: true },
    });
  }
}

/**
 * How a section's columns are laid out on its sheet.
 *
 * @example
 * ```ts
 * import type { SectionColumns } from "./xlsx_widths.ts";
 * const layout: SectionColumns = {
 *   widths: [30, 12],
 *   wrap: [false, false],
 *   indent: [false, false],
 * };
 * console.log(layout.widths.length); // 2
 * ```
 */
export interface SectionColumns {
  /** Each column's width (characters). */
  readonly widths: readonly number[];
  /** Whether a column's cells wrap: a text column whose longest line is wider than the column. */
  readonly wrap: readonly boolean[];
  /**
   * Whether a column's cells and header are indented a step: a text column right of one aligned
   * right (its width has room for the indent).
   */
  readonly indent: readonly boolean[];
}

/**
 * The widths of a section's columns (characters) and which of them wrap: a column is at least its
 * type's default, its own `width` and its header ({@link headerWidth}: two lines at most, room for
 * the filter button); a text column as wide as its longest line (up to {@link TEXT_MAX_WIDTH},
 * wrapping beyond); widened to show every number, date and totals figure whole; a text column
 * right of a column aligned right is indented, and wider by {@link INDENT_WIDTH}.
 *
 * @example
 * ```ts
 * import { sectionColumns } from "./xlsx_widths.ts";
 * import { memorySection } from "../report/spool.ts";
 * const section = memorySection({
 *   id: "apps",
 *   title: "Apps",
 *   columns: [{ key: "name", label: "Application", type: "text", width: 10 }],
 *   rows: [{ name: "Microsoft Office Professional Plus 2021" }, { name: "x".repeat(90) }],
 * });
 * console.log(await sectionColumns(section)); // { widths: [ 60 ], wrap: [ true ], indent: [ false ] }
 * ```
 */
export async function sectionColumns(section: RenderSection): Promise<SectionColumns> {
  const columns = section.columns;
  const extents = await extentsOf(section);
  const longest = columns.map((c) =>
    c.type === "text" ? textExtent(extents, c.key)?.longestLine ?? 0 : 0
  );
  const widths = new ColumnWidths(columns.map((c, i) => {
    const header = headerWidth(c.label);
    const own = c.width !== undefined && c.width > 0 ? Math.min(EXCEL_MAX_WIDTH, c.width) : 0;
    const text = longest[i] > 0 ? Math.min(TEXT_MAX_WIDTH, widthOf("x".repeat(longest[i]))) : 0;
    return Math.max(6, own || typeWidth(c.type), header, text);
  }));
  columns.forEach((c, i) => fitValues(widths, i, c, section, extents));
  fitTotalsLabels(widths, section);
  const indent = indentedColumns(columns.map((c) => c.type));
  const result = widths.widths();
  const wrap = columns.map((_, i) => longest[i] > 0 && widthOf("x".repeat(longest[i])) > result[i]);
  // The indent takes room from the text: an indented column is wider by it.
  return { widths: result.map((w, i) => indent[i] ? w + INDENT_WIDTH : w), wrap, indent };
}

/**
 * The widths of a section's columns (characters): {@link sectionColumns}' widths.
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
export async function sectionWidths(section: RenderSection): Promise<number[]> {
  return [...(await sectionColumns(section)).widths];
}
