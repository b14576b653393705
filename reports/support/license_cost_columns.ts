/**
 * The columns the license-cost-summary sections share: the cost figures (from `COST_FIELDS`),
 * quantity, licenses, currency, average, and the sums of the subtotal sections.
 *
 * @module
 */

import { integer, money, text } from "../../lib/report/columns.ts";
import type { Column } from "../../lib/report/model.ts";
import { COST_FIELDS } from "./license_cost_lines.ts";

const QTY = integer("quantity", "Qty", { width: 6 });
const LICENSES = integer("licenses", "Licenses", { width: 8 });
const CURRENCY = text("currency", "Currency", { width: 8 });
const FIGURES: readonly Column[] = [
  QTY,
  ...COST_FIELDS.map(([key, label]) => money(key, label, { width: 14 })),
  money("averageCost", "Avg./license", { width: 11 }),
];
const SUMS = ["quantity", ...COST_FIELDS.map(([key]) => key)];

/**
 * The shared note on what the cost figures mean (`note`), columns and sums: `figures` (quantity, every cost, average), `subtotals` (licenses,
 * figures, currency), `sums` (the summed keys of a license list), `subtotalSums` (the totals spec
 * of a subtotal section, per currency), and the application, vendor and publisher columns of a
 * width.
 *
 * @example
 * ```ts
 * import { COST_COLUMNS } from "./license_cost_columns.ts";
 * console.log(COST_COLUMNS.subtotals.map((c) => c.key).at(-1)); // "currency"
 * ```
 */
export const COST_COLUMNS = {
  note: "Maint./yr and Support/yr are the current yearly maintenance and support costs; " +
    "the to-date figures are accumulated since purchase; the total is purchase plus " +
    "accumulated maintenance and support; Avg./license is the purchase cost per license " +
    "(purchase ÷ quantity).",
  qty: QTY,
  licenses: LICENSES,
  currency: CURRENCY,
  total: money("totalCost", "Total cost", { width: 16 }),
  figures: FIGURES,
  subtotals: [LICENSES, ...FIGURES, CURRENCY] as readonly Column[],
  sums: SUMS,
  subtotalSums: { sum: ["licenses", ...SUMS], perCurrency: "currency" },
  application: (width: number): Column => text("application", "Application", { width }),
  vendor: (width: number): Column => text("vendor", "Vendor", { width }),
  publisher: (width: number): Column => text("publisher", "Publisher", { width }),
} as const;
