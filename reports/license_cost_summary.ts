/**
 * License cost summary: every license with its costs, subtotals per vendor and application,
 * totals and the most expensive applications per currency (never summed across currencies).
 * Beside the cost to date, the annual run rate per currency (current maintenance and support plus
 * running subscriptions per year). Every figure is over the licenses with a cost summary and
 * reproduces from the figures printed with it; licenses without one are listed apart and counted
 * in each subtotal. In `lib/sam/`: which licenses (license_cost_query), costs
 * (license_list_costs), lines and sums (license_cost_lines); declared beside it: the lists
 * (license_cost_summary_lists), the rankings (license_cost_summary_sections), the run rate
 * (license_cost_summary_run_rate).
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { integerParam } from "../lib/report/param_builders.ts";
import { costLinesOf, type CostScope, subtotalsBy } from "../lib/sam/license_cost_query.ts";
import { licensesInScope, SCOPE_PARAMS } from "../lib/sam/license_cost_query.ts";
import {
  RUN_RATE_FACT,
  runningSubscriptionsSection,
  runRateSection,
} from "./license_cost_summary_run_rate.ts";
import { convertedCostLines } from "../lib/sam/license_cost_converted.ts";
import { registryById } from "../lib/query/lookups.ts";
import {
  applicationSubtotalsSection,
  currencyTotalsSection,
  publisherSection,
  topSection,
  vendorSubtotalsSection,
} from "./license_cost_summary_sections.ts";
import { licenseListSection, withoutCostsSection } from "./license_cost_summary_lists.ts";

export { inPurchaseRange } from "../lib/sam/purchase_range.ts";

/** The slice of the SAM client this report reads. */
export type LicenseCostSummaryClient = ClientSlice<{
  licenses: "list" | "get" | "costsSummary";
  registry: "applications";
  organizations: "tree";
}>;
type Ctx = ReportContext<LicenseCostSummaryClient, QueryContext>;

/** Each license's application label, by license id (the cost lines cover every license). */
const applicationsOf = (lines: readonly { licenseId: string; application: string }[]) =>
  new Map(lines.map((l) => [l.licenseId, l.application]));

/** The headline count of the licenses whose costs are in no figure. */
const WITHOUT_FACT = "Licenses without a cost summary (costs unknown, in no total)";

/** The label of the cost-to-date fact (one per currency: "Cost to date (EUR)"). */
export const COST_TO_DATE_FACT = "Cost to date";

async function data(ctx: Ctx): Promise<ReportData> {
  const top = (ctx.params.top as number | undefined) ?? 10;
  const fx = ctx.reportingCurrency;
  const [scope] = await Promise.all([
    licensesInScope(ctx, ctx.params as CostScope),
    registryById(ctx),
  ]);
  // With a reporting currency, each license's figures are converted once; every sum adds them.
  const lines = convertedCostLines(await costLinesOf(ctx, scope), fx);
  const currencies = subtotalsBy(lines, ["currency"], fx);
  const apps = subtotalsBy(lines, ["application", "currency"], fx);
  const many = currencies.length > 1;
  const codes = currencies.length ? currencies.map((c) => c.currency) : [undefined];
  // Its run-rate fact is declared above, for the cover: the section's own would state it twice.
  const { facts: _, ...runRate } = runRateSection(scope, ctx.now, fx);
  return {
    facts: [
      {
        section: "currency-totals",
        label: COST_TO_DATE_FACT,
        sum: "costToDate",
        perCurrency: "currency",
        cover: true,
      },
      {
        section: "run-rate",
        label: RUN_RATE_FACT,
        sum: "total",
        perCurrency: "currency",
        cover: true,
      },
      { section: "licenses-without-costs", label: WITHOUT_FACT, count: true, cover: true },
      { section: "currency-totals", label: "Licenses in scope", sum: "licenses", cover: true },
    ],
    sections: [
      currencyTotalsSection(currencies),
      runRate,
      runningSubscriptionsSection(scope, ctx.now, applicationsOf(lines)),
      ...codes.map((code) => topSection(apps, code, top, many)),
      ...codes.map((code) => publisherSection(lines, code, top, many, fx)),
      licenseListSection(lines),
      withoutCostsSection(lines),
      applicationSubtotalsSection(apps),
      vendorSubtotalsSection(subtotalsBy(lines, ["vendor", "currency"], fx)),
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
    "accumulated, with the cost to date (purchase plus maintenance and support since purchase) " +
    "and the purchase cost per unit (purchase ÷ quantity), the annual run rate " +
    "(current maintenance and support plus running subscriptions per year), subtotals per " +
    "vendor and per application, totals per currency (currencies are never added together) and " +
    "the most expensive applications. Costs are each license's costs-summary figures " +
    "(the cost totals on the license list, or its costs summary where the list lacks them); " +
    "the vendor is the license record's vendor (who it was bought from), the publisher the " +
    "software registry's manufacturer. A license without a costs summary has unknown costs: it is " +
    "listed apart and is in no cost figure, total or average; every subtotal counts such " +
    "licenses in a column of their own.",
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
