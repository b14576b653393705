/**
 * The renewals report's main section, declared: renewals by month with their annual cost per
 * currency, expired subscriptions in use flagged, and a timeline of the first 25.
 *
 * @module
 */

import { date, integer, money, text, whenTrue } from "../lib/report/columns.ts";
import type { Row, Section } from "../lib/report/model.ts";
import { EXPIRED } from "../lib/sam/renewal_rows.ts";

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
    description: `Subscriptions and maintenance and support periods ending within ${horizonDays} ` +
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
    rows: [...rows],
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
  };
}
