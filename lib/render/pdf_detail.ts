/**
 * Long detail in a PDF: a section of more than `maxRows` rows prints the `maxRows` that matter
 * most and says which they are and where the full list is — the section's CSV, else the report's
 * XLSX or JSON written by the same run, named with its SHA-256 so a reader can tell the list is
 * the one that went with this PDF. Nobody reads 900 pages of installs; XLSX, CSV and JSON keep
 * every row.
 *
 * The rows that matter most: those a column flags as bad, then as a warning (the emphasis the
 * table shows), then the largest by the section's measure ({@link sectionMeasure}: what its bar
 * chart draws, else its money), else in the section's own order — unless that order is merely
 * alphabetical (a text column ascending over every row: the first rows would all be one
 * "Adobe Acrobat Pro"), when its last number column measures the rows. A row's place in the
 * section breaks ties. They are printed largest first, or, in a grouped section, in the section's
 * order (so its groups stay whole). The note says which rows these are, and that the totals and
 * the chart (only those the section has) are over every row.
 *
 * @module
 */

import { basename } from "node:path";
import { formatInteger } from "./format.ts";
import type { RenderDocument, RenderSection } from "./renderer.ts";
import type { Column, Row } from "../report/model.ts";
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

const NUMERIC = new Set(["number", "integer", "currency", "percent"]);

/**
 * The column a section's rows are measured by when only some can be printed: its bar chart's
 * value, else the first money column its totals sum, else its first money column; `undefined`
 * when it has neither (its own order then decides).
 *
 * @example
 * ```ts
 * import { sectionMeasure } from "./pdf_detail.ts";
 * console.log(sectionMeasure({
 *   columns: [
 *     { key: "application", label: "Application", type: "text" },
 *     { key: "installs", label: "Installs", type: "integer" },
 *     { key: "cost", label: "Cost to date", type: "currency" },
 *   ],
 * })?.label); // Cost to date
 * ```
 */
export function sectionMeasure(
  section: Pick<RenderSection, "columns" | "chart" | "totalsSpec">,
): Column | undefined {
  const numeric = section.columns.filter((c) => NUMERIC.has(c.type));
  const byKey = (key: string | undefined) => numeric.find((c) => c.key === key);
  const chart = section.chart?.type === "bar" ? byKey(section.chart.value) : undefined;
  const summed = (section.totalsSpec?.sum ?? []).map(byKey).filter((c) => c !== undefined);
  return chart ?? summed.find((c) => c.type === "currency") ??
    numeric.find((c) => c.type === "currency");
}

/** Orders text may be sorted in: as characters, and with runs of digits as numbers. */
const COLLATIONS = [
  (a: string, b: string) => a.localeCompare(b),
  new Intl.Collator(undefined, { numeric: true }).compare,
];

/**
 * Whether each text column's values ascend over the rows seen so far (an alphabetical order), as
 * characters ("Java 11" before "Java 8") or with numbers as numbers ("Java 8" before "Java 11").
 */
class AscendingText {
  #keys: string[];
  #last: (string | undefined)[];
  /** Per column, per collation: still ascending. */
  #ascending: boolean[][];

  constructor(columns: readonly Column[]) {
    this.#keys = columns.filter((c) => c.type === "text").map((c) => c.key);
    this.#last = this.#keys.map(() => undefined);
    this.#ascending = this.#keys.map(() => COLLATIONS.map(() => true));
  }

  add(row: Row): void {
    this.#keys.forEach((key, i) => {
      const ascending = this.#ascending[i];
      if (!ascending.some((a) => a)) return;
      const value = row[key];
      const text = value === null || value === undefined ? "" : String(value);
      const last = this.#last[i];
      if (last !== undefined) {
        COLLATIONS.forEach((compare, c) => {
          if (ascending[c] && compare(text, last) < 0) ascending[c] = false;
        });
      }
      this.#last[i] = text;
    });
  }

  /** Whether some text column with two or more different values ascended over every row. */
  get any(): boolean {
    return this.#ascending.some((a, i) => a.some((b) => b) && this.#last[i] !== undefined);
  }
}

/** How much a row's flags weigh: 2 when a column marks it bad, 1 for a warning, else 0. */
function riskOf(row: Row, flagged: readonly Column[]): number {
  let risk = 0;
  for (const column of flagged) {
    let emphasis: string | undefined;
    try {
      emphasis = column.emphasis!(row);
    } catch {
      emphasis = undefined;
    }
    if (emphasis === "bad") return 2;
    if (emphasis === "warn") risk = 1;
  }
  return risk;
}

/** Which rows of a long section are printed, and how the note names them. */
interface Selection {
  /** The printed rows' places in the section, in the order they are printed. */
  readonly order: Uint32Array;
  /** How the printed rows were chosen, for the note and the row count line. */
  readonly which: string;
}

/** Chooses the `max` rows that matter most (see the module documentation). */
async function selectRows(section: RenderSection, max: number): Promise<Selection> {
  const flagged = section.columns.filter((c) => c.emphasis !== undefined);
  const count = section.rowCount;
  const risk = new Uint8Array(count);
  // Sizes of the section's measure, and of its last number column (the measure of a section in
  // alphabetical order): at most two numbers per row.
  const explicit = sectionMeasure(section);
  const last = section.columns.findLastIndex((c) => NUMERIC.has(c.type));
  const numeric = [...new Set([explicit ? section.columns.indexOf(explicit) : -1, last])]
    .filter((i) => i >= 0);
  const sizes = new Map(numeric.map((i) => [i, new Float64Array(count)]));
  const alphabetical = new AscendingText(section.columns);
  let n = 0;
  for await (const row of section.rows()) {
    if (n >= count) break;
    if (flagged.length > 0) risk[n] = riskOf(row, flagged);
    for (const i of numeric) {
      const value = row[section.columns[i].key];
      sizes.get(i)![n] = typeof value === "number" && Number.isFinite(value) ? value : -Infinity;
    }
    alphabetical.add(row);
    n++;
  }
  const measure = explicit ?? (alphabetical.any && last >= 0 ? section.columns[last] : undefined);
  const size = measure ? sizes.get(section.columns.indexOf(measure)) : undefined;
  const places = Uint32Array.from({ length: n }, (_, i) => i);
  places.sort((a, b) => risk[b] - risk[a] || (size ? size[b] - size[a] : 0) || a - b);
  const chosen = places.slice(0, max);
  // A grouped section keeps its order, so its groups and their subtotals stay whole.
  if (section.group) chosen.sort();
  return { order: chosen, which: selectionText(flagged.length > 0, measure, !!section.group) };
}

/** How the printed rows were chosen, in words. */
function selectionText(flags: boolean, measure: Column | undefined, grouped: boolean): string {
  const flagsFirst = flags ? "flagged rows first, then " : "";
  if (!measure) return `${flagsFirst}in the table's order`;
  return grouped
    ? `${flagsFirst}those with the largest ${measure.label}, in the table's order`
    : `${flagsFirst}the largest ${measure.label} first`;
}

/** The chosen rows, read from the section and put in their printed order. */
async function chosenRows(section: RenderSection, order: Uint32Array): Promise<Row[]> {
  const rank = new Map<number, number>();
  order.forEach((place, i) => rank.set(place, i));
  const rows: Row[] = new Array(order.length);
  let place = 0;
  let found = 0;
  for await (const row of section.rows()) {
    const at = rank.get(place++);
    if (at !== undefined) {
      rows[at] = row;
      if (++found === order.length) break;
    }
    if (place >= section.rowCount) break;
  }
  return rows.filter((r) => r !== undefined);
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

/** What of the whole section the printed part still shows: its totals, its chart. */
function wholeParts(section: RenderSection): string | undefined {
  const totals = (section.totalsSpec?.sum.length ?? 0) > 0 &&
    Object.keys(section.totals).length > 0;
  const parts = [totals ? "totals" : "", section.chart ? "chart" : ""].filter((p) => p);
  return parts.length === 0 ? undefined : `the ${parts.join(" and the ")}`;
}

async function note(
  doc: RenderDocument,
  section: RenderSection,
  printed: number,
  which: string,
  options: PrintedDocumentOptions,
): Promise<string> {
  const fmt = (n: number) => formatInteger(n, { locale: options.locale });
  const of = fmt(section.rowCount);
  const whole = wholeParts(section);
  const shown = `This PDF prints ${fmt(printed)} of the ${of} rows: ${which}.` +
    (whole ? ` ${whole[0].toUpperCase()}${whole.slice(1)} cover all ${of} rows.` : "");
  const file = fullListFile(doc, section, options.written ?? []);
  if (!file) return `${shown} The full list is in this report's XLSX, CSV and JSON files.`;
  return `${shown} The full list: ${basename(file)} (SHA-256 ${await sha256Hex(file)}).`;
}

/**
 * The document as a PDF prints it: each section longer than `maxRows` cut to the `maxRows` rows
 * that matter most, with {@link RenderSection.printedPart} saying which they are, what was left
 * out and where it is. Sections within the limit are the same objects.
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
 * console.log(printed.sections[0].printedPart?.which); // in the table's order
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
    const { order, which } = await selectRows(section, max);
    let rows: Promise<Row[]> | undefined;
    sections.push({
      ...section,
      rowCount: order.length,
      rows: async function* () {
        yield* await (rows ??= chosenRows(section, order));
      },
      printedPart: {
        of: section.rowCount,
        which,
        note: await note(doc, section, order.length, which, options),
        rows: () => section.rows(),
      },
    });
  }
  return { ...doc, sections };
}
