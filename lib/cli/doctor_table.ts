/**
 * `samkit doctor`'s findings for a person (a table, what to do under each failure, and a closing
 * verdict) or as JSON.
 *
 * @module
 */

import type { DoctorResult } from "./doctor_checks.ts";

const CHECK_WIDTH = 20;
const STATUS_WIDTH = 8;
/** Text wraps at this many columns. */
const WIDTH = 100;

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return line ? [...lines, line] : lines;
}

/**
 * The closing line: ready, or which reports cannot run and why.
 *
 * @example
 * ```ts
 * import { verdict } from "./doctor_table.ts";
 * console.log(verdict({ ready: true, rows: [], reports: [{ id: "a", runs: true, blockedBy: [] }] }));
 * // "Ready: every report can run (1 of 1)."
 * ```
 */
export function verdict(result: DoctorResult): string {
  const blocked = result.reports.filter((r) => !r.runs);
  if (result.ready) {
    return `Ready: every report can run (${result.reports.length} of ${result.reports.length}).`;
  }
  if (!blocked.length) return "Not ready: fix the FAIL rows above.";
  const list = blocked.map((r) => `${r.id} (${r.blockedBy.join(", ")})`).join(", ");
  return `Not ready: ${blocked.length} of ${result.reports.length} reports cannot run: ${list}.`;
}

/**
 * The findings as a table for a terminal: one row per check, its status and detail, and under
 * each `FAIL` or `warn` what to do.
 *
 * @example
 * ```ts
 * import { formatTable } from "./doctor_table.ts";
 * const text = formatTable({
 *   ready: true,
 *   rows: [{ check: "token", status: "ok", detail: "bearer token (SAM_TOKEN) accepted" }],
 *   reports: [],
 * }, "https://westeurope.example.com");
 * console.log(text.split("\n")[3]); // "token               ok      bearer token (SAM_TOKEN) accepted"
 * ```
 */
export function formatTable(result: DoctorResult, source: string): string {
  const indent = " ".repeat(CHECK_WIDTH + STATUS_WIDTH);
  const width = WIDTH - indent.length;
  const lines = [
    `samkit doctor: ${source}`,
    "",
    `${"CHECK".padEnd(CHECK_WIDTH)}${"STATUS".padEnd(STATUS_WIDTH)}DETAIL`,
  ];
  for (const row of result.rows) {
    const [head = "", ...rest] = wrap(row.detail, width);
    lines.push(`${row.check.padEnd(CHECK_WIDTH)}${row.status.padEnd(STATUS_WIDTH)}${head}`);
    for (const more of rest) lines.push(indent + more);
    if (row.fix) {
      for (const [i, part] of wrap(`fix: ${row.fix}`, width - 5).entries()) {
        lines.push(indent + (i ? "     " : "") + part);
      }
    }
  }
  lines.push("", ...wrap(verdict(result), WIDTH));
  return lines.join("\n");
}

/**
 * The findings as one JSON value: the source, `ready`, the rows and each report's readiness.
 *
 * @example
 * ```ts
 * import { doctorJson } from "./doctor_table.ts";
 * const json = doctorJson({ ready: true, rows: [], reports: [] }, "embedded");
 * console.log(json.ready, json.source); // true "embedded"
 * ```
 */
export function doctorJson(result: DoctorResult, source: string): {
  source: string;
  ready: boolean;
  checks: DoctorResult["rows"];
  reports: DoctorResult["reports"];
} {
  return { source, ready: result.ready, checks: result.rows, reports: result.reports };
}
