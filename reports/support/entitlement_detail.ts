/**
 * The entitlements of a batch of computers, for a detail read in the order of a computers
 * section: asked of the service with `computerId -in (…)` (and the one state asked for), and
 * checked here too, so a service that ignores part of the filter changes nothing; and the order
 * of one computer's detail rows (uncovered first, then application, metric and state).
 *
 * @module
 */

import type { Resource } from "../../lib/api/catalogue.ts";
import type { LicensesApi } from "../../lib/api/client.ts";
import { and, eq, isIn, printFilter } from "../../lib/api/filter.ts";
import { filterMap } from "../../lib/query/filter_map.ts";
import { asc, type Comparator, desc, orderBy } from "../../lib/query/sort.ts";

/** An entitlement of an application on a computer. */
export type ComputerEntitlement = Resource<"ComputerApplicationEntitlement">;

/**
 * The entitlements of the computers `ids`, only those in state `onlyState` when given.
 *
 * @example
 * ```ts ignore
 * import { entitlementsOf } from "./entitlement_detail.ts";
 * const found = await entitlementsOf(client.licenses, new Set(["C0001", "C0002"]), "ES02");
 * console.log(found.every((e) => e.entitlementStateId === "ES02")); // true
 * ```
 */
export function entitlementsOf(
  licenses: Pick<LicensesApi, "computerEntitlements">,
  ids: ReadonlySet<string>,
  onlyState?: string | null,
): Promise<ComputerEntitlement[]> {
  const byComputer = isIn("computerId", [...ids]);
  const filter = onlyState ? and(byComputer, eq("entitlementStateId", onlyState)) : byComputer;
  return filterMap(licenses.computerEntitlements({ filter: printFilter(filter) }), (e) => {
    const wanted = ids.has(e.computerId ?? "") &&
      (!onlyState || e.entitlementStateId === onlyState);
    return wanted ? e : null;
  });
}

/** A detail row: one application and metric of a computer with its entitlement state. */
export type DetailRow = {
  /** The computer's host name (its id when it has none). */
  readonly hostName: string | null;
  /** The application label. */
  readonly application: string;
  /** The metric label. */
  readonly metric: string;
  /** The metric id. */
  readonly metricId: string | null;
  /** The state name. */
  readonly state: string;
  /** In an uncovered state. */
  readonly uncovered: boolean;
};

/**
 * The order of a computer's detail rows: uncovered first, then by application, metric label,
 * metric id (none first) and state name.
 *
 * @example
 * ```ts
 * import { DETAIL_ORDER } from "./entitlement_detail.ts";
 * const row = { hostName: "PC1", application: "Visio", metric: "Installations", metricId: "MET01", state: "Licensed", uncovered: false };
 * console.log([row, { ...row, uncovered: true }].sort(DETAIL_ORDER)[0].uncovered); // true
 * ```
 */
export const DETAIL_ORDER: Comparator<DetailRow> = orderBy(
  desc((r) => r.uncovered),
  asc((r) => r.application),
  asc((r) => r.metric),
  asc((r) => r.metricId ?? ""),
  asc((r) => r.state),
);
