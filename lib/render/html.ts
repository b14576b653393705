/**
 * The HTML renderer: one self-contained file per report (CSS inlined, no scripts, no fonts, no
 * images but a theme's logo as a `data:` URI, no external references, guarded by a
 * `default-src 'none'` content security policy),
 * written from the Handlebars templates in `templates/`. Every value goes through Handlebars
 * escaping. Rows are streamed: table rows are rendered in chunks and written as they are read,
 * so a section of a million rows never exists as one string.
 *
 * The same machinery prints PDFs: {@link htmlChunks} cuts a document into print-ready HTML
 * documents of bounded size (in one pass over the rows), and {@link renderHtmlString} renders any
 * part of a document (cover, summary, a row range of one section) on demand.
 *
 * @module
 */

import { filterStatement } from "../report/scope.ts";
import { isDemoSource } from "../report/demo_source.ts";
import { join } from "node:path";
import type {
  BarChartSpec,
  CellValue,
  Column,
  ColumnType,
  Row,
  Totals,
  TotalsSpec,
} from "../report/model.ts";
import {
  ALL,
  groupedRows,
  type GroupEvent,
  NO_CURRENCY,
  rowsWithoutValue,
} from "../report/totals.ts";
import { coverFacts, coverStatements, coverTiles } from "../report/facts.ts";
import { openAtomicText } from "./atomic.ts";
import { shownTotal } from "./totals_cells.ts";
import { labelledValue } from "./scope_line.ts";
import {
  columnClass,
  DEFAULT_COLUMN_WIDTHS as COLUMN_WIDTHS,
  longestWord,
  tableLayout,
  type TotalsLabelRoom,
} from "./table_layout.ts";
import {
  formatCell,
  formatCurrency,
  formatDate,
  formatDateTime,
  formatInteger,
  formatNumber,
  formatValue,
  readableJson,
  visibleText,
} from "./format.ts";
import {
  DEFAULT_EMPTY_TEXT,
  DEFAULT_LOCALE,
  type RenderDocument,
  type Renderer,
  type RenderOptions,
  type RenderSection,
} from "./renderer.ts";
import { chartSvg, type SvgChartSpec } from "./charts/chart_svg.ts";
import { chartReadLimit, readChartRows } from "./charts/read.ts";
import { cutNote } from "./charts/context.ts";
import { valueRoom } from "./charts/scale.ts";
import { ellipsize } from "./charts/svg.ts";
import {
  BODY_MARKER,
  CHART_MARKER,
  loadTemplates,
  ROWS_MARKER,
  splitAt,
  type Templates,
} from "./templates.ts";
import type { Theme } from "./theme.ts";
import { themeView } from "./theme_view.ts";

/** Sections with more columns than this print on landscape pages. */
export const WIDE_COLUMNS = 8;

/**
 * Sections with more rows than this start on a new page in print; shorter sections follow the
 * previous one on the same page and are kept whole (moved to the next page when they do not fit).
 *
 * @example
 * ```ts
 * import { LONG_SECTION_ROWS } from "./html.ts";
 * const opensPage = (rows: number) => rows > LONG_SECTION_ROWS;
 * console.log(opensPage(3), opensPage(400)); // false true
 * ```
 */
export const LONG_SECTION_ROWS = 25;

/**
 * Column widths (characters) assumed for columns whose definition gives none
 * (`./table_layout.ts`).
 *
 * @example
 * ```ts
 * import { DEFAULT_COLUMN_WIDTHS } from "./html.ts";
 * console.log(DEFAULT_COLUMN_WIDTHS.currency); // 13
 * ```
 */
export const DEFAULT_COLUMN_WIDTHS: Readonly<Record<ColumnType, number>> = COLUMN_WIDTHS;

/**
 * The most characters of one cell printed in HTML and PDF; longer text is cut and marked with
 * {@link capCellText} (XLSX, CSV and JSON keep the full text). One 100,000-character field would
 * otherwise fill a hundred PDF pages.
 *
 * @example
 * ```ts
 * import { MAX_CELL_CHARS } from "./html.ts";
 * console.log(MAX_CELL_CHARS); // 2000
 * ```
 */
export const MAX_CELL_CHARS = 2000;

/**
 * A cell's text cut to `max` characters (default {@link MAX_CELL_CHARS}) with a visible mark
 * giving the full length, or the text itself when it fits.
 *
 * @example
 * ```ts
 * import { capCellText } from "./html.ts";
 * console.log(capCellText("short")); // "short"
 * console.log(capCellText("x".repeat(100_000), 3)); // "xxx… [truncated, 100,000 characters]"
 * ```
 */
export function capCellText(text: string, max: number = MAX_CELL_CHARS): string {
  if (text.length <= max) return text;
  // Do not split a surrogate pair at the cut.
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return `${text.slice(0, end)}… [truncated, ${text.length.toLocaleString("en-US")} characters]`;
}

/** Rows rendered per template call when streaming a file. */
const STREAM_CHUNK_ROWS = 500;

/** Bars a chart shows when its spec has no `top`. */
const DEFAULT_CHART_TOP = 10;

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * A part of a document for {@link renderHtmlString}.
 *
 * - `sectionIndex` undefined: no section at all (only the cover and/or summary asked for).
 * - `sectionIndex` set: that section's rows `[rowStart, rowEnd)`; its heading, description and
 *   chart appear only when `rowStart` is 0 (later parts get a "(continued)" line instead of an
 *   `h2`, so the PDF outline has one entry per section), and its totals only when `rowEnd` reaches
 *   the section's `rowCount`. Group headers are repeated, marked "(continued)", when a part starts
 *   inside a group; group subtotals count the group's rows before `rowStart` too.
 */
export interface HtmlChunkSpec {
  /** The section to render (index into `doc.sections`), or none. */
  readonly sectionIndex?: number;
  /** First row (inclusive), 0-based. */
  readonly rowStart: number;
  /** Row end (exclusive); clamp to `rowCount` is automatic. */
  readonly rowEnd: number;
  /** Put the cover first. */
  readonly includeCover: boolean;
  /** Put the summary (facts and contents) after the cover. */
  readonly includeSummary: boolean;
}

/** Options of {@link renderHtmlString}. */
export interface HtmlStringOptions {
  /** Number/date locale (default `en-US`). */
  readonly locale?: string;
  /**
   * Print layout: no screen "paper" frame and no colophon footer (the PDF renderer prints page
   * headers and footers itself). Page size, margins, landscape pages, repeated table headers and
   * page breaks come from the stylesheet's print rules either way.
   */
  readonly forPrint?: boolean;
  /** Render only part of the document (default: the whole document). */
  readonly chunk?: HtmlChunkSpec;
  /** Cancels rendering. */
  readonly signal?: AbortSignal;
  /** Your own look (`./theme.ts`; default samkit's). */
  readonly theme?: Theme;
  /**
   * The page each section starts on, in section order, as the contents list shows it (a printed
   * document, once its pages are known); absent: the contents list shows no page numbers.
   */
  readonly tocPages?: readonly string[];
}

/**
 * Renders a whole document, or a part of it, as one complete HTML document string (with the
 * stylesheet inlined). Meant for the PDF renderer and tests; for a file use {@link HtmlRenderer},
 * which streams. A part with `rowStart > 0` re-reads the section's rows from the start (to know the
 * open group and its subtotal), so printing a long section part by part is quadratic:
 * prefer {@link htmlChunks}, which makes every part in one pass.
 *
 * @example
 * ```ts
 * import { renderHtmlString } from "./html.ts";
 * import { memorySection } from "../report/spool.ts";
 * const doc = {
 *   report: { id: "demo", title: "Demo", description: "A demo." },
 *   generatedAt: new Date("2024-05-01T08:00:00Z"),
 *   source: "test",
 *   params: {},
 *   summary: [],
 *   sections: [memorySection({
 *     id: "main",
 *     title: "Main",
 *     columns: [{ key: "n", label: "N", type: "integer" }],
 *     rows: [{ n: 1 }, { n: 2 }, { n: 3 }],
 *   })],
 *   version: "0.1.0",
 * };
 * // The second and third rows of the first section, for print, without cover and summary:
 * const html = await renderHtmlString(doc, {
 *   forPrint: true,
 *   chunk: { sectionIndex: 0, rowStart: 1, rowEnd: 3, includeCover: false, includeSummary: false },
 * });
 * console.log(html.includes("(continued)")); // true
 * ```
 */
export async function renderHtmlString(
  doc: RenderDocument,
  options: HtmlStringOptions = {},
): Promise<string> {
  const ctx = {
    ...context(doc, options.locale, options.forPrint ?? false, options.theme),
    tocPages: options.tocPages,
  };
  const chunk = options.chunk;
  const parts: string[] = [];
  const [head, tail] = layoutParts(ctx, {
    includeCover: chunk ? chunk.includeCover : true,
    includeSummary: chunk ? chunk.includeSummary : true,
    includeColophon: !ctx.forPrint && !chunk,
  });
  parts.push(head);
  if (!chunk) {
    for (const section of doc.sections) {
      options.signal?.throwIfAborted();
      await writeSection(section, ctx, (text) => {
        parts.push(text);
        return Promise.resolve();
      }, options.signal);
    }
  } else if (chunk.sectionIndex !== undefined) {
    const section = doc.sections[chunk.sectionIndex];
    if (!section) throw new RangeError(`no section at index ${chunk.sectionIndex}`);
    const start = Math.max(0, Math.min(chunk.rowStart, section.rowCount));
    const end = Math.max(start, Math.min(chunk.rowEnd, section.rowCount));
    const chart = start === 0 ? await chartView(section, ctx) : undefined;
    if (section.rowCount === 0) {
      parts.push(sectionParts(section, ctx, { continued: false, totals: false, chart }).join(""));
    } else {
      const cursor = new SectionCursor(section, ctx);
      try {
        await cursor.skip(start);
        const rows = await cursor.next(end - start, { continuation: true, signal: options.signal });
        const [sHead, sTail] = sectionParts(section, ctx, {
          continued: start > 0,
          totals: end >= section.rowCount,
          chart,
        });
        parts.push(sHead, rows.html, sTail);
      } finally {
        await cursor.close();
      }
    }
  }
  parts.push(tail);
  return parts.join("");
}

/** One print-ready HTML document made by {@link htmlChunks}. */
export interface HtmlPrintChunk {
  /** A complete HTML document (stylesheet inlined, print layout). */
  readonly html: string;
  /** 0-based position of the chunk. */
  readonly index: number;
  /** Whether the chunk starts with the cover and summary (only the first). */
  readonly hasCover: boolean;
  /** The sections (indexes) whose rows, heading or totals this chunk holds. */
  readonly sections: readonly number[];
  /** How many table rows the chunk holds. */
  readonly rows: number;
}

/** Options of {@link htmlChunks}. */
export interface HtmlChunksOptions {
  /** Number/date locale (default `en-US`). */
  readonly locale?: string;
  /** The most table rows one chunk holds (default 2 000). */
  readonly rowsPerChunk?: number;
  /** Cancels rendering (the rows' files are closed). */
  readonly signal?: AbortSignal;
  /** Your own look (`./theme.ts`; default samkit's). */
  readonly theme?: Theme;
  /**
   * Whether the first chunk starts with the cover and the summary (default true); false when
   * they are printed on their own (a PDF prints them last, with the contents' page numbers).
   */
  readonly cover?: boolean;
}

/**
 * Cuts a document into print-ready HTML documents, reading each section's rows once: the first
 * chunk starts with the cover and the summary; small consecutive sections share a chunk; a long
 * section is split every `rowsPerChunk` rows, the later parts opening with a "(continued)" line
 * (not an `h2`, so a merged PDF outline has one entry per section) and a repeated group header.
 * Long sections (more than {@link LONG_SECTION_ROWS} rows) start on a new page and short ones
 * follow the previous section (the stylesheet's breaks); a chunk always starts a new page, so
 * printing chunks one by one and concatenating the PDFs gives the pages of printing the whole
 * document, except that a short section that opens a chunk starts a page of its own.
 *
 * @example
 * ```ts
 * import { htmlChunks } from "./html.ts";
 * import { memorySection } from "../report/spool.ts";
 * const doc = {
 *   report: { id: "demo", title: "Demo", description: "A demo." },
 *   generatedAt: new Date("2024-05-01T08:00:00Z"),
 *   source: "test",
 *   params: {},
 *   summary: [],
 *   sections: [memorySection({
 *     id: "main",
 *     title: "Main",
 *     columns: [{ key: "n", label: "N", type: "integer" }],
 *     rows: Array.from({ length: 5000 }, (_, n) => ({ n })),
 *   })],
 *   version: "0.1.0",
 * };
 * for await (const chunk of htmlChunks(doc, { rowsPerChunk: 2000 })) {
 *   console.log(chunk.index, chunk.rows); // 0 2000, 1 2000, 2 1000
 *   // await page.setContent(chunk.html); await page.pdf({ preferCSSPageSize: true, ... })
 * }
 * ```
 */
export async function* htmlChunks(
  doc: RenderDocument,
  options: HtmlChunksOptions = {},
): AsyncGenerator<HtmlPrintChunk> {
  const ctx = context(doc, options.locale, true, options.theme);
  const budget = Math.max(1, Math.floor(options.rowsPerChunk ?? 2000));
  let index = 0;
  let body: string[] = [];
  let rows = 0;
  let sections = new Set<number>();
  let hasCover = options.cover ?? true;
  const flush = (): HtmlPrintChunk => {
    const [head, tail] = layoutParts(ctx, {
      includeCover: hasCover,
      includeSummary: hasCover,
      includeColophon: false,
    });
    const chunk: HtmlPrintChunk = {
      html: head + body.join("") + tail,
      index: index++,
      hasCover,
      sections: [...sections],
      rows,
    };
    body = [];
    rows = 0;
    sections = new Set();
    hasCover = false;
    return chunk;
  };

  for (let i = 0; i < doc.sections.length; i++) {
    options.signal?.throwIfAborted();
    const section = doc.sections[i];
    const chart = await chartView(section, ctx);
    if (section.rowCount === 0) {
      sections.add(i);
      body.push(sectionParts(section, ctx, { continued: false, totals: false, chart }).join(""));
      continue;
    }
    const cursor = new SectionCursor(section, ctx);
    try {
      let first = true;
      while (await cursor.hasMore()) {
        if (rows >= budget) yield flush();
        const part = await cursor.next(budget - rows, {
          continuation: true,
          signal: options.signal,
        });
        const last = !(await cursor.hasMore());
        const [sHead, sTail] = sectionParts(section, ctx, {
          continued: !first,
          totals: last,
          chart: first ? chart : undefined,
        });
        body.push(sHead, part.html, sTail);
        sections.add(i);
        rows += part.rowEnd - part.rowStart;
        first = false;
      }
    } finally {
      await cursor.close();
    }
  }
  // Without the cover, a document of no sections has nothing to print.
  if (hasCover || sections.size > 0) yield flush();
}

/**
 * Writes `<report-id>.html` into the output folder: a self-contained, streamed HTML report.
 *
 * @example
 * ```ts
 * import { HtmlRenderer } from "./html.ts";
 * import { memorySection } from "../report/spool.ts";
 * const [path] = await new HtmlRenderer().render({
 *   report: { id: "demo", title: "Demo", description: "A demo." },
 *   generatedAt: new Date(),
 *   source: "test",
 *   params: {},
 *   summary: [],
 *   sections: [memorySection({
 *     id: "main",
 *     title: "Main",
 *     columns: [{ key: "n", label: "N", type: "integer" }],
 *     rows: [{ n: 1 }],
 *   })],
 *   version: "0.1.0",
 * }, { outDir: await Deno.makeTempDir() });
 * console.log(path.endsWith("demo.html")); // true
 * ```
 */
export class HtmlRenderer implements Renderer {
  /** The format. */
  readonly format = "html" as const;

  /** Writes the file (temp name + rename); returns its absolute path. */
  async render(doc: RenderDocument, options: RenderOptions): Promise<string[]> {
    options.signal?.throwIfAborted();
    const ctx = context(doc, options.locale, false, options.theme);
    const out = await openAtomicText(join(options.outDir, `${doc.report.id}.html`));
    try {
      const [head, tail] = layoutParts(ctx, {
        includeCover: true,
        includeSummary: true,
        includeColophon: true,
      });
      await out.write(head);
      for (const section of doc.sections) {
        options.signal?.throwIfAborted();
        await writeSection(section, ctx, (text) => out.write(text), options.signal);
      }
      await out.write(tail);
      return [await out.commit()];
    } catch (error) {
      await out.abort();
      throw error;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Views

interface Context {
  readonly doc: RenderDocument;
  readonly locale: string;
  readonly forPrint: boolean;
  readonly templates: Templates;
  readonly theme?: Theme;
  /** The page each section starts on, for the contents list (printed documents). */
  readonly tocPages?: readonly string[];
}

function context(
  doc: RenderDocument,
  locale: string | undefined,
  forPrint: boolean,
  theme: Theme | undefined,
): Context {
  return {
    doc,
    locale: locale ?? DEFAULT_LOCALE,
    forPrint,
    templates: loadTemplates(theme),
    theme,
  };
}

function languageOf(locale: string): string {
  try {
    return new Intl.Locale(locale).language;
  } catch {
    return "en";
  }
}

function anchorOf(section: RenderSection, index: number): string {
  const slug = section.id.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
  return `section-${index + 1}${slug ? `-${slug}` : ""}`;
}

function rowsText(count: number, locale: string): string {
  return `${formatInteger(count, { locale })} ${count === 1 ? "row" : "rows"}`;
}

/** A parameter value as cover text. */
function paramText(value: unknown, locale: string): string {
  if (value === undefined || value === null) return "not set";
  if (value instanceof Date) {
    const midnight = value.getUTCHours() === 0 && value.getUTCMinutes() === 0 &&
      value.getUTCSeconds() === 0 && value.getUTCMilliseconds() === 0;
    return midnight ? formatDate(value, { locale }) : formatDateTime(value, { locale });
  }
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map((v) => paramText(v, locale)).join(", ");
  try {
    return readableJson(value);
  } catch {
    return String(value);
  }
}

/**
 * The cover's parameters: a row per one with a value (from the scope: every declared one, else
 * the values given), and the names of those not set, on one line.
 */
function coverParams(doc: RenderDocument, locale: string) {
  const parameters = doc.scope?.parameters ??
    Object.entries(doc.params).map(([name, value]) => ({ name, value, origin: "given" }));
  const rows = parameters.filter((p) => p.origin !== "unset").map((p) => ({
    name: p.name,
    value: capCellText(labelledValue(paramText(p.value, locale), labelOf(p))),
    missing: p.value === null,
    note: p.origin === "default" ? "default" : undefined,
  }));
  const unset = parameters.filter((p) => p.origin === "unset").map((p) => p.name).join(", ");
  return { rows, unset, declared: parameters.length > 0 };
}

/** The label of a scope parameter (an organisation's name), when it has one. */
function labelOf(parameter: object): string | undefined {
  const label = (parameter as { label?: unknown }).label;
  return typeof label === "string" ? label : undefined;
}

function layoutParts(
  ctx: Context,
  flags: { includeCover: boolean; includeSummary: boolean; includeColophon: boolean },
): [string, string] {
  const { doc, locale } = ctx;
  const view = {
    ...flags,
    locale,
    lang: languageOf(locale),
    forPrint: ctx.forPrint,
    report: doc.report,
    generatedAt: doc.generatedAt,
    source: doc.source,
    demo: isDemoSource(doc.source),
    version: doc.version,
    params: coverParams(doc, locale),
    filter: doc.scope ? filterStatement(doc.scope) : undefined,
    filtered: doc.scope?.filter !== undefined,
    summary: doc.summary,
    coverFacts: coverTiles(coverFacts(doc.summary)),
    coverStatements: coverStatements(coverFacts(doc.summary)),
    toc: doc.sections.map((section, i) => ({
      anchor: anchorOf(section, i),
      title: section.title,
      // An empty section is 0 rows (its body says why: no data, or a check that found nothing);
      // a PDF's part of a long section says of how many ("500 of 632 rows").
      rows: section.printedPart
        ? `${formatInteger(section.rowCount, { locale })} of ${
          rowsText(section.printedPart.of, locale)
        }`
        : rowsText(section.rowCount, locale),
      page: ctx.tocPages?.[i],
    })),
    theme: ctx.theme ? themeView(ctx.theme) : undefined,
  };
  if (!view.params.declared) (view as { params: unknown }).params = undefined;
  if (doc.summary.length === 0) (view as { summary: unknown }).summary = undefined;
  return splitAt(ctx.templates.layout(visibleView(view)), BODY_MARKER);
}

/**
 * A template's view with every string in it shown by {@link visibleText} (bidi and other
 * controls as visible escapes), so that no text from data — a title, a description, a fact's
 * label, a parameter, a chart title, a totals label — reaches the page as a control. Plain
 * objects and arrays are copied; dates and other values are kept.
 */
function visibleView<T>(value: T): T {
  if (typeof value === "string") return visibleText(value) as T;
  if (Array.isArray(value)) return value.map(visibleView) as T;
  if (
    value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype
  ) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = visibleView(v);
  return out as T;
}

interface CellView {
  readonly text: string;
  readonly class: string;
  /** Columns the cell spans (a totals label over the empty cells after it); absent: one. */
  readonly span?: number;
  /**
   * An empty cell a label before it spans: samkit's templates leave it out; a theme's own totals
   * template that knows no `span` prints it, and its columns stay aligned.
   */
  readonly covered?: boolean;
}

/** A chart as the `chart` template draws it: bars laid out here, or a drawn SVG. */
type ChartView = BarChartView | SvgChartView;

/** A chart of another kind than `bar`, drawn by `charts/`. */
interface SvgChartView {
  readonly title: string;
  /** The escaped SVG markup. */
  readonly svg: string;
}

interface BarChartView {
  readonly title: string;
  readonly width: number;
  readonly height: number;
  readonly labelWidth: number;
  readonly barArea: number;
  readonly barHeight: number;
  readonly textY: number;
  readonly bars: readonly {
    y: number;
    label: string;
    length: number;
    valueX: number;
    valueText: string;
  }[];
}

/** Reads the chart's rows (bounded) and draws it (no chart when there is no row). */
function chartView(section: RenderSection, ctx: Context): Promise<ChartView | undefined> {
  const spec = section.chart;
  if (!spec || section.rowCount === 0) return Promise.resolve(undefined);
  return spec.type === "bar" ? barChartView(spec, section, ctx) : svgChartView(spec, section, ctx);
}

/** Draws a chart of another kind than `bar` from its section's first rows. */
async function svgChartView(
  spec: SvgChartSpec,
  section: RenderSection,
  ctx: Context,
): Promise<SvgChartView | undefined> {
  const rows = await readChartRows(
    (section.printedPart ?? section).rows(),
    chartReadLimit(spec),
  );
  const svg = chartSvg(spec, rows, {
    id: `${anchorOf(section, ctx.doc.sections.indexOf(section))}-chart`,
    locale: ctx.locale,
    columns: section.columns,
    now: ctx.doc.generatedAt,
    total: section.printedPart?.of ?? section.rowCount,
  });
  return svg ? { title: spec.title, svg } : undefined;
}

/** The longest bar label drawn whole (longer ones end in "…"). */
const BAR_LABEL_CHARS = 44;

/** The room after the bars for their values (11 px text, 6 px after the bar's end). */
const BAR_VALUE_ROOM = { size: 11, gap: 6, min: 110, max: 300 } as const;

/** Reads the chart's first rows and lays out its bars. */
async function barChartView(
  spec: BarChartSpec,
  section: RenderSection,
  ctx: Context,
): Promise<BarChartView | undefined> {
  const top = Math.max(1, spec.top ?? DEFAULT_CHART_TOP);
  const labelColumn = section.columns.find((c) => c.key === spec.label);
  const valueColumn = section.columns.find((c) => c.key === spec.value);
  const picked: { label: string; value: number; text: string }[] = [];
  // A PDF's part of a long section is not in the section's order: the chart reads every row.
  for await (const row of (section.printedPart ?? section).rows()) {
    const raw = row[spec.value];
    const value = typeof raw === "number" && Number.isFinite(raw) ? raw : 0;
    const label = labelColumn
      ? formatCell(row, labelColumn, { locale: ctx.locale })
      : formatValue(row[spec.label], "text");
    const text = valueColumn
      ? formatCell(row, valueColumn, { locale: ctx.locale })
      : formatNumber(value, { locale: ctx.locale, decimals: Number.isInteger(value) ? 0 : 2 });
    // A blank value reads as the table's blank does, never as nothing after an empty bar.
    picked.push({
      label: ellipsize(label || "(blank)", BAR_LABEL_CHARS),
      value,
      text: text || "—",
    });
    if (picked.length >= top) break;
  }
  // Bars of nothing (every value 0 or blank, as a currency's shortfall cost when nothing is
  // short) would be an empty chart over the table that says so: none is drawn.
  if (!picked.some((p) => p.value > 0)) return undefined;
  // The labels get the room the longest needs (a product's name and version), the bars the rest.
  const longest = Math.max(...picked.map((p) => [...p.label].length));
  const labelWidth = Math.min(290, Math.max(60, Math.ceil(longest * 6.2) + 14));
  const width = 760, barHeight = 16, pitch = 24;
  // The values get the room the longest needs (a large amount with its currency code).
  const valueSpace = valueRoom(picked.map((p) => p.text), BAR_VALUE_ROOM);
  const barArea = width - labelWidth - valueSpace;
  const max = Math.max(0, ...picked.map((p) => p.value));
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    title: barChartTitle(spec.title, picked.length, section.rowCount, ctx.locale),
    width,
    height: picked.length * pitch,
    labelWidth,
    barArea,
    barHeight,
    textY: 12,
    bars: picked.map((p, i) => {
      const length = max > 0 && p.value > 0 ? Math.max(1, (p.value / max) * barArea) : 0;
      return {
        y: i * pitch,
        label: p.label,
        length: round(length),
        valueX: round(labelWidth + length),
        valueText: p.text,
      };
    }),
  };
}

/**
 * A bar chart's caption: its title, and which rows it draws when it draws fewer than its table
 * prints ("Servers per operating system (first 10 of 13 rows)"), as the drawn charts say.
 */
function barChartTitle(title: string, shown: number, rows: number, locale: string): string {
  const note = cutNote("First", shown, rows, "rows", locale);
  return note ? `${title} (${note.charAt(0).toLowerCase()}${note.slice(1, -1)})` : title;
}

// The `chart` template takes a drawn SVG at CHART_MARKER: the SVG is built (and its text
// escaped) by `charts/`, and put in after the template ran, as the rows are at ROWS_MARKER. Data
// cannot forge the marker: `<` in any value is escaped.

/** The section's HTML with its drawn chart put in at {@link CHART_MARKER}. */
function withChartSvg(html: string, chart: ChartView | undefined): string {
  if (!chart || !("svg" in chart)) return html;
  return html.replace(CHART_MARKER, () => chart.svg);
}

/** The text of a totals line's label. */
function totalsLabel(
  kind: "Total" | "Subtotal",
  label: string,
  line: Readonly<Record<string, number>>,
  locale: string,
) {
  const currency = label === ALL
    ? ""
    : label === NO_CURRENCY
    ? " (no currency)"
    : ` ${visibleText(label)}`;
  // A total that left out rows without a value says so: it never reads as complete.
  const without = rowsWithoutValue(line);
  const left = without > 0 ? ` · ${without} without a value, not added` : "";
  return `${kind}${currency} · ${rowsText(line.rows ?? 0, locale)}${left}`;
}

/**
 * Where a section's totals and subtotal lines put their labels (as {@link totalsRows} does) and
 * the longest word of those labels; undefined when its totals sum nothing.
 */
function totalsLabelRoom(section: RenderSection, locale: string): TotalsLabelRoom | undefined {
  const spec = section.totalsSpec;
  if (!spec || spec.sum.length === 0) return undefined;
  const summed = new Set(spec.sum);
  const column = section.columns.find((c) => !summed.has(c.key)) ?? section.columns[0];
  if (!column) return undefined;
  const labels = Object.entries(section.totals).flatMap(([label, line]) =>
    (["Total", "Subtotal"] as const).map((kind) => totalsLabel(kind, label, line, locale))
  );
  return { key: column.key, word: Math.max(0, ...labels.map(longestWord)) };
}

/** The totals lines that sum more than one row. */
function severalRows(totals: Totals): Totals {
  return Object.fromEntries(Object.entries(totals).filter(([, line]) => (line.rows ?? 0) > 1));
}

/** Table cells of totals lines (one row per line), aligned under their columns. */
function totalsRows(
  totals: Totals,
  spec: TotalsSpec | undefined,
  columns: readonly Column[],
  kind: "Total" | "Subtotal",
  locale: string,
): CellView[][] {
  const summed = new Set(spec?.sum ?? []);
  const perCurrency = spec?.perCurrency !== undefined;
  let labelAt = columns.findIndex((c) => !summed.has(c.key));
  const labelInline = labelAt === -1;
  if (labelInline) labelAt = 0;
  return Object.entries(totals).map(([label, line]) => {
    const labelText = totalsLabel(kind, label, line, locale);
    const cells = columns.map((column, i): CellView => {
      let text = "";
      let cls = columnClass(column);
      const shown = summed.has(column.key)
        ? shownTotal(column, label, line[column.key])
        : undefined;
      if (shown !== undefined) {
        const value = shown;
        const code = column.currency ??
          (perCurrency && label !== NO_CURRENCY ? label : undefined);
        text = column.type === "currency"
          ? formatCurrency(value, code, { locale, decimals: column.decimals })
          : formatValue(value, column.type, { locale, decimals: column.decimals });
      }
      if (i === labelAt) {
        text = labelInline ? `${labelText}: ${text}` : labelText;
        cls = "label";
      }
      return { text, class: cls };
    });
    return spanLabel(cells, labelAt);
  });
}

/**
 * A totals line's cells with its label spanning the empty cells after it, so "Subtotal all
 * currencies (EUR) · 25 rows" reads on one line rather than wrapped in a narrow first column.
 */
function spanLabel(cells: readonly CellView[], labelAt: number): CellView[] {
  let end = labelAt + 1;
  while (end < cells.length && cells[end].text === "") end++;
  if (end === labelAt + 1) return [...cells];
  return cells.map((cell, i) =>
    i === labelAt
      ? { ...cell, span: end - labelAt }
      : i > labelAt && i < end
      ? { ...cell, covered: true }
      : cell
  );
}

function sectionParts(
  section: RenderSection,
  ctx: Context,
  flags: { continued: boolean; totals: boolean; chart?: ChartView },
): [string, string] {
  const index = ctx.doc.sections.indexOf(section);
  const empty = section.rowCount === 0;
  const hasTotals = flags.totals && !empty &&
    (section.totalsSpec !== undefined && section.totalsSpec.sum.length > 0);
  const view = {
    locale: ctx.locale,
    anchor: anchorOf(section, index),
    title: section.title,
    description: section.description,
    rowsText: empty
      ? rowsText(0, ctx.locale)
      : section.printedPart
      ? `${formatInteger(section.rowCount, { locale: ctx.locale })} of ${
        rowsText(section.printedPart.of, ctx.locale)
      }: ${section.printedPart.which}`
      : rowsText(section.rowCount, ctx.locale),
    note: section.printedPart?.note,
    continued: flags.continued,
    chart: flags.chart,
    empty,
    emptyText: section.emptyText ?? DEFAULT_EMPTY_TEXT,
    wide: section.columns.length > WIDE_COLUMNS,
    // Long sections open a new printed page; short ones follow the previous section, kept whole.
    pageStart: !flags.continued && section.rowCount > LONG_SECTION_ROWS,
    keep: !flags.continued && section.rowCount <= LONG_SECTION_ROWS,
    table: tableLayout(
      section.columns,
      section.extents,
      ctx.locale,
      totalsLabelRoom(section, ctx.locale),
      // Printed, 1% of a section's width is a fixed length the stylesheet gives (--cqi).
      ctx.forPrint ? { sectionPercent: "var(--cqi)" } : {},
    ),
    totals: hasTotals
      ? totalsRows(section.totals, section.totalsSpec, section.columns, "Total", ctx.locale)
        .map((cells) => ({ cells }))
      : undefined,
  };
  return splitAt(withChartSvg(ctx.templates.section(visibleView(view)), flags.chart), ROWS_MARKER);
}

/** Writes one whole section (head, rows in chunks, totals) through `write`. */
async function writeSection(
  section: RenderSection,
  ctx: Context,
  write: (text: string) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const chart = await chartView(section, ctx);
  const [head, tail] = sectionParts(section, ctx, { continued: false, totals: true, chart });
  await write(head);
  if (section.rowCount > 0) {
    const cursor = new SectionCursor(section, ctx);
    try {
      while (await cursor.hasMore()) {
        await write((await cursor.next(STREAM_CHUNK_ROWS, { continuation: false, signal })).html);
      }
    } finally {
      await cursor.close();
    }
  }
  await write(tail);
}

// ---------------------------------------------------------------------------------------------
// Row cursor

/**
 * Rows per table row group (`<tbody>`) at most; each group of a grouped section opens one too.
 * Chrome ignores `break-before: avoid` (which keeps the totals with the last rows) in a row group
 * that runs over more than two pages, and short row groups also keep the markup's structure
 * readable.
 */
const ROW_GROUP_ROWS = 20;

type Item =
  | { split: true }
  | { group: true; groupLabel: string; text: string; continued: boolean }
  | { row: true; odd: boolean; cells: CellView[] }
  | { subtotal: true; cells: CellView[] };

/** Walks a section's rows once, rendering them chunk by chunk with group headers and subtotals. */
class SectionCursor {
  #section: RenderSection;
  #ctx: Context;
  #events: AsyncGenerator<GroupEvent>;
  #pending: GroupEvent | undefined;
  #exhausted = false;
  #position = 0;
  #groupValue: CellValue = null;
  #inGroup = false;
  #classes: string[];
  #groupColumn: Column | undefined;
  #groupLabel: string;
  /** Rows in the current row group (`<tbody>`). */
  #groupRows = 0;
  /** Whether the current row group holds a row yet. */
  #bodyUsed = false;

  constructor(section: RenderSection, ctx: Context) {
    this.#section = section;
    this.#ctx = ctx;
    this.#events = groupedRows(section.rows(), section);
    this.#classes = section.columns.map((c) => columnClass(c, section.extents));
    const by = section.group?.by;
    this.#groupColumn = by === undefined ? undefined : section.columns.find((c) => c.key === by);
    this.#groupLabel = section.group?.label ?? this.#groupColumn?.label ?? by ?? "";
  }

  async #peek(): Promise<GroupEvent | undefined> {
    if (this.#pending || this.#exhausted) return this.#pending;
    const next = await this.#events.next();
    if (next.done) this.#exhausted = true;
    else this.#pending = next.value;
    return this.#pending;
  }

  #take(): GroupEvent {
    const event = this.#pending!;
    this.#pending = undefined;
    if (event.kind === "start") {
      this.#groupValue = event.value;
      this.#inGroup = true;
    } else if (event.kind === "end") {
      this.#inGroup = false;
    } else {
      this.#position++;
    }
    return event;
  }

  /** Whether rows (or a closing subtotal) remain. */
  async hasMore(): Promise<boolean> {
    const event = await this.#peek();
    return event !== undefined;
  }

  /** Consumes rows up to row index `count` without rendering them. */
  async skip(count: number): Promise<void> {
    for (;;) {
      const event = await this.#peek();
      if (!event) return;
      if ((event.kind === "start" || event.kind === "row") && this.#position >= count) return;
      this.#take();
    }
  }

  /**
   * Renders up to `maxRows` rows (with their group headers and any subtotals that close). With
   * `continuation`, a part that starts inside a group opens with that group's header marked
   * "(continued)" (for a new printed part; not when the part continues the same table).
   */
  async next(
    maxRows: number,
    options: { continuation: boolean; signal?: AbortSignal },
  ): Promise<{ html: string; rowStart: number; rowEnd: number }> {
    const signal = options.signal;
    const rowStart = this.#position;
    const items: Item[] = [];
    const first = await this.#peek();
    if (options.continuation) {
      // A new table: its first row group opens with it.
      this.#groupRows = 0;
      this.#bodyUsed = false;
    }
    if (options.continuation && first?.kind === "row" && this.#inGroup) {
      items.push(this.#groupItem(this.#groupValue, true));
      this.#bodyUsed = true;
    }
    // A new row group: at a group's header, and after ROW_GROUP_ROWS rows (never an empty one;
    // a streamed table's row group may have been opened by an earlier call).
    const split = () => {
      if (this.#bodyUsed) items.push({ split: true });
      this.#groupRows = 0;
      this.#bodyUsed = false;
    };
    for (;;) {
      const event = await this.#peek();
      if (!event) break;
      if (
        (event.kind === "start" || event.kind === "row") && this.#position - rowStart >= maxRows
      ) break;
      this.#take();
      if (event.kind === "start") {
        split();
        items.push(this.#groupItem(event.value, false));
        this.#bodyUsed = true;
      } else if (event.kind === "row") {
        if (this.#groupRows >= ROW_GROUP_ROWS) split();
        this.#groupRows++;
        this.#bodyUsed = true;
        items.push(this.#rowItem(event.row, event.index));
      } else {
        // A group closes: its subtotal lines, only when the totals spec sums something (a line
        // that would only count rows says nothing the group header and the rows do not), and
        // only those of more than one row (a line of one row repeats that row).
        const spec = this.#section.totalsSpec;
        if (spec && spec.sum.length > 0) {
          for (
            const cells of totalsRows(
              severalRows(event.totals),
              spec,
              this.#section.columns,
              "Subtotal",
              this.#ctx.locale,
            )
          ) items.push({ subtotal: true, cells });
        }
      }
      if ((this.#position & 255) === 0) signal?.throwIfAborted();
    }
    const html = this.#ctx.templates.rows({ span: this.#section.columns.length, items });
    return { html, rowStart, rowEnd: this.#position };
  }

  #groupItem(value: CellValue, continued: boolean): Item {
    const column = this.#groupColumn;
    const text = value === null || value === undefined || value === ""
      ? "(blank)"
      : column
      ? formatValue(value, column.type, { locale: this.#ctx.locale, decimals: column.decimals })
      : formatValue(value, "text");
    return { group: true, groupLabel: this.#groupLabel, text: capCellText(text), continued };
  }

  #rowItem(row: Row, index: number): Item {
    const locale = this.#ctx.locale;
    const cells = this.#section.columns.map((column, i): CellView => {
      const text = capCellText(formatCell(row, column, { locale }));
      let cls = this.#classes[i];
      if (text === "") cls += " none";
      const emphasis = column.emphasis?.(row);
      if (emphasis === "warn" || emphasis === "bad") cls += ` ${emphasis}`;
      return { text: text === "" ? "—" : text, class: cls };
    });
    return { row: true, odd: index % 2 === 1, cells };
  }

  /** Stops reading (closes the rows' file). */
  async close(): Promise<void> {
    await this.#events.return(undefined);
  }
}
