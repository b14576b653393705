/**
 * Benchmark of the renderers against the raw libraries they wrap, on the same rows in one run:
 * XLSX (samkit's styled, typed workbook vs exceljs' `WorkbookWriter` given plain rows), CSV
 * (samkit vs `csv-stringify` of the whole array), JSON (samkit's streamed document vs
 * `JSON.stringify` of the array), and PDF pages per second (samkit's chunked, merged, stamped
 * PDF vs one plain `page.pdf` of the same HTML).
 *
 * Peak memory is sampled with `Deno.memoryUsage()` every 10 ms while each task runs (and before
 * and after it, since a synchronous call such as `JSON.stringify` blocks the sampler) and shown as
 * growth over the task's start: the rows themselves (in memory for every task) are not counted.
 * RSS rarely shrinks within a process, so a later task's RSS growth can hide in an earlier one's;
 * the heap growth is the figure to compare. The browser's own memory is not included.
 *
 * @example
 * ```ts
 * import { benchRender } from "./render_bench.ts";
 * await benchRender();
 * ```
 *
 * @module
 */

import ExcelJS from "exceljs";
// @ts-types="../lib/render/csv_stringify.d.ts"
import { stringify } from "csv-stringify/sync";
import { PDFDocument } from "pdf-lib";
import { CsvRenderer } from "../lib/render/csv.ts";
import { JsonRenderer } from "../lib/render/json.ts";
import { XlsxRenderer } from "../lib/render/xlsx.ts";
import { PdfRenderer, PRINT_OPTIONS } from "../lib/render/pdf.ts";
import { renderHtmlString } from "../lib/render/html.ts";
import { launchBrowser } from "../lib/render/browser.ts";
import type { RenderDocument } from "../lib/render/renderer.ts";
import type { Column, Row } from "../lib/report/model.ts";
import { memorySection } from "../lib/report/spool.ts";

/** Options of {@link benchRender}. */
export interface BenchRenderOptions {
  /** Rows for XLSX, CSV and JSON (default 100 000). */
  readonly rows?: number;
  /** Rows of the PDF document (default 12 000, about 300 pages: one plain `page.pdf` copes). */
  readonly pdfRows?: number;
  /** Skip the PDF part (no browser needed). */
  readonly skipPdf?: boolean;
}

const COLUMNS: Column[] = [
  { key: "id", label: "Computer", type: "text" },
  { key: "seats", label: "Seats", type: "integer" },
  { key: "cost", label: "Annual cost", type: "currency" },
  { key: "usage", label: "Usage", type: "percent" },
  { key: "renewal", label: "Renewal", type: "date" },
  { key: "seen", label: "Last seen", type: "datetime" },
  { key: "covered", label: "Covered", type: "boolean" },
];

function makeRows(count: number): Row[] {
  const start = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, i) => ({
    id: `PC-${String(i).padStart(7, "0")}`,
    seats: (i * 7) % 500,
    cost: Math.round(i * 137.31) / 100,
    currency: ["EUR", "USD", "GBP"][i % 3],
    usage: (i % 100) / 100,
    renewal: new Date(start + (i % 730) * 86_400_000),
    seen: new Date(start + i * 60_000),
    covered: i % 7 !== 0,
  }));
}

function makeDoc(rows: Row[]): RenderDocument {
  return {
    report: { id: "bench", title: "Render benchmark", description: "Synthetic rows." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "bench",
    params: {},
    summary: [],
    sections: [
      memorySection({
        id: "rows",
        title: "Rows",
        columns: COLUMNS,
        rows,
        totals: { sum: ["seats", "cost"], perCurrency: "currency" },
      }),
    ],
    version: "bench",
  };
}

/** exceljs' streaming writer used directly: a header row, then the plain values. */
async function writeRawXlsx(rows: readonly Row[], filename: string): Promise<void> {
  const keys = COLUMNS.map((c) => c.key);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename });
  const ws = wb.addWorksheet("Rows");
  ws.addRow(COLUMNS.map((c) => c.label)).commit();
  for (const row of rows) ws.addRow(keys.map((k) => row[k])).commit();
  ws.commit();
  await wb.commit();
}

/** The result of one measured task. */
interface Measure {
  readonly ms: number;
  readonly heapGrowth: number;
  readonly rssGrowth: number;
}

/** Runs `task`, sampling memory; returns its time and memory peaks. */
async function measure(task: () => Promise<unknown>): Promise<Measure> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = Deno.memoryUsage();
  let peakHeap = start.heapUsed;
  let peakRss = start.rss;
  const sample = () => {
    const m = Deno.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  };
  const timer = setInterval(sample, 10);
  const t0 = performance.now();
  try {
    await task();
  } finally {
    sample();
    clearInterval(timer);
  }
  return {
    ms: performance.now() - t0,
    heapGrowth: Math.max(0, peakHeap - start.heapUsed),
    rssGrowth: Math.max(0, peakRss - start.rss),
  };
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;
const perSecond = (count: number, ms: number) => Math.round(count / (ms / 1000));
const pad = (text: string, width: number) => text.padEnd(width);

function line(label: string, unit: string, count: number, ours: Measure, raw: Measure): string {
  const a = perSecond(count, ours.ms);
  const b = perSecond(count, raw.ms);
  return [
    pad(label, 6),
    pad(`${a.toLocaleString("en-US")} ${unit}/s`, 20),
    pad(`${b.toLocaleString("en-US")} ${unit}/s`, 20),
    pad(`${(raw.ms / ours.ms).toFixed(2)}x`, 8),
    pad(`+${mb(ours.heapGrowth)} / +${mb(ours.rssGrowth)}`, 20),
    `+${mb(raw.heapGrowth)} / +${mb(raw.rssGrowth)}`,
  ].join(" ");
}

/**
 * Runs the benchmark and prints one table: per format, samkit's and the raw library's rows (or
 * pages) per second, the speed ratio (samkit ÷ raw: 1.00x is parity, 0.50x half as fast), and
 * peak heap / RSS growth of each.
 *
 * @example
 * ```ts
 * import { benchRender } from "./render_bench.ts";
 * await benchRender({ rows: 20_000, skipPdf: true });
 * ```
 */
export async function benchRender(options: BenchRenderOptions = {}): Promise<void> {
  const count = options.rows ?? 100_000;
  const rows = makeRows(count);
  const doc = makeDoc(rows);
  const dir = await Deno.makeTempDir({ prefix: "samkit-bench-render-" });
  const keys = COLUMNS.map((c) => c.key);
  const out: string[] = [];
  try {
    // Warm up (JIT, module caches) so the task measured first is not penalised.
    const warm = makeDoc(rows.slice(0, 5_000));
    await new XlsxRenderer().render(warm, { outDir: dir });
    await writeRawXlsx(rows.slice(0, 5_000), `${dir}/warm.xlsx`);
    await new CsvRenderer().render(warm, { outDir: dir });
    await new JsonRenderer().render(warm, { outDir: dir });

    // XLSX: samkit (summary sheet, styles per cell, currency formats per row, widths, totals)
    // against exceljs' streaming writer given the plain values.
    const xlsx = await measure(() => new XlsxRenderer().render(doc, { outDir: dir }));
    const xlsxRaw = await measure(() => writeRawXlsx(rows, `${dir}/raw.xlsx`));
    out.push(line("xlsx", "rows", count, xlsx, xlsxRaw));

    const csv = await measure(() => new CsvRenderer().render(doc, { outDir: dir }));
    const csvRaw = await measure(async () => {
      const records = rows.map((row) =>
        keys.map((k) => {
          const v = row[k];
          return v instanceof Date ? v.toISOString() : v;
        })
      );
      records.unshift(COLUMNS.map((c) => c.label));
      await Deno.writeTextFile(`${dir}/raw.csv`, stringify(records, { record_delimiter: "\r\n" }));
    });
    out.push(line("csv", "rows", count, csv, csvRaw));

    const json = await measure(() => new JsonRenderer().render(doc, { outDir: dir }));
    const jsonRaw = await measure(async () => {
      await Deno.writeTextFile(`${dir}/raw.json`, JSON.stringify(rows));
    });
    out.push(line("json", "rows", count, json, jsonRaw));

    if (!options.skipPdf) {
      const pdfRows = options.pdfRows ?? 12_000;
      const pdfDoc = makeDoc(rows.slice(0, pdfRows));
      const browser = launchBrowser();
      try {
        await (await browser.newPage()).close(); // start the browser outside the timings
        const renderer = new PdfRenderer();
        const pdf = await measure(() => renderer.render(pdfDoc, { outDir: dir, browser }));
        const pages = renderer.stats!.pages;
        // The plain way: the whole HTML, one setContent, one page.pdf (no stamping, no outline).
        let rawPages = 0;
        const pdfRaw = await measure(async () => {
          const html = await renderHtmlString(pdfDoc, { forPrint: true });
          const page = await browser.newPage();
          try {
            await page.setJavaScriptEnabled(false);
            await page.setContent(html, { waitUntil: "load", timeout: 600_000 });
            const bytes = await page.pdf({ ...PRINT_OPTIONS, timeout: 600_000 });
            await Deno.writeFile(`${dir}/raw.pdf`, bytes);
            rawPages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
          } finally {
            await page.close();
          }
        });
        out.push(line("pdf", "pages", pages, pdf, { ...pdfRaw, ms: pdfRaw.ms * pages / rawPages }));
        out.push(
          `       pdf: ${pages} pages in ${renderer.stats!.chunks} chunks ` +
            `(${rows.length > 0 ? renderer.stats!.rowsPerChunk : 0} rows each) in ` +
            `${(pdf.ms / 1000).toFixed(1)} s; plain page.pdf: ${rawPages} pages in ` +
            `${(pdfRaw.ms / 1000).toFixed(1)} s; samkit phases (ms): ` +
            Object.entries(renderer.stats!.timings).map(([k, v]) => `${k} ${v.toFixed(0)}`)
              .join(", "),
        );
      } finally {
        await browser.close();
      }
    }

    console.log(
      `render bench: ${count.toLocaleString("en-US")} rows x ${COLUMNS.length} columns ` +
        `(ratio = samkit speed / raw speed; memory = peak growth of heap / RSS)`,
    );
    console.log(
      [
        pad("format", 6),
        pad("samkit", 20),
        pad("raw library", 20),
        pad("ratio", 8),
        pad("samkit memory", 20),
        "raw memory",
      ].join(" "),
    );
    for (const text of out) console.log(text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  await benchRender({
    rows: Deno.args[0] ? Number(Deno.args[0]) : undefined,
    pdfRows: Deno.args[1] ? Number(Deno.args[1]) : undefined,
  });
}
