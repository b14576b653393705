/**
 * Test helper: run one report definition against a (reference) server through the real runner
 * and renderers, and read the outputs back (JSON parsed, CSV parsed, XLSX cells, PDF text).
 *
 * @module
 */

import type { ReportDefinition } from "../../lib/report/model.ts";
import type { Format, Renderer } from "../../lib/render/renderer.ts";
import { runReport, type RunReportResult } from "../../lib/report/runner.ts";
import { resolveParams } from "../../lib/report/params.ts";
import { createQueryContext, type QueryContext } from "../../lib/query/context.ts";
import { createRenderers } from "../../lib/render/registry.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { TEST_NOW, withServer } from "./server.ts";
import type { ReportingCurrencyOptions } from "../../lib/sam/reporting_currency.ts";

/** What the helper needs of a running server: its base URL and a way to authenticate. */
export interface ServerLike {
  /** The base URL (`http://127.0.0.1:PORT`). */
  readonly url: string;
  /** A bearer token the server accepts, when it has a fixed one. */
  readonly token?: string;
  /** OAuth2 client id (with `clientSecret`). */
  readonly clientId?: string;
  /** OAuth2 client secret. */
  readonly clientSecret?: string;
}

/** Options of {@link runReportForTest}. */
export interface RunReportForTestOptions {
  /** The running server the client talks to. */
  readonly server: ServerLike;
  /** The report definition (any client and query type). */
  // deno-lint-ignore no-explicit-any
  readonly report: ReportDefinition<any, any>;
  /** Raw parameter values, as the CLI would pass them (parsed with `resolveParams`). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** A `--filter` text for the report's main collection. */
  readonly filter?: string;
  /** Formats to write (default `["json"]`). */
  readonly formats?: readonly Format[];
  /** Output folder (default: a new temp folder). */
  readonly dir?: string;
  /** The run's clock (default the test server's `TEST_NOW`, so outputs are reproducible). */
  readonly now?: Date;
  /** A client to use instead of one made for `server`. */
  readonly client?: unknown;
  /** A query context to share between runs (default: a fresh one). */
  readonly query?: QueryContext;
  /** A reporting currency for the run (absent: money stays per currency). */
  readonly reportingCurrency?: ReportingCurrencyOptions;
}

/** What {@link runReportForTest} returns. */
export interface RunReportForTestResult {
  /** The output folder. */
  readonly dir: string;
  /** Absolute paths of every file written. */
  readonly files: string[];
  /** The parsed JSON output, when `json` was among the formats. */
  // deno-lint-ignore no-explicit-any
  readonly json: any;
  /** The runner's result (the document holds section totals and summary facts). */
  readonly result: RunReportResult;
  /** The path of the file written for a format (`csv` needs the section id). */
  file(format: Format, section?: string): string;
}

export { TEST_NOW };

let sharedBrowser: BrowserHandle | undefined;

/**
 * The browser shared by every PDF render of the test process (launched lazily on first use).
 * Close it with {@link closeTestBrowser} in an `after` hook.
 *
 * @example
 * ```ts ignore
 * import { after } from "node:test";
 * import { closeTestBrowser } from "./run_report.ts";
 * after(closeTestBrowser);
 * ```
 */
export function testBrowser(): BrowserHandle {
  sharedBrowser ??= launchBrowser();
  return sharedBrowser;
}

/**
 * Closes the shared test browser, if one was started.
 *
 * @example
 * ```ts ignore
 * import { closeTestBrowser } from "./run_report.ts";
 * await closeTestBrowser();
 * ```
 */
export async function closeTestBrowser(): Promise<void> {
  const browser = sharedBrowser;
  sharedBrowser = undefined;
  await browser?.close();
}

/**
 * A client for a server: its fixed token when it has one, else OAuth2 client credentials
 * (`demo`/`demo-secret` unless the server says otherwise).
 *
 * @example
 * ```ts ignore
 * import { clientFor } from "./run_report.ts";
 * const client = clientFor(srv);
 * ```
 */
export function clientFor(server: ServerLike): SamClient {
  return server.token && !server.clientId
    ? createClient({ baseUrl: server.url, token: server.token })
    : createClient({
      baseUrl: server.url,
      clientId: server.clientId ?? "demo",
      clientSecret: server.clientSecret ?? "demo-secret",
    });
}

/** The output folders made here, removed when the test process ends (tests read them till then). */
const madeDirs: string[] = [];

async function madeTempDir(): Promise<string> {
  if (madeDirs.length === 0) {
    globalThis.addEventListener("unload", () => {
      for (const dir of madeDirs) {
        try {
          Deno.removeSync(dir, { recursive: true });
        } catch {
          // Already gone.
        }
      }
    });
  }
  const dir = await Deno.makeTempDir({ prefix: "samkit-report-test-" });
  madeDirs.push(dir);
  return dir;
}

/**
 * Runs a report against a server through the real runner and renderers into a folder, and returns
 * the files with the JSON output parsed.
 *
 * @example
 * ```ts ignore
 * import { runReportForTest } from "./run_report.ts";
 * const { json, file } = await runReportForTest({
 *   server, report: licenseCostSummary, params: { organization: "ORG01" },
 *   formats: ["json", "csv", "xlsx"],
 * });
 * console.log(json.sections[0].rows.length, file("csv", "licenses"));
 * ```
 */
export async function runReportForTest(
  options: RunReportForTestOptions,
): Promise<RunReportForTestResult> {
  const formats = options.formats ?? ["json"];
  const dir = options.dir ?? await madeTempDir();
  const all = createRenderers();
  const renderers: Partial<Record<Format, Renderer>> = {};
  for (const format of formats) renderers[format] = all[format];
  const result = await runReport({
    definition: options.report,
    client: options.client ?? clientFor(options.server),
    query: options.query ?? createQueryContext(),
    params: resolveParams(options.report, options.params ?? {}),
    filter: options.filter,
    formats,
    renderers,
    outDir: dir,
    source: `${options.server.url} (reference server)`,
    version: "0.0.0-test",
    now: options.now ?? TEST_NOW,
    browser: formats.includes("pdf") ? testBrowser() : undefined,
    ...(options.reportingCurrency ? { reportingCurrency: options.reportingCurrency } : {}),
  });
  const id = options.report.id;
  const file = (format: Format, section?: string): string => {
    const name = format === "csv" ? `${id}-${section}.csv` : `${id}.${format}`;
    const hit = result.files.find((f) => f.endsWith(`/${name}`));
    if (!hit) throw new Error(`no ${name} among ${result.files.join(", ")}`);
    return hit;
  };
  const json = formats.includes("json")
    ? JSON.parse(await Deno.readTextFile(file("json")))
    : undefined;
  return { dir, files: result.files, json, result, file };
}

/**
 * Runs a report against a fresh reference server whose store is cleared (no data at all), in
 * every format (default JSON, CSV, XLSX and PDF), then closes the server and the test browser.
 * The outputs stay on disk for the test to read.
 *
 * @example
 * ```ts ignore
 * import { runOnEmptyStore } from "./run_report.ts";
 * const run = await runOnEmptyStore(hardwareSocketMap);
 * console.log(run.json.sections.every((s: { rows: unknown[] }) => s.rows.length === 0)); // true
 * ```
 */
export async function runOnEmptyStore(
  // deno-lint-ignore no-explicit-any
  report: ReportDefinition<any, any>,
  formats: readonly Format[] = ["json", "csv", "xlsx", "pdf"],
): Promise<RunReportForTestResult> {
  try {
    return await withServer({ computers: 0 }, async (srv) => {
      srv.store.clear();
      return await runReportForTest({ server: srv, report, formats });
    });
  } finally {
    await closeTestBrowser();
  }
}

/**
 * Parses CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF, an optional BOM) into
 * rows of strings.
 *
 * @example
 * ```ts
 * import { parseCsv } from "./run_report.ts";
 * console.log(parseCsv('a,"b ""c"""\r\n1,2\r\n')); // [["a", 'b "c"'], ["1", "2"]]
 * ```
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let any = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"') {
      quoted = true;
      any = true;
    } else if (c === ",") {
      row.push(field);
      field = "";
      any = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (any || field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Reads a CSV file into objects keyed by the header row, as a spreadsheet program would (a
 * leading byte order mark is the encoding, not part of the first label).
 *
 * @example
 * ```ts ignore
 * import { readCsv } from "./run_report.ts";
 * const rows = await readCsv("/tmp/out/license-cost-summary-licenses.csv");
 * console.log(rows[0]["License"]);
 * ```
 */
export async function readCsv(path: string): Promise<Record<string, string>[]> {
  // A spreadsheet program reads the byte order mark as the encoding, not as text.
  const [header, ...rows] = parseCsv((await Deno.readTextFile(path)).replace(/^\uFEFF/, ""));
  if (!header) return [];
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
}

/** A worksheet's cells as plain values (rich text and formulas resolved to their text/result). */
export type SheetValues = (string | number | boolean | Date | null)[][];

/**
 * Reads every worksheet of an XLSX file into rows of plain cell values, by sheet name.
 *
 * @example
 * ```ts ignore
 * import { readXlsx } from "./run_report.ts";
 * const sheets = await readXlsx("/tmp/out/license-cost-summary.xlsx");
 * console.log(Object.keys(sheets));
 * ```
 */
export async function readXlsx(path: string): Promise<Record<string, SheetValues>> {
  // Loaded here, not with this module: most of the tests that run reports read no workbook.
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const out: Record<string, SheetValues> = {};
  workbook.eachSheet((sheet) => {
    const rows: SheetValues = [];
    sheet.eachRow({ includeEmpty: true }, (row, n) => {
      const values: (string | number | boolean | Date | null)[] = [];
      for (let c = 1; c <= row.cellCount; c++) {
        // deno-lint-ignore no-explicit-any
        const v: any = row.getCell(c).value;
        if (v === null || v === undefined) values.push(null);
        else if (v instanceof Date || typeof v !== "object") values.push(v);
        else if ("richText" in v) {
          values.push(v.richText.map((t: { text: string }) => t.text).join(""));
        } else if ("result" in v) values.push(v.result ?? null);
        // exceljs reads a cached result of 0 as none; every formula samkit writes has a number.
        else if ("formula" in v) values.push(0);
        else if ("text" in v) values.push(v.text);
        else values.push(String(v));
      }
      rows[n - 1] = values;
    });
    for (let i = 0; i < rows.length; i++) rows[i] ??= [];
    out[sheet.name] = rows;
  });
  return out;
}

/**
 * The text of a PDF (`pdftotext -layout`), with runs of spaces kept.
 *
 * @example
 * ```ts ignore
 * import { pdfText } from "./run_report.ts";
 * console.log((await pdfText("/tmp/out/license-cost-summary.pdf")).includes("Total"));
 * ```
 */
export async function pdfText(path: string): Promise<string> {
  const out = await new Deno.Command("pdftotext", { args: ["-layout", path, "-"] }).output();
  if (!out.success) throw new Error(`pdftotext failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/**
 * Every raw item of a collection path of a test server, exactly as the server sends them (no
 * normalisation: license quantities stay strings). Pages by `page_number` until a short page;
 * a flat collection (one object per page with a `next` link, e.g. entitlement states) is read by
 * following `next`. A 404 on a single object answers `null`.
 *
 * @example
 * ```ts ignore
 * import { rawAll } from "./run_report.ts";
 * const licenses = await rawAll(srv, "/api/sam/v1/licenses", token);
 * ```
 */
export async function rawAll(
  server: ServerLike,
  path: string,
  token: string,
  // deno-lint-ignore no-explicit-any
): Promise<any[]> {
  // deno-lint-ignore no-explicit-any
  const out: any[] = [];
  const pageSize = 1000;
  let url: string | undefined = `${server.url}${path}${
    path.includes("?") ? "&" : "?"
  }page_size=${pageSize}&page_number=1`;
  for (let page = 1; url; page++) {
    const res: Response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const body = await res.json();
    if (Array.isArray(body.items)) {
      out.push(...body.items);
      url = body.items.length < pageSize ? undefined : url.replace(
        /page_number=\d+/,
        `page_number=${page + 1}`,
      );
    } else {
      out.push(body);
      const links = body._links ?? body.links ?? [];
      // deno-lint-ignore no-explicit-any
      const next = links.find((l: any) => l.rel === "next")?.href as string | undefined;
      url = next ? new URL(next.replace(/^\/?/, "/"), server.url).href : undefined;
    }
  }
  return out;
}

/**
 * One raw object of a test server, or `null` on 404.
 *
 * @example
 * ```ts ignore
 * import { rawOne } from "./run_report.ts";
 * const summary = await rawOne(srv, "/api/sam/v1/licenses/LIC00001/costs-summary", token);
 * ```
 */
export async function rawOne(
  server: ServerLike,
  path: string,
  token: string,
  // deno-lint-ignore no-explicit-any
): Promise<any | null> {
  const res = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return await res.json();
}
