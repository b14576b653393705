/**
 * The renewals report's sections, declared: renewals by month for planning (every month of the
 * horizon, per currency, their annual cost by kind, with a chart), then the full list, by month,
 * with each renewal's status (expired subscriptions in use flagged).
 *
 * @module
 */

import { date, integer, money, text, whenTrue } from "../lib/report/columns.ts";
import type { Row, Section } from "../lib/report/model.ts";
import { EXPIRED } from "../lib/sam/renewal_rows.ts";
import { ENDED_IN_USE_MONTH } from "../lib/sam/renewal_months.ts";

const bad = whenTrue("expiredInUse", "bad");

/** What the renewals section shows: the horizon, its last day, the blind spots and the rows. */
export interface RenewalsSectionOptions {
  /** How many days ahead the run looked. */
  readonly horizonDays: number;
  /** The horizon's last day (YYYY-MM-DD). */
  readonly until: string;
  /** What the service cannot show, one sentence each. */
  readonly blind: readonly string[];
  /** The rows (`lib/sam/renewal_rows.ts`). */
  readonly rows: readonly Row[];
}

/**
 * The "renewals" section.
 *
 * @example
 * ```ts
 * import { renewalsSection } from "./renewals_sections.ts";
 * const section = renewalsSection({ horizonDays: 365, until: "2027-01-01", blind: [], rows: [] });
 * console.log(section.id, section.emptyText); // renewals Nothing ends within 365 days.
 * ```
 */
export function renewalsSection(
  { horizonDays, until, blind, rows }: RenewalsSectionOptions,
): Section {
  return {
    id: "renewals",
    title: `Renewals until ${until}`,
    description:
      `Every subscription and maintenance and support period ending within ${horizonDays} ` +
      "days, one row per license and kind, by month of the end date; the annual cost is the " +
      "ending term's cost × 12 ÷ its length in months, in the term's currency (currencies are " +
      `never added together). Status: "${EXPIRED}", a subscription that ended while its ` +
      'application is still installed; due within 30 days, within 90 days, or later; "cost ' +
      'unknown" where the term has no cost or start.' + (blind.length ? ` ${blind.join(" ")}` : ""),
    columns: [
      // The grouping key, printed: XLSX, CSV and JSON draw no group headers.
      text("month", "Month", { width: 8 }),
      date("endDate", "Ends"),
      integer("daysLeft", "Days left", { width: 8, emphasis: bad }),
      text("kind", "Kind", { width: 12 }),
      text("status", "Status", { width: 18, emphasis: bad }),
      text("application", "Application", { width: 32 }),
      text("publisher", "Publisher", { width: 18 }),
      text("organization", "Organization", { width: 20 }),
      money("annualCost", "Annual cost", { width: 14 }),
      text("currency", "Currency", { width: 8 }),
      text("licenseId", "License", { width: 12 }),
    ],
    rows: [...rows],
    group: { by: "month", label: "Month" },
    totals: { sum: ["annualCost"], perCurrency: "currency" },
    emptyText: blind.length
      ? `Nothing to show: ${blind.join(" ")}`
      : `Nothing ends within ${horizonDays} days.`,
  };
}

/**
 * The "months" section: every month of the horizon per currency, how many renew and their
 * annual cost by kind, with subtotals per month and totals per currency that equal the list's,
 * and a chart of the cost by kind per month, one axis per currency.
 *
 * @example
 * ```ts
 * import { monthsSection } from "./renewals_sections.ts";
 * const section = monthsSection({ first: "2026-11", last: "2027-11", rows: [] });
 * console.log(section.id, section.title); // months Renewals by month, 2026-11 to 2027-11
 * ```
 */
export function monthsSection(
  { first, last, rows }: {
    readonly first: string;
    readonly last: string;
    readonly rows: readonly Row[];
  },
): Section {
  return {
    id: "months",
    title: `Renewals by month, ${first} to ${last}`,
    description: "For planning: every month of the horizon, per currency, how many subscriptions " +
      "and maintenance and support periods end and what renewing them costs a year at current " +
      "terms (a month with nothing due shows 0). Each figure sums the renewals listed below; " +
      `"${ENDED_IN_USE_MONTH}" are subscriptions that ended while still installed (due now). ` +
      "Currencies are never added together.",
    columns: [
      text("month", "Month", { width: 12 }),
      text("currency", "Currency", { width: 8 }),
      integer("renewals", "Renewals", { width: 8 }),
      money("subscriptions", "Subscriptions/yr", { width: 14 }),
      money("maintenance", "Maintenance/yr", { width: 14 }),
      money("support", "Support/yr", { width: 14 }),
      money("annualCost", "Annual cost", { width: 14 }),
    ],
    rows: [...rows],
    group: { by: "month", label: "Month" },
    totals: {
      sum: ["renewals", "subscriptions", "maintenance", "support", "annualCost"],
      perCurrency: "currency",
    },
    chart: {
      type: "stackedBar",
      title: "Annual cost of renewals by month and kind",
      label: "month",
      segments: [
        { key: "subscriptions", label: "Subscriptions" },
        { key: "maintenance", label: "Maintenance" },
        { key: "support", label: "Support" },
      ],
      currency: "currency",
      top: 50,
    },
    emptyText: "Nothing renews within the horizon.",
  };
}
