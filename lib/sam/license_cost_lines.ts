/**
 * A license's cost line, as the license cost summary lists and sums it: the costs summary's six
 * figures, the vendor (who it was bought from), the currency (the summary's, else the purchase
 * currency) and, for subtotals, how lines add up. Every figure of a subtotal is over the licenses
 * with a costs summary only — their quantity, their costs (a missing figure as 0) and their
 * purchase ÷ quantity —, so each figure reproduces from the lines printed with it; a license
 * without a costs summary adds nothing but its count to "Licenses" and to "withoutCosts" (what
 * the figures leave out). A group of such licenses only has blank figures, never 0.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { Measure } from "../query/measures.ts";
import { count, sumMoney } from "../query/measures.ts";
import { fromMinorUnits, toMinorUnits } from "../query/money.ts";
import { perUnit } from "../query/per_unit.ts";
import { applicationLabelOrNone } from "./lookups.ts";
import type { LicenseCosts } from "./license_list_costs.ts";

/** The vendor label of licenses whose record names none. */
export const NO_VENDOR = "(no vendor)";

/** The currency label of licenses with neither a cost-summary nor a purchase currency. */
export const NO_CURRENCY = "(none)";

/** The note of a license whose costs summary is missing (404). */
export const NO_COST_SUMMARY = "No cost summary";

/** The cost figures of the report, in the order shown, with their labels and summary fields. */
export const COST_FIELDS = [
  ["purchaseCost", "Purchase", "purchaseCost"],
  ["currentMaintenance", "Maintenance/yr", "currentMaintenanceCost"],
  ["accumulatedMaintenance", "Maintenance to date", "accumulatedMaintenanceCost"],
  ["currentSupport", "Support/yr", "currentSupportCost"],
  ["accumulatedSupport", "Support to date", "accumulatedSupportCost"],
  ["costToDate", "Cost to date", "totalCost"],
] as const;

/** A cost figure key. */
export type CostKey = typeof COST_FIELDS[number][0];

/** One license, resolved: what its row shows. */
export type CostLine = Record<CostKey, number | null> & {
  readonly licenseId: string;
  readonly application: string;
  readonly publisher: string | null;
  readonly vendor: string;
  readonly purchaseDate: Date | null;
  readonly quantity: number | null;
  readonly currency: string;
  /** Purchase ÷ quantity to the cent, from the figures the line shows. */
  readonly averageCost: number | null;
  readonly note: string | null;
  /** Whether the license has a costs summary. */
  readonly costed: boolean;
};

/**
 * Purchase ÷ quantity to the cent (half up), `null` without a purchase cost or a positive
 * quantity: the average as a reader recomputes it from the two printed figures.
 *
 * @example
 * ```ts
 * import { purchasePerUnit } from "./license_cost_lines.ts";
 * console.log(purchasePerUnit(100.01, 3), purchasePerUnit(5, 0), purchasePerUnit(null, 2)); // 33.34 null null
 * ```
 */
export function purchasePerUnit(purchase: number | null, quantity: number | null): number | null {
  const cents = toMinorUnits(purchase);
  if (cents === null || quantity === null || !(quantity > 0)) return null;
  return Math.round(cents / quantity) / 100;
}

/**
 * The cost line of a license from its costs (see `license_list_costs.ts`) and registry entry;
 * figures to the cent, the average purchase ÷ quantity of the line (not the service's own
 * average, which may divide by another quantity).
 *
 * @example
 * ```ts
 * import { costLine } from "./license_cost_lines.ts";
 * const line = costLine({ id: "L1", quantity: 2, purchaseCurrency: "EUR" } as never,
 *   { summary: null, vendor: " " }, undefined);
 * console.log(line.vendor, line.currency, line.note); // "(no vendor)" "EUR" "No cost summary"
 * ```
 */
export function costLine(
  license: Resource<"License">,
  { summary, vendor }: LicenseCosts,
  app: Resource<"RegistryApplication"> | undefined,
): CostLine {
  const costs = Object.fromEntries(
    COST_FIELDS.map(([key, , field]) => [key, fromMinorUnits(toMinorUnits(summary?.[field]))]),
  ) as Record<CostKey, number | null>;
  const quantity = license.quantity ?? summary?.quantity ?? null;
  return {
    ...costs,
    licenseId: license.id!,
    application: applicationLabelOrNone(license.applicationId, app),
    publisher: app?.manufacturer ?? null,
    vendor: vendor?.trim() || NO_VENDOR,
    purchaseDate: license.purchaseDate,
    quantity,
    currency: summary?.currency?.trim() || license.purchaseCurrency?.trim() || NO_CURRENCY,
    averageCost: summary ? purchasePerUnit(costs.purchaseCost, quantity) : null,
    note: summary ? null : NO_COST_SUMMARY,
    costed: summary !== null,
  };
}

/** The sum of `value` over the lines with costs; `null` when the group has none. */
function costedSum(value: (l: CostLine) => number | null): Measure<CostLine, number | null> {
  return {
    init: () => null,
    add: (acc, l) => (l.costed ? ((acc as number | null) ?? 0) + (value(l) ?? 0) : acc),
    result: (acc) => acc as number | null,
  };
}

/** The measures {@link costSubtotals} returns, by the name of the figure each computes. */
export type CostSubtotals = Record<CostKey, Measure<CostLine, number | null>> & {
  /** Licenses of the group. */
  readonly licenses: Measure<CostLine, number>;
  /** Σ quantity over the lines with costs. */
  readonly quantity: Measure<CostLine, number | null>;
  /** Purchase cost per unit over the lines with costs. */
  readonly averageCost: Measure<CostLine, number | null>;
  /** Licenses without a costs summary. */
  readonly withoutCosts: Measure<CostLine, number>;
};

/**
 * The subtotal measures of cost lines (for `groupBy`): licenses (all of the group), quantity and
 * each cost figure in exact cents over the lines with costs (`null` when no line of the group
 * has costs: unknown, not 0), purchase ÷ that quantity, and the licenses without a costs
 * summary (what the figures leave out).
 *
 * @example
 * ```ts
 * import { costLine, costSubtotals } from "./license_cost_lines.ts";
 * import { aggregate } from "../query/group_by.ts";
 * const line = costLine({ id: "L1", quantity: 2 } as never, { summary: null, vendor: null }, undefined);
 * const totals = aggregate([line], costSubtotals());
 * console.log(totals.withoutCosts, totals.quantity, totals.costToDate); // 1 null null
 * ```
 */
export function costSubtotals(): CostSubtotals {
  const costs = Object.fromEntries(COST_FIELDS.map(([key]) => [
    key,
    sumMoney((l: CostLine) => (l.costed ? l[key] ?? 0 : null)),
  ])) as Record<CostKey, ReturnType<typeof sumMoney<CostLine>>>;
  return {
    licenses: count<CostLine>(),
    quantity: costedSum((l) => l.quantity),
    ...costs,
    averageCost: perUnit(
      (l: CostLine) => (l.costed ? l.purchaseCost ?? 0 : null),
      (l) => l.quantity,
    ),
    withoutCosts: count((l: CostLine) => !l.costed),
  };
}
