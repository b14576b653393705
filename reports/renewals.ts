/**
 * Renewals: every subscription and maintenance or support period ending within a horizon, with
 * the annual cost of renewing it at current terms, by month, per currency; expired
 * subscriptions still in use flagged. Beside them, the annual run rate per currency (what the
 * licenses cost per year to keep: the same section and figures as license-cost-summary's). The
 * rules are in `lib/sam/renewals.ts`, the reading and what the service cannot show in
 * `lib/sam/renewal_sources.ts`.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { registryById } from "../lib/query/lookups.ts";
import { organizationLabel, organizationNames } from "../lib/query/names.ts";
import { date, integer, money, text, whenTrue } from "../lib/report/columns.ts";
import {
  defineReport,
  type ReportContext,
  type ReportData,
  type Row,
} from "../lib/report/model.ts";
import { integerParam } from "../lib/report/param_builders.ts";
import { type Renewal, renewalsDue } from "../lib/sam/renewals.ts";
import { readRenewalSources, renewalBlindSpots } from "../lib/sam/renewal_sources.ts";
import { applicationLabel } from "../lib/sam/lookups.ts";
import { licensesInScope } from "../lib/sam/license_cost_query.ts";
import { RUN_RATE_FACT, runRateSection } from "./license_cost_summary_run_rate.ts";

/** The slice of the SAM client this report reads. */
export type RenewalsClient = ClientSlice<{
  licenses: "list" | "maintenancePeriods" | "get" | "costsSummary";
  estate: "applications";
  registry: "applications";
  organizations: "tree";
}>;
type Ctx = ReportContext<RenewalsClient, QueryContext>;

const EXPIRED = "Expired, in use";
const SHORT = { Subscription: "Subscr.", Maintenance: "Maint.", Support: "Support" } as const;
const bad = whenTrue("expiredInUse", "bad");

async function rows(ctx: Ctx, due: readonly Renewal[]): Promise<Row[]> {
  const [registry, names] = await Promise.all([registryById(ctx), organizationNames(ctx)]);
  return due.map((r) => {
    const app = registry.get(r.applicationId ?? "");
    const application = r.applicationId
      ? applicationLabel(r.applicationId, app)
      : "(no application)";
    return {
      month: r.endDate.toISOString().slice(0, 7),
      endDate: r.endDate,
      daysLeft: r.daysLeft,
      kind: r.kind,
      status: r.expiredInUse ? EXPIRED : "Renews",
      expiredInUse: r.expiredInUse,
      application,
      publisher: app?.manufacturer ?? null,
      organization: organizationLabel(names, r.organizationId),
      annualCost: r.annualCost,
      currency: r.currency,
      licenseId: r.licenseId,
      label: `${SHORT[r.kind]} · ${application}`,
    };
  });
}

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
    sections: [{
      id: "renewals",
      title: `Renewals until ${until}`,
      description:
        `Subscriptions and maintenance and support periods ending within ${horizonDays} ` +
        "days, one row per license and kind, by month of the end date; the annual cost is the " +
        "ending term's cost × 12 ÷ its length in months, in the term's currency (currencies are " +
        `never added together). "${EXPIRED}": a subscription that ended while its application ` +
        "is still installed." + (blind.length ? ` ${blind.join(" ")}` : ""),
      columns: [
        date("endDate", "Ends"),
        integer("daysLeft", "Days left", { width: 8, emphasis: bad }),
        text("kind", "Kind", { width: 12 }),
        text("status", "Status", { width: 14, emphasis: bad }),
        text("application", "Application", { width: 32 }),
        text("publisher", "Publisher", { width: 18 }),
        text("organization", "Organization", { width: 20 }),
        money("annualCost", "Annual cost", { width: 14 }),
        text("currency", "Currency", { width: 8 }),
        text("licenseId", "License", { width: 12 }),
      ],
      rows: await rows(ctx, due),
      group: { by: "month", label: "Month" },
      totals: { sum: ["annualCost"], perCurrency: "currency" },
      chart: {
        type: "timeline",
        title: "Renewals by end date (the first 25)",
        label: "label",
        date: "endDate",
        withinMonths: Math.max(1, Math.round(horizonDays / 30.4375)),
        withinLabel: `Within ${horizonDays} days`,
        top: 25,
      },
      emptyText: blind.length
        ? `Nothing to show: ${blind.join(" ")}`
        : `Nothing ends within ${horizonDays} days.`,
    }, runRate],
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
