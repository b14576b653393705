/**
 * What unused software could give back, by the rules of the effective license position (ELP):
 *
 * - a harvest candidate is an install idle for at least the top threshold (or of unknown age);
 * - it counts, in each metric, what its metric-tracking row requires — the figure the ELP sums
 *   as requirement (1 per device or installation, the cores after core factor and minimums per
 *   core, 0 for a virtual machine whose host carries the requirement);
 * - harvesting those units lowers the requirement; where the position is short they cover the
 *   shortfall first, and only the units beyond it free licenses (the surplus after harvest).
 *
 * Whether an install consumes a license (its entitlement state) is shown beside it.
 *
 * @module
 */

import type { LicensesApi } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { PairKeys } from "../query/pair_keys.ts";

/**
 * Whether an entitlement state means the install consumes a license: a name starting a word with
 * `licensed` (`Licensed`, `Licensed <via upgrade & downgrade>`, `Under-licensed`), not
 * `Unlicensed`.
 *
 * @example
 * ```ts
 * import { consumesLicense } from "./reclaimable.ts";
 * console.log(consumesLicense("Under-licensed"), consumesLicense("Unlicensed")); // true false
 * ```
 */
export function consumesLicense(stateName: string | null | undefined): boolean {
  return /(^|[\s-])licensed\b/i.test(stateName ?? "");
}

/** Whether a computer's install of an application consumes a license. */
export type IsLicensed = (install: {
  readonly computerId: string | null;
  readonly applicationId: string | null;
}) => boolean;

/**
 * Which installs consume a license, from the entitlement states and the computer-application
 * entitlements, each read once per run (the ELP reads the same, under the same cache keys).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { licensedInstalls } from "./reclaimable.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const isLicensed = await licensedInstalls(ctx);
 *   console.log(isLicensed({ computerId: "C0001", applicationId: "APP0001" })); // true or false
 * });
 * ```
 */
export async function licensedInstalls(ctx: {
  readonly client: {
    readonly licenses: Pick<LicensesApi, "computerEntitlements" | "entitlementStates">;
  };
  readonly query: QueryContext;
}): Promise<IsLicensed> {
  const { licenses } = ctx.client;
  const [states, entitlements] = await Promise.all([
    ctx.query.all("licenses.entitlementStates", () => licenses.entitlementStates()),
    ctx.query.all("licenses.computerEntitlements", () => licenses.computerEntitlements()),
  ]);
  const licensedStates = new Set(states.filter((s) => consumesLicense(s.name)).map((s) => s.id));
  const installs = new PairKeys();
  const licensed = new Set<number>();
  for (const e of entitlements) {
    if (e.entitlementStateId && licensedStates.has(e.entitlementStateId)) {
      licensed.add(installs.key(e.computerId, e.applicationId));
    }
  }
  return (i) => {
    const key = installs.find(i.computerId, i.applicationId);
    return key !== undefined && licensed.has(key);
  };
}

/**
 * Whether an install is a harvest candidate: idle `top` days or more, or of unknown age
 * (`idleDays` null).
 *
 * @example
 * ```ts
 * import { isHarvestCandidate } from "./reclaimable.ts";
 * console.log(isHarvestCandidate(null, 180), isHarvestCandidate(90, 180)); // true false
 * ```
 */
export function isHarvestCandidate(idleDays: number | null, top: number): boolean {
  return idleDays === null || idleDays >= top;
}

/** A metric-tracking row as the reclaim reads it. */
export interface RequirementRow {
  /** The computer. */
  readonly computerId: string | null;
  /** The application. */
  readonly applicationId: string | null;
  /** The metric. */
  readonly metricId: string | null;
  /** The units the row requires. */
  readonly requirement: number | null;
}

/** The harvest candidates of one application in one metric and the units they count. */
export type IdleUnits = {
  readonly applicationId: string;
  readonly metricId: string;
  /** Candidate installs with a metric-tracking row in this metric. */
  installs: number;
  /** Σ their rows' requirement, in the metric's units. */
  units: number;
};

/** What {@link idleUnitsTally} returns: a pass that counts installs, and the lines counted. */
export interface IdleUnitsTally {
  /** Yields every install unchanged, counting each harvest candidate's metric rows. */
  pass<T extends { computerId: string | null; applicationId: string | null; candidate: boolean }>(
    installs: AsyncIterable<T> | Iterable<T>,
  ): AsyncGenerator<T>;
  /** Counts one install's metric rows when it is a harvest candidate. */
  add(
    install: { computerId: string | null; applicationId: string | null; candidate: boolean },
  ): void;
  /** The lines counted so far, one per application × metric. */
  lines(): IdleUnits[];
}

/** Rounds away float noise (core factors make fractional requirements), as the ELP does. */
const clean = (n: number) => Number(n.toPrecision(12));

/**
 * Tallies harvest candidates per application × metric while installs pass through: each
 * candidate adds its metric-tracking rows' requirement (an install may count in several
 * metrics; one without a row counts in none).
 *
 * @example
 * ```ts
 * import { idleUnitsTally } from "./reclaimable.ts";
 * const tally = idleUnitsTally([
 *   { computerId: "C1", applicationId: "ORA", metricId: "CORES", requirement: 8 },
 * ]);
 * const installs = [{ computerId: "C1", applicationId: "ORA", candidate: true }];
 * await Array.fromAsync(tally.pass(installs)); // the counts read the same installs
 * console.log(tally.lines()); // [{ applicationId: "ORA", metricId: "CORES", installs: 1, units: 8 }]
 * ```
 */
export function idleUnitsTally(tracking: Iterable<RequirementRow>): IdleUnitsTally {
  // Each install's rows by the install's number: the row itself when it is the only one (most
  // installs count in one metric), else the list.
  const installs = new PairKeys();
  const rows = new Map<number, RequirementRow | RequirementRow[]>();
  for (const r of tracking) {
    if (!r.applicationId || !r.metricId) continue;
    const key = installs.key(r.computerId, r.applicationId);
    const held = rows.get(key);
    rows.set(key, held === undefined ? r : Array.isArray(held) ? [...held, r] : [held, r]);
  }
  const rowsOf = (computerId: string | null, applicationId: string | null) => {
    const key = installs.find(computerId, applicationId);
    const held = key === undefined ? undefined : rows.get(key);
    return held === undefined ? [] : Array.isArray(held) ? held : [held];
  };
  const lines = new Map<string, IdleUnits>();
  const addRow = (r: RequirementRow) => {
    const key = `${r.applicationId}\u0000${r.metricId}`;
    let line = lines.get(key);
    if (!line) {
      const ids = { applicationId: r.applicationId!, metricId: r.metricId! };
      lines.set(key, line = { ...ids, installs: 0, units: 0 });
    }
    line.installs++;
    line.units = clean(line.units + Math.max(0, r.requirement ?? 0));
  };
  const add = (
    i: { computerId: string | null; applicationId: string | null; candidate: boolean },
  ) => {
    if (i.candidate) rowsOf(i.computerId, i.applicationId).forEach(addRow);
  };
  return {
    async *pass<
      T extends { computerId: string | null; applicationId: string | null; candidate: boolean },
    >(
      installs: AsyncIterable<T> | Iterable<T>,
    ): AsyncGenerator<T> {
      for await (const i of installs) {
        add(i);
        yield i;
      }
    },
    add,
    lines: (): IdleUnits[] => [...lines.values()],
  };
}

/**
 * What harvesting `idleUnits` gives back against a position's `shortfall`: the units that
 * cover the shortfall first, and those beyond it (reclaimable: the surplus after harvest).
 *
 * @example
 * ```ts
 * import { reclaimUnits } from "./reclaimable.ts";
 * console.log(reclaimUnits(10, 4)); // { shortfallFirst: 4, reclaimable: 6 }
 * console.log(reclaimUnits(2, 4)); // { shortfallFirst: 2, reclaimable: 0 }
 * ```
 */
export function reclaimUnits(
  idleUnits: number,
  shortfall: number,
): { shortfallFirst: number; reclaimable: number } {
  const shortfallFirst = clean(Math.min(idleUnits, Math.max(0, shortfall)));
  return { shortfallFirst, reclaimable: clean(idleUnits - shortfallFirst) };
}
