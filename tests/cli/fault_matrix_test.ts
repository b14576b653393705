/**
 * The fault matrix (issue 9, "Evidence you can trust"): the CLI runs reports in JSON, CSV and
 * XLSX through a fault-injecting proxy in front of the reference server, once per fault. Every
 * run must either write exactly what the fault-free run wrote, or exit non-zero with a message
 * naming the problem and leave `--out` empty. A run that exits 0 with different output is
 * silently wrong, and there must be none.
 *
 * Reports: every run asks for pages of 100 items (`--page-size 100`), so a small estate spans
 * the pages a tenant's large one spans at the default 1,000. `entitlement-state-by-computer`
 * pages the computers (an estate collection with `total_items`: 220 computers are three pages)
 * and the computers' entitlements (a license collection, `total_pages` only: four pages);
 * `license-cost-summary` reads the license list (72 licenses: one page that carries every figure,
 * no call per license); `connector-health` reads the connector list (one page). A check holds the
 * fault-free runs to these page counts, so no cell faults a page that is not there, and every
 * cell's fault must fire. License and connector collections carry
 * no `total_items`: a read of one is verified by a second read compared page by page, which is
 * what turns a one-off short page or an item removed between page reads there into a re-read.
 * None depends on the run's clock but for the calendar month, so outputs compare once the
 * generated-at time is set aside.
 *
 * Formats: the runner reads a report's data once into a spool and renders every format from it
 * after the reading is over, so a fault changes what a run writes only through that data, and
 * the JSON carries all of it (every row of every section, the summary, the scope). Every cell
 * writes JSON and CSV and compares both with the fault-free run. The fault-free runs and five
 * cells write XLSX too, compared part by part as its XML: of each report one that ends equal
 * (after a re-read or a retry), and of the two that have failing cells one named failure, which
 * shows that a failure with every format asked for leaves `--out` empty. Cells run two at a
 * time, each through its own proxy in front of the one server (outputs name the proxy they were
 * read through, set aside when compared).
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { TOKEN_PATH } from "../../lib/api/operations.ts";
import { type Fault, type FaultProxy, startFaultProxy } from "../helpers/fault_proxy.ts";
import { readZipText } from "../render/xlsx_zip.ts";
import { getToken, TEST_NOW } from "../helpers/server.ts";
import { runCli } from "../helpers/cli.ts";

const COMPUTERS = 220;
/** Items per page of every run: the estate's computers are three pages, as described above. */
const PAGE_SIZE = 100;
/** What the fault-free runs and the witness cells write. */
const ALL_FORMATS = "json,csv,xlsx";
/** What every other cell writes: the whole document (JSON) and its sections as CSV. */
const CELL_FORMATS = "json,csv";
/** Cells run side by side, each lane with its own proxy. */
const LANES = 2;
const PERSISTENT = Infinity;

type ReportId = "entitlement-state-by-computer" | "license-cost-summary" | "connector-health";
const ESC: ReportId = "entitlement-state-by-computer";
const LCS: ReportId = "license-cost-summary";
const CHX: ReportId = "connector-health";
const REPORT_IDS: readonly ReportId[] = [ESC, LCS, CHX];

/** What a cell must end as: equal output, a named failure, or either. */
type Expect = "equal" | "failure" | "either";

interface Cell {
  readonly report: ReportId;
  readonly fault: Fault;
  readonly expect: Expect;
  /** What a failure message must mention: the collection or path, and the problem. */
  readonly names: readonly RegExp[];
  /** The formats asked for ({@link CELL_FORMATS} unless the cell witnesses every format). */
  readonly formats?: string;
}

/** `cell` asking for every format (XLSX too). */
const everyFormat = (cell: Cell): Cell => ({ ...cell, formats: ALL_FORMATS });

const computers = { path: /^\/api\/sam\/estate\/v1\/computers$/ };
const entitlements = {
  path: /^\/api\/sam\/v1\/licenses\/entitlements\/computers$/,
  search: /^(?![^#]*filter=)/, // the counting pass, not the per-batch detail reads
};
const licenseList = { path: /^\/api\/sam\/v1\/licenses$/ };
const connectorList = { path: /\/connectors$/ };
const token = { path: new RegExp(`^${TOKEN_PATH}$`) };

const AT_COMPUTERS = /computers/;
const AT_ENTITLEMENTS = /entitlements/;
const AT_LICENSES = /licenses/;
const AT_CONNECTORS = /connectors/;
const PAGING = /page|total_items|total_pages|duplicate|item/i;
const SHAPE = /shape|expected|JSON|items|parse|object/i;
const BROKEN = /reset|connection|network|body|closed|interrupted|JSON|parse/i;

const CELLS: readonly Cell[] = [
  // Paging lies on the computers (estate, total_items): once must be re-read, persistent named.
  ...pagingCells(ESC, computers, AT_COMPUTERS),
  // The report streams the entitlements (no toArray to re-read in): the runner reads the
  // report's data again, so a fault that happens once still ends equal.
  everyFormat({
    report: ESC,
    fault: { ...entitlements, kind: "shortPage", page: 2 },
    expect: "equal",
    names: [AT_ENTITLEMENTS, PAGING],
  }),
  {
    report: ESC,
    fault: { ...entitlements, kind: "driftInsert", afterPage: 1 },
    expect: "equal",
    names: [AT_ENTITLEMENTS, PAGING],
  },
  {
    report: ESC,
    fault: { ...entitlements, kind: "shortPage", page: 2, times: PERSISTENT },
    expect: "failure",
    names: [AT_ENTITLEMENTS, PAGING],
  },
  {
    // License collections report no total_items; reading on while pages are full (spec 4.1
    // rule 3) gets everything, so equal output is as right as a named failure.
    report: ESC,
    fault: { ...entitlements, kind: "lowTotalPages", times: PERSISTENT },
    expect: "either",
    names: [AT_ENTITLEMENTS, PAGING],
  },
  {
    report: ESC,
    fault: { ...computers, kind: "wrongShape", nth: 2 },
    expect: "either",
    names: [AT_COMPUTERS, SHAPE],
  },
  {
    report: ESC,
    fault: { ...computers, kind: "wrongShape", nth: 2, times: PERSISTENT },
    expect: "failure",
    names: [AT_COMPUTERS, SHAPE],
  },
  {
    report: ESC,
    fault: { ...computers, kind: "status", status: 401, nth: 2 },
    expect: "equal",
    names: [],
  },
  {
    report: ESC,
    fault: { ...computers, kind: "status", status: 503, nth: 2 },
    expect: "equal",
    names: [],
  },
  { report: ESC, fault: { ...computers, kind: "reset", nth: 2 }, expect: "equal", names: [] },
  {
    report: ESC,
    fault: { ...entitlements, kind: "truncate", nth: 2 },
    expect: "either",
    names: [AT_ENTITLEMENTS, BROKEN],
  },
  // License-side collections (no total_items): one-off short pages, a removal between page
  // reads and a repeat across pages all end equal after a re-read; a persistent repeat fails.
  ...licenseSideCells(),
  // The license list (one page, every figure on it): statuses and broken bodies.
  ...objectCells(LCS, licenseList, AT_LICENSES),
  {
    report: LCS,
    fault: { ...licenseList, kind: "slow", delayMs: 400 },
    expect: "equal",
    names: [],
  },
  {
    report: LCS,
    fault: { ...token, kind: "status", status: 503 },
    expect: "either",
    names: [/token/i, /503|unavailable/i],
  },
];

function pagingCells(
  report: ReportId,
  target: Pick<Fault, "path" | "search">,
  at: RegExp,
): Cell[] {
  // A persistent low page count only lies about metadata: reading on while pages are full gets
  // every item, so equal output is right too. The others lose or repeat items on every read.
  const kinds: [Fault, Expect][] = [
    [{ ...target, kind: "shortPage", page: 2 }, "failure"],
    [{ ...target, kind: "lowTotalPages" }, "either"],
    [{ ...target, kind: "driftRemove", afterPage: 1 }, "failure"],
    [{ ...target, kind: "driftInsert", afterPage: 1 }, "failure"],
    [{ ...target, kind: "duplicate", page: 2 }, "failure"],
  ];
  const cells = kinds.flatMap(([fault, persistent]): Cell[] => [
    { report, fault, expect: "equal", names: [at, PAGING] },
    { report, fault: { ...fault, times: PERSISTENT }, expect: persistent, names: [at, PAGING] },
  ]);
  // A persistent short page: a named failure with every format asked for.
  return cells.map((cell, i) => i === 1 ? everyFormat(cell) : cell);
}

function licenseSideCells(): Cell[] {
  const cell = (report: ReportId, fault: Fault, expect: Expect, at: RegExp): Cell => ({
    report,
    fault,
    expect,
    names: [at, PAGING],
  });
  // Without total_pages too, as connector collections come: nothing but the pages to go by.
  const bare = { ...entitlements, withoutTotalPages: true };
  return [
    // 71 of 72 licenses on the one page, once.
    cell(LCS, { ...licenseList, kind: "shortPage", page: 1, drop: 1 }, "equal", AT_LICENSES),
    cell(ESC, { ...entitlements, kind: "shortPage", page: 1 }, "equal", AT_ENTITLEMENTS),
    // One computer's application lost to an item removed between two page reads, once.
    cell(ESC, { ...entitlements, kind: "driftRemove", afterPage: 1 }, "equal", AT_ENTITLEMENTS),
    cell(ESC, { ...entitlements, kind: "duplicate", page: 2 }, "equal", AT_ENTITLEMENTS),
    cell(
      ESC,
      { ...entitlements, kind: "duplicate", page: 2, times: PERSISTENT },
      "failure",
      AT_ENTITLEMENTS,
    ),
    cell(ESC, { ...bare, kind: "shortPage", page: 1 }, "equal", AT_ENTITLEMENTS),
    cell(ESC, { ...bare, kind: "shortPage", page: 2 }, "equal", AT_ENTITLEMENTS),
    cell(ESC, { ...bare, kind: "driftRemove", afterPage: 1 }, "equal", AT_ENTITLEMENTS),
    everyFormat(
      cell(CHX, { ...connectorList, kind: "shortPage", page: 1, drop: 1 }, "equal", AT_CONNECTORS),
    ),
  ];
}

function objectCells(report: ReportId, target: Pick<Fault, "path" | "nth">, at: RegExp): Cell[] {
  const cell = (fault: Fault, expect: Expect, what: RegExp): Cell => ({
    report,
    fault,
    expect,
    names: [at, what],
  });
  const status = (code: number, times = 1, retryAfter?: number): Fault => ({
    ...target,
    kind: "status",
    status: code,
    times,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });
  return [
    cell({ ...target, kind: "wrongShape" }, "either", SHAPE),
    cell({ ...target, kind: "wrongShape", times: PERSISTENT }, "failure", SHAPE),
    cell(status(401), "equal", /401|unauthori[sz]ed/i),
    cell(status(401, PERSISTENT), "failure", /401|unauthori[sz]ed/i),
    cell(status(403), "failure", /403|forbidden|permission/i),
    cell(status(429, 1, 1), "equal", /429|too many/i),
    everyFormat(cell(status(500), "equal", /500/)),
    cell(status(503), "equal", /503|unavailable/i),
    cell(status(500, PERSISTENT), "failure", /500|internal/i),
    cell({ ...target, kind: "reset" }, "equal", BROKEN),
    cell({ ...target, kind: "reset", times: PERSISTENT }, "failure", BROKEN),
    cell({ ...target, kind: "truncate" }, "either", BROKEN),
    everyFormat(cell({ ...target, kind: "truncate", times: PERSISTENT }, "failure", BROKEN)),
    cell({ ...target, kind: "malformed" }, "either", SHAPE),
    cell({ ...target, kind: "malformed", times: PERSISTENT }, "failure", SHAPE),
  ];
}

/** A CLI run's exit code, stderr and outputs (normalised for comparison, by file name). */
interface CliRun {
  /** The formats asked for (`json,csv`). */
  readonly formats: string;
  readonly code: number;
  readonly stderr: string;
  readonly outputs: ReadonlyMap<string, string>;
  readonly seconds: number;
  /** The path and query string of each request the run made (see {@link FaultProxy.requests}). */
  readonly requests: readonly string[];
}

/** How a faulty run ended. */
type Outcome =
  | "equal"
  | "named failure"
  | "SILENTLY WRONG"
  | "failure left files"
  | "failure names no problem"
  | "leaked a secret";

interface Result {
  readonly cell: Cell;
  readonly run: CliRun;
  readonly fired: number;
  readonly outcome: Outcome;
  readonly detail: string;
}

const SECRET = "demo-secret";

/** Runs samkit under the `report` set with the demo client's credentials. */
const samkit = (args: string[]) =>
  runCli(args, { env: { SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: SECRET } });

/**
 * Runs a report through the proxy into a fresh folder and reads back what it wrote, and the
 * requests the proxy saw since its fault was last set (the run's own, as each lane runs one at a
 * time).
 */
async function runReport(report: ReportId, proxy: FaultProxy, formats: string): Promise<CliRun> {
  const dir = await Deno.makeTempDir({ prefix: "samkit-fault-matrix-" });
  const started = performance.now();
  try {
    const { code, stderr } = await samkit([
      "report",
      report,
      "--format",
      formats,
      "--out",
      dir,
      "--base-url",
      proxy.url,
      "--page-size",
      String(PAGE_SIZE),
      "--quiet",
    ]);
    const seconds = (performance.now() - started) / 1000;
    const outputs = await readOutputs(dir, proxy.url);
    return { formats, code, stderr, outputs, seconds, requests: [...proxy.requests] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The address a run was pointed at, as outputs name their source whichever lane ran them. */
const PROXY = "(the proxy)";

/**
 * Every file of an output folder in comparable form, the proxy's address set aside: JSON as
 * written with its generated-at time set aside, CSV as written, XLSX as the XML of its parts
 * (the generated-at time and the workbook's created and modified times set aside).
 */
async function readOutputs(dir: string, proxyUrl: string): Promise<Map<string, string>> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  const json = names.find((n) => n.endsWith(".json"));
  const generatedAt = json
    ? (await Deno.readTextFile(`${dir}/${json}`)).match(/"generatedAt":"([^"]*)"/)?.[1]
    : undefined;
  const outputs = new Map<string, string>();
  for (const name of names.sort()) {
    const path = `${dir}/${name}`;
    let text: string;
    if (name.endsWith(".json")) {
      text = (await Deno.readTextFile(path))
        .replace(/"generatedAt":"[^"]*"/, '"generatedAt":"(run time)"');
    } else if (name.endsWith(".csv")) text = await Deno.readTextFile(path);
    else if (name.endsWith(".xlsx")) text = await xlsxText(path, generatedAt);
    else text = `(unexpected file, ${(await Deno.stat(path)).size} bytes)`;
    outputs.set(name, text.replaceAll(proxyUrl, PROXY));
  }
  return outputs;
}

/**
 * An XLSX file as the XML of its parts, by part name, with the run's time set aside: the
 * workbook's created and modified times, and the generated-at time as a cell holds it (a day
 * count from 1899-12-30, exceljs's `25569 + ms / 86400000`) and as page footers print it
 * (`2025-06-30 12:00 UTC`).
 */
async function xlsxText(path: string, generatedAt: string | undefined): Promise<string> {
  const times = generatedAt === undefined ? [] : [
    `<v>${25569 + Date.parse(generatedAt) / 86_400_000}</v>`,
    `${generatedAt.slice(0, 10)} ${generatedAt.slice(11, 16)} UTC`,
  ];
  const parts = [...await readZipText(path)].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  return parts.map(([name, xml]) => {
    let text = xml.replace(/(<dcterms:(?:created|modified)\b[^>]*>)[^<]*/g, "$1(run time)");
    for (const time of times) text = text.replaceAll(time, "(run time)");
    return `${name}\n${text}`;
  }).join("\n");
}

/**
 * The files of `run` that differ from `baseline`'s (missing, extra or changed), of the formats
 * `run` asked for.
 */
function differences(baseline: CliRun, run: CliRun): string[] {
  const asked = new Set(run.formats.split(","));
  const expected = [...baseline.outputs.keys()].filter((n) => asked.has(n.split(".").at(-1)!));
  const names = new Set([...expected, ...run.outputs.keys()]);
  return [...names].filter((n) => baseline.outputs.get(n) !== run.outputs.get(n)).sort();
}

function classify(cell: Cell, run: CliRun, baseline: CliRun, secrets: string[]): {
  outcome: Outcome;
  detail: string;
} {
  const leaked = secrets.filter((s) => run.stderr.includes(s));
  if (leaked.length) return { outcome: "leaked a secret", detail: `${leaked.length} secret(s)` };
  const message = run.stderr.trim().split("\n")[0] ?? "";
  if (run.code === 0) {
    const differ = differences(baseline, run);
    return differ.length
      ? { outcome: "SILENTLY WRONG", detail: `differs: ${differ.join(", ")}` }
      : { outcome: "equal", detail: "" };
  }
  if (run.outputs.size) {
    return { outcome: "failure left files", detail: [...run.outputs.keys()].join(", ") };
  }
  const unnamed = cell.names.filter((re) => !re.test(run.stderr));
  // A data-integrity failure also says what to do next (the CLI's hint after the message).
  if (/paging inconsistent|has none of the fields/.test(run.stderr)) {
    if (!/^Nothing was written\. /m.test(run.stderr)) unnamed.push(/Nothing was written/);
  }
  if (!/^samkit: \S/m.test(run.stderr) || unnamed.length) {
    return {
      outcome: "failure names no problem",
      detail: `exit ${run.code}, lacks ${unnamed.join(" ")}: ${message}`,
    };
  }
  return { outcome: "named failure", detail: `exit ${run.code}: ${message}` };
}

function describeFault(fault: Fault): string {
  const { path: _path, search: _search, nth, times, kind, withoutTotalPages, ...rest } = fault;
  const args = Object.entries(rest).map(([k, v]) => `${k}=${v}`);
  if (withoutTotalPages) args.push("no total_pages");
  if (nth !== undefined && nth !== 1) args.push(`nth=${nth}`);
  const mode = times === PERSISTENT ? "persistent" : times && times > 1 ? `${times}×` : "once";
  return `${kind}${args.length ? `(${args.join(", ")})` : ""} ${mode}`;
}

function targetOf(fault: Fault): string {
  const path = fault.path.source;
  return path.includes("licenses$")
    ? "licenses"
    : path.includes("connectors")
    ? "connectors"
    : path.includes("entitlements")
    ? "entitlements"
    : path.includes("computers")
    ? "computers"
    : path.includes("token")
    ? "token"
    : path;
}

/**
 * The page numbers (sorted, each once) of the requests at {@link PAGE_SIZE} a run made for the
 * collection `fault` targets.
 */
function pagesRead(requests: readonly string[], fault: Fault): number[] {
  const pages = requests.map((r) => new URL(r, "http://proxy"))
    .filter((u) => fault.path.test(u.pathname) && (!fault.search || fault.search.test(u.search)))
    .filter((u) => u.searchParams.get("page_size") === String(PAGE_SIZE))
    .map((u) => Number(u.searchParams.get("page_number") ?? "1"));
  return [...new Set(pages)].sort((a, b) => a - b);
}

/** The page a fault changes (its request's, for `nth`), or 1 when it bends a whole read. */
function faultedPage(fault: Fault): number {
  if ("page" in fault) return fault.page;
  if ("afterPage" in fault) return fault.afterPage + 1;
  return fault.nth ?? 1;
}

function table(results: readonly Result[]): string {
  const rows = results.map((r) => [
    r.cell.report.split("-").slice(0, 2).join("-"),
    targetOf(r.cell.fault),
    describeFault(r.cell.fault),
    r.cell.formats ?? CELL_FORMATS,
    r.cell.expect,
    r.outcome,
    `${r.run.seconds.toFixed(1)}s`,
    r.detail.slice(0, 110),
  ]);
  const head = ["report", "target", "fault", "formats", "expect", "outcome", "time", "detail"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function matches(expect: Expect, outcome: Outcome): boolean {
  if (expect === "equal") return outcome === "equal";
  if (expect === "failure") return outcome === "named failure";
  return outcome === "equal" || outcome === "named failure";
}

describe("the fault proxy", () => {
  let srv: RunningServer;
  let proxy: FaultProxy;
  const COMPUTERS_PATH = "/api/sam/estate/v1/computers";

  before(async () => {
    srv = await startServer({ port: 0, computers: 25, seed: 1, now: TEST_NOW, quiet: true });
    proxy = startFaultProxy({ upstream: srv.url });
  });
  after(async () => {
    await proxy?.close();
    await srv?.close();
  });

  // deno-lint-ignore no-explicit-any
  async function get(base: string, page: number, size = 10): Promise<any> {
    const tok = await getToken(srv);
    const res = await fetch(`${base}${COMPUTERS_PATH}?page_size=${size}&page_number=${page}`, {
      headers: { authorization: `Bearer ${tok}` },
    });
    return res.status === 200 ? await res.json() : { status: res.status, text: await res.text() };
  }

  /** The ids of pages 1–3 (10 per page) read in order, and each page's total_items. */
  async function pass(base: string): Promise<{ ids: string[]; totals: number[] }> {
    const pages = [await get(base, 1), await get(base, 2), await get(base, 3)];
    return {
      ids: pages.flatMap((p) => p.items.map((c: { id: string }) => c.id)),
      totals: pages.map((p) => p.pagination.total_items),
    };
  }

  it("forwards reads and the token endpoint as they are", async () => {
    proxy.inject(undefined);
    assert.deepEqual(await get(proxy.url, 2), await get(srv.url, 2));
    const issued = proxy.tokens.length;
    const res = await fetch(proxy.url + TOKEN_PATH, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=client_credentials&client_id=demo&client_secret=${SECRET}`,
    });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).access_token, proxy.tokens.at(-1));
    assert.equal(proxy.tokens.length, issued + 1);
  });

  it("cuts items out of one page and leaves its pagination", async () => {
    proxy.inject({ path: /computers$/, kind: "shortPage", page: 2, drop: 3 });
    const real = await get(srv.url, 2);
    const cut = await get(proxy.url, 2);
    assert.equal(cut.items.length, 7);
    assert.deepEqual(cut.pagination, real.pagination);
    assert.equal(proxy.fired, 1);
    assert.equal((await get(proxy.url, 2)).items.length, 10, "once: the re-read is whole");
  });

  it("shifts later pages as after a removal, for one pass unless persistent", async () => {
    const real = await pass(srv.url);
    proxy.inject({ path: /computers$/, kind: "driftRemove", afterPage: 1 });
    const drifted = await pass(proxy.url);
    assert.deepEqual(drifted.ids, real.ids.toSpliced(10, 1), "the first item of page 2 is lost");
    assert.deepEqual(drifted.totals, [25, 24, 24]);
    assert.deepEqual(await pass(proxy.url), real, "the next pass reads the collection as it is");
    proxy.inject({ path: /computers$/, kind: "driftRemove", afterPage: 1, times: PERSISTENT });
    await pass(proxy.url);
    assert.deepEqual(await pass(proxy.url), drifted, "persistent: every pass drifts");
  });

  it("shifts later pages as after an insert: the last item of page k is read again", async () => {
    const real = await pass(srv.url);
    proxy.inject({ path: /computers$/, kind: "driftInsert", afterPage: 1 });
    const drifted = await pass(proxy.url);
    assert.deepEqual(drifted.ids, [...real.ids.slice(0, 10), ...real.ids.slice(9)]);
    assert.deepEqual(drifted.totals, [25, 26, 26]);
  });

  it("repeats an item across pages keeping the page length, and lowers total_pages", async () => {
    const real = await pass(srv.url);
    proxy.inject({ path: /computers$/, kind: "duplicate", page: 2 });
    const duplicated = await pass(proxy.url);
    assert.deepEqual(duplicated.ids, real.ids.toSpliced(10, 0, real.ids[9]).toSpliced(20, 1));
    assert.deepEqual(duplicated.totals, [25, 25, 25]);
    proxy.inject({ path: /computers$/, kind: "lowTotalPages" });
    const low = [await get(proxy.url, 1), await get(proxy.url, 2)];
    assert.deepEqual(low.map((p) => p.pagination.total_pages), [2, 2]);
    assert.deepEqual(low.map((p) => p.pagination.total_items), [25, 25]);
  });

  it("leaves total_pages out of every matching answer when told, firing or not", async () => {
    proxy.inject({ path: /computers$/, withoutTotalPages: true, kind: "shortPage", page: 2 });
    const [first, cut] = [await get(proxy.url, 1), await get(proxy.url, 2)];
    assert.equal(first.items.length, 10);
    assert.equal(cut.items.length, 0, "page 2 of 25 at 10 a page, cut by 10");
    for (const page of [first, cut]) {
      assert.equal(page.pagination.total_pages, undefined);
      assert.equal(page.pagination.total_items, 25);
    }
    proxy.inject(undefined);
    assert.equal((await get(proxy.url, 1)).pagination.total_pages, 3);
  });

  it("answers statuses, wrong shapes, broken bodies and slow answers as told", async () => {
    const read = async () => {
      const tok = await getToken(srv);
      const res = await fetch(`${proxy.url}${COMPUTERS_PATH}`, {
        headers: { authorization: `Bearer ${tok}` },
      });
      return { status: res.status, retryAfter: res.headers.get("retry-after"), res };
    };
    proxy.inject({ path: /computers$/, kind: "status", status: 429, retryAfter: 1, nth: 2 });
    const first = await read();
    assert.equal(first.status, 200, "nth=2: the first matching request passes");
    await first.res.body?.cancel();
    const second = await read();
    assert.deepEqual([second.status, second.retryAfter], [429, "1"]);
    await second.res.body?.cancel();
    proxy.inject({ path: /computers$/, kind: "wrongShape" });
    assert.deepEqual(await (await read()).res.json(), { items: "oops" });
    proxy.inject({ path: /computers$/, kind: "malformed" });
    await assert.rejects((await read()).res.json(), SyntaxError);
    proxy.inject({ path: /computers$/, kind: "truncate" });
    await assert.rejects((await read()).res.json(), SyntaxError);
    proxy.inject({ path: /computers$/, kind: "reset" });
    await assert.rejects((await read()).res.text(), TypeError);
    proxy.inject({ path: /computers$/, kind: "slow", delayMs: 300 });
    const started = performance.now();
    const slow = await read();
    assert.ok(performance.now() - started >= 290, "answered late");
    assert.equal((await slow.res.json()).items.length, 25);
  });
});

describe("fault matrix: every faulty run equals the fault-free run or fails naming the problem", () => {
  let srv: RunningServer;
  const proxies: FaultProxy[] = [];
  const baselines = new Map<ReportId, CliRun[]>();
  const results: Result[] = [];
  const secrets = [SECRET];

  /** Runs `cell` through `proxy` with its fault injected, and how often the fault fired. */
  async function runCell(cell: Cell, proxy: FaultProxy): Promise<{ run: CliRun; fired: number }> {
    proxy.inject(cell.fault);
    const run = await runReport(cell.report, proxy, cell.formats ?? CELL_FORMATS);
    const fired = proxy.fired;
    proxy.inject(undefined);
    return { run, fired };
  }

  before(async () => {
    srv = await startServer({ port: 0, computers: COMPUTERS, seed: 1, now: TEST_NOW, quiet: true });
    for (let i = 0; i < LANES; i++) proxies.push(startFaultProxy({ upstream: srv.url }));
    secrets.push(await getToken(srv));
    // The two fault-free runs of a report go side by side, through different lanes.
    for (const report of REPORT_IDS) {
      const lanes = [proxies[0], proxies[1 % LANES]];
      baselines.set(
        report,
        await Promise.all(lanes.map((p) => {
          p.inject(undefined);
          return runReport(report, p, ALL_FORMATS);
        })),
      );
    }
    const runs: { run: CliRun; fired: number }[] = [];
    let next = 0;
    await Promise.all(proxies.map(async (proxy) => {
      for (let i = next++; i < CELLS.length; i = next++) runs[i] = await runCell(CELLS[i], proxy);
    }));
    // Judged once every run is over, against every token any lane was handed.
    for (const proxy of proxies) secrets.push(...proxy.tokens.filter((t) => !secrets.includes(t)));
    CELLS.forEach((cell, i) => {
      const { run, fired } = runs[i];
      const baseline = baselines.get(cell.report)![0];
      results.push({ cell, run, fired, ...classify(cell, run, baseline, secrets) });
    });
    const silent = results.filter((r) => r.outcome === "SILENTLY WRONG").length;
    console.log(
      `\nFault matrix (${results.length} faulty runs, ${silent} silently wrong):\n` +
        table(results) + "\n",
    );
  });

  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await srv?.close();
  });

  it("has a stable fault-free output that reads every page", () => {
    for (const [report, [first, second]] of baselines) {
      assert.equal(first.code, 0, `${report}: ${first.stderr}`);
      assert.deepEqual(differences(first, second), [], `${report}: two fault-free runs differ`);
      const names = [...first.outputs.keys()];
      for (const ext of ["json", "xlsx", "csv"]) {
        assert.ok(names.some((n) => n.endsWith(`.${ext}`)), `${report}: a ${ext} among ${names}`);
      }
    }
    const json = JSON.parse(
      baselines.get(ESC)![0].outputs.get(`${ESC}.json`)!,
    ) as { sections: { id: string; rows: unknown[] }[] };
    const rows = json.sections.find((s) => s.id === "computers")?.rows.length;
    assert.equal(rows, COMPUTERS, "every computer of the three pages is in the report");
  });

  it("tells a wrong output, files left behind and an unnamed failure from the right ones", () => {
    const base = baselines.get(ESC)![0];
    const cell: Cell = {
      report: ESC,
      fault: { ...computers, kind: "shortPage", page: 2 },
      expect: "equal",
      names: [AT_COMPUTERS, PAGING],
    };
    const csv = [...base.outputs.keys()].find((n) => n.endsWith(".csv"))!;
    const lastRowLost = new Map(base.outputs).set(
      csv,
      base.outputs.get(csv)!.replace(/[^\n]*\n?$/, ""),
    );
    const failed = { code: 1, stderr: "samkit: estate.computers: page 2 has 90 items\n" };
    const outcomes = [
      { ...base, outputs: lastRowLost },
      { ...base, ...failed, outputs: new Map() },
      { ...base, ...failed, outputs: new Map([[csv, ""]]) },
      { ...base, code: 1, stderr: "samkit: something went wrong\n", outputs: new Map() },
      { ...base, code: 1, stderr: `samkit: page 2 of computers, ${SECRET}\n`, outputs: new Map() },
    ].map((run) => classify(cell, run, base, [SECRET]).outcome);
    assert.deepEqual(outcomes, [
      "SILENTLY WRONG",
      "named failure",
      "failure left files",
      "failure names no problem",
      "leaked a secret",
    ]);
  });

  it("asks for every format in cells of each report that end equal and that fail", () => {
    const every = results.filter((r) => r.cell.formats === ALL_FORMATS);
    assert.deepEqual([...new Set(every.map((r) => r.cell.report))].sort(), [...REPORT_IDS].sort());
    const ends = (outcome: Outcome) => every.filter((r) => r.outcome === outcome);
    assert.ok(ends("named failure").length > 0, "a failure with XLSX asked for too");
    assert.ok(ends("equal").length > 0, "an equal run with XLSX asked for too");
    for (const r of ends("equal")) {
      const names = [...r.run.outputs.keys()];
      assert.ok(names.some((n) => n.endsWith(".xlsx")), `${r.cell.report}: an xlsx in ${names}`);
    }
  });

  it("reads each collection a cell faults over as many pages as the cell needs", () => {
    // Every cell's collection read fault-free: the computers and the entitlements over three
    // pages or more (pages 1, 2 and later for once/persistent pairs, drift after page 1 and
    // nth=2), past the page a cell faults; the license and connector lists on one page (the
    // token is no collection).
    const short = CELLS.flatMap((cell) => {
      const pages = pagesRead(baselines.get(cell.report)![0].requests, cell.fault);
      const target = targetOf(cell.fault);
      const needed = target === "computers" || target === "entitlements"
        ? Math.max(3, faultedPage(cell.fault) + 1)
        : target === "token"
        ? 0
        : 1;
      const what = `${cell.report} ${target} ${describeFault(cell.fault)}`;
      return pages.length >= needed && pages.every((n, i) => n === i + 1)
        ? []
        : [`${what}: pages ${pages.join(",") || "none"} of ${PAGE_SIZE}, needs ${needed}`];
    });
    assert.deepEqual(short, []);
  });

  it("fires every fault at least once", () => {
    const idle = results.filter((r) => r.fired === 0).map((r) => describeFault(r.cell.fault));
    assert.deepEqual(idle, [], "faults that never fired test nothing");
  });

  it("has no silently wrong run", () => {
    const wrong = results.filter((r) => r.outcome === "SILENTLY WRONG")
      .map((r) => `${r.cell.report} ${describeFault(r.cell.fault)}: ${r.detail}`);
    assert.deepEqual(wrong, []);
  });

  it("fails only with a message naming the problem, no secret, and nothing in --out", () => {
    const bad = results.filter((r) => r.outcome !== "equal" && r.outcome !== "named failure")
      .filter((r) => r.outcome !== "SILENTLY WRONG")
      .map((r) => `${r.cell.report} ${describeFault(r.cell.fault)}: ${r.outcome} ${r.detail}`);
    assert.deepEqual(bad, []);
  });

  it("ends transient faults equal after a re-read and persistent ones as named failures", () => {
    const off = results.filter((r) => !matches(r.cell.expect, r.outcome))
      .map((r) =>
        `${r.cell.report} ${describeFault(r.cell.fault)}: expected ${r.cell.expect}, ` +
        `got ${r.outcome}`
      );
    assert.deepEqual(off, []);
  });
});
