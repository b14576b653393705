/**
 * Finding report definitions by id for the CLI, and describing them for `samkit list`.
 *
 * @module
 */

import { REPORTS } from "../../reports/mod.ts";
import type { ReportDefinition } from "../report/model.ts";
import { UnknownReportError } from "../report/errors.ts";

/**
 * The report with id `id`, or an {@link UnknownReportError} listing the known ids.
 *
 * @example
 * ```ts
 * import { findReport } from "./catalogue.ts";
 * console.log(findReport("license-cost-summary").title);
 * ```
 */
export function findReport(id: string): ReportDefinition {
  const hit = REPORTS.find((r) => r.id === id);
  if (!hit) throw new UnknownReportError(id, REPORTS.map((r) => r.id));
  return hit;
}

/**
 * A person-readable listing of every report and its parameters.
 *
 * @example
 * ```ts
 * import { describeReports } from "./catalogue.ts";
 * console.log(describeReports());
 * ```
 */
export function describeReports(): string {
  const lines: string[] = [];
  for (const r of REPORTS) {
    lines.push(`${r.id}  —  ${r.title}`, `    ${r.description}`);
    if (r.filterResource) lines.push(`    --filter applies to: ${r.filterResource}`);
    for (const [name, p] of Object.entries(r.params)) {
      const extra = [
        p.type === "enum" ? `one of ${p.values?.join("|")}` : p.type,
        p.default !== undefined
          ? `default ${JSON.stringify(p.default)}`
          : p.required
          ? "required"
          : "optional",
      ];
      lines.push(`    --param ${name}=…  ${p.description} (${extra.join(", ")})`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
