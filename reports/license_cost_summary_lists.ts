/**
 * The license lists of the license cost summary: the licenses with a cost summary, by vendor with
 * subtotals per currency (every subtotal and total complete: it sums exactly the lines above
 * it), and the licenses without one, on their own, with their costs unknown and in no total.
 *
 * @module
 */

import { date, text, whenTrue } from "../lib/report/columns.ts";
import type { Section } from "../lib/report/model.ts";
import { COST_COLUMNS } from "./license_cost_summary_columns.ts";
import { type CostLine, NO_COST_SUMMARY } from "../lib/sam/license_cost_lines.ts";

const NO_LICENSES = "No licenses match these parameters.";

/** The reason a license without a cost summary gives in its list. */
export const WITHOUT_REASON = `${NO_COST_SUMMARY}: costs unknown, in no total`;

/**
 * Every license with a cost summary, grouped by vendor with subtotals per currency, and the
 * count facts of the list (lines without a cost summary are left for
 * {@link withoutCostsSection}).
 *
 * @example
 * ```ts
 * import { licenseListSection } from "./license_cost_summary_lists.ts";
 * console.log(licenseListSection([]).id); // "licenses"
 * ```
 */
export function licenseListSection(lines: readonly CostLine[]): Section {
  return {
    id: "licenses",
    title: "Licenses by vendor",
    description: "Every license with a cost summary, grouped by vendor, with subtotals and " +
      `totals per currency that sum exactly the lines shown. ${COST_COLUMNS.note} Licenses ` +
      'without a cost summary are listed apart ("Licenses without a cost summary"): their ' +
      "costs are unknown and they are in no subtotal or total.",
    columns: [
      COST_COLUMNS.application(34),
      text("licenseId", "License", { width: 9 }),
      COST_COLUMNS.vendor(16),
      date("purchaseDate", "Purchased", { width: 11 }),
      ...COST_COLUMNS.figures,
      COST_COLUMNS.currency,
    ],
    rows: lines.filter((l) => l.costed),
    totals: { sum: COST_COLUMNS.sums, perCurrency: "currency" },
    group: { by: "vendor", label: "Vendor" },
    emptyText: "No license with a cost summary matches these parameters.",
    facts: [
      { label: "Licenses with a cost summary", count: true },
      { label: "Applications with costs", distinct: "application" },
    ],
  };
}

/**
 * The licenses without a cost summary: what they are, their quantity and currency, and why
 * their costs are blank; no money column, no money total.
 *
 * @example
 * ```ts
 * import { withoutCostsSection } from "./license_cost_summary_lists.ts";
 * console.log(withoutCostsSection([]).title); // "Licenses without a cost summary"
 * ```
 */
export function withoutCostsSection(lines: readonly CostLine[]): Section {
  const rows = lines.filter((l) => !l.costed).map((l) => ({ ...l, note: WITHOUT_REASON }));
  return {
    id: "licenses-without-costs",
    title: "Licenses without a cost summary",
    description: "Licenses whose costs summary is missing: their purchase, maintenance and " +
      "support costs are unknown (not 0), so they are in no cost figure, subtotal, total or " +
      "average of this report; each subtotal counts them in its own column.",
    columns: [
      COST_COLUMNS.application(34),
      text("licenseId", "License", { width: 9 }),
      COST_COLUMNS.vendor(16),
      date("purchaseDate", "Purchased", { width: 11 }),
      COST_COLUMNS.qty,
      COST_COLUMNS.currency,
      text("note", "Costs", { width: 28, emphasis: whenTrue("note", "warn") }),
    ],
    rows,
    emptyText: lines.length ? "Every license has a cost summary." : NO_LICENSES,
  };
}
