/**
 * The XLSX renderer: one workbook per report, written with exceljs' streaming
 * `WorkbookWriter` so memory stays flat however many rows a section has.
 *
 * Layout:
 * - a **Summary** sheet first: title, description, generated-at, source, samkit version,
 *   parameters, key figures, the list of sections (with the sheets that hold them) and the totals
 *   of every section, one line per currency;
 * - one sheet per section, named readably within Excel's 31 characters (`./xlsx_sheet_names.ts`):
 *   a bold, filled header row with an autofilter, frozen with the first column when that column
 *   names the row, typed cells (numbers, integers, real Excel dates in UTC, booleans, currency
 *   amounts with a number format naming the row's own ISO 4217 code, percentages) and a totals
 *   block under the table whose sums are formulas that follow filters (`SUBTOTAL(9, …)`, per
 *   currency a filter-aware `SUMPRODUCT`; `./xlsx_totals.ts`), each with the renderer's own sum as
 *   its cached result, in the line's currency format;
 * - a section longer than a sheet can hold continues on `<name> (2)`, `<name> (3)`, … (the limit
 *   is Excel's 1,048,576 rows unless {@link XlsxRendererOptions.maxRowsPerSheet} says otherwise);
 *   its totals, on the last sheet, sum the rows of every sheet.
 *
 * Text is display text, as in HTML and PDF: bidirectional and other invisible controls from the
 * API are shown as visible escapes (`<U+202E>`), so a name cannot display reversed.
 *
 * With a theme (`./xlsx_theme.ts`): its header colours, its company as the creator and company
 * property and above the Summary's title, its footer text centred on a line of its own in every
 * page footer (whole, as far as Excel's 255 characters of footer allow).
 *
 * Grouping ({@link RenderSection.group}) and charts are not drawn in XLSX: a flat, filterable
 * table is what a spreadsheet user wants, and group subtotal rows inside it would be filtered
 * with the data; the totals formulas give any filtered group's sum instead.
 *
 * @module
 */

import { filterStatement } from "../report/scope.ts";
import { DEMO_DATA, demoTitle, isDemoSource } from "../report/demo_source.ts";
import { scopeLine } from "./scope_line.ts";
import ExcelJS from "exceljs";
import { join } from "node:path";
import { atomicFile } from "./atomic.ts";
import type { RenderDocument, Renderer, RenderOptions, RenderSection } from "./renderer.ts";
import { DEFAULT_EMPTY_TEXT } from "./renderer.ts";
import { currencyKeyOf, formatBoolean, readableJson, visibleText } from "./format.ts";
import { sheetRowSink, zipEntryBacklog } from "./xlsx_rows.ts";
import { sheetName } from "./xlsx_sheet_names.ts";
import { type DataBlock, totalsFormula, totalsLineLabel } from "./xlsx_totals.ts";
import { shownTotal } from "./totals_cells.ts";
import { labelledValue } from "./scope_line.ts";
import { isAllCurrenciesLine, rowsWithoutValue } from "../report/totals.ts";
import {
  currencyCode,
  DATETIME_FMT,
  displayText,
  type DisplayValue,
  numberFormat,
  styleKey,
} from "./xlsx_formats.ts";
import { ColumnWidths, sectionColumns, widthOf } from "./xlsx_widths.ts";
import { columnAlignment, INDENT_WIDTH } from "./xlsx_align.ts";
import { LINE_HEIGHT, rowHeight, wrappedLines } from "./xlsx_wrap.ts";
import { compileRowFormula } from "./xlsx_row_formulas.ts";
import { SyncFileStream } from "./sync_file_stream.ts";
import type { Theme } from "./theme.ts";
import { setWorkbookCompany, type XlsxPalette, xlsxPalette } from "./xlsx_theme.ts";
import type { CellValue, Column, ColumnType, Fact, Row } from "../report/model.ts";

export { sheetName } from "./xlsx_sheet_names.ts";
export { numberFormat } from "./xlsx_formats.ts";

/**
 * Excel's hard limit of rows per worksheet.
 *
 * @example
 * ```ts
 * import { EXCEL_MAX_ROWS } from "./xlsx.ts";
 * console.log(EXCEL_MAX_ROWS); // 1048576
 * ```
 */
export const EXCEL_MAX_ROWS = 1_048_576;

/** Excel's limit of characters in one cell. */
const EXCEL_MAX_CELL_CHARS = 32_767;

/**
 * Options of the XLSX renderer.
 *
 * @example
 * ```ts
 * import { XlsxRenderer } from "./xlsx.ts";
 * // Ten data rows per sheet (a header row plus ten), e.g. to see continuation sheets:
 * const renderer = new XlsxRenderer({ maxRowsPerSheet: 11 });
 * console.log(renderer.format); // xlsx
 * ```
 */
export interface XlsxRendererOptions {
  /**
   * Rows per worksheet, header and totals included (default {@link EXCEL_MAX_ROWS}). A section
   * with more rows continues on further sheets named `<name> (2)`, `<name> (3)`, …
   */
  readonly maxRowsPerSheet?: number;
  /**
   * How data rows are written: `"direct"` (default) as XML straight to the sheet's stream, the
   * same bytes exceljs writes at a fraction of its CPU; `"exceljs"` through exceljs' `Row` and
   * `Cell` objects (the fallback the direct writer takes itself on an exceljs it does not know).
   */
  readonly rowWriter?: "direct" | "exceljs";
}

/**
 * Thrown for renderer options that cannot work.
 *
 * @example
 * ```ts
 * import { XlsxOptionsError, XlsxRenderer } from "./xlsx.ts";
 * try {
 *   new XlsxRenderer({ maxRowsPerSheet: 2_000_000 });
 * } catch (error) {
 *   console.log(error instanceof XlsxOptionsError); // true
 * }
 * ```
 */
export class XlsxOptionsError extends Error {
  /** @param message What is wrong. */
  constructor(message: string) {
    super(message);
    this.name = "XlsxOptionsError";
  }
}

// deno-lint-ignore no-explicit-any
type Style = any;
type Worksheet = ExcelJS.Worksheet;

const TOTAL_FILL = "FFE7ECF5";
const WARN_FILL = "FFFFF2CC";
const BAD_FILL = "FFF8D7DA";
const BAD_FONT = "FF9C0006";
const MUTED_FONT = "FF595959";

/** Characters XML 1.0 cannot carry (exceljs would write a corrupt sheet). */
// deno-lint-ignore no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * Cleans a string for a cell: invisible controls shown as visible escapes (`<U+202E>`, as HTML
 * and PDF show them: {@link visibleText}), no XML-invalid characters, at most Excel's 32,767
 * characters.
 */
function cleanText(text: string): string {
  const shown = visibleText(text);
  const clean = XML_INVALID.test(shown) ? shown.replace(XML_INVALID, "") : shown;
  XML_INVALID.lastIndex = 0;
  return clean.length > EXCEL_MAX_CELL_CHARS
    ? clean.slice(0, EXCEL_MAX_CELL_CHARS - 1) + "…"
    : clean;
}

/** The cell value of a row value under a column type. */
function cellValue(type: ColumnType, value: CellValue | undefined): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "number":
    case "integer":
    case "currency":
    case "percent":
      if (typeof value === "number") return Number.isFinite(value) ? value : null;
      break;
    case "date":
    case "datetime":
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
      if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
        const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
        if (!Number.isNaN(d.getTime())) return d;
      }
      break;
    case "boolean":
      if (typeof value === "boolean") return formatBoolean(value);
      break;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  // Yes or No in every sheet, as HTML, PDF and CSV show them (a spreadsheet's own booleans show
  // as TRUE/FALSE in one program and 1/0 in another).
  if (typeof value === "boolean") return formatBoolean(value);
  return cleanText(String(value));
}

/** Builds (and caches by identity, so exceljs registers each style once) cell styles. */
class StyleBook {
  #cache = new Map<string, Style>();
  /** The workbook's colours (samkit's, or a theme's). */
  readonly palette: XlsxPalette;

  constructor(palette: XlsxPalette) {
    this.palette = palette;
  }

  get(key: string, make: () => Style): Style {
    let style = this.#cache.get(key);
    if (!style) {
      style = Object.freeze(make());
      this.#cache.set(key, style);
    }
    return style;
  }

  /** The header cell of a column of `type`: aligned (and indented) as the column's values are. */
  header(type: ColumnType = "text", indent = false): Style {
    const horizontal = columnAlignment(type);
    return this.get(`header:${horizontal}${indent ? "|indent" : ""}`, () => ({
      font: { bold: true, color: { argb: this.palette.headerFont } },
      fill: { type: "pattern", pattern: "solid", fgColor: { argb: this.palette.headerFill } },
      alignment: {
        vertical: "bottom",
        wrapText: true,
        horizontal,
        ...(indent ? { indent: 1 } : {}),
      },
      // A white rule between header cells: a header wrapped to fill its cell does not run into
      // the next one ("Shortfall cost (unit price ×" beside "Surplus value (unit price").
      border: {
        bottom: { style: "thin", color: { argb: "FF000000" } },
        right: { style: "thin", color: { argb: "FFFFFFFF" } },
      },
    }));
  }

  /**
   * The style of a data or totals cell; with `layout`, its text wraps (`wrap`) and its value sits
   * at the top of a row made higher by another cell's wrapped text (`top`).
   */
  cell(
    column: Pick<Column, "type" | "decimals">,
    code: string | undefined,
    emphasis: "warn" | "bad" | undefined,
    total = false,
    layout: CellLayout = NO_LAYOUT,
  ): Style {
    const key = styleKey(column, code, emphasis, total) + layoutKey(layout);
    return this.get(key, () => {
      const style: Style = {};
      const numFmt = numberFormat(column, code);
      if (numFmt) style.numFmt = numFmt;
      if (column.type === "boolean") style.alignment = { horizontal: "center" };
      if (layout.indent) style.alignment = { horizontal: "left", indent: 1 };
      if (layout.top) style.alignment = { ...style.alignment, vertical: "top" };
      if (layout.wrap) style.alignment = { ...style.alignment, wrapText: true };
      if (total) {
        style.font = { bold: true };
        style.fill = { type: "pattern", pattern: "solid", fgColor: { argb: TOTAL_FILL } };
        style.border = { top: { style: "thin", color: { argb: "FF000000" } } };
      } else if (emphasis === "bad") {
        style.font = { color: { argb: BAD_FONT } };
        style.fill = { type: "pattern", pattern: "solid", fgColor: { argb: BAD_FILL } };
      } else if (emphasis === "warn") {
        style.fill = { type: "pattern", pattern: "solid", fgColor: { argb: WARN_FILL } };
      }
      return style;
    });
  }

  plain(name: string, make: () => Style): Style {
    return this.get(`plain:${name}`, make);
  }

  #variants = new WeakMap<Style, Map<string, Style>>();

  /** A variant of `style` named `name`, made once per style and name. */
  variant(style: Style, name: string, make: () => Style): Style {
    let byName = this.#variants.get(style);
    if (!byName) this.#variants.set(style, byName = new Map());
    let variant = byName.get(name);
    if (!variant) byName.set(name, variant = Object.freeze(make()));
    return variant;
  }
}

const EMPHASES = [undefined, "warn", "bad"] as const;

/** How a cell sits in a row that wrapped text makes higher. */
interface CellLayout {
  /** The cell's text wraps. */
  readonly wrap?: boolean;
  /** The cell's value sits at the top of its row. */
  readonly top?: boolean;
  /** The cell's text is indented a step from the left (its left neighbour is aligned right). */
  readonly indent?: boolean;
}

const NO_LAYOUT: CellLayout = {};

/** The part of a style's key its layout adds ("" for none, so other keys are unchanged). */
function layoutKey(layout: CellLayout): string {
  return (layout.top ? "|top" : "") + (layout.wrap ? "|wrap" : "") +
    (layout.indent ? "|indent" : "");
}

/**
 * How one section column is written: its style objects resolved once (number format included)
 * and shared by every cell, looked up per row only by the row's currency value and emphasis.
 */
class ColumnPlan {
  readonly column: Column;
  readonly key: string;
  readonly type: ColumnType;
  #currencyKey: string | undefined;
  #emphasis: Column["emphasis"];
  #styles: StyleBook;
  /** The one style of every cell, when it depends on neither currency nor emphasis. */
  #fixed: Style | undefined;
  /** Per emphasis (none, warn, bad): the style per raw currency value of the row. */
  #byCurrency = [new Map<unknown, Style>(), new Map<unknown, Style>(), new Map<unknown, Style>()];

  #layout: CellLayout;

  constructor(column: Column, styles: StyleBook, layout: CellLayout = NO_LAYOUT) {
    this.column = column;
    this.key = column.key;
    this.type = column.type;
    this.#currencyKey = column.type === "currency" ? currencyKeyOf(column) : undefined;
    this.#emphasis = column.emphasis;
    this.#styles = styles;
    this.#layout = layout;
    if (this.#currencyKey === undefined && !this.#emphasis) {
      this.#fixed = styles.cell(column, undefined, undefined, false, layout);
    }
  }

  /** The style of this column's cell in `row`. */
  styleOf(row: Row): Style {
    if (this.#fixed) return this.#fixed;
    const emphasis = this.#emphasis ? safeEmphasis(this.#emphasis, row) : undefined;
    const index = emphasis === "bad" ? 2 : emphasis === "warn" ? 1 : 0;
    const raw = this.#currencyKey === undefined ? undefined : row[this.#currencyKey];
    const cache = this.#byCurrency[index];
    let style = cache.get(raw);
    if (style === undefined) {
      style = this.#styles.cell(
        this.column,
        currencyCode(raw),
        EMPHASES[index],
        false,
        this.#layout,
      );
      cache.set(raw, style);
    }
    return style;
  }
}

/**
 * Writes a report as an `.xlsx` workbook (`<report-id>.xlsx`).
 *
 * @example
 * ```ts
 * import { XlsxRenderer } from "./xlsx.ts";
 * import { memorySection } from "../report/spool.ts";
 * const renderer = new XlsxRenderer();
 * const [path] = await renderer.render({
 *   report: { id: "hello", title: "Hello", description: "One row." },
 *   generatedAt: new Date(),
 *   source: "example",
 *   params: {},
 *   summary: [],
 *   sections: [
 *     memorySection({
 *       id: "main",
 *       title: "Main",
 *       columns: [{ key: "n", label: "N", type: "integer" }],
 *       rows: [{ n: 1 }],
 *     }),
 *   ],
 *   version: "0.1.0",
 * }, { outDir: "/tmp" });
 * console.log(path); // /tmp/hello.xlsx
 * ```
 */
export class XlsxRenderer implements Renderer {
  /** The format this renderer writes. */
  readonly format = "xlsx" as const;
  #maxRows: number;
  #direct: boolean;

  /** @param options Sheet limits; defaults suit Excel. */
  constructor(options: XlsxRendererOptions = {}) {
    const max = options.maxRowsPerSheet ?? EXCEL_MAX_ROWS;
    if (!Number.isInteger(max) || max < 2 || max > EXCEL_MAX_ROWS) {
      throw new XlsxOptionsError(
        `maxRowsPerSheet must be an integer from 2 to ${EXCEL_MAX_ROWS}, got ${max}`,
      );
    }
    this.#maxRows = max;
    this.#direct = options.rowWriter !== "exceljs";
  }

  /** Writes `<outDir>/<report-id>.xlsx` (temp file, then rename) and returns its path. */
  async render(doc: RenderDocument, options: RenderOptions): Promise<string[]> {
    options.signal?.throwIfAborted();
    const file = atomicFile(join(options.outDir, `${doc.report.id}.xlsx`));
    const output = new SyncFileStream(file.path);
    // A write error is kept (and thrown between rows); listening keeps it from being uncaught, and
    // the race below keeps a commit from waiting for a `finish` that will never come.
    const failed = new Promise<never>((_, reject) => output.on("error", reject));
    failed.catch(() => {});
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
    });
    const theme = options.theme;
    workbook.creator = theme?.company ?? "samkit";
    if (theme?.company) setWorkbookCompany(workbook, theme.company);
    workbook.lastModifiedBy = `samkit ${doc.version}`;
    workbook.created = doc.generatedAt;
    workbook.modified = doc.generatedAt;
    // An embedded run's workbook says "demo data" in its title, subject and keywords.
    const demo = isDemoSource(doc.source);
    workbook.title = demoTitle(doc.report.title, doc.source);
    workbook.subject = demo
      ? `${DEMO_DATA}: ${doc.report.description ?? ""}`
      : doc.report.description;
    workbook.description = [doc.report.description, `Source: ${doc.source}`].filter((t) => t)
      .join("\n");
    workbook.keywords = `samkit ${doc.report.id}${demo ? ` ${DEMO_DATA}` : ""}`;
    try {
      const styles = new StyleBook(xlsxPalette(theme));
      const taken = new Set<string>();
      const summaryName = sheetName("Summary", taken);
      // Sheet names of every section are planned up front so the summary can list them.
      const plans = doc.sections.map((section) => {
        const dataPerSheet = this.#maxRows - 1;
        const sheets = Math.max(1, Math.ceil(section.rowCount / dataPerSheet));
        const base = sheetName(section.title || section.id, taken, "", section.id);
        const names = [base];
        for (let i = 2; i <= sheets; i++) names.push(sheetName(base, taken, ` (${i})`));
        return { section, names };
      });
      this.#writeSummary(workbook, summaryName, doc, plans, styles, theme);
      for (const plan of plans) {
        await this.#writeSection(workbook, doc, plan.section, plan.names, taken, styles, {
          ...options,
          output,
        });
      }
      await Promise.race([workbook.commit(), failed]);
      return [await file.commit()];
    } catch (error) {
      await discard(workbook);
      await file.abort();
      throw error;
    }
  }

  #writeSummary(
    workbook: ExcelJS.stream.xlsx.WorkbookWriter,
    name: string,
    doc: RenderDocument,
    plans: readonly { section: RenderSection; names: string[] }[],
    styles: StyleBook,
    theme: Theme | undefined,
  ): void {
    const ws = workbook.addWorksheet(name, {
      views: [{ showGridLines: false }],
      pageSetup: { orientation: "portrait", fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
      headerFooter: {
        oddFooter: pageFooter(
          footerText(`${demoTitle(doc.report.title, doc.source)} · ${scopeLine(doc)}`, 120),
          theme,
        ),
      },
    });
    const lines = [...companyLines(theme, styles), ...summaryLines(doc, plans, styles)];
    // The sheet's column widths are written with its first row: every line is known first.
    const widths = summaryWidths(lines);
    ws.columns = widths.map((width, i) => ({ key: `c${i}`, width }));
    for (const line of lines) {
      const row = ws.addRow(line.values);
      const fitted = fittedSummaryLine(line, widths, styles);
      fitted.styles.forEach((style, i) => {
        if (style) row.getCell(i + 1).style = style;
      });
      // A merged cell does not grow by itself: the row is as high as the text wrapped over A:D.
      if (line.merge) ws.mergeCells(row.number, 1, row.number, 4);
      if (fitted.height) row.height = fitted.height;
      row.commit();
    }
    ws.commit();
  }

  async #writeSection(
    workbook: ExcelJS.stream.xlsx.WorkbookWriter,
    doc: RenderDocument,
    section: RenderSection,
    names: string[],
    taken: Set<string>,
    styles: StyleBook,
    options: RenderOptions & { output: SyncFileStream },
  ): Promise<void> {
    const { widths, wrap, indent } = await sectionColumns(section);
    // The room a cell's text has: its column, less its indent.
    const room = widths.map((w, i) => indent[i] ? w - INDENT_WIDTH : w);
    // A sheet with wrapping text has rows of several lines: every value sits at their top.
    const top = wrap.some((w) => w);
    const plan = section.columns.map((column, i) =>
      new ColumnPlan(column, styles, { wrap: wrap[i], top, indent: indent[i] })
    );
    const formulas = section.columns.map((column) =>
      compileRowFormula(section.id, column, section.columns)
    );
    const wrapping = wrap.flatMap((w, i) => (w ? [i] : []));
    const lastCol = columnLetter(Math.max(1, plan.length));
    const dataPerSheet = this.#maxRows - 1;
    const headerHeight = headerRowHeight(section.columns, room);

    let sheetIndex = 0;
    let ws: Worksheet | undefined;
    let dataRows = 0;
    let sheetRows = 0;

    const open = () => {
      let name = names[sheetIndex];
      if (!name) {
        // More rows than the row count promised: keep going on a further sheet.
        name = sheetName(names[0], taken, ` (${sheetIndex + 1})`);
        names.push(name);
      }
      sheetIndex++;
      const sheet = workbook.addWorksheet(name, {
        views: [frozenView(plan)],
        pageSetup: {
          orientation: doc.report.landscape ? "landscape" : "portrait",
          fitToPage: true,
          fitToWidth: 1,
          fitToHeight: 0,
        },
        headerFooter: {
          // Printed, each page says whose data it is, as a PDF page does: demo data, scope.
          oddHeader: `&L${footerText(demoTitle(doc.report.title, doc.source))}&R${
            footerText(section.title)
          }`,
          oddFooter: pageFooter(
            footerText(
              `Generated ${doc.generatedAt.toISOString().slice(0, 16).replace("T", " ")} UTC · ${
                scopeLine(doc)
              }`,
              120,
            ),
            options.theme,
          ),
        },
      });
      sheet.columns = plan.map((p, i) => ({ key: p.column.key, width: widths[i] }));
      const header = sheet.addRow(plan.map((p) => cleanText(p.column.label)));
      header.height = headerHeight;
      plan.forEach((p, i) => (header.getCell(i + 1).style = styles.header(p.type, indent[i])));
      header.commit();
      sheetRows = 1;
      ws = sheet;
      return sheet;
    };
    const blocks: DataBlock[] = [];
    const close = () => {
      if (!ws) return;
      ws.autoFilter = `A1:${lastCol}${Math.max(1, sheetRows)}`;
      if (sheetRows >= 2) blocks.push({ sheet: ws.name, firstRow: 2, lastRow: sheetRows });
    };

    let sink = sheetRowSink(open(), plan.length, this.#direct);
    const signal = options.signal;
    for await (const row of section.rows()) {
      if (sheetRows - 1 >= dataPerSheet) {
        sink.finish();
        close();
        ws!.commit();
        sink = sheetRowSink(open(), plan.length, this.#direct);
      }
      const rowNumber = sheetRows + 1;
      let lines = 1;
      for (let i = 0; i < plan.length; i++) {
        const p = plan[i];
        const value = cellValue(p.type, row[p.key]);
        const formula = formulas[i];
        sink.cell(
          formula && typeof value === "number"
            ? { formula: formula(rowNumber), result: value }
            : value,
          p.styleOf(row),
        );
      }
      for (const i of wrapping) {
        const value = row[plan[i].key];
        if (value !== null && value !== undefined) {
          lines = Math.max(lines, wrappedLines(cleanText(String(value)), room[i]));
        }
      }
      sink.endRow(rowHeight(lines));
      sheetRows++;
      dataRows++;
      if ((dataRows & 255) === 0) await pace(ws!, dataRows, signal, options.output);
    }
    sink.finish();
    signal?.throwIfAborted();
    close();

    const sheet = ws!;
    if (dataRows === 0) {
      const row = sheet.addRow([cleanText(section.emptyText ?? DEFAULT_EMPTY_TEXT)]);
      row.getCell(1).style = styles.plain("muted", () => ({
        font: { italic: true, color: { argb: MUTED_FONT } },
      }));
      row.commit();
      sheetRows++;
    }
    // The totals block, when it fits under the table (it is always on the summary sheet).
    const lines = Object.keys(section.totals).length;
    if (section.totalsSpec && lines > 0 && sheetRows + 1 + lines <= this.#maxRows) {
      writeTotals(sheet, section, plan, blocks, styles);
    }
    sheet.commit();
  }
}

/**
 * The header row's height: room for the most lines a column's label wraps to (a label wider than
 * its column wraps between words), and a little padding.
 */
function headerRowHeight(columns: readonly Column[], widths: readonly number[]): number {
  const lines = Math.max(1, ...columns.map((c, i) => wrappedLines(cleanText(c.label), widths[i])));
  return lines * LINE_HEIGHT + 5;
}

/** One row of the Summary sheet: its cells and their styles; `merge` spans the first over A:D. */
interface SummaryLine {
  readonly values: ExcelJS.CellValue[];
  readonly styles: (Style | undefined)[];
  readonly merge?: boolean;
  /** Its text spills over empty neighbours or wraps: it does not size its column. */
  readonly spills?: boolean;
}

/**
 * The Summary sheet's column widths: at least 28 and 40 characters for the labels and values,
 * 12 for the rest; widened so that every number, date and label shows whole (text up to
 * `TEXT_MAX_WIDTH` characters), wrapped and spilling cells aside.
 */
function summaryWidths(lines: readonly SummaryLine[]): number[] {
  const count = Math.max(4, ...lines.map((line) => line.values.length));
  const widths = new ColumnWidths(
    Array.from({ length: count }, (_, i) => (i === 0 ? 28 : i === 1 ? 40 : 12)),
  );
  for (const line of lines) {
    if (line.merge || line.spills) continue;
    line.values.forEach((value, i) => {
      const style = line.styles[i];
      if (style?.alignment?.wrapText) return;
      widths.fit(i, value as DisplayValue, style);
    });
  }
  return widths.widths();
}

/** A Summary label over a column of numbers: aligned right, as they are. */
function overNumbers(label: Style, styles: StyleBook): Style {
  return styles.variant(label, "right", () => ({ ...label, alignment: { horizontal: "right" } }));
}

/** A cell without a style of its own (the base of its wrapped variant). */
const NO_STYLE: Style = Object.freeze({});

/**
 * A Summary line as it is written: a text wider than its column (or, merged, than A:D) wraps
 * instead of being cut by the next cell or printed over the next row, every cell of a line of
 * several lines sits at its top, and the row is as high as its most lines. Lines that spill over
 * empty neighbours (the title, the headings) are left as they are.
 */
function fittedSummaryLine(
  line: SummaryLine,
  widths: readonly number[],
  styles: StyleBook,
): { styles: (Style | undefined)[]; height?: number } {
  if (line.spills) return { styles: line.styles, height: fontRowHeight(line.styles) };
  const merged = widths.slice(0, 4).reduce((sum, w) => sum + w, 0);
  const wraps = line.values.map((value, i) => {
    const style = line.styles[i];
    const text = displayText(value as DisplayValue, style?.numFmt);
    const width = line.merge ? merged : widths[i] ?? 0;
    const wide = text.length > 0 && (style?.alignment?.wrapText || widthOf(text) > width);
    return wide && typeof value === "string" ? wrappedLines(text, width) : 0;
  });
  const lines = Math.max(1, ...wraps);
  if (lines === 1) return { styles: line.styles };
  const fitted = line.values.map((_, i) => {
    const style = line.styles[i] ?? NO_STYLE;
    const wrap = wraps[i] > 0;
    return styles.variant(style, wrap ? "top|wrap" : "top", () => ({
      ...style,
      alignment: { ...style.alignment, vertical: "top", ...(wrap ? { wrapText: true } : {}) },
    }));
  });
  return { styles: fitted, height: rowHeight(lines) };
}

/**
 * The height a line of text larger than the sheet's 11 pt needs (none for 11 pt and less): a
 * row of the default 15 pt would let a title printed at its foot reach over the row above.
 */
function fontRowHeight(styles: readonly (Style | undefined)[]): number | undefined {
  const size = Math.max(0, ...styles.map((s) => s?.font?.size ?? 0));
  return size > 11 ? Math.ceil(size * 1.4) : undefined;
}

/**
 * The Summary sheet's rows: title, description, generated-at, source, samkit version,
 * parameters, key figures, the sections with their sheets, and every section's totals lines.
 */
function summaryLines(
  doc: RenderDocument,
  plans: readonly { section: RenderSection; names: string[] }[],
  styles: StyleBook,
): SummaryLine[] {
  const title = styles.plain("title", () => ({ font: { bold: true, size: 16 } }));
  const heading = styles.plain("heading", () => ({
    font: { bold: true, size: 12, color: { argb: styles.palette.accent } },
    border: { bottom: { style: "thin", color: { argb: styles.palette.accent } } },
  }));
  const label = styles.plain("label", () => ({ font: { bold: true } }));
  const muted = styles.plain("muted", () => ({
    font: { italic: true, color: { argb: MUTED_FONT } },
  }));
  const wrap = styles.plain("wrap", () => ({
    alignment: { wrapText: true, vertical: "top" },
  }));
  const generated = styles.plain("generated", () => ({
    numFmt: `${DATETIME_FMT}:ss "UTC"`,
    alignment: { horizontal: "left" },
  }));
  const left = styles.plain("left", () => ({ alignment: { horizontal: "left" } }));
  const integer = styles.cell({ type: "integer" }, undefined, undefined);

  const lines: SummaryLine[] = [];
  const add = (values: ExcelJS.CellValue[], rowStyles: (Style | undefined)[] = []) =>
    lines.push({ values, styles: rowStyles });
  const blank = () => add([]);

  lines.push({
    values: [cleanText(demoTitle(doc.report.title, doc.source))],
    styles: [title],
    spills: true,
  });
  if (doc.report.description) {
    const description = styles.plain("description", () => ({
      font: { italic: true, color: { argb: MUTED_FONT } },
      alignment: { wrapText: true, vertical: "top" },
    }));
    lines.push({ values: [cleanText(doc.report.description)], styles: [description], merge: true });
  }
  blank();
  add(["Generated at", doc.generatedAt], [label, generated]);
  add(["Source", cleanText(doc.source)], [label, wrap]);
  add(["Report", doc.report.id], [label]);
  add(["samkit version", doc.version], [label]);

  blank();
  lines.push({ values: ["Parameters"], styles: [heading], spills: true });
  const params = doc.scope?.parameters ??
    Object.entries(doc.params).filter(([, v]) => v !== undefined)
      .map(([name, value]) => ({ name, value, origin: "given" }));
  if (params.length === 0) add(["(none)"], [muted]);
  for (const parameter of params) {
    const { name, value, origin } = parameter;
    if (origin === "unset") {
      add([name, "not set"], [label, muted]);
      continue;
    }
    const named = "label" in parameter && typeof value === "string" ? parameter.label : undefined;
    const v = named ? cleanText(labelledValue(value as string, named)) : paramCell(value);
    const style = v instanceof Date
      ? styles.cell({ type: "datetime" }, undefined, undefined)
      : left;
    if (origin === "default") add([name, v, "(default)"], [label, style, muted]);
    else add([name, v], [label, style]); // no styled empty cell beside a given value
  }
  const filter = doc.scope ? filterStatement(doc.scope) : undefined;
  if (filter !== undefined) add(["Filter", cleanText(filter)], [label, wrap]);

  if (doc.summary.length > 0) {
    blank();
    lines.push({ values: ["Key figures"], styles: [heading], spills: true });
    for (const fact of doc.summary) {
      add([cleanText(fact.label), factCell(fact)], [label, factStyle(fact, styles, left)]);
    }
  }

  blank();
  lines.push({ values: ["Sections"], styles: [heading], spills: true });
  add(["Section", "Sheet", "Rows"], [label, label, overNumbers(label, styles)]);
  for (const { section, names } of plans) {
    add([cleanText(section.title), names.join(", "), section.rowCount], [
      undefined,
      undefined,
      integer,
    ]);
  }
  lines.push(...summaryTotals(plans, styles, heading, label, integer));
  return lines;
}

/** The Summary sheet's totals block: per section a header line, then one line per currency. */
function summaryTotals(
  plans: readonly { section: RenderSection }[],
  styles: StyleBook,
  heading: Style,
  label: Style,
  integer: Style,
): SummaryLine[] {
  const withTotals = plans.filter(({ section }) =>
    section.totalsSpec && Object.keys(section.totals).length > 0
  );
  if (withTotals.length === 0) return [];
  const lines: SummaryLine[] = [
    { values: [], styles: [] },
    { values: ["Totals"], styles: [heading], spills: true },
  ];
  for (const { section } of withTotals) {
    const sums = sumColumns(section);
    lines.push({
      values: [cleanText(section.title), "Line", "Rows", ...sums.map((c) => cleanText(c.label))],
      styles: [
        label,
        label,
        ...[label, ...sums.map(() => label)].map((l) => overNumbers(l, styles)),
      ],
    });
    for (const [line, values] of Object.entries(section.totals)) {
      const code = currencyCode(line);
      lines.push({
        values: [
          null,
          cleanText(line),
          values.rows ?? null,
          ...sums.map((c) => shownTotal(c, line, values[c.key]) ?? null),
        ],
        styles: [
          undefined,
          undefined,
          integer,
          ...sums.map((c) => styles.cell(c, c.currency ?? code, undefined)),
        ],
      });
    }
  }
  return lines;
}

/**
 * The header row frozen, and the first column too when it names the row (a text column in a table
 * of more than two columns).
 */
function frozenView(plan: readonly ColumnPlan[]): Partial<ExcelJS.WorksheetView> {
  const first = plan.length > 2 && plan[0].type === "text";
  const topLeft = first ? "B2" : "A2";
  return {
    state: "frozen",
    xSplit: first ? 1 : 0,
    ySplit: 1,
    topLeftCell: topLeft,
    activeCell: "A2",
  };
}

/**
 * The totals block under a section's table: a blank row, then one line per totals label whose
 * summed cells are formulas ({@link totalsFormula}) with the renderer's own sums as their cached
 * results, in the line's currency format. A per-currency line over mixed currencies whose
 * currency column is not shown has nothing to select rows by, and keeps the value alone.
 */
function writeTotals(
  sheet: Worksheet,
  section: RenderSection,
  plan: readonly ColumnPlan[],
  blocks: readonly DataBlock[],
  styles: StyleBook,
): void {
  sheet.addRow([]).commit();
  const sums = sumColumns(section);
  const lines = Object.entries(section.totals);
  const labelIndex = plan.findIndex((p) => !sums.includes(p.column));
  const currencyKey = lines.length > 1 ? section.totalsSpec?.perCurrency : undefined;
  const currencyIndex = currencyKey === undefined
    ? -1
    : plan.findIndex((p) => p.key === currencyKey);
  const ownSheet = sheet.name;
  for (const [line, values] of lines) {
    const code = currencyCode(line);
    // The line over every row sums columns in one currency: no row is selected by its code.
    const across = isAllCurrenciesLine(line);
    const cells: ExcelJS.CellValue[] = plan.map(() => null);
    if (labelIndex >= 0) {
      cells[labelIndex] = totalsLineLabel(line, values.rows, cleanText, rowsWithoutValue(values));
    }
    for (const c of sums) {
      const index = plan.findIndex((p) => p.column === c);
      const result = shownTotal(c, line, values[c.key]) ?? null;
      // The code as its cells show it (cleaned like them), so the formula selects those cells.
      const currency = currencyIndex >= 0 && !across
        ? { column: columnLetter(currencyIndex + 1), line: cleanText(line) }
        : undefined;
      const formula = result === null || (currencyKey !== undefined && !currency && !across)
        ? undefined
        : totalsFormula({ blocks, ownSheet, column: columnLetter(index + 1), currency });
      cells[index] = formula === undefined || result === null ? result : { formula, result };
    }
    const out = sheet.addRow(cells);
    plan.forEach((p, i) => {
      out.getCell(i + 1).style = sums.includes(p.column)
        ? styles.cell(p.column, p.column.currency ?? code, undefined, true)
        : styles.cell({ type: "text" }, undefined, undefined, true);
    });
    out.commit();
  }
}

/** The columns a section's totals sum, in display order. */
function sumColumns(section: RenderSection): Column[] {
  const keys = new Set(section.totalsSpec?.sum ?? []);
  return section.columns.filter((c) => keys.has(c.key));
}

function safeEmphasis(fn: NonNullable<Column["emphasis"]>, row: Row): "warn" | "bad" | undefined {
  try {
    return fn(row);
  } catch {
    return undefined;
  }
}

/** A parameter value as a cell. */
function paramCell(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean") return formatBoolean(value);
  if (typeof value === "string") return cleanText(value);
  if (Array.isArray(value)) return cleanText(value.map(String).join(", "));
  return cleanText(readableJson(value));
}

function factCell(fact: Fact): ExcelJS.CellValue {
  return cellValue(fact.type, fact.value);
}

function factStyle(fact: Fact, styles: StyleBook, left: Style): Style {
  if (fact.type === "text") return left;
  const base = styles.cell(fact, fact.currency, undefined);
  return styles.get(`fact:${fact.type}|${fact.currency ?? ""}`, () => ({
    ...base,
    alignment: { horizontal: "left" },
  }));
}

/** Excel's longest header or footer (codes included). */
const HEADER_FOOTER_MAX = 255;

/**
 * Text for an Excel header/footer: `&` escaped as `&&`, at most `max` characters once escaped,
 * ending in "…" when cut (never between the two characters of an escaped `&`).
 */
function footerText(text: string, max = 80): string {
  const escaped = [...cleanText(text)].map((c) => c === "&" ? "&&" : c);
  if (escaped.join("").length <= max) return escaped.join("");
  let out = "";
  for (const c of escaped) {
    if (out.length + c.length > max - 1) break;
    out += c;
  }
  return `${out}…`;
}

/**
 * A page footer: `left` at the left and the page number at the right, and a theme's footer text
 * centred on a line of its own below them, as long as Excel's 255 characters allow. Every part
 * has two lines (one empty), so the texts never meet however an application aligns the parts.
 */
function pageFooter(left: string, theme: Theme | undefined): string {
  const right = "Page &P of &N";
  if (!theme?.footer) return `&L${left}&R${right}`;
  // The centre part last: a text's last line break is dropped by some applications.
  const frame = `&L${left}\n&R${right}\n&C\n`;
  const footer = footerText(theme.footer, HEADER_FOOTER_MAX - frame.length);
  return `${frame}${footer}`;
}

/** The Summary's first line with a theme's company, above the title (none without one). */
function companyLines(theme: Theme | undefined, styles: StyleBook): SummaryLine[] {
  if (!theme?.company) return [];
  const style = styles.plain("company", () => ({
    font: { bold: true, size: 12, color: { argb: styles.palette.accent } },
  }));
  return [{ values: [cleanText(theme.company)], styles: [style], spills: true }];
}

/** The column letter of a 1-based index (1 → A, 27 → AA). */
function columnLetter(index: number): string {
  let s = "";
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s;
}

/**
 * Between batches of rows: stops on an abort or a failed file write, and waits while the sheet's
 * zip entry is backed up (so XML does not queue in front of the deflater); every 1,024 rows it
 * yields to the event loop even when nothing is queued.
 */
async function pace(
  sheet: Worksheet,
  rows: number,
  signal: AbortSignal | undefined,
  output: SyncFileStream,
): Promise<void> {
  signal?.throwIfAborted();
  if (output.failure) throw output.failure;
  const backlog = zipEntryBacklog(sheet);
  if (backlog) await backlog;
  else if ((rows & 1023) === 0) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Stops a failed workbook's zip and file streams so the temp file can be removed. */
async function discard(workbook: ExcelJS.stream.xlsx.WorkbookWriter): Promise<void> {
  // deno-lint-ignore no-explicit-any
  const w = workbook as any;
  try {
    w.zip?.abort?.();
  } catch {
    // already finished
  }
  const stream = w.stream;
  if (stream && typeof stream.destroy === "function" && !stream.destroyed) {
    await new Promise<void>((resolve) => {
      stream.once?.("close", () => resolve());
      stream.destroy();
      setTimeout(resolve, 100);
    });
  }
}
