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
import { DUE_SOON_DAYS, EXPIRED, renewalRows } from "../lib/sam/renewal_rows.ts";
import { renewalMonths } from "../lib/sam/renewal_months.ts";
import { withConverted } from "../lib/sam/reporting_currency.ts";
import { licensesInScope } from "../lib/sam/license_cost_query.ts";
import { RUN_RATE_FACT, runRateSection } from "./license_cost_summary_run_rate.ts";
import { monthsSection, renewalsSection } from "./renewals_sections.ts";

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
  const fx = ctx.reportingCurrency;
  const sources = await readRenewalSources(ctx);
  const due = renewalsDue(
    { licenses: sources.licenses, periods: sources.periods ?? [] },
    { now: ctx.now, horizonDays, installs: sources.installs ?? undefined },
  );
  const blind = renewalBlindSpots(sources);
  const { facts: _, ...runRate } = runRateSection(await licensesInScope(ctx, {}), ctx.now, fx);
  const end = new Date(ctx.now.getTime() + horizonDays * 86_400_000);
  const until = end.toISOString().slice(0, 10);
  // With a reporting currency each renewal's cost is converted once; the months add them.
  const rows = withConverted(await renewalRows(ctx, due), fx, {
    amounts: ["annualCost"],
    currency: (r) => r.currency as string | null,
  });
  const months = renewalMonths(rows as never, { now: ctx.now, horizonDays, fx });
  return {
    facts: [
      {
        section: "renewals",
        label: "Annual cost of renewals due",
        sum: "annualCost",
        perCurrency: "currency",
        cover: true,
      },
      {
        section: "renewals",
        label: `Renewals due within ${DUE_SOON_DAYS} days`,
        count: true,
        where: (r) => r.status !== EXPIRED && (r.daysLeft as number) <= DUE_SOON_DAYS,
        cover: true,
      },
      {
        section: "renewals",
        label: "Renewals due",
        count: true,
        where: (r) => r.status !== EXPIRED,
        cover: true,
      },
      {
        section: "renewals",
        label: "Expired subscriptions in use",
        count: true,
        where: (r) => r.status === EXPIRED,
        cover: true,
      },
      {
        section: "run-rate",
        label: RUN_RATE_FACT,
        sum: "total",
        perCurrency: "currency",
        cover: true,
      },
    ],
    sections: [
      monthsSection({
        first: ctx.now.toISOString().slice(0, 7),
        last: until.slice(0, 7),
        rows: months,
      }),
      renewalsSection({ horizonDays, until, blind, rows }),
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
  description: "What renews when and what it costs a year, for planning: every month of the " +
    "horizon with the renewals due and their annual cost per currency (and chart), then every " +
    "subscription and maintenance and support period ending within the horizon, with its " +
    "status (due within 30 or 90 days, or later); subscriptions that ended while installs " +
    "remain are flagged. Beside them, the annual run " +
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
