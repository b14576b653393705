/**
 * The renderer interface shared by every output format, and the shapes a renderer receives: a
 * {@link RenderDocument} whose sections are spooled ({@link RenderSection}) so their rows can be
 * read once per format.
 *
 * @module
 */

import type { ReportScope } from "../report/scope.ts";
import type {
  ChartSpec,
  Column,
  Fact,
  GroupSpec,
  ParamValues,
  Row,
  Totals,
  TotalsSpec,
} from "../report/model.ts";
import type { Extents } from "../report/extents.ts";
import type { OmittedColumn } from "../report/unfilled.ts";
import type { BrowserHandle } from "./browser.ts";
import type { Theme } from "./theme.ts";

/** An output format. */
export type Format = "html" | "pdf" | "xlsx" | "csv" | "json";

/** Every format, in the order the CLI lists them. */
export const FORMATS: readonly Format[] = ["html", "pdf", "xlsx", "csv", "json"];

/**
 * A section after spooling: the rows can be read any number of times, and the row count and
 * totals are known before any renderer starts.
 *
 * @example
 * ```ts
 * import { memorySection } from "../report/spool.ts";
 * const section = memorySection({
 *   id: "main",
 *   title: "Main",
 *   columns: [{ key: "n", label: "N", type: "integer" }],
 *   rows: [{ n: 1 }, { n: 2 }],
 *   totals: { sum: ["n"] },
 * });
 * console.log(section.rowCount, section.totals.All.n); // 2 3
 * for await (const row of section.rows()) console.log(row.n);
 * ```
 */
export interface RenderSection {
  /** Stable id (file names, sheet names, anchors). */
  readonly id: string;
  /** Heading. */
  readonly title: string;
  /** What the section shows. */
  readonly description?: string;
  /** The columns, in display order. */
  readonly columns: readonly Column[];
  /** Display grouping (group subtotals follow the totals spec). */
  readonly group?: GroupSpec;
  /** A chart drawn from the rows (HTML/PDF only). */
  readonly chart?: ChartSpec;
  /** Shown instead of an empty table. */
  readonly emptyText?: string;
  /** Columns left out because no row had a value in them (their notes end the description). */
  readonly omittedColumns?: readonly OmittedColumn[];
  /** What the totals cover (which columns are summed, per which currency key). */
  readonly totalsSpec?: TotalsSpec;
  /** How many rows {@link RenderSection.rows} yields. */
  readonly rowCount: number;
  /**
   * Label (`All`, or a currency code when the spec is per currency) → column key → sum, plus
   * `rows`, the count of rows the line covers. Always has at least one line when the section
   * has rows.
   */
  readonly totals: Totals;
  /**
   * The smallest and largest number of each numeric column, computed while the rows were spooled
   * (XLSX sizes its columns from them before it writes a row). A section without them is read
   * once more by a renderer that needs them.
   */
  readonly extents?: Extents;
  /** The rows, streamed again on each call; `Date` values come back as `Date`. */
  rows(): AsyncIterable<Row>;
  /**
   * Set when a PDF prints only {@link rowCount} rows of a longer section (`./pdf_detail.ts`): how
   * many rows the whole section has, which rows are printed (`the largest Shortfall cost`), a note
   * saying so and where the full list is, and all of its rows in the section's order (charts are
   * drawn from these).
   */
  readonly printedPart?: {
    readonly of: number;
    readonly which: string;
    readonly note: string;
    rows(): AsyncIterable<Row>;
  };
}

/**
 * Everything a renderer needs for one report run.
 *
 * @example
 * ```ts
 * import type { RenderDocument } from "./renderer.ts";
 * const doc: RenderDocument = {
 *   report: { id: "hello", title: "Hello", description: "A greeting." },
 *   generatedAt: new Date("2024-05-01T08:00:00Z"),
 *   source: "http://127.0.0.1:8787 (reference server, seed 1)",
 *   params: {},
 *   summary: [{ label: "Computers", value: 12, type: "integer" }],
 *   sections: [],
 *   version: "0.1.0",
 * };
 * console.log(doc.report.id);
 * ```
 */
export interface RenderDocument {
  /** The report definition's identity. */
  readonly report: {
    readonly id: string;
    readonly title: string;
    readonly description: string;
    readonly landscape?: boolean;
  };
  /** The run's clock. */
  readonly generatedAt: Date;
  /** Where the data came from, e.g. `http://127.0.0.1:8787 (reference server, seed 1)`. */
  readonly source: string;
  /** The parsed parameter values. */
  readonly params: ParamValues;
  /**
   * What the run covered: every declared parameter with its value and origin, and the filter.
   * Covers, the XLSX Summary and the JSON state it; absent, they list {@link params} only.
   */
  readonly scope?: ReportScope;
  /** Headline figures for the cover and summary. */
  readonly summary: readonly Fact[];
  /** The spooled sections, in order. */
  readonly sections: readonly RenderSection[];
  /** The samkit version that produced the document. */
  readonly version: string;
  /** The reporting currency and the rates its conversions used (absent: none asked for). */
  readonly reportingCurrency?: {
    readonly code: string;
    readonly rates: readonly {
      readonly currency: string;
      readonly rate: string;
      readonly date: string | null;
    }[];
  };
}

/**
 * Options for one render call.
 *
 * @example
 * ```ts
 * import type { RenderOptions } from "./renderer.ts";
 * const options: RenderOptions = { outDir: "./out", locale: "en-GB" };
 * console.log(options.outDir);
 * ```
 */
export interface RenderOptions {
  /** An existing folder; the renderer writes `<report-id>[-<section>].<ext>` into it. */
  readonly outDir: string;
  /** BCP 47 locale for human-readable formats (default `en-US`). */
  readonly locale?: string;
  /** Cancels the render; the renderer removes its temp files and rejects. */
  readonly signal?: AbortSignal;
  /** PDF only: a shared browser (`lib/render/browser.ts`); other renderers ignore it. */
  readonly browser?: BrowserHandle;
  /**
   * Files the same run wrote before this render (a PDF names the one that holds a long
   * section's full list).
   */
  readonly written?: readonly string[];
  /**
   * Your own look (`./theme.ts`: company, logo, colours, font, footer, templates) for HTML, PDF
   * and XLSX; CSV and JSON ignore it. Absent: samkit's look.
   */
  readonly theme?: Theme;
}

/**
 * A format's renderer.
 *
 * @example
 * ```ts
 * import type { Renderer } from "./renderer.ts";
 * const noop: Renderer = { format: "json", render: () => Promise.resolve([]) };
 * console.log(noop.format);
 * ```
 */
export interface Renderer {
  /** The format it writes. */
  readonly format: Format;
  /** Writes its files (temp name + rename) and returns their absolute paths. */
  render(doc: RenderDocument, options: RenderOptions): Promise<string[]>;
}

/** The default locale of human-readable output. */
export const DEFAULT_LOCALE = "en-US";

/** The default text of an empty section. */
export const DEFAULT_EMPTY_TEXT = "No data for these parameters.";
