/**
 * The optimised license position: starting from the effective license position (exactly the
 * `license-position` figures), what harvesting idle installs (`harvest.ts`) and reallocating
 * surplus (`reallocate.ts`: other organisations' surplus of the same product, `org_surplus.ts`;
 * surplus of another version or edition whose licenses carry the rights, `rights.ts`) leave to
 * buy, position by position, and the steps that get there, each with the money it saves at the
 * ELP's price. Only short positions are worked on; shortfall never rises.
 *
 * @module
 */

import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import {
  effectiveLicensePosition,
  type ElpOptions,
  type ElpPosition,
  type ElpResult,
} from "../query/elp/elp.ts";
import type { ElpClient } from "../query/elp/inputs.ts";
import { valueAt } from "../query/elp/pricing.ts";
import { computersById, registryById } from "../query/lookups.ts";
import { chooseHarvest, type HarvestUnit, harvestUnits, type InstallUsage } from "./harvest.ts";
import { installedUsage } from "./idle_usage.ts";
import { organizationPools } from "./org_surplus.ts";
import { reallocate, type ReallocationNeed, type Reassignment } from "./reallocate.ts";
import { rightsPools, rightsRules } from "./rights_pools.ts";

/** The slice of the SAM client the optimisation reads. */
export type OptimizationClient =
  & ElpClient
  & ClientSlice<{ estate: "applications" | "computers"; registry: "applications" }>;

/** What the optimisation reads with: the client's slice and the run's query context. */
export interface OptimizationContext {
  /** The SAM client. */
  readonly client: OptimizationClient;
  /** The run's query context. */
  readonly query: QueryContext;
}

/** Options of {@link optimizeLicensePosition}. */
export interface OptimizeOptions extends ElpOptions {
  /** Harvest installs unused for at least this many days (default 90). */
  readonly idleDays?: number;
  /** Cover a scope's shortfall from other organisations' surplus (default true). */
  readonly reallocate?: boolean;
  /** Application or computer ids or names never to harvest (case-insensitive). */
  readonly exclude?: readonly string[];
  /** The organisation ids of the tree (for organisation moves; default: the computers'). */
  readonly allOrganizations?: readonly string[];
  /** The run's clock (default now). */
  readonly now?: Date;
  /** The ELP already computed with these options (default: computed here). */
  readonly elp?: ElpResult;
}

/** One short position before and after. */
export interface OptimizedPosition {
  /** The ELP position. */
  readonly position: ElpPosition;
  /** Units short before (the ELP's shortfall). */
  readonly shortfallBefore: number;
  /** The harvest units removed for it. */
  readonly harvested: readonly HarvestUnit[];
  /** Units freed by harvest. */
  readonly unitsHarvested: number;
  /** Units short after harvest. */
  readonly shortfallAfterHarvest: number;
  /** The license units reassigned to it. */
  readonly received: readonly Reassignment[];
  /** Units reassigned. */
  readonly unitsReassigned: number;
  /** Units short after harvest and reallocation. */
  readonly shortfallAfter: number;
  /** The ELP's shortfall cost (null: unpriced). */
  readonly costBefore: number | null;
  /** What the remaining shortfall costs at the same price (null: unpriced). */
  readonly costAfter: number | null;
  /** What the optimisation saves (null: unpriced). */
  readonly moneySaved: number | null;
}

/** One proposed step: a harvest unit removed, or license units reassigned. */
export type OptimizationStep =
  & { readonly position: ElpPosition; readonly moneySaved: number | null }
  & (
    | { readonly kind: "remove"; readonly unit: HarvestUnit; readonly unitsApplied: number }
    | { readonly kind: "reassign"; readonly move: Reassignment }
  );

/** What {@link optimizeLicensePosition} returns. */
export interface OptimizationResult {
  /** The ELP the optimisation started from. */
  readonly elp: ElpResult;
  /** The positions short before, before and after. */
  readonly positions: OptimizedPosition[];
  /** Steps by money saved (largest first; unpriced last). */
  readonly steps: OptimizationStep[];
  /** The idleness threshold used, in days. */
  readonly idleDays: number;
}

const clean = (n: number) => Number(n.toPrecision(12));
const pkey = (p: { applicationId: string; metricId: string }) =>
  `${p.applicationId}\u0000${p.metricId}`;

/** Money saved going from `before` to `after` units short at the position's price. */
function saved(p: ElpPosition, before: number, after: number): number | null {
  if (!p.price) return null;
  return Math.round((valueAt(before, p.price) - valueAt(after, p.price)) * 100) / 100;
}

function excluder(list: readonly string[], names: (install: InstallUsage) => string[]) {
  const set = new Set(list.map((s) => s.trim().toLowerCase()).filter(Boolean));
  return (i: InstallUsage) => names(i).some((n) => set.has(n.toLowerCase()));
}

/**
 * The optimised license position (see the module doc).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { optimizeLicensePosition } from "./optimize.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { positions, steps } = await optimizeLicensePosition(ctx, { idleDays: 90, now: ctx.now });
 *   for (const p of positions.slice(0, 3)) {
 *     console.log(p.position.applicationId, p.shortfallBefore, p.shortfallAfter);
 *   }
 *   console.log(steps.length);
 * });
 * ```
 */
export async function optimizeLicensePosition(
  ctx: OptimizationContext,
  options: OptimizeOptions = {},
): Promise<OptimizationResult> {
  const idleDays = options.idleDays ?? 90;
  const elp = options.elp ?? await effectiveLicensePosition(ctx, options);
  const short = elp.positions.filter((p) => p.shortfall > 0);
  const [computers, registry] = await Promise.all([computersById(ctx), registryById(ctx)]);
  const usage = await installedUsage(
    ctx,
    short.map((p) => p.applicationId),
    options.now ?? new Date(),
  );
  const excluded = excluder(options.exclude ?? [], (i) => {
    const app = registry.get(i.applicationId);
    const label = app?.name && app.version ? `${app.name} ${app.version}` : "";
    return [
      i.computerId,
      computers.get(i.computerId)?.hostName ?? "",
      i.applicationId,
      app?.name ?? "",
      label,
    ];
  });
  const steps: OptimizationStep[] = [];
  const afterHarvest = new Map<string, { units: HarvestUnit[]; freed: number; left: number }>();
  for (const p of short) {
    const rows = elp.devices.filter((d) =>
      pkey({ applicationId: d.row.applicationId ?? "", metricId: d.row.metricId ?? "" }) === pkey(p)
    ).map((d) => d.row);
    const units = harvestUnits({
      rows,
      installs: usage.get(p.applicationId) ?? new Map(),
      computers,
      perUser: /\buser/i.test(p.metricName),
    });
    const chosen = chooseHarvest(units, p.shortfall, { idleDays, excluded });
    let left = p.shortfall;
    for (const unit of chosen) {
      const next = clean(Math.max(0, left - unit.frees));
      steps.push({
        kind: "remove",
        position: p,
        unit,
        unitsApplied: clean(left - next),
        moneySaved: saved(p, left, next),
      });
      left = next;
    }
    afterHarvest.set(pkey(p), {
      units: chosen,
      freed: clean(chosen.reduce((n, u) => n + u.frees, 0)),
      left,
    });
  }
  const moves = await reallocations(ctx, elp, short, afterHarvest, options, registry);
  return {
    elp,
    positions: summarise(short, afterHarvest, moves, steps),
    steps: ordered(steps),
    idleDays,
  };
}

type Harvested = Map<string, { units: HarvestUnit[]; freed: number; left: number }>;

/** Organisation moves (scoped runs, when asked), then version and edition moves. */
async function reallocations(
  ctx: OptimizationContext,
  elp: ElpResult,
  short: readonly ElpPosition[],
  harvested: Harvested,
  options: OptimizeOptions,
  registry: Awaited<ReturnType<typeof registryById>>,
): Promise<Reassignment[]> {
  const cost = (p: ElpPosition) => (p.price ? valueAt(harvested.get(pkey(p))!.left, p.price) : -1);
  const needs: ReallocationNeed[] = short
    .filter((p) => harvested.get(pkey(p))!.left > 0)
    .sort((a, b) => cost(b) - cost(a) || (pkey(a) < pkey(b) ? -1 : 1))
    .map((p) => ({
      applicationId: p.applicationId,
      metricId: p.metricId,
      shortfall: harvested.get(pkey(p))!.left,
    }));
  const taken = new Map<string, number>();
  const moves: Reassignment[] = [];
  if (options.reallocate !== false && elp.organizations) {
    const computers = await computersById(ctx);
    const organizations = options.allOrganizations ??
      [
        ...new Set(
          [...computers.values()].map((c) => c.organizationId).filter((o): o is string => !!o),
        ),
      ].sort();
    const pools = await organizationPools(ctx, {
      scope: elp.organizations,
      organizations,
      keys: new Set(needs.map(pkey)),
    });
    const same = (a: { applicationId: string; metricId: string }, b: typeof a) =>
      pkey(a) === pkey(b);
    moves.push(
      ...reallocate(needs, pools, {
        allows: (p, n) => same(p, n) ? "Organisation move" : null,
        taken,
      }).moves,
    );
  }
  const remaining = needs.map((n) => ({
    ...n,
    shortfall: clean(
      n.shortfall - moves.filter((m) => m.to === n).reduce((s, m) => s + m.units, 0),
    ),
  })).filter((n) => n.shortfall > 0);
  const licenses = await ctx.query.all("licenses.list", () => ctx.client.licenses.list());
  const pools = rightsPools(elp, licenses);
  moves.push(...reallocate(remaining, pools, { ...rightsRules(registry, licenses), taken }).moves);
  return moves;
}

function summarise(
  short: readonly ElpPosition[],
  harvested: Harvested,
  moves: readonly Reassignment[],
  steps: OptimizationStep[],
): OptimizedPosition[] {
  return short.map((p) => {
    const h = harvested.get(pkey(p))!;
    const received = moves.filter((m) => pkey(m.to) === pkey(p));
    let left = h.left;
    for (const move of received) {
      const next = clean(Math.max(0, left - move.units));
      steps.push({ kind: "reassign", position: p, move, moneySaved: saved(p, left, next) });
      left = next;
    }
    return {
      position: p,
      shortfallBefore: p.shortfall,
      harvested: h.units,
      unitsHarvested: h.freed,
      shortfallAfterHarvest: h.left,
      received,
      unitsReassigned: clean(received.reduce((n, m) => n + m.units, 0)),
      shortfallAfter: left,
      costBefore: p.shortfallCost,
      costAfter: p.price ? valueAt(left, p.price) : null,
      moneySaved: saved(p, p.shortfall, left),
    };
  });
}

/** Steps by money saved, largest first (unpriced last), then application and holder. */
function ordered(steps: OptimizationStep[]): OptimizationStep[] {
  const holder = (s: OptimizationStep) =>
    s.kind === "remove"
      ? s.unit.holder
      : `${s.move.from.organizationId ?? ""}|${s.move.licenseId ?? ""}`;
  return steps.sort((a, b) =>
    (b.moneySaved ?? -1) - (a.moneySaved ?? -1) ||
    (a.position.applicationId < b.position.applicationId
      ? -1
      : a.position.applicationId > b.position.applicationId
      ? 1
      : 0) ||
    (holder(a) < holder(b) ? -1 : holder(a) > holder(b) ? 1 : 0)
  );
}
