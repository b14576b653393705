/**
 * What the entitlement-state report counts: for each computer in scope, how many of its
 * applications are in each entitlement state (the entitlements streamed whole once, memory per
 * computer and state; the unknown-state column only when such a state is seen), computers with
 * an uncovered application first; and for each state, its computers and applications.
 *
 * @module
 */

import type { LicensesApi } from "../api/client.ts";
import { aggregate } from "../query/group_by.ts";
import type { Computer } from "../query/lookups.ts";
import { count, sum } from "../query/measures.ts";
import { organizationLabel, type OrganizationNames } from "../query/names.ts";
import { asc, desc, sortBy } from "../query/sort.ts";
import type { SectionFact } from "../report/facts.ts";
import type { Row } from "../report/model.ts";
import { type Tally, tallyEntitlements } from "./entitlement_applications.ts";
import { type EntitlementStates, type StateColumn, stateCounts } from "./entitlement_states.ts";
import { UNKNOWN_STATE, UNKNOWN_STATE_KEY } from "./entitlement_states.ts";

/**
 * The name of the one figure every table and headline of the report counts: entitlements of
 * applications, one per computer, application and metric (the detail's rows).
 *
 * @example
 * ```ts
 * import { ENTITLEMENTS } from "./entitlement_counts.ts";
 * console.log(ENTITLEMENTS); // "Application entitlements"
 * ```
 */
export const ENTITLEMENTS = "Application entitlements";

/**
 * The name of the part of {@link ENTITLEMENTS} in an uncovered state, in every table and headline.
 *
 * @example
 * ```ts
 * import { UNCOVERED_ENTITLEMENTS } from "./entitlement_counts.ts";
 * console.log(UNCOVERED_ENTITLEMENTS); // "Uncovered application entitlements"
 * ```
 */
export const UNCOVERED_ENTITLEMENTS = "Uncovered application entitlements";

/** A row of the computers section: the computer and its count per state. */
export type ComputerRow = Row & { id: string; hostName: string | null; uncovered: number };

/**
 * Whether a computer row has an application in an uncovered state.
 *
 * @example
 * ```ts
 * import { hasUncovered } from "./entitlement_counts.ts";
 * console.log(hasUncovered({ uncovered: 2 }), hasUncovered({ uncovered: 0 })); // true false
 * ```
 */
export const hasUncovered = (row: Row): boolean => (row.uncovered as number) > 0;

/** The counted computers: the state columns to show, and a row per computer. */
export interface ComputerCounts {
  /** The listed states' columns, and the unknown-state column when one was seen. */
  readonly columns: readonly StateColumn[];
  /** A row per computer (with an application in the state asked for, if one is). */
  readonly rows: ComputerRow[];
  /** The entitlements of the computers in scope per application id and state column key. */
  readonly applications: Tally;
}

/**
 * Counts the entitlements of `computers` per state; a row per computer (organisation by name),
 * computers with an uncovered application first, then by host name and id; and, in the same
 * read, the entitlements per application and state.
 *
 * @example
 * ```ts
 * import { computerCounts } from "./entitlement_counts.ts";
 * import { entitlementStates } from "./entitlement_states.ts";
 * const states = entitlementStates([{ id: "ES02", name: "Unlicensed", description: null }], "ES02");
 * const licenses = { computerEntitlements: () => [{ computerId: "C1", entitlementStateId: "ES02" }] };
 * const computers = [{ id: "C1", hostName: "pc1", organizationId: null }, { id: "C2", hostName: "pc0", organizationId: null }];
 * const { rows } = await computerCounts(licenses as never, computers as never, states, new Map());
 * console.log(rows.map((r) => [r.hostName, r.uncovered])); // [["pc1", 1], ["pc0", 0]]
 * ```
 */
export async function computerCounts(
  licenses: Pick<LicensesApi, "computerEntitlements">,
  computers: readonly Computer[],
  states: EntitlementStates,
  orgNames: OrganizationNames,
): Promise<ComputerCounts> {
  const ids = new Set(computers.map((c) => c.id));
  const only = states.only;
  // With one state asked for, only its entitlements are counted, in its column alone: the
  // detail lists only them, and a count of other states would rest on rows it does not print.
  const counted = (e: { readonly entitlementStateId?: string | null }) =>
    !only || states.keyOf(e.entitlementStateId ?? null) === only.key;
  const tally = await tallyEntitlements(licenses.computerEntitlements(), {
    computer: (e) => (e.computerId && ids.has(e.computerId) && counted(e) ? e.computerId : null),
    application: (e) => e.applicationId ?? "",
    state: (e) => states.keyOf(e.entitlementStateId),
  });
  const counts = tally.computers;
  const unknownSeen = [...counts.values()].some((c) => c.has(UNKNOWN_STATE_KEY));
  const columns = only ? [only] : unknownSeen ? [...states.columns, UNKNOWN_STATE] : states.columns;
  const rows = computers.map((c): ComputerRow => ({
    id: c.id!,
    hostName: c.hostName,
    organization: organizationLabel(orgNames, c.organizationId),
    operatingSystem: c.operatingSystem,
    lastScan: c.lastScanDate,
    ...stateCounts(columns, (key) => counts.get(c.id!)?.get(key) ?? 0),
  })).filter((r) => !only || (r[only.key] as number) > 0);
  return {
    columns,
    rows: sortBy(rows, desc((r) => r.uncovered > 0), asc((r) => r.hostName ?? ""), asc("id")),
    applications: tally.applications,
  };
}

/**
 * A row per state (only the state asked for, if one is): how many computers have an application
 * in it and how many applications are in it.
 *
 * @example
 * ```ts
 * import { stateTotals } from "./entitlement_counts.ts";
 * const columns = [{ id: "ES02", name: "Unlicensed", description: null, key: "state_ES02", uncovered: true }];
 * const rows = [{ id: "C1", hostName: "a", uncovered: 2, state_ES02: 2 }, { id: "C2", hostName: "b", uncovered: 0, state_ES02: 0 }];
 * console.log(stateTotals(columns, rows, undefined)[0]);
 * // { state: "Unlicensed", stateId: "ES02", description: null, uncovered: true, computers: 1, installations: 2 }
 * ```
 */
export function stateTotals(
  columns: readonly StateColumn[],
  rows: readonly ComputerRow[],
  only: StateColumn | undefined,
): Row[] {
  return columns.filter((s) => !only || s.key === only.key).map((s) => ({
    ...{ state: s.name, stateId: s.id, description: s.description, uncovered: s.uncovered },
    ...aggregate(rows, {
      computers: count((r) => (r[s.key] as number) > 0),
      installations: sum((r) => r[s.key] as number),
    }),
  }));
}

/**
 * A headline fact per state row: the applications in that state.
 *
 * @example
 * ```ts
 * import { stateFacts } from "./entitlement_counts.ts";
 * console.log(stateFacts([{ state: "Unlicensed", stateId: "ES02" }])[0].label); // "Unlicensed"
 * ```
 */
export function stateFacts(stateRows: readonly Row[]): SectionFact[] {
  return stateRows.map((s) => ({
    label: s.state as string,
    sum: "installations",
    where: (r: Row) => r.stateId === s.stateId,
  }));
}
