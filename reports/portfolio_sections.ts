/**
 * The portfolio report's money sections, declared: a money figure per tenant and currency,
 * beside its previous comparable run, and the tenants on their first run apart. The rows come
 * from `lib/sam/portfolio_rows.ts`.
 *
 * @module
 */

import { date, money, text, whenPositive } from "../lib/report/columns.ts";
import type { Section } from "../lib/report/model.ts";
import type { MoneyRow } from "../lib/sam/portfolio_rows.ts";

const moneyColumns = (label: string) => [
  text("tenant", "Tenant", { width: 22 }),
  text("currency", "Currency", { width: 8 }),
  money("value", label, { width: 16 }),
  money("previous", "Previous run", { width: 16 }),
  money("change", "Change", { width: 14, emphasis: whenPositive("change", "warn") }),
  date("asOf", "As of"),
  date("previousAsOf", "Previous as of"),
];

/**
 * A money figure per tenant and currency in two tables: tenants with a previous comparable run
 * (their totals are over the same tenants on both sides, so Total − Previous = Change), and
 * tenants on their first run (no previous figure to compare).
 *
 * @example
 * ```ts
 * import { moneySections } from "./portfolio_sections.ts";
 * const [compared, first] = moneySections("cost-to-date", "Cost to date", "Cost to date", [], "None.");
 * console.log(compared.id, first.id); // cost-to-date cost-to-date-first-runs
 * ```
 */
export const moneySections = (
  id: string,
  title: string,
  label: string,
  rows: MoneyRow[],
  empty: string,
): Section[] => [
  {
    id,
    title,
    description:
      `${label} per tenant and currency from each tenant's latest finished run, beside ` +
      "its previous comparable run (same pack): a currency the latest run has no line in is 0. " +
      "Only tenants with a previous run; currencies are never added together.",
    columns: moneyColumns(label),
    rows: rows.filter((r) => r.previous !== null),
    totals: { sum: ["value", "previous", "change"], perCurrency: "currency" },
    emptyText: empty,
    facts: [{
      label: `${label}, tenants compared`,
      sum: "value",
      perCurrency: "currency",
      cover: true,
    }],
  },
  {
    id: `${id}-first-runs`,
    title: `${title}: tenants on their first run`,
    description: `${label} per tenant and currency of tenants with no earlier run of the same ` +
      "pack: nothing to compare, so they are kept out of the comparison's totals.",
    columns: moneyColumns(label).filter((c) =>
      !["previous", "change", "previousAsOf"].includes(c.key)
    ),
    rows: rows.filter((r) => r.previous === null),
    totals: { sum: ["value"], perCurrency: "currency" },
    // "Every tenant" only when some tenant has these figures; with none, the section's reason.
    emptyText: rows.length ? "Every tenant has a previous run." : empty,
    facts: [{
      label: `${label}, tenants on their first run`,
      sum: "value",
      perCurrency: "currency",
      cover: true,
    }],
  },
];
