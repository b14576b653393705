/**
 * Trends: what a pack's runs said over time, read from the pack's output folder (the dated run
 * folders with `manifest.json` and `summary.json`), not from the SAM API, so it needs no client.
 * Per run: cost to date and shortfall cost per currency (and the remaining purchase need, what
 * license-optimization left to buy, when the pack runs it), unpriced shortfalls, positions short,
 * uncovered installs and stale computers; for runs with a reporting currency, the all-currency
 * totals in it with the rates each run used. Only runs of one source are shown (`source`, default
 * the latest run's); the others are listed as skipped with the reason. Reading:
 * `lib/sam/trends_history.ts`; rows: `lib/sam/trends_rows.ts`; money sections:
 * `trends_sections.ts`.
 *
 * @module
 */

import { datetime, integer, money, text } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import { readHistory } from "../lib/sam/trends_history.ts";
import { historySourceText, isDemoSource } from "../lib/report/demo_source.ts";
import {
  currenciesOf,
  moneyRows,
  ranOptimization,
  runRows,
  skippedRows,
} from "../lib/sam/trends_rows.ts";
import { convertedSections, moneySections } from "./trends_sections.ts";
import { UNCOVERED_ENTITLEMENTS } from "../lib/sam/entitlement_counts.ts";

async function data(ctx: ReportContext): Promise<ReportData> {
  const history = await readHistory(ctx.params.history as string, ctx.params.source as string);
  const source = history.source ?? "no finished run";
  const optimised = ranOptimization(history);
  const latest = currenciesOf(history).map((currency) => moneyRows(history, currency).at(-1)!);
  return {
    // Runs of one source only (the others are skipped): named, and "demo data" when demo runs.
    source: historySourceText({
      sources: history.source === null ? [] : [history.source],
      demo: history.runs.some((r) => isDemoSource(r.manifest.source)),
    }),
    // The cover gives the latest run's money in every currency; the runs counted after it.
    facts: [
      {
        section: "latest",
        label: "Cost to date, latest run",
        sum: "costToDate",
        perCurrency: "currency",
        cover: true,
      },
      {
        section: "latest",
        label: "Shortfall cost, latest run",
        sum: "shortfallCost",
        perCurrency: "currency",
        cover: true,
      },
      { section: "runs", label: "Runs compared", count: true, cover: true },
      { section: "skipped", label: "Runs left out", count: true, cover: true },
    ],
    sections: [
      {
        id: "latest",
        title: "Latest run",
        description: "The latest run's cost to date and shortfall cost per currency, as its " +
          "summary stated them (the last row of each currency's section below).",
        columns: [
          datetime("started", "Run started"),
          text("currency", "Currency", { width: 8 }),
          money("costToDate", "Cost to date"),
          money("shortfallCost", "Shortfall cost"),
        ],
        rows: latest,
        emptyText: "No finished pack run in this folder.",
      },
      {
        id: "runs",
        title: `Runs of ${source}`,
        description: "Per run: positions short with no price, positions short, installs in an " +
          "uncovered entitlement state and stale computers (blank: the run had no such report, " +
          "or ran it with other parameters than the latest run).",
        columns: [
          datetime("started", "Run started"),
          text("run", "Run folder", { width: 18 }),
          integer("unpricedShortfalls", "Unpriced shortfalls"),
          integer("positionsShort", "Positions short"),
          integer("uncoveredInstalls", UNCOVERED_ENTITLEMENTS),
          integer("staleComputers", "Stale computers"),
          text("notes", "Notes", { width: 40 }),
        ],
        rows: runRows(history),
        emptyText: "No finished pack run in this folder.",
      },
      ...moneySections(history, optimised),
      ...convertedSections(history, optimised),
      {
        id: "skipped",
        title: "Runs left out",
        description: "Runs of other sources, and runs that did not finish or cannot be read.",
        columns: [
          text("run", "Run folder", { width: 18 }),
          text("reason", "Reason", { width: 60 }),
        ],
        rows: skippedRows(history),
        emptyText: history.runs.length
          ? "None: every run in the folder is in the trend."
          : "No run in this folder.",
      },
    ],
  };
}

/**
 * The trends report.
 *
 * @example
 * ```ts
 * import { trends } from "./trends.ts";
 * console.log(trends.id); // "trends"
 * ```
 */
export const trends = defineReport({
  id: "trends",
  title: "Trends over pack runs",
  description:
    "Cost to date and shortfall cost per currency, unpriced shortfalls, uncovered installs " +
    "and stale computers per run of a pack, from the pack's output folder (one source only).",
  params: {
    history: stringParam("The pack's output folder (out/packs/<pack>) holding its dated runs", {
      required: true,
    }),
    source: stringParam(
      "Only runs of this source (a base URL or a manifest's source text); " +
        "default the latest run's",
    ),
  },
  reads: "history",
  data,
});
