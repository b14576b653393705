/**
 * Portfolio across tenants: exposure (shortfall cost per currency), cost to date (per
 * currency) and compliance per tenant, and how each moved since the tenant's previous comparable
 * run. It reads the run history the queue workers keep in PostgreSQL (`SAMKIT_DATABASE_URL`),
 * not the SAM API; money is never summed across currencies.
 *
 * @module
 */

import { date, integer, percent, text, whenPositive } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import {
  complianceRows,
  moneyRows,
  type PortfolioRun,
  readRuns,
} from "../lib/sam/portfolio_rows.ts";
import { historySourceText, isDemoSource } from "../lib/report/demo_source.ts";
import { moneySections } from "./portfolio_sections.ts";

/** The source a run's manifest names ("" for a run that recorded no manifest). */
function sourceOf(run: PortfolioRun): string {
  const source = (run as { manifest?: { source?: unknown } | null }).manifest?.source;
  return typeof source === "string" ? source : "";
}

/** A run as an error names it: tenant, pack and start. */
function runName(run: PortfolioRun): string {
  return `${run.tenantName}'s ${run.pack} run of ${new Date(run.started).toISOString()}`;
}

/**
 * The portfolio's source text: how many tenants' runs, and "demo data" when they read the demo
 * estate. A history mixing demo runs and tenant runs is refused, naming one of each and its
 * source: demo figures are never totalled or compared with a tenant's as one estate.
 */
function portfolioSource(all: readonly PortfolioRun[]): string {
  const demo = all.find((r) => isDemoSource(sourceOf(r)));
  const tenant = all.find((r) => sourceOf(r) !== "" && !isDemoSource(sourceOf(r)));
  if (demo && tenant) {
    throw new Error(
      `portfolio: the run history mixes demo runs and tenant runs, which are never one estate: ` +
        `${runName(demo)} read ${sourceOf(demo)}, ${runName(tenant)} read ${sourceOf(tenant)}; ` +
        "give --param pack=<a pack of tenant runs only> or record demo runs in another database",
    );
  }
  const tenants = new Set(all.map((r) => r.tenantId)).size;
  if (tenants === 0) return historySourceText({ sources: [] });
  const runs = `${tenants} tenant${tenants === 1 ? "" : "s"} from the queue`;
  return historySourceText({ sources: [runs], demo: demo !== undefined });
}

async function data(ctx: ReportContext): Promise<ReportData> {
  // Without its database the report stops (exit 2, naming SAMKIT_DATABASE_URL): never 0 tenants.
  const all = await readRuns(ctx.params.pack as string | undefined);
  const empty = "No finished run in the history yet.";
  // Runs there are, but none with these figures (the pack ran no such report).
  const noFigures = all.length ? "No tenant's finished run has these figures." : empty;
  return {
    source: portfolioSource(all),
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
          { label: "Tenants", count: true, cover: true },
          {
            label: "Tenants whose last run failed",
            count: true,
            where: (r) => r.status === "failed",
            cover: true,
          },
        ],
      },
      ...moneySections(
        "exposure",
        "Exposure: shortfall cost",
        "Shortfall cost",
        moneyRows(all, "license-position", "Shortfall cost"),
        noFigures,
      ),
      ...moneySections(
        "cost-to-date",
        "Cost to date: purchase plus maintenance and support since purchase",
        "Cost to date",
        moneyRows(all, "license-cost-summary", "Cost to date"),
        noFigures,
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
  description: "Exposure (shortfall cost), cost to date and compliance per tenant from the " +
    "queue's run history in PostgreSQL (SAMKIT_DATABASE_URL; without it the report stops), and " +
    "how they moved since each tenant's previous run.",
  params: {
    pack: { type: "string", description: "Only runs of this pack (default: every pack)" },
  },
  reads: "history",
  data,
});
