/**
 * The license-cost-summary section of the annual run rate: per currency, the current yearly
 * maintenance and support and the running subscriptions annualised (`lib/query/run_rate.ts`),
 * beside the cost to date of the other sections; with what was left out and why.
 *
 * @module
 */

import {
  annualRunRate,
  type RunRate,
  runRateCurrency,
  subscriptionCents,
  termMonths,
} from "../lib/query/run_rate.ts";
import { fromMinorUnits, toMinorUnits } from "../lib/query/money.ts";
import { date, integer, money, text } from "../lib/report/columns.ts";
import type { AmountConverter, Row, Section } from "../lib/report/model.ts";
import { convertedKey } from "../lib/sam/reporting_currency.ts";
import { COST_COLUMNS } from "./license_cost_summary_columns.ts";
import type { LicensesInScope } from "../lib/sam/license_cost_query.ts";

/** The label of the run-rate fact (one per currency: "Annual run rate (EUR)"). */
export const RUN_RATE_FACT = "Annual run rate";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What the run rate leaves out, one sentence each (empty when nothing).
 *
 * @example
 * ```ts
 * import { runRateNotes } from "./license_cost_summary_run_rate.ts";
 * console.log(runRateNotes({
 *   byCurrency: [], subscriptionTermsSeen: true, endedSubscriptions: 2, futureSubscriptions: 0,
 *   subscriptionsWithoutTerm: 0, withoutCostSummary: 0, withoutCurrency: 0,
 * }));
 * // ["2 subscriptions whose term ended are not counted."]
 * ```
 */
export function runRateNotes(rate: RunRate): string[] {
  return [
    rate.subscriptionTermsSeen ? "" : "The service sends no subscription terms: subscriptions " +
      "are not in the run rate (maintenance and support only).",
    rate.endedSubscriptions
      ? `${plural(rate.endedSubscriptions, "subscription", "subscriptions")} whose term ended ` +
        "are not counted."
      : "",
    rate.futureSubscriptions
      ? `${plural(rate.futureSubscriptions, "subscription", "subscriptions")} whose term has ` +
        "not started are not counted."
      : "",
    rate.subscriptionsWithoutTerm
      ? `${plural(rate.subscriptionsWithoutTerm, "subscription", "subscriptions")} without a ` +
        "term or a cost are not counted (unknown, not 0)."
      : "",
    rate.withoutCostSummary
      ? `${plural(rate.withoutCostSummary, "license", "licenses")} without a cost summary: ` +
        "their maintenance and support are unknown and not counted."
      : "",
    rate.withoutCurrency
      ? `${plural(rate.withoutCurrency, "license", "licenses")} with costs but no currency ` +
        "are not counted."
      : "",
  ].filter(Boolean);
}

/**
 * The "Annual run rate" section of the licenses in scope on the day `asOf`, with the fact
 * "Annual run rate (CUR)" per currency.
 *
 * @example
 * ```ts
 * import { runRateSection } from "./license_cost_summary_run_rate.ts";
 * const section = runRateSection({ licenses: [], costs: new Map() }, new Date("2026-11-24"));
 * console.log(section.id, section.facts?.[0].label); // "run-rate" "Annual run rate"
 * ```
 */
export function runRateSection(
  scope: LicensesInScope,
  asOf: Date,
  fx?: AmountConverter,
): Section {
  const rate = annualRunRate(
    scope.licenses.map((license) => ({
      license,
      summary: scope.costs.get(license.id!)?.summary ?? null,
    })),
    { asOf, ...(fx ? { convert: (amount, code) => fx.convert(amount, code) } : {}) },
  );
  const notes = runRateNotes(rate);
  return {
    id: "run-rate",
    title: "Annual run rate",
    description: "What the licenses in scope cost per year to keep, per currency: the current " +
      "yearly maintenance and support, plus each subscription running on " +
      `${asOf.toISOString().slice(0, 10)} at its cost × 12 ÷ its term in months. Unlike the ` +
      "cost to date (purchase plus maintenance and support accumulated since purchase), it " +
      "does not grow with time." + (notes.length ? ` ${notes.join(" ")}` : ""),
    columns: [
      COST_COLUMNS.currency,
      integer("licenses", "Licenses with a yearly cost", { width: 10 }),
      money("maintenance", "Maintenance/yr", { width: 14 }),
      money("support", "Support/yr", { width: 14 }),
      integer("runningSubscriptions", "Running subscriptions", { width: 10 }),
      money("subscriptions", "Subscriptions/yr", { width: 14 }),
      money("total", "Annual run rate", { width: 16 }),
    ],
    rows: rate.byCurrency.map(({ converted, ...r }) => ({
      ...r,
      // Each license's amounts converted once; the converted total adds the converted parts.
      ...(fx && converted
        ? Object.fromEntries(
          Object.entries(converted).map(([key, value]) => [convertedKey(key, fx.code), value]),
        )
        : {}),
    })),
    totals: {
      sum: ["licenses", "runningSubscriptions"],
      converted: ["maintenance", "support", "subscriptions", "total"],
    },
    emptyText: "No license in scope has maintenance, support or a running subscription.",
    facts: [{ label: RUN_RATE_FACT, sum: "total", perCurrency: "currency" }],
  };
}

/**
 * The "Running subscriptions" section: each subscription the run rate counts on the day `asOf`,
 * with its term, its cost for the term and that cost per year (cost × 12 ÷ whole months, to the
 * cent), so the run rate's subscriptions and its licenses with a yearly cost recompute from the
 * printed rows. `applications` labels each license id.
 *
 * @example
 * ```ts
 * import { runningSubscriptionsSection } from "./license_cost_summary_run_rate.ts";
 * const section = runningSubscriptionsSection(
 *   { licenses: [], costs: new Map() }, new Date("2026-11-24"), new Map(),
 * );
 * console.log(section.id); // "run-rate-subscriptions"
 * ```
 */
export function runningSubscriptionsSection(
  scope: LicensesInScope,
  asOf: Date,
  applications: ReadonlyMap<string, string>,
): Section {
  const rows: Row[] = [];
  for (const license of scope.licenses) {
    const entry = { license, summary: scope.costs.get(license.id!)?.summary ?? null };
    const perYear = subscriptionCents(entry, asOf);
    const currency = runRateCurrency(entry);
    if (typeof perYear !== "number" || !currency) continue;
    const from = license.subscriptionValidFrom!, to = license.subscriptionValidTo!;
    rows.push({
      application: applications.get(license.id!) ?? null,
      licenseId: license.id!,
      validFrom: from,
      validTo: to,
      months: termMonths(from, to),
      termCost: fromMinorUnits(toMinorUnits(entry.summary?.purchaseCost ?? license.purchaseValue)),
      subscriptions: fromMinorUnits(perYear),
      currency,
    });
  }
  return {
    id: "run-rate-subscriptions",
    title: "Running subscriptions",
    description: "The subscriptions the annual run rate counts: each running on " +
      `${asOf.toISOString().slice(0, 10)}, with its term, its cost for the term and that cost ` +
      "per year (cost × 12 ÷ the term's whole months, to the cent). Their sum per currency is " +
      "the run rate's Subscriptions/yr.",
    columns: [
      COST_COLUMNS.application(34),
      text("licenseId", "License", { width: 9 }),
      date("validFrom", "Term from", { width: 11 }),
      date("validTo", "Term to", { width: 11 }),
      integer("months", "Months", { width: 7 }),
      money("termCost", "Term cost", { width: 14 }),
      money("subscriptions", "Subscriptions/yr", { width: 14 }),
      COST_COLUMNS.currency,
    ],
    rows,
    totals: { sum: ["subscriptions"], perCurrency: "currency" },
    emptyText: "No subscription is running.",
  };
}
