/**
 * Renewals: every subscription and maintenance or support period ending within a horizon, with
 * the annual cost of renewing it at current terms, by month, per currency; expired
 * subscriptions still in use flagged. Beside them, the annual run rate per currency (what the
 * licenses cost per year to keep: the same section and figures as license-cost-summary's). The
 * rules are in `lib/sam/renewals.ts`, the reading and what the service cannot show in
 * `lib/sam/renewal_sources.ts`, the rows in `lib/sam/renewal_rows.ts`; the section is declared
 * in `renewals_sections.ts`.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { integerParam } from "../lib/report/param_builders.ts";
import { renewalsDue } from "../lib/sam/renewals.ts";
import { readRenewalSources, renewalBlindSpots } from "../lib/sam/renewal_sources.ts";
import { renewalRows } from "../lib/sam/renewal_rows.ts";
import { licensesInScope } from "../lib/sam/license_cost_query.ts";
import { RUN_RATE_FACT, runRateSection } from "./license_cost_summary_run_rate.ts";
import { renewalsSection } from "./renewals_sections.ts";

/** The slice of the SAM client this report reads. */
export type RenewalsClient = ClientSlice<{
  licenses: "list" | "maintenancePeriods" | "get" | "costsSummary";
  estate: "applications";
  registry: "applications";
  organizations: "tree";
}>;
type Ctx = ReportContext<RenewalsClient, QueryContext>;

async function data(ctx: Ctx): Promise<ReportData> {
  const horizonDays = ctx.params.horizonDays as number;
  const sources = await readRenewalSources(ctx);
  const due = renewalsDue(
    { licenses: sources.licenses, periods: sources.periods ?? [] },
    { now: ctx.now, horizonDays, installs: sources.installs ?? undefined },
  );
  const blind = renewalBlindSpots(sources);
  const { facts: _, ...runRate } = runRateSection(await licensesInScope(ctx, {}), ctx.now);
  const until = new Date(ctx.now.getTime() + horizonDays * 86_400_000).toISOString().slice(0, 10);
  return {
    facts: [
      { section: "renewals", label: "Renewals due", count: true, where: (r) => !r.expiredInUse },
      {
        section: "renewals",
        label: "Annual cost of renewals",
        sum: "annualCost",
        perCurrency: "currency",
      },
      { section: "run-rate", label: RUN_RATE_FACT, sum: "total", perCurrency: "currency" },
      {
        section: "renewals",
        label: "Expired subscriptions in use",
        count: true,
        where: (r) => r.expiredInUse === true,
      },
    ],
    sections: [
      renewalsSection({ horizonDays, until, blind, rows: await renewalRows(ctx, due) }),
      runRate,
    ],
  };
}

/**
 * The renewals report (`renewals`).
 *
 * @example
 * ```ts
 * import { renewals } from "./renewals.ts";
 * console.log(renewals.id, renewals.params.horizonDays.default); // "renewals" 365
 * ```
 */
export const renewals = defineReport<RenewalsClient, QueryContext>({
  id: "renewals",
  title: "Renewals",
  description: "What renews when and what it costs a year: subscriptions and maintenance and " +
    "support periods ending within the horizon, by month, with per-currency totals; " +
    "subscriptions that ended while installs remain are flagged. Beside them, the annual run " +
    "rate per currency: what all licenses in scope cost per year to keep (current maintenance " +
    "and support plus running subscriptions), as license-cost-summary gives it.",
  params: {
    horizonDays: integerParam("How many days ahead of the run to look", {
      default: 365,
      min: 1,
      max: 3660,
    }),
  },
  filterResource: "License",
  landscape: true,
  data,
});
