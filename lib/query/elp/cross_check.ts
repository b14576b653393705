/**
 * The ELP beside the service's own compliance summary (`/compliance/summary/{applicationId}`,
 * one row per metric, where the service offers it): each figure samkit computed is compared with
 * the service's, and every difference is listed with what it means.
 *
 * @module
 */

import type { ElpLine } from "./position.ts";
import {
  compareFigures,
  type CrossCheckDifference,
  type FigureRule,
  pairKey,
} from "./compare_figures.ts";

export type { CrossCheckDifference } from "./compare_figures.ts";

type Figure = "licensesPurchased" | "totalCoverage" | "licenseRequirement" | "compliance";

/** The figures of a compliance summary row the cross-check reads. */
export interface ServiceSummary {
  readonly applicationId: string | null;
  readonly metricId: string | null;
  readonly licensesPurchased: number | null;
  readonly totalCoverage: number | null;
  readonly licenseRequirement: number | null;
  readonly compliance: number | null;
}

/** The figures compared: label, samkit's field, the service's field, what a difference means. */
const FIGURES: readonly FigureRule<Figure>[] = [
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
];

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
  const service = new Map<string, Record<Figure, number>>();
  const offered = new Set<string>();
  for (const s of summaries) {
    if (!s.applicationId || !s.metricId) continue;
    service.set(pairKey(s.applicationId, s.metricId), {
      licensesPurchased: s.licensesPurchased ?? 0,
      totalCoverage: s.totalCoverage ?? 0,
      licenseRequirement: s.licenseRequirement ?? 0,
      compliance: s.compliance ?? 0,
    });
    offered.add(s.applicationId);
  }
  return compareFigures({
    lines,
    service,
    offered,
    figures: FIGURES,
    noServiceRow: "the service has no summary row for this metric",
    noSamkitLine: "samkit found no licence, transfer or requirement for this metric",
  });
}
