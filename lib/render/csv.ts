/**
 * The CSV renderer: one RFC 4180 file per section, `<report-id>-<section-id>.csv`, UTF-8 (no BOM
 * unless asked for), CRLF record ends, a header row of column labels, and values in their plain
 * machine form: numbers without grouping, dates as RFC 3339 (`YYYY-MM-DD` for date columns),
 * booleans as `true`/`false`, currency amounts as numbers (the code is its own column when the
 * section has one), missing values as empty fields. Fields holding a comma, a quote, CR or LF are
 * quoted. Rows are streamed in batches. All files are written under temp names and renamed only
 * when every section is complete, so a failed render leaves no CSV behind.
 *
 * @module
 */

import { join } from "node:path";
// @ts-types="./csv_stringify.d.ts"
import { stringify } from "csv-stringify/sync";
import type { CellValue, Column } from "../report/model.ts";
import { type AtomicTextWriter, openAtomicText } from "./atomic.ts";
import { plainValue } from "./format.ts";
import type { RenderDocument, Renderer, RenderOptions, RenderSection } from "./renderer.ts";

/** Rows per stringify call. */
const BATCH = 500;

/** Options of {@link CsvRenderer}. */
export interface CsvRendererOptions {
  /** Start each file with a UTF-8 byte order mark (for spreadsheet programs); default false. */
  readonly bom?: boolean;
}

/**
 * A cell as CSV text: numbers plain, dates RFC 3339, booleans `true`/`false`, missing "".
 *
 * @example
 * ```ts
 * import { csvField } from "./csv.ts";
 * csvField(1234.5, "currency"); // "1234.5"
 * csvField(new Date("2024-01-05T00:00:00Z"), "date"); // "2024-01-05"
 * csvField(false, "boolean"); // "false"
 * ```
 */
export function csvField(value: CellValue | undefined, type: Column["type"]): string {
  const plain = plainValue(value, type);
  return plain === null ? "" : String(plain);
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
  return stringify(records, STRINGIFY_OPTIONS);
}

/** The file name of a section's CSV. */
export function csvFileName(reportId: string, sectionId: string): string {
  return `${reportId}-${sectionId}.csv`;
}

async function writeSection(
  out: AtomicTextWriter,
  section: RenderSection,
  bom: boolean,
  signal?: AbortSignal,
): Promise<void> {
  const columns = section.columns;
  await out.write((bom ? "\uFEFF" : "") + csvLines([columns.map((c) => c.label)]));
  let batch: string[][] = [];
  for await (const row of section.rows()) {
    batch.push(columns.map((column) => csvField(row[column.key], column.type)));
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
  #bom: boolean;

  /** @param options BOM or not. */
  constructor(options: CsvRendererOptions = {}) {
    this.#bom = options.bom ?? false;
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
        await writeSection(out, section, this.#bom, options.signal);
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
