/**
 * A license's cost line, as the license cost summary lists and sums it: the costs summary's six
 * figures, the vendor (who it was bought from), the currency (the summary's, else the purchase
 * currency) and, for subtotals, how lines add up: a license with a costs summary counts a
 * missing figure as 0, one without adds no costs, and the average is the purchase cost per unit
 * of the licenses with costs.
 *
 * @module
 */

import type { Resource } from "../../lib/api/catalogue.ts";
import { count, sum, sumMoney } from "../../lib/query/measures.ts";
import { fromMinorUnits, toMinorUnits } from "../../lib/query/money.ts";
import { perUnit } from "../../lib/query/per_unit.ts";
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
  ["currentMaintenance", "Maint./yr", "currentMaintenanceCost"],
  ["accumulatedMaintenance", "Maint. to date", "accumulatedMaintenanceCost"],
  ["currentSupport", "Support/yr", "currentSupportCost"],
  ["accumulatedSupport", "Support to date", "accumulatedSupportCost"],
  ["totalCost", "Total cost", "totalCost"],
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
  readonly averageCost: number | null;
  readonly note: string | null;
  /** Whether the license has a costs summary. */
  readonly costed: boolean;
};

/**
 * The cost line of a license from its costs (see `license_list_costs.ts`) and registry entry;
 * figures to the cent.
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
  return {
    ...costs,
    licenseId: license.id!,
    application: applicationLabelOrNone(license.applicationId, app),
    publisher: app?.manufacturer ?? null,
    vendor: vendor?.trim() || NO_VENDOR,
    purchaseDate: license.purchaseDate,
    quantity: license.quantity ?? summary?.quantity ?? null,
    currency: summary?.currency?.trim() || license.purchaseCurrency?.trim() || NO_CURRENCY,
    averageCost: summary?.averageCostPerLicensePurchase ?? null,
    note: summary ? null : NO_COST_SUMMARY,
    costed: summary !== null,
  };
}

/**
 * The subtotal measures of cost lines (for `groupBy`): licenses, quantity, each cost figure in
 * exact cents (`null` when no line of the group has costs), the average purchase cost per unit
 * and the licenses without a costs summary.
 *
 * @example
 * ```ts
 * import { costLine, costSubtotals } from "./license_cost_lines.ts";
 * import { aggregate } from "../../lib/query/group_by.ts";
 * const line = costLine({ id: "L1", quantity: 2 } as never, { summary: null, vendor: null }, undefined);
 * console.log(aggregate([line], costSubtotals()).withoutCosts); // 1
 * ```
 */
export function costSubtotals() {
  const costs = Object.fromEntries(COST_FIELDS.map(([key]) => [
    key,
    sumMoney((l: CostLine) => (l.costed ? l[key] ?? 0 : null)),
  ])) as Record<CostKey, ReturnType<typeof sumMoney<CostLine>>>;
  return {
    licenses: count<CostLine>(),
    quantity: sum((l: CostLine) => l.quantity),
    ...costs,
    averageCost: perUnit(
      (l: CostLine) => (l.costed ? l.purchaseCost ?? 0 : null),
      (l) => l.quantity,
    ),
    withoutCosts: count((l: CostLine) => !l.costed),
  };
}
