/**
 * The license cost summary in a reporting currency, by the one rounding rule of
 * `reporting_currency.ts`: each license's cost figures are converted once, to the cent (its total
 * cost, which is its purchase plus the maintenance and support to date, as the sum of those
 * three converted), and every subtotal, total and ranking adds up those converted figures, so a
 * currency's converted total is the same cent in every table. "Purchase ÷ qty" in the reporting
 * currency is the converted purchase divided by the quantity printed beside it.
 *
 * @module
 */

import type { AmountConverter, Row } from "../report/model.ts";
import type { Measure } from "../query/measures.ts";
import { perUnit } from "../query/per_unit.ts";
import { convertedKey, convertedSums, withConverted } from "./reporting_currency.ts";
import { COST_FIELDS, type CostLine, purchasePerUnit } from "./license_cost_lines.ts";

/** The cost figure keys, in the order shown. */
const COST_KEYS: readonly string[] = COST_FIELDS.map(([key]) => key);

/** The parts of a license's cost to date. */
const TOTAL_PARTS = ["purchaseCost", "accumulatedMaintenance", "accumulatedSupport"] as const;

/**
 * The cost lines with their figures converted to the reporting currency (companions
 * `purchaseCostInEUR`, …, `averageCostInEUR`); the lines as they are without one. A line
 * without a cost summary has no converted figure.
 *
 * @example
 * ```ts
 * import { convertedCostLines } from "./license_cost_converted.ts";
 * const fx = { code: "EUR", convert: (n: number | null) => n === null ? null : Math.round(n * 50) / 100 };
 * const [line] = convertedCostLines([{
 *   costed: true, currency: "USD", quantity: 2, purchaseCost: 1.01, accumulatedMaintenance: 1.01,
 *   accumulatedSupport: 0, costToDate: 2.02, currentMaintenance: 0, currentSupport: 0,
 * } as never], fx);
 * console.log(line.costToDateInEUR, line.averageCostInEUR); // 1.02 0.26
 * ```
 */
export function convertedCostLines(
  lines: readonly CostLine[],
  fx: AmountConverter | undefined,
): (CostLine & Row)[] {
  if (!fx) return lines as (CostLine & Row)[];
  const average = convertedKey("averageCost", fx.code);
  const purchase = convertedKey("purchaseCost", fx.code);
  return withConverted(lines, fx, {
    amounts: COST_KEYS,
    currency: (l) => (l.costed ? l.currency : null),
    sums: { costToDate: TOTAL_PARTS },
  }).map((l) => ({
    ...l,
    [average]: l.costed ? purchasePerUnit(l[purchase] as number | null, l.quantity) : null,
  }));
}

/**
 * The measures of converted subtotals (for `groupBy` over converted lines): each converted cost
 * figure summed to the cent, and the converted purchase ÷ the quantity of the lines with costs;
 * none without a reporting currency.
 *
 * @example
 * ```ts
 * import { convertedCostSubtotals } from "./license_cost_converted.ts";
 * console.log(Object.keys(convertedCostSubtotals(undefined))); // []
 * ```
 */
export function convertedCostSubtotals(
  fx: AmountConverter | undefined,
): Record<string, Measure<Row, number | null>> {
  if (!fx) return {};
  const purchase = convertedKey("purchaseCost", fx.code);
  return {
    ...convertedSums(fx, COST_KEYS),
    [convertedKey("averageCost", fx.code)]: perUnit(
      (l: Row) => (l.costed ? (l[purchase] as number | null) ?? 0 : null),
      (l) => l.quantity as number | null,
    ),
  };
}
