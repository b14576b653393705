/**
 * How an HTML or printed table lays out its columns: each column's width and floor in characters,
 * from which the stylesheet (`templates/report.css`) computes widths that always add up to the
 * section's width.
 *
 * Every column asks for its `width` (or a default for its type; a text column no more than its
 * longest line) and has a floor it is never
 * narrower than: the longest word of its header (so no header word is broken: "Application id",
 * never "Applicatio n id"); for numbers, their widest formatted value (numbers never wrap); for
 * dates, their widest formatted text (a date never wraps: "Feb 1, 2025", never "Feb 1," over
 * "2025"); for text, its longest word up to {@link TEXT_WORD_FLOOR} characters (from the
 * section's extents). A text column none of whose values is longer than its longest word (ids,
 * host names, codes) of at most {@link ID_MAX} characters is an id column: its cells never wrap
 * ("LIC00071", never "LIC000 / 71") and its floor is that word. When the asked widths do not
 * fit, each column keeps its floor plus its share of what is left; when they fit, the width to
 * spare goes to the text columns whose lines are longer than their width (in proportion to what
 * each lacks), so long names wrap less while short ones ("—") get none; the table's font shrinks
 * (to a floor of its own) as far as the asked widths need, and further only when the floors alone
 * are wider than the page.
 *
 * @module
 */

import type { Column, ColumnType } from "../report/model.ts";
import { type Extents, numberExtent, textExtent } from "../report/extents.ts";
import { formatValue, isNumericType } from "./format.ts";

/**
 * Column widths (characters) assumed for columns whose definition gives none.
 *
 * @example
 * ```ts
 * import { DEFAULT_COLUMN_WIDTHS } from "./table_layout.ts";
 * console.log(DEFAULT_COLUMN_WIDTHS.currency); // 13
 * ```
 */
export const DEFAULT_COLUMN_WIDTHS: Readonly<Record<ColumnType, number>> = Object.freeze({
  text: 16,
  number: 10,
  integer: 8,
  currency: 13,
  date: 12,
  datetime: 22,
  boolean: 7,
  percent: 8,
});

/**
 * The longest word (characters) a text column's floor keeps whole; longer words break inside.
 *
 * @example
 * ```ts
 * import { TEXT_WORD_FLOOR } from "./table_layout.ts";
 * console.log(TEXT_WORD_FLOOR); // 16
 * ```
 */
export const TEXT_WORD_FLOOR = 16;

/**
 * The longest value (characters) of an id column, whose cells never wrap.
 *
 * @example
 * ```ts
 * import { ID_MAX } from "./table_layout.ts";
 * console.log(ID_MAX); // 24
 * ```
 */
export const ID_MAX = 24;

/** A cell's horizontal padding in characters (the stylesheet pads cells by 0.45em a side). */
const CELL_PADDING_CH = 1.7;

/** How much more of a table's spare width a text column gets than a number column, per ch. */
const TEXT_SHARE = 3;

/**
 * Characters of a header word per ch of the column: header labels are bold at 0.92em, about one
 * "0" wide per letter (wide capitals included).
 */
const HEADER_CH_PER_CHAR = 1;

/** The width of "0" in em of the report fonts (Liberation Sans/Arial 0.556, Helvetica 0.556). */
const CH_PER_EM = 0.56;

/** Room a currency's symbol or code adds to a formatted amount (`CHF 1.00` over `1.00`). */
const CURRENCY_ROOM = 4;

/** A column's part of a table: its label, cell class, width, floor and shares. */
export interface ColView {
  /** The header text. */
  readonly label: string;
  /** The class of its header and cells (`num`, `date`, `bool`, `text`, `text id`). */
  readonly class: string;
  /** The width it asks for, in ch, padding included. */
  readonly w: number;
  /** Its floor, in ch, padding included. */
  readonly f: number;
  /** Its share of the width between the floors and the section's width, when squeezed. */
  readonly k: number;
  /** Its share of spare width, when the asked widths fit. */
  readonly share: number;
}

/**
 * Options of {@link tableLayout}.
 *
 * @example
 * ```ts
 * import { tableLayout, type TableLayoutOptions } from "./table_layout.ts";
 * const printed: TableLayoutOptions = { sectionPercent: "var(--cqi)" };
 * const columns = [{ key: "n", label: "N", type: "integer" as const }];
 * const layout = tableLayout(columns, undefined, "en-US", undefined, printed);
 * console.log(layout.fit); // calc(18.4094 * var(--cqi))
 * ```
 */
export interface TableLayoutOptions {
  /**
   * The length of 1% of the section's width the font sizes are given in (default: `cqi` units
   * of the section's query container). Printed documents pass `var(--cqi)`, which the print
   * stylesheet sets to a fixed length, so Chrome evaluates no query container per cell.
   */
  readonly sectionPercent?: string;
}

/**
 * How a table lays out its columns (custom properties the stylesheet computes widths from).
 *
 * @example
 * ```ts
 * import type { TableLayout } from "./table_layout.ts";
 * const empty: TableLayout = { sum: 0, floors: 0, fit: "100cqi", fitFloors: "100cqi", columns: [] };
 * console.log(empty.columns.length); // 0
 * ```
 */
export interface TableLayout {
  /** The sum of the asked widths, in ch. */
  readonly sum: number;
  /** The sum of the floors, in ch. */
  readonly floors: number;
  /** The font size (in `cqi`, or `sectionPercent`) at which the widths fill the section. */
  readonly fit: string;
  /** The font size (in `cqi`, or `sectionPercent`) at which the floors fill the section. */
  readonly fitFloors: string;
  /** The columns. */
  readonly columns: readonly ColView[];
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * The length of a label's longest unbreakable word (a hyphen or slash ends a word).
 *
 * @example
 * ```ts
 * import { longestWord } from "./table_layout.ts";
 * console.log(longestWord("Application id"), longestWord("Per-core req.")); // 11 4
 * ```
 */
export function longestWord(label: string): number {
  return Math.max(0, ...label.split(/\s+|(?<=[-–—/])/).map((w) => [...w].length));
}

/**
 * Whether a column holds ids: a text column whose every value is one word of at most
 * {@link ID_MAX} characters (by the section's extents).
 *
 * @example
 * ```ts
 * import { isIdColumn } from "./table_layout.ts";
 * const column = { key: "license", label: "License", type: "text" as const };
 * console.log(isIdColumn(column, { license: { longestLine: 8, longestWord: 8 } })); // true
 * console.log(isIdColumn(column, { license: { longestLine: 20, longestWord: 8 } })); // false
 * ```
 */
export function isIdColumn(column: Column, extents: Extents | undefined): boolean {
  if (column.type !== "text") return false;
  const extent = textExtent(extents, column.key);
  return extent !== undefined && extent.longestLine <= extent.longestWord &&
    extent.longestWord <= ID_MAX;
}

/**
 * The CSS class of a column's cells: `num`, `date`, `bool`, `text`, or `text id` for an id
 * column ({@link isIdColumn}).
 *
 * @example
 * ```ts
 * import { columnClass } from "./table_layout.ts";
 * console.log(columnClass({ key: "n", label: "N", type: "integer" })); // num
 * ```
 */
export function columnClass(column: Column, extents?: Extents): string {
  if (isNumericType(column.type)) return "num";
  if (column.type === "date" || column.type === "datetime") return "date";
  if (column.type === "boolean") return "bool";
  return isIdColumn(column, extents) ? "text id" : "text";
}

/** The widest text of a numeric column's values (its smallest and largest, formatted). */
function numberFloor(column: Column, extents: Extents | undefined, locale: string): number {
  const extent = numberExtent(extents, column.key);
  if (!extent) return 0;
  const widest = Math.max(
    ...[extent.min, extent.max].map((v) =>
      formatValue(v, column.type === "currency" ? "number" : column.type, {
        locale,
        decimals: column.decimals ?? (column.type === "currency" ? 2 : undefined),
      }).length
    ),
  );
  return widest + (column.type === "currency" ? CURRENCY_ROOM : 0);
}

/** A date's widest text in `locale` (a two-digit day of the longest month name), so none wraps. */
function dateWidth(type: "date" | "datetime", locale: string): number {
  return Math.max(
    ...Array.from(
      { length: 12 },
      (_, month) =>
        formatValue(new Date(Date.UTC(2026, month, 28, 23, 59)), type, { locale }).length,
    ),
  );
}

/** A column's floor in characters, padding not included. */
function floorOf(column: Column, extents: Extents | undefined, locale: string): number {
  const header = longestWord(column.label) * HEADER_CH_PER_CHAR;
  if (isNumericType(column.type)) return Math.max(header, numberFloor(column, extents, locale));
  if (column.type === "date" || column.type === "datetime") {
    return Math.max(header, dateWidth(column.type, locale));
  }
  if (column.type !== "text") return Math.max(header, column.type === "boolean" ? 3 : 0);
  const word = textExtent(extents, column.key)?.longestWord ?? 0;
  const cap = isIdColumn(column, extents) ? ID_MAX : TEXT_WORD_FLOOR;
  return Math.max(header, Math.min(word, cap));
}

/** The longest text line a column's spare width is given for, in characters. */
const TEXT_LINE_CAP = 60;

/**
 * A text column's longest line in characters (Infinity for other columns and when unknown): a
 * column of short text ("—", a code) asks no more width than it shows.
 */
function textLine(column: Column, extents: Extents | undefined): number {
  if (column.type !== "text") return Infinity;
  const line = textExtent(extents, column.key)?.longestLine;
  // Capitals and wide letters ("DE-VMW-CL01") are wider than the "0" a ch measures.
  return line === undefined ? Infinity : line * WIDE_LETTERS;
}

/** How much wider than "0" text of capitals and wide letters runs, at most. */
const WIDE_LETTERS = 1.25;

/** How much wider (ch) a text column's longest line (up to {@link TEXT_LINE_CAP}) is than `width`. */
function lackOf(column: Column, extents: Extents | undefined, width: number): number {
  if (column.type !== "text") return 0;
  const line = textExtent(extents, column.key)?.longestLine ?? 0;
  return Math.max(0, Math.min(line, TEXT_LINE_CAP) + CELL_PADDING_CH - width);
}

/**
 * The column a table's totals lines put their label in ("Total all currencies (EUR) · 3 rows")
 * and the longest word of those labels, which that column keeps whole.
 *
 * @example
 * ```ts
 * import type { TotalsLabelRoom } from "./table_layout.ts";
 * const room: TotalsLabelRoom = { key: "currency", word: "currencies".length };
 * console.log(room.word); // 10
 * ```
 */
export interface TotalsLabelRoom {
  /** The label column's key. */
  readonly key: string;
  /** The longest word of its totals labels, in characters. */
  readonly word: number;
}

/**
 * The layout of a table of `columns`: each column's asked width (its `width`, else its type's
 * default; at least its floor) and floor, padding included, and the font sizes at which the asked
 * widths and the floors fill the section. With `label`, the column holding the totals lines'
 * labels is never narrower than their longest word ("currencies", never "currenci" over "es").
 * With `options.sectionPercent` the font sizes are given in that length rather than `cqi`.
 *
 * @example
 * ```ts
 * import { tableLayout } from "./table_layout.ts";
 * const layout = tableLayout([
 *   { key: "id", label: "Application id", type: "text", width: 6 },
 *   { key: "n", label: "Installs", type: "integer" },
 * ], { id: { longestLine: 7, longestWord: 7 }, n: { min: 0, max: 12345 } });
 * console.log(layout.columns.map((c) => [c.class, c.f])); // [["text id", 12.7], ["num", 9.7]]
 * ```
 */
export function tableLayout(
  columns: readonly Column[],
  extents?: Extents,
  locale = "en-US",
  label?: TotalsLabelRoom,
  options: TableLayoutOptions = {},
): TableLayout {
  const ofSection = (percent: number) =>
    options.sectionPercent ? `calc(${percent} * ${options.sectionPercent})` : `${percent}cqi`;
  const floors = columns.map((c) =>
    Math.max(floorOf(c, extents, locale), c.key === label?.key ? label.word : 0) +
    CELL_PADDING_CH
  );
  const widths = columns.map((c, i) =>
    Math.max(
      1 + CELL_PADDING_CH,
      Math.min(
        (c.width ?? DEFAULT_COLUMN_WIDTHS[c.type] ?? 12) + CELL_PADDING_CH,
        textLine(c, extents) + CELL_PADDING_CH,
      ),
      floors[i],
    )
  );
  const sum = widths.reduce((a, b) => a + b, 0);
  const floorSum = floors.reduce((a, b) => a + b, 0);
  const classes = columns.map((c) => columnClass(c, extents));
  // Spare width goes first to the text columns whose lines are longer than their width, in
  // proportion to what they lack; else text columns get more of it than others.
  const lacks = columns.map((c, i) => lackOf(c, extents, widths[i]));
  const lackSum = lacks.reduce((a, b) => a + b, 0);
  const weights = lackSum > 0
    ? lacks
    : widths.map((w, i) => (classes[i].startsWith("text") ? w * TEXT_SHARE : w));
  const weightSum = weights.reduce((a, b) => a + b, 0) || 1;
  const slack = sum - floorSum;
  return {
    sum: round4(sum),
    floors: round4(floorSum),
    fit: ofSection(sum > 0 ? round4(100 / (sum * CH_PER_EM)) : 100),
    fitFloors: ofSection(floorSum > 0 ? round4(100 / (floorSum * CH_PER_EM)) : 100),
    columns: columns.map((column, i) => ({
      label: column.label,
      class: classes[i],
      w: round4(widths[i]),
      f: round4(floors[i]),
      k: slack > 0 ? round4((widths[i] - floors[i]) / slack) : 0,
      share: round4(weights[i] / weightSum),
    })),
  };
}
