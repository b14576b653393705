/**
 * The rules of one entry of a pack's `reports`: the report — a built-in id (`"id"`, or
 * `"report"`) or a report module of the user's project (`"report": "../reports/x.ts"`, resolved
 * from the pack file's folder and loaded beforehand by `loadPack`) — its parameters, the formats to
 * write and an optional filter on its main collection, checked in that order.
 *
 * @module
 */

import { type Format, FORMATS } from "../render/renderer.ts";
import { MAX_FILTER_CHARS, resolveParams } from "../report/params.ts";
import { checkReportFilter } from "../report/runner.ts";
import type { ParamValues, ReportDefinition } from "../report/model.ts";
import {
  checkFields,
  type Fail,
  type FieldRule,
  type FieldScope,
  isJsonObject,
} from "./field_rules.ts";
import type { PackReport } from "./pack_file.ts";
import { isReportPath } from "../report/report_ref.ts";

/** What an entry is checked against: the built-in reports and the modules the pack names. */
interface Catalogue {
  /** The built-in reports. */
  readonly reports: readonly ReportDefinition[];
  /** The loaded report modules, by the entry's `report` text. */
  readonly modules: ReadonlyMap<string, ReportDefinition>;
}
type Scope = FieldScope<Catalogue>;

/** The formats a report writes when its entry names none. */
const DEFAULT_FORMATS: readonly Format[] = ["pdf", "xlsx", "json"];

function builtIn(id: unknown, reports: Catalogue["reports"], fail: (p: string) => never) {
  return reports.find((x) => x.id === id) ??
    fail(`unknown report ${JSON.stringify(id)}; known: ${reports.map((x) => x.id).join(", ")}`);
}

/** The entry's report: `id` (a built-in id) or `report` (a built-in id or a module path). */
function reportOf(id: unknown, { path, object, context, fail, failAt }: Scope): ReportDefinition {
  const at = path.replace(/\.id$/, ".report");
  const ref = object.report;
  if (ref === undefined) {
    if (id === undefined) fail('expected "id" (a report id) or "report" (an id or a module path)');
    return builtIn(id, context.reports, fail);
  }
  if (id !== undefined) fail('give "id" or "report", not both');
  if (typeof ref !== "string" || !ref) {
    return failAt(at, "expected a report id or the path of a report module");
  }
  if (!isReportPath(ref)) return builtIn(ref, context.reports, (p) => failAt(at, p));
  return context.modules.get(ref) ??
    failAt(at, `report module ${JSON.stringify(ref)} was not loaded (read the pack with loadPack)`);
}

function paramsOf(params: unknown, { path, checked, fail, failAt }: Scope): ParamValues {
  if (params !== undefined && !isJsonObject(params)) fail("expected an object");
  try {
    return resolveParams(checked.id as ReportDefinition, (params as ParamValues) ?? {});
  } catch (e) {
    const name = (e as { param?: string }).param;
    return failAt(`${path}${name ? `.${name}` : ""}`, (e as Error).message);
  }
}

function formatsOf(formats: unknown, { fail }: Scope): Format[] {
  if (formats === undefined) return [...DEFAULT_FORMATS];
  if (!Array.isArray(formats) || !formats.length) fail("expected a non-empty list");
  for (const f of formats as unknown[]) {
    if (!FORMATS.includes(f as Format)) {
      fail(`unknown format ${JSON.stringify(f)}; formats are ${FORMATS.join(", ")}`);
    }
  }
  return [...new Set(formats as Format[])];
}

function allowUnknownFieldsOf(allow: unknown, { fail }: Scope): boolean | undefined {
  if (allow !== undefined && typeof allow !== "boolean") fail("expected true or false");
  return allow as boolean | undefined;
}

function filterOf(filter: unknown, { checked, fail }: Scope): string | undefined {
  if (filter === undefined) return undefined;
  if (typeof filter !== "string") return fail("expected a filter string");
  if (filter.length > MAX_FILTER_CHARS) {
    const length = filter.length.toLocaleString("en-US");
    fail(`is ${length} characters long; at most ${MAX_FILTER_CHARS} are accepted`);
  }
  try {
    checkReportFilter(checked.id as ReportDefinition, filter, {
      allowUnknownFields: checked.allowUnknownFields === true,
      howToAllow: `"allowUnknownFields": true beside the filter`,
    });
  } catch (e) {
    fail((e as Error).message);
  }
  return filter;
}

/** The fields of a pack's report entry, in the order they are checked. */
const REPORT_RULES: readonly FieldRule<Catalogue>[] = [
  { field: "id", check: reportOf },
  { field: "report", check: (v) => typeof v === "string" && isReportPath(v) ? v : undefined },
  { field: "params", check: paramsOf },
  { field: "formats", check: formatsOf },
  { field: "allowUnknownFields", check: allowUnknownFieldsOf },
  { field: "filter", check: filterOf },
];

/** Options of {@link checkPackReport}. */
export interface CheckPackReportOptions {
  /** The entry's JSON path (`reports[0]`). */
  readonly at: string;
  /** The report catalogue. */
  readonly reports: readonly ReportDefinition[];
  /** The report modules the pack names, loaded, by the entry's `report` text (default none). */
  readonly modules?: ReadonlyMap<string, ReportDefinition>;
  /** Ends the check. */
  readonly fail: Fail;
}

/**
 * Checks one entry of a pack's `reports` against the catalogue (a module entry against the
 * loaded `modules`); formats default to PDF, XLSX and JSON.
 *
 * @example
 * ```ts
 * import { checkPackReport } from "./report_rules.ts";
 * import { REPORTS } from "../../reports/mod.ts";
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * const entry = { id: "stale-computers", params: { days: 60 }, formats: ["csv"] };
 * console.log(checkPackReport(entry, { at: "reports[0]", reports: REPORTS, fail }));
 * // { id: "stale-computers", params: { days: 60 }, formats: ["csv"] }
 * ```
 */
export function checkPackReport(entry: unknown, options: CheckPackReportOptions): PackReport {
  const { at, reports, fail } = options;
  const context = { reports, modules: options.modules ?? new Map() };
  const checked = checkFields(entry, REPORT_RULES, { at, context, fail });
  const { id } = checked.id as ReportDefinition;
  const filter = checked.filter as string | undefined;
  const params = checked.params as ParamValues;
  const module = checked.report as string | undefined;
  return {
    id,
    ...(module ? { module } : {}),
    params,
    formats: checked.formats as Format[],
    ...(filter ? { filter } : {}),
  };
}
