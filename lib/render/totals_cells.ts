/**
 * Which sums a totals line shows. A per-currency section's line for rows without a currency code
 * (`(none)`) sums the money of rows that have none: such rows have no amount (an unpriced
 * shortfall's cost is unknown, not 0), so the line leaves its money cells blank rather than
 * print a 0 that reads as "costs nothing". Its other sums (counts, units) are shown.
 *
 * @module
 */

import type { Column } from "../report/model.ts";
import { NO_CURRENCY } from "../report/totals.ts";

/**
 * The sum a totals line shows in `column`, or `undefined` for a blank cell: not a finite number,
 * or money summed over rows without a currency code that held no amount.
 *
 * @example
 * ```ts
 * import { shownTotal } from "./totals_cells.ts";
 * console.log(shownTotal({ type: "currency" }, "EUR", 0)); // 0
 * console.log(shownTotal({ type: "currency" }, "(none)", 0)); // undefined
 * console.log(shownTotal({ type: "integer" }, "(none)", 0)); // 0
 * ```
 */
export function shownTotal(
  column: Pick<Column, "type" | "currency">,
  label: string,
  value: number | undefined,
): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  const codeless = label === NO_CURRENCY && column.type === "currency" && !column.currency;
  return codeless && value === 0 ? undefined : value;
}
