/**
 * Test support: checks of a report run's outputs shared by the report tests — a section by id,
 * JSON rows by column label, the same expected rows in JSON, CSV and XLSX, and the no-data texts
 * of an empty run.
 *
 * @module
 */

import assert from "node:assert/strict";
import { pdfText, type RunReportForTestResult } from "../../helpers/run_report.ts";
import { compareRows, csvSection, type Expected, xlsxSection } from "./raw_api.ts";

/**
 * The section of a JSON output with this id (asserting that there is one).
 *
 * @example
 * ```ts ignore
 * const hosts = jsonSection(run.json, "hosts");
 * console.log(hosts.totals.All.perCoreRequirement);
 * ```
 */
// deno-lint-ignore no-explicit-any
export function jsonSection(json: any, id: string): any {
  const s = json.sections.find((x: { id: string }) => x.id === id);
  assert.ok(s, `section ${id} in ${json.sections.map((x: { id: string }) => x.id)}`);
  return s;
}

/**
 * A JSON section's rows keyed by column label, so that one comparison serves JSON, CSV and XLSX.
 *
 * @example
 * ```ts
 * import { byLabel } from "./checks.ts";
 * const rows = byLabel({ columns: [{ key: "n", label: "Count" }], rows: [{ n: 2 }, {}] });
 * console.log(rows); // [{ Count: 2 }, { Count: null }]
 * ```
 */
export function byLabel(
  section: { columns: { key: string; label: string }[]; rows: Record<string, unknown>[] },
): Record<string, unknown>[] {
  return section.rows.map((r) =>
    Object.fromEntries(section.columns.map((c) => [c.label, r[c.key] ?? null]))
  );
}

/**
 * The key of a row by application and version (`Application|Version`).
 *
 * @example
 * ```ts
 * import { appKey } from "./checks.ts";
 * console.log(appKey({ Application: "Visio", Version: null })); // "Visio|"
 * ```
 */
export function appKey(r: Record<string, unknown>): string {
  return `${r["Application"]}|${r["Version"] ?? ""}`;
}

/**
 * The key of a row by computer, application and version (`Computer|Application|Version`).
 *
 * @example
 * ```ts
 * import { installKey } from "./checks.ts";
 * console.log(installKey({ Computer: "HQ-1", Application: "Visio", Version: "16" }));
 * // "HQ-1|Visio|16"
 * ```
 */
export function installKey(r: Record<string, unknown>): string {
  return `${r["Computer"]}|${r["Application"]}|${r["Version"] ?? ""}`;
}

/** An output a section's rows are read back from. */
export type RowFormat = "json" | "csv" | "xlsx";

/** What {@link assertRows} compares: one section's rows against the expected ones. */
export interface RowCheck {
  /** The section id: the JSON section and the CSV file. */
  readonly section: string;
  /** The section's XLSX header row (needed when `xlsx` is among the formats). */
  readonly labels?: readonly string[];
  /** Expected rows by key (see `compareRows`). */
  readonly expected: ReadonlyMap<string, Record<string, Expected>>;
  /** The key of a row keyed by column label. */
  readonly keyOf: (row: Record<string, unknown>) => string;
  /** Expected field → column label. */
  readonly fields: Readonly<Record<string, string>>;
  /** The outputs to read (default JSON, CSV and XLSX). */
  readonly formats?: readonly RowFormat[];
  /** Rows left out of the comparison (applied in every format). */
  readonly only?: (rows: Record<string, unknown>[]) => Record<string, unknown>[];
}

/**
 * Asserts that a section holds exactly the expected rows in each output asked for: the JSON
 * section (rows keyed by label), the section's CSV file and the XLSX sheet headed by `labels`.
 *
 * @example
 * ```ts ignore
 * await assertRows(out, {
 *   section: "computers",
 *   labels: DETAIL_LABELS,
 *   expected: want.detail,
 *   keyOf: hostKey,
 *   fields: DETAIL_FIELDS,
 * });
 * ```
 */
export async function assertRows(out: RunReportForTestResult, check: RowCheck): Promise<void> {
  const only = check.only ?? ((rows) => rows);
  for (const format of check.formats ?? ["json", "csv", "xlsx"]) {
    let rows: Record<string, unknown>[];
    if (format === "json") rows = byLabel(jsonSection(out.json, check.section));
    else if (format === "csv") rows = await csvSection(out.file("csv", check.section));
    else {
      assert.ok(check.labels, `the XLSX header of ${check.section}`);
      rows = (await xlsxSection(out.file("xlsx"), check.labels)).rows;
    }
    assert.deepEqual(
      compareRows(only(rows), check.expected, check.keyOf, check.fields),
      [],
      `${check.section} in ${format.toUpperCase()}`,
    );
  }
}

/** The texts {@link assertNoData} looks for. */
export interface NoDataTexts {
  /** Per XLSX sheet (by its header row), the text under the header. */
  readonly xlsx?: readonly (readonly [labels: readonly string[], text: string])[];
  /** Texts the PDF shows. */
  readonly pdf?: readonly string[];
  /** Sections whose CSV file holds no row. */
  readonly csv?: readonly string[];
}

/**
 * Asserts that a run has no row in any JSON section and shows the given no-data texts in its
 * workbook and PDF, with no row in the given CSV files.
 *
 * @example
 * ```ts ignore
 * await assertNoData(out, {
 *   xlsx: [[ORG_LABELS, "No computers match these parameters."]],
 *   csv: ["computers"],
 * });
 * ```
 */
export async function assertNoData(
  out: RunReportForTestResult,
  texts: NoDataTexts,
): Promise<void> {
  for (const s of out.json.sections) assert.deepEqual(s.rows, [], s.id);
  for (const [labels, text] of texts.xlsx ?? []) {
    assert.equal((await xlsxSection(out.file("xlsx"), labels)).firstCell, text);
  }
  if (texts.pdf) {
    const pdf = await pdfText(out.file("pdf"));
    for (const text of texts.pdf) assert.ok(pdf.includes(text), `${text} in the PDF`);
  }
  for (const id of texts.csv ?? []) {
    assert.deepEqual(await csvSection(out.file("csv", id)), [], `${id} CSV`);
  }
}
