/**
 * Benchmark of the renderers against the raw libraries they wrap, on the same rows: XLSX
 * (samkit's styled, typed workbook vs exceljs' `WorkbookWriter` given plain rows), CSV (samkit vs
 * `csv-stringify` of the whole array), JSON (samkit's streamed document vs `JSON.stringify` of
 * the array), each at 100,000 and 1,000,000 rows, then PDF pages per second (samkit's chunked,
 * merged, stamped PDF vs one plain `page.pdf` of the same HTML) and a 1,500-page print.
 *
 * Each XLSX/CSV/JSON figure is measured in a child process of its own (`deno run … --child`), so
 * one size's or one library's memory cannot hide in another's: CPU time (user + system) and wall
 * time of the task, and the child's peak RSS (sampled every 10 ms and after the task); each child
 * runs with the V8 flags of `deno task report` (a capped young generation). samkit's
 * rows are produced as they are read, as a report's spooled rows are; the raw baselines get the
 * array they need. A baseline (or a child) that fails is printed as `failed: <reason>`; samkit's
 * own figures print regardless. `SAMKIT_BENCH_ROWS=100000` (comma-separated) picks the sizes,
 * `SAMKIT_BENCH_FORMATS=xlsx` (comma-separated) the formats. With more than one size, a last line
 * gives the XLSX peak RSS at the largest size over the smallest, samkit's against its goal of
 * 1.30x and raw exceljs' for comparison.
 *
 * @example
 * ```ts
 * import { benchRender } from "./render_bench.ts";
 * await benchRender({ sizes: [20_000], skipPdf: true });
 * ```
 *
 * @module
 */

import ExcelJS from "exceljs";
import { reportV8Flags } from "./v8_flags.ts";
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
import process from "node:process";
import { stateGoal } from "./goals.ts";

/** Options of {@link benchRender}. */
export interface BenchRenderOptions {
  /** Row counts for XLSX, CSV and JSON (default 100,000 and 1,000,000). */
  readonly sizes?: readonly number[];
  /** Rows of the PDF pages-per-second document (default 12,000, about 300 pages). */
  readonly pdfRows?: number;
  /** Rows of the long print (default 60,000, about 1,500 pages). */
  readonly printRows?: number;
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

const START = Date.UTC(2024, 0, 1);

function rowAt(i: number): Row {
  return {
    id: `PC-${String(i).padStart(7, "0")}`,
    seats: (i * 7) % 500,
    cost: Math.round(i * 137.31) / 100,
    currency: ["EUR", "USD", "GBP"][i % 3],
    usage: (i % 100) / 100,
    renewal: new Date(START + (i % 730) * 86_400_000),
    seen: new Date(START + i * 60_000),
    covered: i % 7 !== 0,
  };
}

/** The most seats among the first `count` rows ((i × 7) mod 500 reaches 499 within 500 rows). */
function maxSeats(count: number): number {
  let max = 0;
  for (let i = 0; i < Math.min(count, 500); i++) max = Math.max(max, (i * 7) % 500);
  return max;
}

function makeRows(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => rowAt(i));
}

function docOf(sections: RenderDocument["sections"]): RenderDocument {
  return {
    report: { id: "bench", title: "Render benchmark", description: "Synthetic rows." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "bench",
    params: {},
    summary: [],
    sections,
    version: "bench",
  };
}

/** A document over an array (totals per currency computed). */
function makeDoc(rows: Row[]): RenderDocument {
  return docOf([
    memorySection({
      id: "rows",
      title: "Rows",
      columns: COLUMNS,
      rows,
      totals: { sum: ["seats", "cost"], perCurrency: "currency" },
    }),
  ]);
}

/**
 * A document whose rows are made as they are read, as spooled rows are (nothing held), with the
 * numeric extents a spooled section carries (known here without a pass: {@link rowAt}'s values
 * grow with `i` or cycle), so XLSX sizes its columns without reading the rows twice, as it does
 * for a report.
 */
function streamDoc(count: number): RenderDocument {
  const last = rowAt(Math.max(0, count - 1));
  return docOf([{
    id: "rows",
    title: "Rows",
    columns: COLUMNS,
    rowCount: count,
    totals: {},
    extents: {
      seats: { min: 0, max: maxSeats(count) },
      cost: { min: 0, max: last.cost as number },
      usage: { min: 0, max: count >= 100 ? 0.99 : (count - 1) / 100 },
    },
    rows: async function* () {
      for (let i = 0; i < count; i++) yield rowAt(i);
    },
  }]);
}

/** exceljs' streaming writer used directly: a header row, then the plain values. */
async function writeRawXlsx(rows: Iterable<Row>, filename: string): Promise<void> {
  const keys = COLUMNS.map((c) => c.key);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename });
  const ws = wb.addWorksheet("Rows");
  ws.addRow(COLUMNS.map((c) => c.label)).commit();
  let n = 0;
  for (const row of rows) {
    ws.addRow(keys.map((k) => row[k])).commit();
    if ((++n & 1023) === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  ws.commit();
  await wb.commit();
}

function* generated(count: number): Iterable<Row> {
  for (let i = 0; i < count; i++) yield rowAt(i);
}

/** The tasks a child process can run: `<format>:<samkit|raw>`. */
const TASKS: Record<string, (count: number, dir: string) => Promise<unknown>> = {
  "xlsx:samkit": (n, dir) => new XlsxRenderer().render(streamDoc(n), { outDir: dir }),
  "xlsx:raw": (n, dir) => writeRawXlsx(generated(n), `${dir}/raw.xlsx`),
  "csv:samkit": (n, dir) => new CsvRenderer().render(streamDoc(n), { outDir: dir }),
  "csv:raw": async (n, dir) => {
    const keys = COLUMNS.map((c) => c.key);
    const records: unknown[][] = [COLUMNS.map((c) => c.label)];
    for (const row of generated(n)) {
      records.push(keys.map((k) => {
        const v = row[k];
        return v instanceof Date ? v.toISOString() : v;
      }));
    }
    await Deno.writeTextFile(`${dir}/raw.csv`, stringify(records, { record_delimiter: "\r\n" }));
  },
  "json:samkit": (n, dir) => new JsonRenderer().render(streamDoc(n), { outDir: dir }),
  "json:raw": (n, dir) => Deno.writeTextFile(`${dir}/raw.json`, JSON.stringify(makeRows(n))),
};

/** The result of one measured task. */
interface Measure {
  readonly ms: number;
  readonly cpuMs: number;
  readonly peakRss: number;
}

/** Runs `task` in this process, sampling RSS; returns its wall and CPU time and peak RSS. */
async function measure(task: () => Promise<unknown>): Promise<Measure> {
  let peakRss = Deno.memoryUsage().rss;
  const sample = () => {
    peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
  };
  const timer = setInterval(sample, 10);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  try {
    await task();
  } finally {
    sample();
    clearInterval(timer);
  }
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t0, cpuMs: (used.user + used.system) / 1000, peakRss };
}

/** Runs one task in a child process (after a 5,000-row warm-up there); its measure or an error. */
async function inChild(task: string, count: number): Promise<Measure | Error> {
  const script = new URL(import.meta.url).pathname;
  try {
    const output = await new Deno.Command("deno", {
      args: [
        "run",
        ...await reportV8Flags(),
        "--quiet",
        "--allow-read",
        "--allow-write=/tmp",
        "--allow-env",
        "--allow-sys",
        script,
        "--child",
        task,
        String(count),
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      // The child's own error line (deno prints `error: …`), else its last lines.
      const lines = new TextDecoder().decode(output.stderr).trim().split("\n");
      const err = lines.find((l) => l.startsWith("error: ")) ?? lines.slice(-3).join(" ");
      return new Error(`exit ${output.code}: ${err.slice(0, 200)}`);
    }
    return JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").at(-1)!);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The child side of {@link inChild}: prints one JSON measure. */
async function runChild(task: string, count: number): Promise<void> {
  const run = TASKS[task];
  if (!run) throw new Error(`unknown render bench task "${task}"`);
  const dir = await Deno.makeTempDir({ prefix: "samkit-bench-render-" });
  try {
    await run(5_000, dir); // warm-up: JIT and module caches
    console.log(JSON.stringify(await measure(() => run(count, dir))));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;
const perSecond = (count: number, ms: number) => Math.round(count / (ms / 1000));
const pad = (text: string, width: number) => text.padEnd(width);
const failed = (error: unknown) =>
  `failed: ${error instanceof Error ? error.message : String(error)}`;

function figures(count: number, unit: string, m: Measure | Error): string {
  if (m instanceof Error) return pad(failed(m), 44);
  return pad(
    `${perSecond(count, m.ms).toLocaleString("en-US")} ${unit}/s cpu ${
      (m.cpuMs / 1000).toFixed(2)
    } s rss ${mb(m.peakRss)}`,
    44,
  );
}

function ratio(ours: Measure | Error, raw: Measure | Error): string {
  if (ours instanceof Error || raw instanceof Error) return "-";
  return `${(ours.cpuMs / raw.cpuMs).toFixed(2)}x cpu`;
}

/** The XLSX renderer's allowed peak-RSS growth from the smallest size to the largest. */
const XLSX_RSS_GOAL = 1.3;

/** The XLSX renderer's allowed CPU over raw exceljs' at the largest size. */
const XLSX_CPU_GOAL = 1.15;

/** Peak RSS at the largest size over the smallest, of samkit and raw exceljs, against the goal. */
function xlsxRssLine(
  sizes: readonly number[],
  rss: Map<number, { ours: Measure | Error; raw: Measure | Error }>,
): string {
  const first = sizes[0];
  const last = sizes.at(-1)!;
  const growth = (pick: "ours" | "raw") => {
    const a = rss.get(first)?.[pick];
    const b = rss.get(last)?.[pick];
    if (!a || !b || a instanceof Error || b instanceof Error) return undefined;
    return b.peakRss / a.peakRss;
  };
  const ours = growth("ours");
  const raw = growth("raw");
  const label = `XLSX peak RSS at ${last.toLocaleString("en-US")} rows / at ${
    first.toLocaleString("en-US")
  } rows`;
  const verdict = stateGoal(label, ours, "<=", XLSX_RSS_GOAL, { digits: 3 });
  return `xlsx peak RSS ${last.toLocaleString("en-US")} rows / ${
    first.toLocaleString("en-US")
  } rows: samkit ${verdict}; raw exceljs ${raw === undefined ? "failed" : `${raw.toFixed(2)}x`}`;
}

/**
 * Measures each format (XLSX, CSV and JSON unless `SAMKIT_BENCH_FORMATS` names fewer) at each
 * size, printing each line as it is measured, then the XLSX peak-RSS growth against its goal.
 */
async function benchFormats(sizes: readonly number[]): Promise<void> {
  const formats = (Deno.env.get("SAMKIT_BENCH_FORMATS") ?? "xlsx,csv,json").split(",")
    .map((f) => f.trim()).filter((f) => TASKS[`${f}:samkit`]);
  console.log(
    `rows x ${COLUMNS.length} columns, one child process per figure ` +
      `(ratio = samkit CPU / raw CPU: 1.00x parity, lower is better; rss = child's peak)`,
  );
  console.log([pad("format", 16), pad("samkit", 44), pad("raw library", 44), "ratio"].join(" "));
  const xlsxRss = new Map<number, { ours: Measure | Error; raw: Measure | Error }>();
  for (const count of sizes) {
    for (const format of formats) {
      const ours = await inChild(`${format}:samkit`, count);
      const raw = await inChild(`${format}:raw`, count);
      if (format === "xlsx") xlsxRss.set(count, { ours, raw });
      const label = `${format} ${count.toLocaleString("en-US")}`;
      console.log(
        [
          pad(label, 16),
          figures(count, "rows", ours),
          figures(count, "rows", raw),
          ratio(ours, raw),
        ]
          .join(" "),
      );
    }
  }
  const largest = xlsxRss.get(sizes.at(-1)!);
  if (largest) {
    const { ours, raw } = largest;
    const cpu = ours instanceof Error || raw instanceof Error ? undefined : ours.cpuMs / raw.cpuMs;
    const rows = sizes.at(-1)!.toLocaleString("en-US");
    console.log(
      `xlsx cpu at ${rows} rows, samkit / raw exceljs: ` +
        stateGoal(`XLSX CPU vs raw exceljs at ${rows} rows`, cpu, "<=", XLSX_CPU_GOAL),
    );
  }
  if (sizes.length > 1 && formats.includes("xlsx")) console.log(xlsxRssLine(sizes, xlsxRss));
}

/** One plain `page.pdf` of the whole HTML (no stamping, no outline): its pages, or why not. */
async function plainPdf(
  browser: ReturnType<typeof launchBrowser>,
  doc: RenderDocument,
  file: string,
): Promise<number> {
  const html = await renderHtmlString(doc, { forPrint: true });
  const page = await browser.newPage();
  try {
    await page.setJavaScriptEnabled(false);
    await page.setContent(html, { waitUntil: "load", timeout: 600_000 });
    const bytes = await page.pdf({ ...PRINT_OPTIONS, timeout: 600_000 });
    await Deno.writeFile(file, bytes);
    return (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
  } finally {
    await page.close().catch(() => {});
  }
}

/** samkit's PDF of `rows` rows against one plain `page.pdf`; prints one line. */
async function benchPdf(
  browser: ReturnType<typeof launchBrowser>,
  label: string,
  rows: Row[],
  dir: string,
): Promise<void> {
  const doc = makeDoc(rows);
  const renderer = new PdfRenderer();
  let ours = "";
  try {
    const m = await measure(() => renderer.render(doc, { outDir: dir, browser }));
    const stats = renderer.stats!;
    ours = `samkit ${stats.pages} pages in ${(m.ms / 1000).toFixed(1)} s ` +
      `(${perSecond(stats.pages, m.ms)} pages/s, ${stats.chunks} chunks of ${stats.rowsPerChunk} ` +
      `rows); phases (ms): ` +
      Object.entries(stats.timings).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ");
  } catch (error) {
    ours = `samkit ${failed(error)}`;
  }
  let raw = "";
  try {
    let pages = 0;
    const m = await measure(async () => {
      pages = await plainPdf(browser, doc, `${dir}/raw.pdf`);
    });
    raw = `plain page.pdf ${pages} pages in ${(m.ms / 1000).toFixed(1)} s ` +
      `(${perSecond(pages, m.ms)} pages/s)`;
  } catch (error) {
    raw = `plain page.pdf ${failed(error)}`;
  }
  console.log(`pdf ${label} (${rows.length.toLocaleString("en-US")} rows): ${ours}; ${raw}`);
}

/**
 * Runs the benchmark, printing each figure as it is measured: XLSX/CSV/JSON rows per second, CPU
 * and peak RSS of samkit and the raw library at each size, then PDF pages per second and a long
 * print. Failures are printed as `failed: <reason>`.
 *
 * @example
 * ```ts
 * import { benchRender } from "./render_bench.ts";
 * await benchRender({ sizes: [20_000], skipPdf: true });
 * ```
 */
export async function benchRender(options: BenchRenderOptions = {}): Promise<void> {
  const fromEnv = Deno.env.get("SAMKIT_BENCH_ROWS");
  const sizes = options.sizes ??
    (fromEnv ? fromEnv.split(",").map(Number) : [100_000, 1_000_000]);
  await benchFormats(sizes);
  if (options.skipPdf) return;
  const dir = await Deno.makeTempDir({ prefix: "samkit-bench-pdf-" });
  let browser: ReturnType<typeof launchBrowser> | undefined;
  try {
    browser = launchBrowser();
    await (await browser.newPage()).close(); // start the browser outside the timings
    await benchPdf(browser, "pages/s", makeRows(options.pdfRows ?? 12_000), dir);
    await benchPdf(browser, "long print", makeRows(options.printRows ?? 60_000), dir);
  } catch (error) {
    console.log(`pdf ${failed(error)}`);
  } finally {
    await browser?.close().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") {
    await runChild(Deno.args[1], Number(Deno.args[2]));
  } else {
    await benchRender({
      sizes: Deno.args[0] ? Deno.args[0].split(",").map(Number) : undefined,
      pdfRows: Deno.args[1] ? Number(Deno.args[1]) : undefined,
    });
  }
}
