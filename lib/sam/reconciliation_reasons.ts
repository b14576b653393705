/**
 * Why a position and the service's entitlement states of its installs differ, in words a
 * reviewer can check against figures printed beside them.
 *
 * The service gives each install one entitlement state from the whole estate's licenses: it
 * pools every organisation's licenses. An organisation's position counts only the licenses
 * allocated to the organisation and its sub-organisations (as the service's compliance
 * allocation does, which the cross-check compares with). So, scoped to an organisation, a
 * position may be short while the service covers every one of its installs with licenses
 * allocated elsewhere, or be in surplus while some of its installs are uncovered because the
 * estate as a whole is short. Both are explained by the estate's position for the same
 * application and metric, printed beside them; what that does not explain is said to be
 * unexplained, with what to look at.
 *
 * @module
 */

import type { ElpInputs } from "../query/elp/position.ts";
import { computeElp } from "../query/elp/position.ts";
import { reconcile, type StateCounts } from "../query/elp/reconcile.ts";
import type { ElpData } from "../query/elp/inputs.ts";

/** A position as the reasons read it. */
export interface ReconciledPosition {
  /** Units short (0 when not short). */
  readonly shortfall: number;
  /** Units in surplus (0 when none). */
  readonly surplus: number;
  /** Installs per state group as the service reports them. */
  readonly states: StateCounts;
}

/** The estate's position of one application and metric, for a scoped position's reason. */
export interface EstatePosition {
  /** Entitlements − requirement over the whole estate. */
  readonly position: number;
  /** Installs of the whole estate the service reports Unlicensed or Under-licensed. */
  readonly uncovered: number;
}

/** What a reason says of the scope. */
export interface ReasonScope {
  /** The scope's name for a person ("Contoso EMEA / IT (ORG07)"). */
  readonly name: string;
  /** Whether the scope's requirement of this position rests on hosts (per-host licensing). */
  readonly onHosts: boolean;
}

const units = (n: number) => `${n.toLocaleString("en-US")} unit${n === 1 ? "" : "s"}`;
const installs = (n: number) => `${n.toLocaleString("en-US")} install${n === 1 ? "" : "s"}`;
const signed = (n: number) => (n > 0 ? `+${n.toLocaleString("en-US")}` : n.toLocaleString("en-US"));

/** The sentence on what the service pools, shared by the scoped reasons. */
const POOLED = "Entitlement states pool every organisation's licenses";

/**
 * The reason a position and its installs' entitlement states differ, or null when they agree
 * (a shortfall shows an uncovered install, an uncovered install sits beside a shortfall).
 *
 * @example
 * ```ts
 * import { reconciliationReason } from "./reconciliation_reasons.ts";
 * const short = { shortfall: 18, surplus: 0, states: { covered: 39, uncovered: 0, notRequired: 0, other: 0 } };
 * console.log(reconciliationReason(short, { position: 121, uncovered: 0 }, { name: "IT (ORG07)", onHosts: false }));
 * // "Entitlement states pool every organisation's licenses: the estate's position is +121, so the service covers its 39 installs with licenses allocated outside IT (ORG07), whose own allocation is 18 units short"
 * ```
 */
export function reconciliationReason(
  p: ReconciledPosition,
  estate: EstatePosition | undefined,
  scope: ReasonScope | undefined,
): string | null {
  const shortUncounted = p.shortfall > 0 && p.states.uncovered === 0;
  const uncoveredInSurplus = p.shortfall === 0 && p.states.uncovered > 0;
  if (!shortUncounted && !uncoveredInSurplus) return null;
  if (!scope || !estate) return estateReason(p, shortUncounted);
  if (shortUncounted) {
    if (p.states.covered === 0) {
      return scope.onHosts
        ? `No install of ${scope.name} has an entitlement state for it: its requirement rests ` +
          "on its hosts (licensed for the installs on their virtual machines, which belong " +
          "to other organisations; see Requirement per device)"
        : `No install of ${scope.name} has an entitlement state for it: the requirement ` +
          "comes from metric tracking alone (see Requirement per device)";
    }
    const these = p.states.covered === 1 ? "its install" : `its ${installs(p.states.covered)}`;
    return estate.position >= 0
      ? `${POOLED}: the estate's position is ${signed(estate.position)}, so the service covers ` +
        `${these} with licenses allocated outside ${scope.name}, whose own allocation is ` +
        `${units(p.shortfall)} short`
      : `${POOLED}: the estate is ${units(-estate.position)} short and the ` +
        `${installs(estate.uncovered)} it leaves uncovered ${
          estate.uncovered === 1 ? "is" : "are"
        } outside ${scope.name}, so the service covers ${these} with licenses allocated ` +
        `outside it, whose own allocation is ${units(p.shortfall)} short`;
  }
  return estate.position < 0
    ? `${POOLED}: the estate is ${units(-estate.position)} short (${
      installs(estate.uncovered)
    } uncovered, ${p.states.uncovered} here), so installs of ${scope.name} are left ` +
      `uncovered although its own allocation has a surplus of ${units(p.surplus)}`
    : `Unexplained: the estate's position is ${signed(estate.position)} and ${scope.name}'s ` +
      `allocation has a surplus, yet the service reports ${installs(p.states.uncovered)} ` +
      "uncovered: check those installs' licenses in Requirement per device";
}

/** The reason of a whole-estate position (no pooling explains it). */
function estateReason(p: ReconciledPosition, shortUncounted: boolean): string {
  return shortUncounted
    ? `Unexplained: ${units(p.shortfall)} short, but the service reports no install ` +
      "Unlicensed or Under-licensed: check the licenses covering them in Requirement per " +
      "device and the cross-check"
    : `Unexplained: ${installs(p.states.uncovered)} Unlicensed or Under-licensed beside ` +
      `${p.surplus > 0 ? `a surplus of ${units(p.surplus)}` : "a balanced position"}: the ` +
      "surplus licenses may be assigned to other computers, users or clusters";
}

/**
 * The estate's position and uncovered installs per application and metric (key
 * `applicationId\u0000metricId`), from the estate's inputs (the reads a scoped run made).
 *
 * @example
 * ```ts
 * import { estatePositions } from "./reconciliation_reasons.ts";
 * const estate = estatePositions(
 *   { licenses: [], transfers: [], requirements: [{ applicationId: "A", metricId: "M", requirement: 2 }] },
 *   { installs: [], stateNames: new Map() },
 * );
 * console.log(estate.get("A\u0000M")); // { position: -2, uncovered: 0 }
 * ```
 */
export function estatePositions(
  inputs: ElpInputs,
  states: Pick<ElpData, "installs" | "stateNames">,
): Map<string, EstatePosition> {
  const out = new Map<string, EstatePosition>();
  for (
    const { line, states: s } of reconcile(computeElp(inputs), states.installs, states.stateNames)
  ) {
    out.set(`${line.applicationId}\u0000${line.metricId}`, {
      position: line.position,
      uncovered: s.uncovered,
    });
  }
  return out;
}
