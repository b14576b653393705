/**
 * The CSV renderer: one RFC 4180 file per section, `<report-id>-<section-id>.csv`, UTF-8 with a
 * byte order mark (so a spreadsheet opened by double-click reads UTF-8; `bom: false`, the CLI's
 * `--csv-bom=false`, for machines), CRLF record ends, a header row of column labels, and values
 * in their plain form: numbers without grouping, dates as RFC 3339 (`YYYY-MM-DD` for date
 * columns), booleans as `Yes`/`No` (the words every other format shows), currency amounts as numbers (the code is its own column when the
 * section has one), missing values as empty fields. Fields holding a comma, a quote, CR or LF are
 * quoted. Rows are streamed in batches. All files are written under temp names and renamed only
 * when every section is complete, so a failed render leaves no CSV behind. CSV is data, not
 * display: text keeps every character the API sent (bidirectional and other controls included),
 * where HTML, PDF and XLSX show invisible controls as visible escapes (`<U+202E>`).
 *
 * Formula injection (OWASP "CSV Injection"): a text field that starts with `=`, `+`, `-`, `@`, a
 * tab or a carriage return would be run as a formula by a spreadsheet program that opens the
 * file, so it is written with a `'` in front ({@link FORMULA_START}). Whether a field is text
 * follows the column type: a number column's -5 stays -5, a text column's "-5" becomes '-5.
 * `formulas: true` (the CLI's `--csv-formulas`) writes such text as it is.
 *
 * @module
 */

import { join } from "node:path";
import { reportFileName } from "../fs/safe_name.ts";
// @ts-types="./csv_stringify.d.ts"
import { stringify } from "csv-stringify/sync";
import type { CellValue, Column } from "../report/model.ts";
import { type AtomicTextWriter, openAtomicText } from "./atomic.ts";
import { formatBoolean, plainValue } from "./format.ts";
import type { RenderDocument, Renderer, RenderOptions, RenderSection } from "./renderer.ts";

/** Rows per stringify call. */
const BATCH = 500;

/** Options of {@link CsvRenderer}. */
export interface CsvRendererOptions {
  /**
   * Start each file with a UTF-8 byte order mark, so a spreadsheet program that opens the file
   * reads it as UTF-8 ("30–89 days" stays intact); default true (`--csv-bom=false` for machines).
   */
  readonly bom?: boolean;
  /**
   * Write text that a spreadsheet would run as a formula as it is; default false (it gets a
   * leading `'`, see {@link FORMULA_START}).
   */
  readonly formulas?: boolean;
}

/**
 * The first characters that make a spreadsheet program read a field as a formula.
 *
 * @example
 * ```ts
 * import { FORMULA_START } from "./csv.ts";
 * console.log(FORMULA_START.test('=HYPERLINK("http://x","click")')); // true
 * ```
 */
export const FORMULA_START: RegExp = /^[=+\-@\t\r]/;

/** Options of {@link csvField}. */
export interface CsvFieldOptions {
  /** Leave text that starts like a formula as it is (default false: prefix a `'`). */
  readonly formulas?: boolean;
}

/**
 * A cell as CSV text: numbers plain, dates RFC 3339, booleans `Yes`/`No` (the words HTML, PDF and
 * XLSX show), missing "", and
 * text that starts like a formula with a `'` in front (unless `formulas` is set).
 *
 * @example
 * ```ts
 * import { csvField } from "./csv.ts";
 * csvField(1234.5, "currency"); // "1234.5"
 * csvField(new Date("2024-01-05T00:00:00Z"), "date"); // "2024-01-05"
 * csvField(false, "boolean"); // "No"
 * csvField(-5, "integer"); // "-5"
 * csvField("-5", "text"); // "'-5"
 * csvField("=1+1", "text", { formulas: true }); // "=1+1"
 * ```
 */
export function csvField(
  value: CellValue | undefined,
  type: Column["type"],
  options: CsvFieldOptions = {},
): string {
  const plain = plainValue(value, type);
  if (plain === null) return "";
  if (typeof plain === "boolean") return formatBoolean(plain);
  if (typeof value === "string" && !options.formulas && FORMULA_START.test(value)) {
    return `'${plain}`;
  }
  return typeof plain === "number" ? numberText(plain) : plain;
}

/**
 * A finite number's text, as `String(value)` writes it. `String` keeps each result in V8's
 * number-to-string cache, an old-generation table: a fresh decimal's text stays referenced from
 * there through young-generation collections, is promoted, and only a full collection frees it,
 * so a million rows of amounts left ~40 MB of dead strings in the old generation (peak RSS at
 * 1,000,000 rows 1.5x that at 100,000; now about 1.05x). The JSON serializer writes the same
 * digits (ECMA-262 Number::toString) without the cache.
 */
function numberText(value: number): string {
  return JSON.stringify(value);
}

const STRINGIFY_OPTIONS = {
  record_delimiter: "\r\n",
  // csv-stringify quotes delimiters and quotes; RFC 4180 also wants CR and LF quoted.
  quoted_match: /[\r\n]/,
} as const;

/**
 * Stringifies records (arrays of text fields) as RFC 4180 lines, each ending in CRLF.
 *
 * @example
 * ```ts
 * import { csvLines } from "./csv.ts";
 * csvLines([["a,b", 'say "hi"', "x\ny"]]); // '"a,b","say ""hi""","x\ny"\r\n'
 * ```
 */
export function csvLines(records: readonly (readonly string[])[]): string {
  let out = "";
  for (const record of records) {
    // A record with nothing to quote is its fields joined, as csv-stringify would write it;
    // the rest go through csv-stringify (a million rows of plain fields took it 1.5 s).
    out += record.some((field) => NEEDS_QUOTES.test(field))
      ? stringify([record], STRINGIFY_OPTIONS)
      : `${record.join(",")}\r\n`;
  }
  return out;
}

/** What makes csv-stringify quote a field: the delimiter, the quote, CR or LF. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * The file name of a section's CSV, `<report-id>-<section-id>.csv`, made safe (section ids can
 * carry data, such as a currency code from the API).
 *
 * @example
 * ```ts
 * import { csvFileName } from "./csv.ts";
 * console.log(csvFileName("license-cost-summary", "by-publisher-gbp"));
 * // license-cost-summary-by-publisher-gbp.csv
 * console.log(csvFileName("elp", "exposure-x/../../pwned").includes("/")); // false
 * ```
 */
export function csvFileName(reportId: string, sectionId: string): string {
  return reportFileName(reportId, "csv", sectionId);
}

async function writeSection(
  out: AtomicTextWriter,
  section: RenderSection,
  options: CsvRendererOptions,
  signal?: AbortSignal,
): Promise<void> {
  const columns = section.columns;
  const labels = columns.map((c) => csvField(c.label, "text", options));
  await out.write((options.bom ? "\uFEFF" : "") + csvLines([labels]));
  let batch: string[][] = [];
  for await (const row of section.rows()) {
    batch.push(columns.map((column) => csvField(row[column.key], column.type, options)));
    if (batch.length >= BATCH) {
      signal?.throwIfAborted();
      await out.write(csvLines(batch));
      batch = [];
    }
  }
  if (batch.length > 0) await out.write(csvLines(batch));
}

/**
 * Writes one CSV file per section.
 *
 * @example
 * ```ts
 * import { CsvRenderer } from "./csv.ts";
 * import { memorySection } from "../report/spool.ts";
 * const files = await new CsvRenderer().render({
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
 * console.log(files[0].endsWith("demo-main.csv")); // true
 * ```
 */
export class CsvRenderer implements Renderer {
  /** The format. */
  readonly format = "csv" as const;
  #options: CsvRendererOptions;

  /** @param options BOM or not; formulas as they are or not. */
  constructor(options: CsvRendererOptions = {}) {
    this.#options = { bom: options.bom ?? true, formulas: options.formulas ?? false };
  }

  /** Writes every section's file under a temp name, then renames them all. */
  async render(doc: RenderDocument, options: RenderOptions): Promise<string[]> {
    options.signal?.throwIfAborted();
    const writers: AtomicTextWriter[] = [];
    try {
      for (const section of doc.sections) {
        options.signal?.throwIfAborted();
        const out = await openAtomicText(
          join(options.outDir, csvFileName(doc.report.id, section.id)),
        );
        writers.push(out);
        await writeSection(out, section, this.#options, options.signal);
        await out.close();
      }
      options.signal?.throwIfAborted();
      const paths: string[] = [];
      for (const out of writers) paths.push(await out.commit());
      return paths;
    } catch (error) {
      await Promise.all(writers.map((out) => out.abort()));
      throw error;
    }
  }
}
