/**
 * License cost summary: every license with its application, vendor, quantity and costs, with
 * subtotals per vendor and per application, totals per currency (never summed across currencies)
 * and the most expensive applications in each currency. Licenses: cache key `licenses.list` (or
 * `licenses.list?filter=…`); registry: `registry.applications`. Where each license's costs and
 * vendor come from is `support/license_list_costs.ts`; how a line reads and sums,
 * `support/license_cost_lines.ts`.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { groupByFields } from "../lib/query/group_fields.ts";
import { registryById } from "../lib/query/lookups.ts";
import { first } from "../lib/query/measures.ts";
import { rank } from "../lib/query/rank.ts";
import { asc, desc, orderBy, sortBy } from "../lib/query/sort.ts";
import { date, integer, money, text, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import type { Section } from "../lib/report/model.ts";
import {
  COST_FIELDS,
  type CostLine,
  costLine,
  costSubtotals,
  NO_COST_SUMMARY,
} from "./support/license_cost_lines.ts";
import { licenseCosts, readLicenses } from "./support/license_list_costs.ts";
import { inPurchaseRange } from "./support/purchase_range.ts";

export { inPurchaseRange };
export { NO_COST_SUMMARY, NO_CURRENCY, NO_VENDOR } from "./support/license_cost_lines.ts";

/** The slice of the SAM client this report reads. */
export type LicenseCostSummaryClient = ClientSlice<{
  licenses: "list" | "get" | "costsSummary";
  registry: "applications";
}>;
type Ctx = ReportContext<LicenseCostSummaryClient, QueryContext>;
type Params = { organization: string; purchasedFrom: Date; purchasedTo: Date };

const NOTE = "Maint./yr and Support/yr are the current yearly maintenance and support costs; " +
  "the to-date figures are accumulated since purchase; the total is purchase plus accumulated " +
  "maintenance and support; Avg./license is the purchase cost per license (purchase ÷ quantity).";
const NO_LICENSES = "No licenses match these parameters.";
const COSTS = COST_FIELDS.map(([key, label]) => money(key, label, { width: 12 }));
const SUMS = ["quantity", ...COST_FIELDS.map(([key]) => key)];
const CURRENCY = text("currency", "Currency", { width: 8 });
const LICENSES = integer("licenses", "Licenses", { width: 8 });
const QTY = integer("quantity", "Qty", { width: 6 });
const AVERAGE = money("averageCost", "Avg./license", { width: 11 });
const SUBTOTALS = [LICENSES, QTY, ...COSTS, AVERAGE, CURRENCY];
const app = (width: number) => text("application", "Application", { width });
const vendor = (width: number) => text("vendor", "Vendor", { width });

async function data(ctx: Ctx): Promise<ReportData> {
  const { organization, purchasedFrom: from, purchasedTo: to } = ctx.params as Partial<Params>;
  const top = (ctx.params.top as number | undefined) ?? 10;
  const [all, registry] = await Promise.all([readLicenses(ctx), registryById(ctx)]);
  const licenses = all.filter((l) =>
    l.id && (organization === undefined || l.organizationId === organization) &&
    inPurchaseRange(l.purchaseDate, from, to)
  );
  const costs = await licenseCosts(ctx, licenses);
  const lines = sortBy(
    licenses.map((l) => costLine(l, costs.get(l.id!)!, registry.get(l.applicationId ?? ""))),
    asc((l) => l.vendor),
    asc((l) => l.application),
    asc((l) => l.purchaseDate),
    asc((l) => l.licenseId),
  );
  const sums = { publisher: first((l: CostLine) => l.publisher), ...costSubtotals() };
  const currencies = groupByFields(lines, ["currency"], sums);
  const apps = groupByFields(lines, ["application", "currency"], sums);
  const many = currencies.length > 1;
  const topSection = (code?: string): Section => ({
    id: code
      ? `top-applications-${code.toLowerCase().replace(/[^a-z0-9]+/g, "")}`
      : "top-applications",
    title: `Top applications by cost${code && many ? ` (${code})` : ""}`,
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
    rows: rank(
      apps.filter((r) => r.currency === code && r.totalCost !== null),
      orderBy(desc((r) => r.totalCost), asc((r) => r.application)),
      { top },
    ),
    chart: {
      type: "bar",
      title: `Total cost by application${code ? ` (${code})` : ""}`,
      label: "application",
      value: "totalCost",
      top,
    },
    emptyText: "No license has cost figures for these parameters.",
  });
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
          QTY,
          ...COSTS,
          AVERAGE,
        ],
        rows: currencies,
        emptyText: NO_LICENSES,
        facts: [{ label: "Total cost", sum: "totalCost", perCurrency: "currency" }],
      },
      ...(currencies.length ? currencies.map((c) => topSection(c.currency)) : [topSection()]),
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
          QTY,
          ...COSTS,
          AVERAGE,
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
        totals: { sum: ["licenses", ...SUMS], perCurrency: "currency" },
        emptyText: NO_LICENSES,
      },
      {
        id: "by-vendor",
        title: "Cost by vendor",
        description: "Subtotals per vendor (who the license was bought from) and currency.",
        columns: [vendor(28), ...SUBTOTALS],
        rows: groupByFields(lines, ["vendor", "currency"], sums),
        totals: { sum: ["licenses", ...SUMS], perCurrency: "currency" },
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
    organization: {
      type: "string",
      description: "Organisation id: only licenses of this organisation",
    },
    purchasedFrom: {
      type: "date",
      description: "Only licenses purchased on or after this date (YYYY-MM-DD)",
    },
    purchasedTo: {
      type: "date",
      description: "Only licenses purchased on or before this date (inclusive, YYYY-MM-DD)",
    },
    top: {
      type: "integer",
      description: "How many applications the most-expensive ranking shows per currency",
      ...{ default: 10, min: 1, max: 100 },
    },
  },
  filterResource: "License",
  landscape: true,
  data,
});
