/**
 * The rules of one entry of a pack's `reports`: a known report id, its parameters, the formats to
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

type Catalogue = readonly ReportDefinition[];
type Scope = FieldScope<Catalogue>;

/** The formats a report writes when its entry names none. */
const DEFAULT_FORMATS: readonly Format[] = ["pdf", "xlsx", "json"];

function reportOf(id: unknown, { context, fail }: Scope): ReportDefinition {
  return context.find((x) => x.id === id) ??
    fail(`unknown report ${JSON.stringify(id)}; known: ${context.map((x) => x.id).join(", ")}`);
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
  /** Ends the check. */
  readonly fail: Fail;
}

/**
 * Checks one entry of a pack's `reports` against the catalogue; formats default to PDF, XLSX and
 * JSON.
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
  const checked = checkFields(entry, REPORT_RULES, { at, context: reports, fail });
  const { id } = checked.id as ReportDefinition;
  const filter = checked.filter as string | undefined;
  const params = checked.params as ParamValues;
  return { id, params, formats: checked.formats as Format[], ...(filter ? { filter } : {}) };
}
