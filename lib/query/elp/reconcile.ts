/**
 * Reconciliation of the ELP with the service's own entitlement states: per application and
 * metric, how many installs the API reports in each state, and whether that agrees with the
 * position — a shortfall must show at least one uncovered install (Unlicensed or Under-licensed),
 * and an install the service calls uncovered must not sit beside a surplus. Every disagreement
 * is listed with its reason, never dropped.
 *
 * @module
 */

import type { ElpLine } from "./position.ts";

/** The state groups a reconciliation counts. */
export type StateGroup = "covered" | "uncovered" | "notRequired" | "other";

/**
 * The group of an entitlement state by its name: Unlicensed and Under-licensed are uncovered;
 * Licensed (also via upgrade & downgrade) and extended coverage are covered; excluded and not
 * required are outside the requirement.
 *
 * @example
 * ```ts
 * import { stateGroup } from "./reconcile.ts";
 * console.log(stateGroup("Under-licensed"), stateGroup("Licensed <via upgrade & downgrade>")); // "uncovered" "covered"
 * ```
 */
export function stateGroup(name: string | null | undefined): StateGroup {
  const n = (name ?? "").trim().toLowerCase();
  if (/^(unlicensed|under-?licensed)\b/.test(n)) return "uncovered";
  if (/^(excluded|not required|no license required|ignored)/.test(n)) return "notRequired";
  if (/^licensed|covered|extended coverage/.test(n)) return "covered";
  return "other";
}

/** An install's entitlement as the API reports it. */
export interface InstallState {
  readonly applicationId: string | null;
  readonly metricId: string | null;
  readonly entitlementStateId: string | null;
}

/** Installs per state group of one application and metric. */
export interface StateCounts {
  /** Installs covered by a license. */
  readonly covered: number;
  /** Installs that need a license and have none. */
  readonly uncovered: number;
  /** Installs that need no license. */
  readonly notRequired: number;
  /** Installs in any other state. */
  readonly other: number;
}

/** One reconciled ELP line. */
export interface Reconciled {
  readonly line: ElpLine;
  readonly states: StateCounts;
  /** Why the two disagree, or null when they agree. */
  readonly disagreement: string | null;
}

const EMPTY: StateCounts = { covered: 0, uncovered: 0, notRequired: 0, other: 0 };

/**
 * Counts installs per state group for each application × metric and checks each ELP line
 * against them.
 *
 * @example
 * ```ts
 * import { reconcile } from "./reconcile.ts";
 * import { computeElp } from "./position.ts";
 * const lines = computeElp({ licenses: [], transfers: [], requirements: [{ applicationId: "A", metricId: "M", requirement: 1 }] });
 * const [r] = reconcile(lines, [{ applicationId: "A", metricId: "M", entitlementStateId: "ES01" }], new Map([["ES01", "Licensed"]]));
 * console.log(r.disagreement); // "1 unit short, but the service reports no install Unlicensed or Under-licensed"
 * ```
 */
export function reconcile(
  lines: readonly ElpLine[],
  installs: Iterable<InstallState>,
  stateNames: ReadonlyMap<string, string>,
): Reconciled[] {
  const counts = new Map<string, Record<StateGroup, number>>();
  for (const i of installs) {
    if (!i.applicationId || !i.metricId) continue;
    const key = `${i.applicationId}\u0000${i.metricId}`;
    let c = counts.get(key);
    if (!c) counts.set(key, c = { ...EMPTY });
    c[stateGroup(stateNames.get(i.entitlementStateId ?? ""))]++;
  }
  return lines.map((line) => {
    const states = counts.get(`${line.applicationId}\u0000${line.metricId}`) ?? EMPTY;
    return { line, states, disagreement: disagreement(line, states) };
  });
}

function disagreement(line: ElpLine, states: StateCounts): string | null {
  const units = (n: number) => `${n} unit${n === 1 ? "" : "s"}`;
  const installs = (n: number) => `${n} install${n === 1 ? "" : "s"}`;
  if (line.shortfall > 0 && states.uncovered === 0) {
    return `${units(line.shortfall)} short, but the service reports no install Unlicensed or ` +
      "Under-licensed";
  }
  if (line.shortfall === 0 && states.uncovered > 0) {
    return `${installs(states.uncovered)} Unlicensed or Under-licensed, but the position is ` +
      (line.surplus > 0 ? `a surplus of ${units(line.surplus)}` : "balanced");
  }
  return null;
}
