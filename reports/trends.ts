/**
 * Trends: what a pack's runs said over time, read from the pack's output folder (the dated run
 * folders with `manifest.json` and `summary.json`), not from the SAM API, so it needs no client.
 * Per run: total spend and shortfall cost per currency (and the optimised exposure, what
 * license-optimization left to buy, when the pack runs it), unpriced shortfalls, positions short,
 * uncovered installs and stale computers; for runs with a reporting currency, the all-currency
 * totals in it with the rates each run used. Only runs of one source are shown (`source`, default
 * the latest run's); the others are listed as skipped with the reason. Reading:
 * `lib/sam/trends_history.ts`; rows: `lib/sam/trends_rows.ts`.
 *
 * @module
 */

import { datetime, integer, money, text } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import type { Section } from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import { readHistory } from "../lib/sam/trends_history.ts";
import {
  convertedRows,
  currenciesOf,
  moneyRows,
  reportingCurrenciesOf,
  runRows,
  skippedRows,
} from "../lib/sam/trends_rows.ts";
import type { History } from "../lib/sam/trends_history.ts";

const OPTIMIZATION = "license-optimization";

/** Per reporting currency, the all-currency totals per run with the rates each run used. */
function convertedSections(history: History, optimised: boolean): Section[] {
  return reportingCurrenciesOf(history).map((code) => ({
    id: `converted-${code.toLowerCase()}`,
    title: `All currencies in ${code}`,
    description: `Per run, the totals of every currency converted to ${code} as that run's ` +
      "summary stated them (each amount converted to the cent at that run's rates, then added), " +
      "with the rates used: a total moves with the rates as well as with the amounts. Blank: " +
      `the run had no reporting currency ${code}, or not the report.`,
    columns: [
      datetime("started", "Run started"),
      text("run", "Run folder", { width: 18 }),
      money("spend", "Total spend"),
      money("shortfallCost", "Shortfall cost"),
      ...(optimised ? [money("optimisedExposure", "Optimised exposure")] : []),
      text("rates", "Rates used", { width: 48 }),
    ],
    rows: convertedRows(history, code),
    chart: {
      type: "line",
      title: `All currencies in ${code}`,
      x: "started",
      series: [
        { key: "spend", label: "Total spend" },
        { key: "shortfallCost", label: "Shortfall cost" },
        ...(optimised ? [{ key: "optimisedExposure", label: "Optimised exposure" }] : []),
      ],
      currency: "currency",
    },
  }));
}

async function data(ctx: ReportContext): Promise<ReportData> {
  const history = await readHistory(ctx.params.history as string, ctx.params.source as string);
  const source = history.source ?? "no finished run";
  // The optimised exposure only where some run had license-optimization.
  const optimised = history.runs.some((r) => r.manifest.reports.some((x) => x.id === OPTIMIZATION));
  const money_: Section[] = currenciesOf(history).map((currency) => ({
    id: `money-${currency.toLowerCase()}`,
    title: `Spend and shortfall cost (${currency})`,
    description: `Total spend and shortfall cost per run, in ${currency} only` +
      (optimised
        ? "; the optimised exposure is what license-optimization left to buy after harvest and " +
          "reallocation."
        : "."),
    columns: [
      datetime("started", "Run started"),
      text("run", "Run folder", { width: 18 }),
      money("spend", "Total spend"),
      money("shortfallCost", "Shortfall cost"),
      ...(optimised ? [money("optimisedExposure", "Optimised exposure")] : []),
    ],
    rows: moneyRows(history, currency),
    chart: {
      type: "line",
      title: `Spend and shortfall cost (${currency})`,
      x: "started",
      series: [
        { key: "spend", label: "Total spend" },
        { key: "shortfallCost", label: "Shortfall cost" },
        ...(optimised ? [{ key: "optimisedExposure", label: "Optimised exposure" }] : []),
      ],
      currency: "currency",
    },
  }));
  return {
    sections: [
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
          integer("uncoveredInstalls", "Uncovered installs"),
          integer("staleComputers", "Stale computers"),
          text("notes", "Notes", { width: 40 }),
        ],
        rows: runRows(history),
        emptyText: "No finished pack run in this folder.",
        facts: [{ label: "Runs compared", count: true }],
      },
      ...money_,
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
        emptyText: "None: every run in the folder is in the trend.",
        facts: [{ label: "Runs left out", count: true }],
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
  description: "Spend and shortfall cost per currency, unpriced shortfalls, uncovered installs " +
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
