/**
 * The ELP beside the service's own compliance summary (`/compliance/summary/{applicationId}`,
 * one row per metric, where the service offers it): each figure samkit computed is compared with
 * the service's, and every difference is listed with what it means.
 *
 * @module
 */

import type { ElpLine } from "./position.ts";

/** The figures of a compliance summary row the cross-check reads. */
export interface ServiceSummary {
  readonly applicationId: string | null;
  readonly metricId: string | null;
  readonly licensesPurchased: number | null;
  readonly totalCoverage: number | null;
  readonly licenseRequirement: number | null;
  readonly compliance: number | null;
}

/** One figure where samkit and the service differ. */
export interface CrossCheckDifference {
  readonly applicationId: string;
  readonly metricId: string;
  /** Which figure. */
  readonly figure: string;
  /** samkit's value (null: samkit has no line for this application and metric). */
  readonly samkit: number | null;
  /** The service's value (null: the service has no row). */
  readonly service: number | null;
  /** What the difference means. */
  readonly explanation: string;
}

/** The figures compared: label, samkit's field, the service's field, what a difference means. */
const FIGURES = [
  [
    "Purchased",
    "purchased",
    "licensesPurchased",
    "the licence quantities differ: a licence the list did not show samkit, or one the service excludes (expired, incomplete)",
  ],
  [
    "Entitlements",
    "entitlements",
    "totalCoverage",
    "coverage differs: the service counts coverage samkit does not read (site, VM, stacking, named-user coverage) or transfers differ",
  ],
  [
    "Requirement",
    "requirement",
    "licenseRequirement",
    "the requirement differs: the service's metric-tracking total is not the sum of the per-computer rows samkit read",
  ],
  [
    "Position",
    "position",
    "compliance",
    "the position follows from the figures above",
  ],
] as const;

/**
 * Every difference between the ELP lines and the service's summary rows (pairs only one side
 * has are differences too). Applications the service has no summary for are not compared: list
 * them with `notOffered`.
 *
 * @example
 * ```ts
 * import { crossCheck } from "./cross_check.ts";
 * import { computeElp } from "./position.ts";
 * const lines = computeElp({ licenses: [{ applicationId: "A", metricId: "M", quantity: 5 }], transfers: [], requirements: [] });
 * const diff = crossCheck(lines, [{ applicationId: "A", metricId: "M", licensesPurchased: 5, totalCoverage: 4, licenseRequirement: 0, compliance: 4 }]);
 * console.log(diff.map((d) => `${d.figure}: ${d.samkit} vs ${d.service}`)); // ["Entitlements: 5 vs 4", "Position: 5 vs 4"]
 * ```
 */
export function crossCheck(
  lines: readonly ElpLine[],
  summaries: Iterable<ServiceSummary>,
): CrossCheckDifference[] {
  const service = new Map<string, ServiceSummary>();
  const apps = new Set<string>();
  for (const s of summaries) {
    if (!s.applicationId || !s.metricId) continue;
    service.set(`${s.applicationId}\u0000${s.metricId}`, s);
    apps.add(s.applicationId);
  }
  const out: CrossCheckDifference[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    if (!apps.has(line.applicationId)) continue;
    const key = `${line.applicationId}\u0000${line.metricId}`;
    seen.add(key);
    const s = service.get(key);
    for (const [figure, mine, theirs, explanation] of FIGURES) {
      const a = line[mine];
      const b = s ? s[theirs] ?? 0 : null;
      if (b !== null && Math.abs(a - b) < 1e-9) continue;
      if (b === null && a === 0) continue;
      out.push({
        applicationId: line.applicationId,
        metricId: line.metricId,
        figure,
        samkit: a,
        service: b,
        explanation: b === null ? "the service has no summary row for this metric" : explanation,
      });
    }
  }
  for (const [key, s] of service) {
    if (seen.has(key)) continue;
    for (const [figure, , theirs] of FIGURES) {
      const b = s[theirs] ?? 0;
      if (b === 0) continue;
      out.push({
        applicationId: s.applicationId!,
        metricId: s.metricId!,
        figure,
        samkit: null,
        service: b,
        explanation: "samkit found no licence, transfer or requirement for this metric",
      });
    }
  }
  return out;
}
