/**
 * License cost summary: every license with its costs, subtotals per vendor and application,
 * totals and the most expensive applications per currency (never summed across currencies).
 * In `support/`: which licenses (license_cost_query), costs (license_list_costs), lines and sums
 * (license_cost_lines).
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { date, integer, money, text, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import type { Section } from "../lib/report/model.ts";
import { integerParam } from "../lib/report/param_builders.ts";
import { COST_FIELDS, NO_COST_SUMMARY } from "./support/license_cost_lines.ts";
import { costLinesInScope, type CostScope, subtotalsBy } from "./support/license_cost_query.ts";
import { SCOPE_PARAMS, topApplications, topSectionId } from "./support/license_cost_query.ts";

export { inPurchaseRange } from "./support/purchase_range.ts";

/** The slice of the SAM client this report reads. */
export type LicenseCostSummaryClient = ClientSlice<{
  licenses: "list" | "get" | "costsSummary";
  registry: "applications";
}>;
type Ctx = ReportContext<LicenseCostSummaryClient, QueryContext>;

const NOTE = "Maint./yr and Support/yr are the current yearly maintenance and support costs; " +
  "the to-date figures are accumulated since purchase; the total is purchase plus accumulated " +
  "maintenance and support; Avg./license is the purchase cost per license (purchase ÷ quantity).";
const NO_LICENSES = "No licenses match these parameters.";
const COSTS = COST_FIELDS.map(([key, label]) => money(key, label, { width: 14 }));
const SUMS = ["quantity", ...COST_FIELDS.map(([key]) => key)];
const CURRENCY = text("currency", "Currency", { width: 8 });
const LICENSES = integer("licenses", "Licenses", { width: 8 });
const QTY = integer("quantity", "Qty", { width: 6 });
const AVERAGE = money("averageCost", "Avg./license", { width: 11 });
const FIGURES = [QTY, ...COSTS, AVERAGE];
const SUBTOTALS = [LICENSES, ...FIGURES, CURRENCY];
const SUBTOTAL_SUMS = { sum: ["licenses", ...SUMS], perCurrency: "currency" };
const BARS = { label: "application", value: "totalCost" };
const paren = (code?: string) => (code ? ` (${code})` : "");
const app = (width: number) => text("application", "Application", { width });
const vendor = (width: number) => text("vendor", "Vendor", { width });

async function data(ctx: Ctx): Promise<ReportData> {
  const top = (ctx.params.top as number | undefined) ?? 10;
  const lines = await costLinesInScope(ctx, ctx.params as CostScope);
  const currencies = subtotalsBy(lines, ["currency"]);
  const apps = subtotalsBy(lines, ["application", "currency"]);
  const many = currencies.length > 1;
  const topSection = (code?: string): Section => ({
    id: topSectionId(code),
    title: `Top applications by cost${paren(many ? code : undefined)}`,
    description: `The ${top === 10 ? "ten" : top} most expensive applications by total cost ` +
      "(purchase plus accumulated maintenance and support)" +
      (many ? `, in ${code}; amounts in other currencies are ranked separately.` : "."),
    columns: [
      integer("rank", "Rank", { width: 6 }),
      app(52),
      text("publisher", "Publisher", { width: 26 }),
      LICENSES,
      QTY,
      money("totalCost", "Total cost", { width: 16 }),
      CURRENCY,
    ],
    rows: topApplications(apps, code, top),
    chart: { type: "bar", title: `Total cost by application${paren(code)}`, ...BARS, top },
    emptyText: "No license has cost figures for these parameters.",
  });
  const codes = currencies.length ? currencies.map((c) => c.currency) : [undefined];
  return {
    sections: [
      {
        id: "currency-totals",
        title: "Totals by currency",
        description: "Every figure summed within its currency; amounts in different currencies " +
          `are never added together. ${NOTE}`,
        columns: [
          CURRENCY,
          LICENSES,
          integer("withoutCosts", "No summary", { width: 8 }),
          ...FIGURES,
        ],
        rows: currencies,
        emptyText: NO_LICENSES,
        facts: [{ label: "Total cost", sum: "totalCost", perCurrency: "currency" }],
      },
      ...codes.map((code) => topSection(code)),
      {
        id: "licenses",
        title: "Licenses by vendor",
        description: "Every license with its costs summary, grouped by vendor with subtotals per " +
          `currency. ${NOTE} A license whose costs summary is missing is listed with ` +
          `blank costs and flagged "${NO_COST_SUMMARY}".`,
        columns: [
          app(34),
          text("licenseId", "License", { width: 9 }),
          vendor(16),
          date("purchaseDate", "Purchased", { width: 11 }),
          ...FIGURES,
          CURRENCY,
          text("note", "Note", { width: 16, emphasis: whenTrue("note", "warn") }),
        ],
        rows: lines,
        totals: { sum: SUMS, perCurrency: "currency" },
        group: { by: "vendor", label: "Vendor" },
        emptyText: NO_LICENSES,
        facts: [
          { label: "Licenses", count: true },
          { label: "Licenses without a cost summary", count: true, where: (r) => Boolean(r.note) },
          { label: "Applications", distinct: "application" },
        ],
      },
      {
        id: "by-application",
        title: "Cost by application",
        description: "Subtotals per application and currency.",
        columns: [app(36), text("publisher", "Publisher", { width: 20 }), ...SUBTOTALS],
        rows: apps,
        totals: SUBTOTAL_SUMS,
        emptyText: NO_LICENSES,
      },
      {
        id: "by-vendor",
        title: "Cost by vendor",
        description: "Subtotals per vendor (who the license was bought from) and currency.",
        columns: [vendor(28), ...SUBTOTALS],
        rows: subtotalsBy(lines, ["vendor", "currency"]),
        totals: SUBTOTAL_SUMS,
        emptyText: NO_LICENSES,
      },
    ],
  };
}

/**
 * The license cost summary report (`license-cost-summary`).
 *
 * @example
 * ```ts ignore
 * import { licenseCostSummary } from "./license_cost_summary.ts";
 * console.log(licenseCostSummary.id); // "license-cost-summary"
 * ```
 */
export const licenseCostSummary = defineReport<LicenseCostSummaryClient, QueryContext>({
  id: "license-cost-summary",
  title: "License cost summary",
  description: "What every license cost: purchase, maintenance and support, current and " +
    "accumulated, with the total and the average purchase cost per license, subtotals per " +
    "vendor and per application, totals per currency (currencies are never added together) and " +
    "the most expensive applications. Costs are each license's costs-summary figures " +
    "(the cost totals on the license list, or its costs summary where the list lacks them); " +
    "the vendor is the license record's vendor (who it was bought from), the publisher the " +
    "software registry's manufacturer. A license without a costs summary is listed with blank " +
    "costs and flagged.",
  params: {
    ...SCOPE_PARAMS,
    top: integerParam(
      "How many applications the most-expensive ranking shows per currency",
      { default: 10, min: 1, max: 100 },
    ),
  },
  filterResource: "License",
  landscape: true,
  data,
});
