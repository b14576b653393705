/**
 * Portfolio across tenants: exposure (shortfall cost per currency), spend (total cost per
 * currency) and compliance per tenant, and how each moved since the tenant's previous comparable
 * run. It reads the run history the queue workers keep in PostgreSQL (`SAMKIT_DATABASE_URL`),
 * not the SAM API; money is never summed across currencies.
 *
 * @module
 */

import { date, integer, money, percent, text } from "../lib/report/columns.ts";
import { whenPositive } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { RunHistory } from "../lib/queue/history.ts";
import {
  complianceRows,
  type MoneyRow,
  moneyRows,
  type PortfolioRun,
} from "../lib/sam/portfolio_rows.ts";

const NO_DATABASE = "No run history: set SAMKIT_DATABASE_URL to the PostgreSQL database the " +
  "queue workers record their runs in (deno task worker).";

async function readRuns(pack: string | undefined): Promise<PortfolioRun[] | null> {
  const url = Deno.env.get("SAMKIT_DATABASE_URL");
  if (!url) return null;
  const history = await RunHistory.open(url, { max: 1 });
  try {
    return await history.runs(pack ? { pack } : {});
  } finally {
    await history.close();
  }
}

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
 */
const moneySections = (
  id: string,
  title: string,
  label: string,
  rows: MoneyRow[],
  empty: string,
) => [
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
    facts: [{ label: `${label}, tenants compared`, sum: "value", perCurrency: "currency" }],
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
    emptyText: "Every tenant has a previous run.",
    facts: [{
      label: `${label}, tenants on their first run`,
      sum: "value",
      perCurrency: "currency",
    }],
  },
];

async function data(ctx: ReportContext): Promise<ReportData> {
  const runs = await readRuns(ctx.params.pack as string | undefined);
  const empty = runs === null ? NO_DATABASE : "No finished run in the history yet.";
  const all = runs ?? [];
  return {
    sections: [
      {
        id: "compliance",
        title: "Compliance per tenant",
        description:
          "Each tenant's latest run: the share of computers whose applications are all " +
          "covered and the license positions short, with their change since the previous run.",
        columns: [
          text("tenant", "Tenant", { width: 22 }),
          text("status", "Last run", { width: 10 }),
          date("lastRun", "Started"),
          integer("computers", "Computers"),
          percent("covered", "Covered"),
          percent("coveredChange", "Change"),
          integer("positionsShort", "Positions short", {
            emphasis: whenPositive("positionsShort", "warn"),
          }),
          integer("positionsShortChange", "Change"),
        ],
        rows: complianceRows(all),
        emptyText: empty,
        facts: [
          { label: "Tenants", count: true },
          {
            label: "Tenants whose last run failed",
            count: true,
            where: (r) => r.status === "failed",
          },
        ],
      },
      ...moneySections(
        "exposure",
        "Exposure: shortfall cost",
        "Shortfall cost",
        moneyRows(all, "license-position", "Shortfall cost"),
        empty,
      ),
      ...moneySections(
        "spend",
        "Spend: total license cost",
        "Total cost",
        moneyRows(all, "license-cost-summary", "Total cost"),
        empty,
      ),
    ],
  };
}

/**
 * The portfolio report.
 *
 * @example
 * ```ts
 * import { portfolio } from "./portfolio.ts";
 * console.log(portfolio.id); // portfolio
 * ```
 */
export const portfolio = defineReport({
  id: "portfolio",
  title: "Portfolio across tenants",
  description: "Exposure, spend and compliance per tenant from the queue's run history in " +
    "PostgreSQL, and how they moved since each tenant's previous run.",
  params: {
    pack: { type: "string", description: "Only runs of this pack (default: every pack)" },
  },
  reads: "history",
  data,
});
