/**
 * The rows of the license-optimization report, from {@link OptimizationResult}: one per short
 * position (before, after harvest, after reallocation, money saved), one per currency (what is
 * left to buy), and one per action (each install to remove, each license reassignment), with ids
 * for evidence and names for people.
 *
 * @module
 */

import type { Computer } from "../api/types.ts";
import { printedUnitCents } from "../query/elp/pricing.ts";
import { groupBy } from "../query/group_by.ts";
import { count, type Measure, sumMoney } from "../query/measures.ts";
import type { AmountConverter } from "../report/model.ts";
import { convertedSums, withConverted } from "./reporting_currency.ts";
import { organizationLabel, type OrganizationNames } from "../query/names.ts";
import { asc, desc, sortBy } from "../query/sort.ts";
import type { OptimizationResult, OptimizationStep } from "./optimize.ts";
import type { ElpNames } from "./elp_rows.ts";

/** How the rows name things. */
export interface OptimizationNames extends ElpNames {
  /** Computers by id. */
  readonly computers: ReadonlyMap<string | null, Computer>;
  /** Organisation names by id. */
  readonly organizations: OrganizationNames;
}

function outcome(before: number, after: number): string {
  return after <= 0 ? "Closed" : after < before ? "Reduced" : "Still short";
}

/**
 * One row per position short before: the shortfall before (the ELP's), after harvest and after
 * reallocation, and what that saves at the ELP's price; most money saved first.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { reportElp } from "./elp_rows.ts";
 * import { optimizeLicensePosition } from "./optimize.ts";
 * import { optimizedPositionRows } from "./optimization_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const result = await optimizeLicensePosition(ctx, { elp, now: ctx.now });
 *   const [first] = optimizedPositionRows(result, names);
 *   console.log(first?.application, first?.shortfallBefore, first?.shortfallAfter, first?.outcome);
 * });
 * ```
 */
export function optimizedPositionRows(
  result: OptimizationResult,
  names: ElpNames,
): OptimizedPositionRow[] {
  const rows = result.positions.map((o) => ({
    application: names.label(o.position.applicationId),
    applicationId: o.position.applicationId,
    metric: o.position.metricName,
    shortfallBefore: o.shortfallBefore,
    installsHarvested: o.harvested.reduce((n, u) => n + u.installs.length, 0),
    unitsHarvested: o.unitsHarvested,
    shortfallAfterHarvest: o.shortfallAfterHarvest,
    unitsReassigned: o.unitsReassigned,
    shortfallAfter: o.shortfallAfter,
    outcome: outcome(o.shortfallBefore, o.shortfallAfter),
    unitPrice: o.position.price ? printedUnitCents(o.position.price) / 100 : null,
    currency: o.position.price?.currency ?? null,
    costBefore: o.costBefore,
    costAfter: o.costAfter,
    moneySaved: o.moneySaved,
  }));
  return sortBy(
    rows,
    desc((r) => r.moneySaved ?? -1),
    desc("shortfallBefore"),
    asc("application"),
    asc("metric"),
  );
}

/** A position short before optimisation: what {@link optimizedPositionRows} returns. */
export type OptimizedPositionRow = {
  /** The application's label. */
  application: string;
  /** The application's id. */
  applicationId: string;
  /** The metric's name. */
  metric: string;
  /** Units short before (the ELP's shortfall). */
  shortfallBefore: number;
  /** Installs removed by harvest. */
  installsHarvested: number;
  /** Units freed by harvest. */
  unitsHarvested: number;
  /** Units short after harvest. */
  shortfallAfterHarvest: number;
  /** Units reassigned from surplus licenses. */
  unitsReassigned: number;
  /** Units short after harvest and reallocation. */
  shortfallAfter: number;
  /** Closed, Reduced or Still short. */
  outcome: string;
  /** The ELP's unit price, or null. */
  unitPrice: number | null;
  /** The price's currency, or null. */
  currency: string | null;
  /** What the shortfall before would cost, or null. */
  costBefore: number | null;
  /** What the shortfall after would cost, or null. */
  costAfter: number | null;
  /** The difference, or null. */
  moneySaved: number | null;
};

/** Per currency: what {@link currencyRows} returns. */
export type OptimizationCurrencyRow = {
  /** The currency. */
  currency: string;
  /** Positions short before. */
  short: number;
  /** Positions closed. */
  closed: number;
  /** Positions still short. */
  stillShort: number;
  /** Shortfall cost before, or null. */
  costBefore: number | null;
  /** Money saved, or null. */
  moneySaved: number | null;
  /** What is left to buy, or null. */
  costAfter: number | null;
};

/** One action of the plan: what {@link actionRows} returns. */
export type OptimizationActionRow = {
  /** The step's number, in order of money saved. */
  step: number;
  /** Remove install, or Reassign license (basis). */
  action: string;
  /** The application's label. */
  application: string;
  /** The application's id. */
  applicationId: string;
  /** The metric's name. */
  metric: string;
  /** The computer's host name (its id when unknown), for a removal. */
  computer: string | null;
  /** The computer's id, for a removal. */
  computerId: string | null;
  /** The computer's organisation, for a removal. */
  organization: string | null;
  /** When the install was last used. */
  lastUsed: Date | null;
  /** Days since then. */
  idleDays: number | null;
  /** Units the removal frees (on a step's first row). */
  unitsFreed: number | null;
  /** The license reassigned. */
  license: string | null;
  /** What it is reassigned from. */
  from: string | null;
  /** What it is reassigned to. */
  to: string | null;
  /** Units reassigned. */
  units: number | null;
  /** Money the step saves (on its first row). */
  moneySaved: number | null;
  /** The price's currency. */
  currency: string | null;
  /** Why removals go together, or null. */
  note: string | null;
};

/**
 * Per currency: positions short before, closed, still short; shortfall cost before, money saved
 * and the remaining purchase need (never added across currencies); with a reporting currency
 * `fx`, the sums of the positions' converted amounts ({@link convertedPositions}) beside them.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { reportElp } from "./elp_rows.ts";
 * import { optimizeLicensePosition } from "./optimize.ts";
 * import { currencyRows, optimizedPositionRows } from "./optimization_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const result = await optimizeLicensePosition(ctx, { elp, now: ctx.now });
 *   for (const row of currencyRows(optimizedPositionRows(result, names))) {
 *     console.log(row.currency, row.short, row.moneySaved);
 *   }
 * });
 * ```
 */
export function currencyRows(
  rows: readonly OptimizedPositionRow[],
  fx?: AmountConverter,
): OptimizationCurrencyRow[] {
  const groups = groupBy(rows.filter((r) => r.currency), (r) => ({ currency: r.currency! }), {
    short: count(),
    closed: count((r) => r.shortfallAfter <= 0),
    stillShort: count((r) => r.shortfallAfter > 0),
    costBefore: sumMoney((r) => r.costBefore),
    moneySaved: sumMoney((r) => r.moneySaved),
    costAfter: sumMoney((r) => r.costAfter),
    // With a reporting currency: the positions' converted amounts, summed (never a sum converted).
    ...convertedSums(fx, MONEY_KEYS) as Record<
      string,
      Measure<OptimizedPositionRow, number | null>
    >,
  });
  return sortBy(groups, asc("currency"));
}

/** The money keys of an optimised position, each converted once with a reporting currency. */
const MONEY_KEYS = ["unitPrice", "costBefore", "costAfter", "moneySaved"];

/**
 * The positions with their money converted to the reporting currency, each amount once (the
 * cost before as the converted money saved plus the converted cost after, when it is their sum
 * to the cent), so every sum of them adds up; as they are without one.
 *
 * @example
 * ```ts
 * import { convertedPositions } from "./optimization_rows.ts";
 * console.log(convertedPositions([], undefined)); // []
 * ```
 */
export function convertedPositions(
  rows: readonly OptimizedPositionRow[],
  fx: AmountConverter | undefined,
): OptimizedPositionRow[] {
  return withConverted(rows, fx, {
    amounts: MONEY_KEYS,
    currency: (r) => r.currency,
    sums: { costBefore: ["moneySaved", "costAfter"] },
  });
}

function removeRows(s: Extract<OptimizationStep, { kind: "remove" }>, names: OptimizationNames) {
  const { unit } = s;
  const together = unit.installs.length > 1;
  const why = unit.kind === "host"
    ? `Host ${
      names.computers.get(unit.holder)?.hostName ?? unit.holder
    }'s requirement drops only ` +
      "when no install remains on it or its virtual machines"
    : unit.kind === "user"
    ? `User ${unit.holder} needs the license while any of their installs remains`
    : null;
  return unit.installs.map((i, n) => ({
    action: "Remove install",
    application: names.label(i.applicationId),
    applicationId: i.applicationId,
    metric: s.position.metricName,
    computer: names.computers.get(i.computerId)?.hostName ?? i.computerId,
    computerId: i.computerId,
    organization: organizationLabel(
      names.organizations,
      names.computers.get(i.computerId)?.organizationId,
    ),
    lastUsed: i.lastUsed,
    idleDays: i.idleDays,
    unitsFreed: n === 0 ? unit.frees : 0,
    license: null,
    from: null,
    to: null,
    units: null,
    moneySaved: n === 0 ? s.moneySaved : null,
    currency: s.position.price?.currency ?? null,
    note: together ? `${why}: ${unit.installs.length} removals together` : why,
  }));
}

function reassignRow(s: Extract<OptimizationStep, { kind: "reassign" }>, names: OptimizationNames) {
  const { move } = s;
  const fromOrg = move.from.organizationId;
  return {
    action: `Reassign license (${move.basis})`,
    application: names.label(move.to.applicationId),
    applicationId: move.to.applicationId,
    metric: s.position.metricName,
    computer: null,
    computerId: null,
    organization: null,
    lastUsed: null,
    idleDays: null,
    unitsFreed: null,
    license: move.licenseId ?? `Allocation of ${organizationLabel(names.organizations, fromOrg)}`,
    from: `${names.label(move.from.applicationId)}${
      fromOrg ? ` (${organizationLabel(names.organizations, fromOrg)})` : ""
    }`,
    to: names.label(move.to.applicationId),
    units: move.units,
    moneySaved: s.moneySaved,
    currency: s.position.price?.currency ?? null,
    note: null,
  };
}

/**
 * One row per action, in step order (most money saved first): every install of a harvest step
 * (the units freed and money saved on the step's first row), every reassignment.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { computersById } from "../query/lookups.ts";
 * import { organizationNames } from "../query/names.ts";
 * import { reportElp } from "./elp_rows.ts";
 * import { optimizeLicensePosition } from "./optimize.ts";
 * import { actionRows } from "./optimization_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const result = await optimizeLicensePosition(ctx, { elp, now: ctx.now });
 *   const computers = await computersById(ctx);
 *   const organizations = await organizationNames(ctx);
 *   const [first] = actionRows(result, { ...names, computers, organizations });
 *   console.log(first?.step, first?.action, first?.application);
 * });
 * ```
 */
export function actionRows(
  result: OptimizationResult,
  names: OptimizationNames,
): OptimizationActionRow[] {
  return result.steps.flatMap((s, i) =>
    (s.kind === "remove" ? removeRows(s, names) : [reassignRow(s, names)]).map((r) => ({
      step: i + 1,
      ...r,
    }))
  );
}
