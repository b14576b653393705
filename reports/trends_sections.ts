/**
 * The trends report's money sections, declared: per currency the cost to date and shortfall cost per
 * run, and per reporting currency the all-currency totals with the rates each run used, each
 * drawn as a line chart. The rows come from `lib/sam/trends_rows.ts`.
 *
 * @module
 */

import { datetime, money, text } from "../lib/report/columns.ts";
import type { Section } from "../lib/report/model.ts";
import { distinctNames } from "../lib/fs/safe_name.ts";
import type { History } from "../lib/sam/trends_history.ts";
import {
  convertedRows,
  currenciesOf,
  moneyRows,
  reportingCurrenciesOf,
} from "../lib/sam/trends_rows.ts";

/**
 * Per currency, the cost to date and shortfall cost per run (with the remaining purchase need if
 * any).
 *
 * @example
 * ```ts
 * import { moneySections } from "./trends_sections.ts";
 * console.log(moneySections({ runs: [], skipped: [], source: null } as never, false)); // []
 * ```
 */
export function moneySections(history: History, optimised: boolean): Section[] {
  const currencies = currenciesOf(history);
  const parts = distinctNames(currencies);
  return currencies.map((currency) => ({
    id: `money-${parts.get(currency)}`,
    title: `Cost to date and shortfall cost (${currency})`,
    description: `Cost to date (purchase plus maintenance and support since purchase) and ` +
      `shortfall cost per run, in ${currency} only` +
      (optimised
        ? "; the remaining purchase need is what license-optimization left to buy after " +
          "harvesting idle installs and reassigning surplus."
        : "."),
    columns: [
      datetime("started", "Run started"),
      text("run", "Run folder", { width: 18 }),
      money("costToDate", "Cost to date"),
      money("shortfallCost", "Shortfall cost"),
      ...(optimised ? [money("remainingPurchaseNeed", "Remaining purchase need")] : []),
    ],
    rows: moneyRows(history, currency),
    chart: {
      type: "line",
      title: `Cost to date and shortfall cost (${currency})`,
      x: "started",
      series: [
        { key: "costToDate", label: "Cost to date" },
        { key: "shortfallCost", label: "Shortfall cost" },
        ...(optimised ? [{ key: "remainingPurchaseNeed", label: "Remaining purchase need" }] : []),
      ],
      currency: "currency",
    },
  }));
}

/**
 * Per reporting currency, the all-currency totals per run with the rates each run used.
 *
 * @example
 * ```ts
 * import { convertedSections } from "./trends_sections.ts";
 * console.log(convertedSections({ runs: [], skipped: [], source: null } as never, false)); // []
 * ```
 */
export function convertedSections(history: History, optimised: boolean): Section[] {
  const codes = reportingCurrenciesOf(history);
  const parts = distinctNames(codes);
  return codes.map((code) => ({
    id: `converted-${parts.get(code)}`,
    title: `All currencies in ${code}`,
    description: `Per run, the totals of every currency converted to ${code} as that run's ` +
      "summary stated them (each amount converted to the cent at that run's rates, then added), " +
      "with the rates used: a total moves with the rates as well as with the amounts. Blank: " +
      `the run had no reporting currency ${code}, or not the report.`,
    columns: [
      datetime("started", "Run started"),
      text("run", "Run folder", { width: 18 }),
      money("costToDate", "Cost to date"),
      money("shortfallCost", "Shortfall cost"),
      ...(optimised ? [money("remainingPurchaseNeed", "Remaining purchase need")] : []),
      text("rates", "Rates used", { width: 48 }),
    ],
    rows: convertedRows(history, code),
    chart: {
      type: "line",
      title: `All currencies in ${code}`,
      x: "started",
      series: [
        { key: "costToDate", label: "Cost to date" },
        { key: "shortfallCost", label: "Shortfall cost" },
        ...(optimised ? [{ key: "remainingPurchaseNeed", label: "Remaining purchase need" }] : []),
      ],
      currency: "currency",
    },
  }));
}
