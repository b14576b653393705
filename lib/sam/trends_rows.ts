/**
 * The trends report's rows: one per run (counts), one per run and currency (cost to date,
 * shortfall cost and remaining purchase need, a table per currency: amounts in different
 * currencies are never on one line or axis), and the runs left out.
 *
 * @module
 */

import type { Row } from "../report/model.ts";
import type { History } from "./trends_history.ts";

/**
 * One row per run: started, folder, unpriced shortfalls, positions short, uncovered installs,
 * stale computers, notes.
 *
 * @example
 * ```ts
 * import { runRows } from "./trends_rows.ts";
 * console.log(runRows({ source: null, runs: [], skipped: [] })); // []
 * ```
 */
export function runRows(history: History): Row[] {
  return history.runs.map((r) => ({
    started: r.started,
    run: r.run,
    unpricedShortfalls: r.headline.unpricedShortfalls,
    positionsShort: r.headline.positionsShort,
    uncoveredInstalls: r.headline.uncoveredInstalls,
    staleComputers: r.headline.staleComputers,
    notes: r.notes.join("; ") || null,
  }));
}

/**
 * The currencies any run has cost to date, shortfall cost or a remaining purchase need in,
 * alphabetical.
 *
 * @example
 * ```ts
 * import { currenciesOf } from "./trends_rows.ts";
 * console.log(currenciesOf({ source: null, runs: [], skipped: [] })); // []
 * ```
 */
export function currenciesOf(history: History): string[] {
  const all = new Set<string>();
  for (const r of history.runs) {
    for (const c of Object.keys(r.headline.costToDate)) all.add(c);
    for (const c of Object.keys(r.headline.shortfallCost)) all.add(c);
    for (const c of Object.keys(r.headline.remainingPurchaseNeed ?? {})) all.add(c);
  }
  return [...all].sort();
}

/**
 * One row per run in one currency: started, cost to date, shortfall cost, remaining purchase need
 * (what license-optimization left to buy, as that run's summary said). A run whose report ran (and
 * compares with the latest) but has no line in the currency had 0 there; null means the run has
 * no such figure at all (the report did not run, failed, or ran with other parameters).
 *
 * @example
 * ```ts
 * import { moneyRows } from "./trends_rows.ts";
 * console.log(moneyRows({ source: null, runs: [], skipped: [] }, "EUR")); // []
 * ```
 */
export function moneyRows(history: History, currency: string): Row[] {
  return history.runs.map((r) => ({
    started: r.started,
    run: r.run,
    costToDate: r.headline.costToDate[currency] ??
      (r.compared.includes("license-cost-summary") ? 0 : null),
    shortfallCost: r.headline.shortfallCost[currency] ??
      (r.compared.includes("license-position") ? 0 : null),
    remainingPurchaseNeed: r.headline.remainingPurchaseNeed?.[currency] ??
      (r.compared.includes("license-optimization") ? 0 : null),
    currency,
  }));
}

/**
 * The reporting currencies any run's summary had all-currency totals in, alphabetical.
 *
 * @example
 * ```ts
 * import { reportingCurrenciesOf } from "./trends_rows.ts";
 * console.log(reportingCurrenciesOf({ source: null, runs: [], skipped: [] })); // []
 * ```
 */
export function reportingCurrenciesOf(history: History): string[] {
  const codes = history.runs.map((r) => r.headline.converted?.currency);
  return [...new Set(codes.filter((c): c is string => Boolean(c)))].sort();
}

/**
 * One row per run in one reporting currency: started, the all-currency totals in it (cost to date,
 * shortfall cost, remaining purchase need) as that run's summary stated them, and the rates that run
 * converted with. A run in that reporting currency whose report ran (and compares with the
 * latest) but has no such total had 0; every figure of a run without that reporting currency is
 * null, its rates too.
 *
 * @example
 * ```ts
 * import { convertedRows } from "./trends_rows.ts";
 * console.log(convertedRows({ source: null, runs: [], skipped: [] }, "EUR")); // []
 * ```
 */
export function convertedRows(history: History, code: string): Row[] {
  return history.runs.map((r) => {
    const totals = r.headline.converted?.currency === code ? r.headline.converted : null;
    const of = (value: number | null | undefined, report: string) =>
      !totals ? null : value ?? (r.compared.includes(report) ? 0 : null);
    return {
      started: r.started,
      run: r.run,
      costToDate: of(totals?.costToDate, "license-cost-summary"),
      shortfallCost: of(totals?.shortfallCost, "license-position"),
      remainingPurchaseNeed: of(totals?.remainingPurchaseNeed, "license-optimization"),
      rates: totals ? r.rates : null,
      currency: code,
    };
  });
}

/**
 * The runs left out, with the reason.
 *
 * @example
 * ```ts
 * import { skippedRows } from "./trends_rows.ts";
 * console.log(skippedRows({ source: null, runs: [], skipped: [{ run: "x", reason: "y" }] }));
 * ```
 */
export function skippedRows(history: History): Row[] {
  return history.skipped.map((s) => ({ run: s.run, reason: s.reason }));
}

/**
 * Whether some run of `history` ran license-optimization (so the remaining purchase need is
 * shown).
 *
 * @example
 * ```ts
 * import { ranOptimization } from "./trends_rows.ts";
 * console.log(ranOptimization({ runs: [], skipped: [], source: null } as never)); // false
 * ```
 */
export function ranOptimization(history: History): boolean {
  return history.runs.some((r) => r.manifest.reports.some((x) => x.id === "license-optimization"));
}
