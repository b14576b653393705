/**
 * Long detail in a PDF: a section of more than `maxRows` rows prints its first `maxRows` and says
 * where the full list is — the section's CSV, else the report's XLSX or JSON written by the same
 * run, named with its SHA-256 so a reader can tell the list is the one that went with this PDF.
 * Nobody reads 900 pages of installs; XLSX, CSV and JSON keep every row. Totals and charts stay
 * those of the whole section (the note says so).
 *
 * @module
 */

import { basename } from "node:path";
import { formatInteger } from "./format.ts";
import type { RenderDocument, RenderSection } from "./renderer.ts";
import { readRegularFile } from "../fs/regular_file.ts";

/**
 * Rows a PDF prints of one section by default: about 20 landscape pages, so a report of a
 * 3,000-computer estate with a few detail sections stays near 100 pages.
 *
 * @example
 * ```ts
 * import { DEFAULT_PDF_DETAIL_ROWS } from "./pdf_detail.ts";
 * console.log(DEFAULT_PDF_DETAIL_ROWS); // 500
 * ```
 */
export const DEFAULT_PDF_DETAIL_ROWS = 500;

/** Options of {@link printedDocument}. */
export interface PrintedDocumentOptions {
  /** The most rows printed of one section (0 or Infinity: every row). */
  readonly maxRows: number;
  /** Files the same run wrote before the PDF (candidates for "the full list"). */
  readonly written?: readonly string[];
  /** BCP 47 locale of the note's numbers. */
  readonly locale?: string;
}

async function sha256Hex(path: string): Promise<string> {
  const bytes = await readRegularFile(path);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The file that holds the whole of `section`: its CSV, else the report's XLSX, else its JSON. */
function fullListFile(
  doc: RenderDocument,
  section: RenderSection,
  written: readonly string[],
): string | undefined {
  const names = [
    `${doc.report.id}-${section.id}.csv`,
    `${doc.report.id}.xlsx`,
    `${doc.report.id}.json`,
  ];
  for (const name of names) {
    const hit = written.find((path) => basename(path) === name);
    if (hit) return hit;
  }
  // A CSV name made safe by the CSV renderer still starts with the report and section ids.
  return written.find((path) =>
    basename(path).startsWith(`${doc.report.id}-${section.id}`) && path.endsWith(".csv")
  );
}

async function note(
  doc: RenderDocument,
  section: RenderSection,
  options: PrintedDocumentOptions,
): Promise<string> {
  const fmt = (n: number) => formatInteger(n, { locale: options.locale });
  const shown = `This PDF prints the first ${fmt(options.maxRows)} of ${fmt(section.rowCount)} ` +
    "rows; the totals and the chart are over all of them.";
  const file = fullListFile(doc, section, options.written ?? []);
  if (!file) {
    return `${shown} The full list is in this report's XLSX, CSV and JSON ` +
      `(deno task report ${doc.report.id} --format xlsx,csv,json).`;
  }
  return `${shown} The full list: ${basename(file)} (SHA-256 ${await sha256Hex(file)}).`;
}

async function* firstRows(section: RenderSection, max: number) {
  if (max <= 0) return;
  let n = 0;
  for await (const row of section.rows()) {
    yield row;
    if (++n >= max) return;
  }
}

/**
 * The document as a PDF prints it: each section longer than `maxRows` cut to its first
 * `maxRows` rows, with {@link RenderSection.printedPart} saying what was left out and where it
 * is. Sections within the limit are the same objects.
 *
 * @example
 * ```ts
 * import { printedDocument } from "./pdf_detail.ts";
 * const rows = Array.from({ length: 3 }, (_, n) => ({ n }));
 * const doc = {
 *   report: { id: "r", title: "R", description: "" }, generatedAt: new Date(0), source: "s",
 *   params: {}, summary: [], version: "0",
 *   sections: [{
 *     id: "all", title: "All", columns: [{ key: "n", label: "N", type: "integer" as const }],
 *     rowCount: 3, totals: {}, async *rows() { yield* rows; },
 *   }],
 * };
 * const printed = await printedDocument(doc, { maxRows: 2 });
 * console.log(printed.sections[0].rowCount, printed.sections[0].printedPart?.of); // 2 3
 * ```
 */
export async function printedDocument(
  doc: RenderDocument,
  options: PrintedDocumentOptions,
): Promise<RenderDocument> {
  const max = options.maxRows;
  if (!(max > 0) || !Number.isFinite(max)) return doc;
  if (doc.sections.every((s) => s.rowCount <= max)) return doc;
  const sections: RenderSection[] = [];
  for (const section of doc.sections) {
    if (section.rowCount <= max) {
      sections.push(section);
      continue;
    }
    sections.push({
      ...section,
      rowCount: max,
      rows: () => firstRows(section, max),
      printedPart: {
        of: section.rowCount,
        note: await note(doc, section, options),
        rows: () => section.rows(),
      },
    });
  }
  return { ...doc, sections };
}
