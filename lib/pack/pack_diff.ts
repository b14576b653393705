/**
 * A pack's `diff` section: each run also renders the run-diff report (what changed since the
 * pack's previous run of the same source, row by row) into its own folder, and its summary mail
 * lists the positions that moved; `email.attach` may name `run-diff` (its PDF) or
 * `run-diff.<format>` like a report of the pack. `"diff": true` takes the defaults; `{"formats": [...],
 * "mailRows": N}` sets them. A pack with a diff keeps a snapshot on every run (the diff reads
 * both runs' snapshots) and must run license-position (the diff compares its positions).
 *
 * @module
 */

import { type Format, FORMATS } from "../render/renderer.ts";
import { isJsonObject } from "./field_rules.ts";
import { COMPARED_REPORT } from "./diff_read.ts";
import type { PackReport } from "./pack_file.ts";

/** The report a pack's diff renders (and the id `email.attach` names it by). */
export const DIFF_REPORT = "run-diff";

/** A pack's `diff` section, with its defaults filled in. */
export interface PackDiff {
  /** The formats the run-diff report is written in (PDF first when present: the mail names it). */
  readonly formats: readonly Format[];
  /** How many moved positions the mail lists, one line each, before "and N more". */
  readonly mailRows: number;
}

/** The formats of the diff when the section names none. */
export const DEFAULT_DIFF_FORMATS: readonly Format[] = ["pdf", "xlsx", "json"];
/** How many moved positions the mail lists when the section does not say. */
export const DEFAULT_MAIL_ROWS = 10;
/** The most lines the mail may list (a longer list is what run-diff.pdf is for). */
const MAX_MAIL_ROWS = 100;

const EXPECTED = 'expected true, false or {"formats": ["pdf", "xlsx", "json"], "mailRows": 10}';

function formatsOf(value: unknown, at: string, fail: (f: string, p: string) => never): Format[] {
  if (value === undefined) return [...DEFAULT_DIFF_FORMATS];
  if (!Array.isArray(value) || !value.length) return fail(at, "expected a non-empty list");
  for (const f of value) {
    if (!FORMATS.includes(f as Format)) {
      fail(at, `unknown format ${JSON.stringify(f)}; formats are ${FORMATS.join(", ")}`);
    }
  }
  return [...new Set(value as Format[])];
}

function mailRowsOf(value: unknown, at: string, fail: (f: string, p: string) => never): number {
  if (value === undefined) return DEFAULT_MAIL_ROWS;
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_MAIL_ROWS) {
    return fail(at, `expected a whole number from 0 to ${MAX_MAIL_ROWS}`);
  }
  return value as number;
}

/**
 * Checks a pack's `diff` section against the pack's report ids: absent or `false` is no diff;
 * `true` the defaults; an object `{formats?, mailRows?}`. A diff needs license-position among the
 * pack's reports. `fail` gets the JSON path below `at` and what is wrong.
 *
 * @example
 * ```ts
 * import { checkDiff } from "./pack_diff.ts";
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * console.log(checkDiff({ mailRows: 5 }, "diff", ["license-position"], fail));
 * // { formats: ["pdf", "xlsx", "json"], mailRows: 5 }
 * ```
 */
export function checkDiff(
  value: unknown,
  at: string,
  reportIds: readonly string[],
  fail: (field: string, problem: string) => never,
): PackDiff | undefined {
  if (value === undefined || value === false) return undefined;
  if (value !== true && !isJsonObject(value)) return fail(at, EXPECTED);
  const given = value === true ? {} : value;
  for (const field of Object.keys(given)) {
    if (field !== "formats" && field !== "mailRows") {
      fail(`${at}.${field}`, `unknown field; ${EXPECTED}`);
    }
  }
  if (!reportIds.includes(COMPARED_REPORT)) {
    fail(at, `a diff compares ${COMPARED_REPORT}'s positions: add it to the pack's reports`);
  }
  const formats = formatsOf(given.formats, `${at}.formats`, fail);
  // PDF first: the mail names the first format's file for the rows it leaves out.
  if (formats.includes("pdf")) formats.sort((a, b) => Number(b === "pdf") - Number(a === "pdf"));
  return { formats, mailRows: mailRowsOf(given.mailRows, `${at}.mailRows`, fail) };
}

/**
 * The diff as an entry among the pack's reports, for what `email.attach` may name: `run-diff`
 * (its PDF) or `run-diff.<format>`, in the diff's formats.
 *
 * @example
 * ```ts
 * import { diffAsReport } from "./pack_diff.ts";
 * console.log(diffAsReport({ formats: ["pdf", "json"], mailRows: 10 }));
 * // { id: "run-diff", params: {}, formats: ["pdf", "json"] }
 * ```
 */
export function diffAsReport(diff: PackDiff): PackReport {
  return { id: DIFF_REPORT, params: {}, formats: diff.formats };
}
