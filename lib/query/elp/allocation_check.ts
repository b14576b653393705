/**
 * The ELP of an organisation scope beside the service's compliance allocation
 * (`/compliance/summary/{applicationId}/allocation`: requirement, coverage and compliance per
 * application × metric × organisation). The service's summary covers the whole estate; its
 * allocation splits the same figures by organisation, so a scope (an organisation and its
 * sub-organisations) is compared with the sum of its organisations' allocation rows.
 *
 * Each allocation row is read as one organisation's own share (the rows of an application and
 * metric add up to its summary), never as a subtree total. Applications the service offers no
 * allocation rows for are not compared.
 *
 * @module
 */

import {
  compareFigures,
  type CrossCheckDifference,
  type FigureRule,
  pairKey,
} from "./compare_figures.ts";
import type { ElpLine } from "./position.ts";

/** The figures of a compliance allocation row the check reads. */
export interface ServiceAllocation {
  readonly applicationId: string | null;
  readonly metricId: string | null;
  readonly organizationId: string | null;
  readonly requirement: number | null;
  readonly coverage: number | null;
  readonly compliance: number | null;
}

type Figure = "requirement" | "coverage" | "compliance";

/** The figures compared: label, samkit's field, the service's field, what a difference means. */
const FIGURES: readonly FigureRule<Figure>[] = [
  [
    "Entitlements",
    "entitlements",
    "coverage",
    "coverage is split differently: samkit by the licenses' allocations to organisations (a " +
    "transfer charged to the allocation it draws on), the service perhaps by each license's " +
    "own organisation, or with coverage samkit does not read",
  ],
  [
    "Requirement",
    "requirement",
    "requirement",
    "the requirement allocated differs: the service's split by organisation is not the sum of " +
    "the metric-tracking rows of this scope's computers samkit read",
  ],
  ["Position", "position", "compliance", "the position follows from the figures above"],
];

/** Σ of each figure over the allocation rows of the scope, per application × metric. */
function scopeTotals(
  allocations: Iterable<ServiceAllocation>,
  scope: ReadonlySet<string>,
): { totals: Map<string, Record<Figure, number>>; apps: Set<string> } {
  const totals = new Map<string, Record<Figure, number>>();
  const apps = new Set<string>();
  for (const a of allocations) {
    if (!a.applicationId || !a.metricId) continue;
    apps.add(a.applicationId);
    if (!a.organizationId || !scope.has(a.organizationId)) continue;
    const key = pairKey(a.applicationId, a.metricId);
    const t = totals.get(key) ?? { requirement: 0, coverage: 0, compliance: 0 };
    for (const f of ["requirement", "coverage", "compliance"] as const) t[f] += a[f] ?? 0;
    totals.set(key, t);
  }
  return { totals, apps };
}

/**
 * Every difference between the ELP lines of an organisation scope and the service's allocation
 * rows of that scope's organisations, summed per application × metric (pairs only one side has
 * are differences too, as in `crossCheck`). Applications without allocation rows are not
 * compared.
 *
 * @example
 * ```ts
 * import { allocationCheck } from "./allocation_check.ts";
 * import { computeElp } from "./position.ts";
 * const lines = computeElp({
 *   licenses: [{ applicationId: "A", metricId: "M", quantity: 5 }],
 *   transfers: [],
 *   requirements: [{ computerId: "C1", applicationId: "A", metricId: "M", requirement: 3 }],
 * });
 * const row = { applicationId: "A", metricId: "M", requirement: 3, compliance: 1 };
 * const diff = allocationCheck(lines, [
 *   { ...row, organizationId: "IT", coverage: 4 },
 *   { ...row, organizationId: "HR", coverage: 9, requirement: 0, compliance: 9 },
 * ], new Set(["IT"]));
 * console.log(diff.map((d) => `${d.figure}: ${d.samkit} vs ${d.service}`)); // ["Entitlements: 5 vs 4", "Position: 2 vs 1"]
 * ```
 */
export function allocationCheck(
  lines: readonly ElpLine[],
  allocations: Iterable<ServiceAllocation>,
  scope: ReadonlySet<string>,
): CrossCheckDifference[] {
  const { totals, apps } = scopeTotals(allocations, scope);
  return compareFigures({
    lines,
    service: totals,
    offered: apps,
    figures: FIGURES,
    noServiceRow: "the service allocates nothing for this metric to this scope's organisations",
    noSamkitLine: "samkit found no licence, transfer or requirement for this metric in this scope",
  });
}
