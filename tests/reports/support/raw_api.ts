/**
 * Test support for the reports' independent checks: read the reference server's raw JSON with
 * plain `fetch` (no samkit client, no normaliser), and read a section's rows back from the XLSX
 * and CSV outputs by their column labels.
 *
 * @module
 */

import type { Format } from "../../../lib/render/renderer.ts";
import type { ReportDefinition } from "../../../lib/report/model.ts";
import type { QueryContext } from "../../../lib/query/context.ts";
import {
  readCsv,
  readXlsx,
  runReportForTest,
  type RunReportForTestResult,
} from "../../helpers/run_report.ts";

/** A raw JSON item as the server sent it. */
// deno-lint-ignore no-explicit-any
export type RawItem = Record<string, any>;

/** A way to call the server: its base URL and a bearer token. */
export interface RawApi {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** A bearer token. */
  readonly token: string;
  /**
   * Answers already read, by path (see {@link rawAnswers}): give it only while the store does not
   * change. Each read parses the answer's text anew, so no caller sees another's objects.
   */
  readonly answers?: Map<string, Promise<{ status: number; text: string }>>;
}

/** Area prefixes, as routes.md gives them. */
export const ESTATE = "/api/sam/estate/v1";
/** The license area. */
export const LICENSES = "/api/sam/v1";
/** The software registry. */
export const REGISTRY = "/api/sam/softwareregistry/v1";
/** Cloud connectors. */
export const CONNECTORS = "/api/cloud-cost/v1";

async function fetchText(api: RawApi, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(api.url + path, { headers: { authorization: `Bearer ${api.token}` } });
  return { status: res.status, text: await res.text() };
}

/**
 * One raw answer of the server: its status and its parsed JSON body (read once per path when the
 * API has {@link RawApi.answers}).
 *
 * @example
 * ```ts ignore
 * const { status, body } = await rawJson(api, `${ESTATE}/computers/C1`);
 * ```
 */
export async function rawJson(
  api: RawApi,
  path: string,
): Promise<{ status: number; body: RawItem }> {
  let answer = api.answers?.get(path);
  if (!answer) {
    answer = fetchText(api, path);
    api.answers?.set(path, answer);
  }
  const { status, text } = await answer;
  return { status, body: JSON.parse(text) };
}

/**
 * The API with a cache of raw answers, for tests whose store does not change: each path is
 * fetched once, and every reader still parses and recounts from the raw JSON.
 *
 * @example
 * ```ts
 * import { rawAnswers } from "./raw_api.ts";
 * const api = rawAnswers({ url: "http://127.0.0.1:1", token: "t" });
 * console.log(api.answers?.size); // 0
 * ```
 */
export function rawAnswers(api: RawApi): RawApi {
  return { url: api.url, token: api.token, answers: new Map() };
}

const getJson = rawJson;

/**
 * Every item of a collection, page by page (`page_size` 1000, stop on a short or empty page).
 *
 * @example
 * ```ts ignore
 * const computers = await rawAll(api, `${ESTATE}/computers`);
 * ```
 */
export async function rawAll(api: RawApi, path: string, filter?: string): Promise<RawItem[]> {
  const out: RawItem[] = [];
  const size = 1000;
  for (let page = 1;; page++) {
    const q = new URLSearchParams({ page_size: String(size), page_number: String(page) });
    if (filter) q.set("filter", filter);
    const { status, body } = await getJson(api, `${path}?${q}`);
    if (status !== 200) throw new Error(`${path} answered ${status}: ${JSON.stringify(body)}`);
    const items = body.items as RawItem[];
    out.push(...items);
    if (items.length < size) return out;
  }
}

/**
 * A flat collection (one object per page with a `next` link), read by following `next`.
 *
 * @example
 * ```ts ignore
 * const states = await rawFlat(api, `${LICENSES}/licenses/entitlements/entitlement-states`);
 * ```
 */
export async function rawFlat(api: RawApi, path: string): Promise<RawItem[]> {
  const out: RawItem[] = [];
  let next: string | undefined = path;
  const seen = new Set<string>();
  while (next && !seen.has(next)) {
    seen.add(next);
    const { status, body } = await getJson(api, next);
    if (status === 404) return out;
    if (status !== 200) throw new Error(`${next} answered ${status}`);
    if (Array.isArray(body.items)) {
      out.push(...body.items);
    } else {
      const { _links, links, ...rest } = body;
      out.push(rest);
      const all = [...(_links ?? []), ...(links ?? [])] as { rel: string; href: string }[];
      const href = all.find((l) => l.rel === "next")?.href;
      next = href ? (href.startsWith("/") ? href : `/${href}`) : undefined;
      continue;
    }
    next = undefined;
  }
  return out;
}

/**
 * One object, or null on 404.
 *
 * @example
 * ```ts ignore
 * const detail = await rawGet(api, `${ESTATE}/computers/C1`);
 * ```
 */
export async function rawGet(api: RawApi, path: string): Promise<RawItem | null> {
  const { status, body } = await getJson(api, path);
  if (status === 404) return null;
  if (status !== 200) throw new Error(`${path} answered ${status}`);
  return body;
}

/** A section's data rows in a workbook, keyed by column label, plus the text under the header. */
export interface SheetSection {
  /** Data rows (header label → cell value). */
  readonly rows: Record<string, unknown>[];
  /** The first cell of row 2 (the empty text when the section has no rows). */
  readonly firstCell: unknown;
}

/**
 * The rows of the sheet whose header row is exactly `labels` (data rows end at the first empty
 * row, before the totals block).
 *
 * @example
 * ```ts ignore
 * const { rows } = await xlsxSection(file("xlsx"), ["Application", "Licensed"]);
 * ```
 */
export async function xlsxSection(path: string, labels: readonly string[]): Promise<SheetSection> {
  const sheets = await readXlsx(path);
  for (const [name, values] of Object.entries(sheets)) {
    if (name === "Summary") continue;
    const header = values[0] ?? [];
    if (header.length !== labels.length || header.some((h, i) => h !== labels[i])) continue;
    const rows: Record<string, unknown>[] = [];
    for (let r = 1; r < values.length; r++) {
      const cells = values[r];
      if (!cells || cells.every((c) => c === null || c === "")) break;
      rows.push(Object.fromEntries(labels.map((l, i) => [l, cells[i] ?? null])));
    }
    return { rows, firstCell: values[1]?.[0] ?? null };
  }
  throw new Error(`no sheet with header ${labels.join(" | ")} in ${Object.keys(sheets)}`);
}

/**
 * The rows of a CSV output keyed by column label.
 *
 * @example
 * ```ts ignore
 * const rows = await csvSection(file("csv", "position"));
 * ```
 */
export function csvSection(path: string): Promise<Record<string, string>[]> {
  return readCsv(path);
}

/** Whole days from `then` to `now`, at least 0. */
export function wholeDays(then: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(then)) / 86_400_000));
}

/** Rounds to the cent, half away from zero. */
export function cents(n: number): number {
  return Math.round(n * 100);
}

/** An expected cell: text, number, boolean or missing (dates as RFC 3339 or `YYYY-MM-DD` text). */
export type Expected = string | number | boolean | null;

/**
 * Whether a cell read back from JSON, CSV or XLSX holds the expected value: numbers compared as
 * numbers (CSV text parsed), booleans as `true`/`false` (JSON, XLSX) or `Yes`/`No` (CSV), dates by their RFC 3339 text cut to the
 * expected length, missing as null, undefined or "".
 *
 * @example
 * ```ts
 * import { sameCell } from "./raw_api.ts";
 * console.log(sameCell("12.50", 12.5), sameCell(new Date("2024-01-02T00:00:00Z"), "2024-01-02"));
 * // true true
 * ```
 */
export function sameCell(actual: unknown, expected: Expected): boolean {
  if (expected === null) return actual === null || actual === undefined || actual === "";
  if (typeof expected === "number") {
    if (actual === null || actual === undefined || actual === "") return false;
    return Math.abs(Number(actual) - expected) < 1e-9;
  }
  if (typeof expected === "boolean") {
    return actual === expected || actual === (expected ? "Yes" : "No");
  }
  if (actual instanceof Date) return actual.toISOString().slice(0, expected.length) === expected;
  return String(actual) === expected;
}

/**
 * Checks that every expected row appears once in `rows` (found by `keyOf`), with the expected
 * value in each named field, and that there are no other rows. Returns the mismatches as text
 * (empty when all is well), so a test can `assert.deepEqual(problems, [])`.
 *
 * @example
 * ```ts
 * import { compareRows } from "./raw_api.ts";
 * const problems = compareRows(
 *   [{ App: "A", N: "2" }],
 *   new Map([["A", { n: 2 }]]),
 *   (r) => String(r.App),
 *   { n: "N" },
 * );
 * console.log(problems); // []
 * ```
 */
export function compareRows(
  rows: readonly Record<string, unknown>[],
  expected: ReadonlyMap<string, Record<string, Expected>>,
  keyOf: (row: Record<string, unknown>) => string,
  fields: Readonly<Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const key = keyOf(row);
    if (seen.has(key)) problems.push(`${key}: duplicate row`);
    seen.add(key);
    const want = expected.get(key);
    if (!want) {
      problems.push(`${key}: unexpected row`);
      continue;
    }
    for (const [field, column] of Object.entries(fields)) {
      if (!(field in want)) continue;
      if (!sameCell(row[column], want[field])) {
        problems.push(
          `${key}: ${column} is ${JSON.stringify(row[column])}, expected ${
            JSON.stringify(want[field])
          }`,
        );
      }
    }
  }
  for (const key of expected.keys()) if (!seen.has(key)) problems.push(`${key}: missing row`);
  return problems;
}

/**
 * Runs a report against the test server at the estate's clock, in the formats asked for.
 *
 * @example
 * ```ts ignore
 * const out = await runAt(api, licensePosition, { formats: ["json"] });
 * ```
 */
export function runAt(
  api: RawApi,
  report: unknown,
  options: {
    params?: Record<string, unknown>;
    filter?: string;
    formats?: readonly Format[];
    now: Date;
    /** A query context shared with other runs on the same unchanged store (default: a fresh one). */
    query?: QueryContext;
  },
): Promise<RunReportForTestResult> {
  return runReportForTest({
    server: { url: api.url, token: api.token },
    report: report as ReportDefinition,
    params: options.params,
    filter: options.filter,
    formats: options.formats ?? ["json", "csv", "xlsx"],
    now: options.now,
    ...(options.query ? { query: options.query } : {}),
  });
}
