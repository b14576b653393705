/**
 * The columns the license-cost-summary sections share: the cost figures (from `COST_FIELDS`),
 * quantity, licenses and those of them without a cost summary, currency, average, and the sums
 * of the subtotal sections.
 *
 * @module
 */

import { integer, money, text, whenPositive } from "../lib/report/columns.ts";
import type { Column } from "../lib/report/model.ts";
import { COST_FIELDS } from "../lib/sam/license_cost_lines.ts";

/** The header of the average column: what it divides, as a reader recomputes it. */
export const AVERAGE_LABEL = "Purchase ÷ qty";

/** The header of the count of licenses a subtotal's figures leave out. */
export const WITHOUT_LABEL = "Of which no cost summary (not incl.)";

const QTY = integer("quantity", "Qty", { width: 6 });
const QTY_COSTED = integer("quantity", "Qty with costs", { width: 8 });
const LICENSES = integer("licenses", "Licenses", { width: 8 });
const WITHOUT = integer("withoutCosts", WITHOUT_LABEL, {
  width: 9,
  emphasis: whenPositive("withoutCosts", "warn"),
});
const CURRENCY = text("currency", "Currency", { width: 8 });
const MONEY: readonly Column[] = COST_FIELDS.map(([key, label]) =>
  money(key, label, { width: 14 })
);
const AVERAGE = money("averageCost", AVERAGE_LABEL, { width: 11 });
const SUMS = ["quantity", ...COST_FIELDS.map(([key]) => key)];

/**
 * The shared note on what the cost figures mean (`note`), columns and sums: `figures` (quantity,
 * every cost, average, for a license list), `subtotals` (licenses, those without a cost summary,
 * the quantity with costs, every cost, average, currency), `sums` (the summed keys of a license
 * list), `subtotalSums` (the totals spec of a subtotal section, per currency), and the
 * application, vendor and publisher columns of a width.
 *
 * @example
 * ```ts
 * import { COST_COLUMNS } from "./license_cost_summary_columns.ts";
 * console.log(COST_COLUMNS.subtotals.map((c) => c.key).slice(0, 3));
 * // ["licenses", "withoutCosts", "quantity"]
 * ```
 */
export const COST_COLUMNS = {
  note: "Maintenance/yr and Support/yr are the current yearly maintenance and support costs " +
    "(the annual run rate repeats them); " +
    "the to-date figures are accumulated since purchase; the total is purchase plus " +
    `accumulated maintenance and support; "${AVERAGE_LABEL}" is the purchase cost divided by ` +
    "the quantity printed beside it, to the cent.",
  subtotalNote: "Quantities, costs and averages are those of the licenses with a cost " +
    `summary; "${WITHOUT_LABEL}" counts the licenses of the line without one: their costs are ` +
    "unknown and not in any figure (a line of such licenses only is blank, never 0).",
  qty: QTY,
  qtyCosted: QTY_COSTED,
  licenses: LICENSES,
  withoutCosts: WITHOUT,
  currency: CURRENCY,
  total: money("costToDate", "Cost to date", { width: 16 }),
  average: AVERAGE,
  figures: [QTY, ...MONEY, AVERAGE] as readonly Column[],
  subtotals: [LICENSES, WITHOUT, QTY_COSTED, ...MONEY, AVERAGE, CURRENCY] as readonly Column[],
  sums: SUMS,
  subtotalSums: { sum: ["licenses", "withoutCosts", ...SUMS], perCurrency: "currency" },
  application: (width: number): Column => text("application", "Application", { width }),
  vendor: (width: number): Column => text("vendor", "Vendor", { width }),
  publisher: (width: number): Column => text("publisher", "Publisher", { width }),
} as const;
