/**
 * The rates a pack run's reports converted with, gathered for the summary: each report states
 * the rates it used (its "Reporting currency" fact, the JSON's `reportingCurrency`); the run's
 * rate set is their union, one rate per currency (the same rates file on the same day gives each
 * currency one rate), and the summary states it once, worded as the reports word it.
 *
 * @module
 */

import { ratesStatement, type UsedRate } from "../sam/reporting_currency.ts";
import type { RenderDocument } from "../render/renderer.ts";

/** The rates a run converted with: the reporting currency, its rates, where they came from. */
export interface RunRates {
  /** The reporting currency (ISO 4217). */
  readonly code: string;
  /** Every rate some report used, by currency code (the reporting currency itself at `1`). */
  readonly rates: readonly UsedRate[];
  /** The rates file's name, as the reports name it. */
  readonly source: string;
  /** For a person: `1 EUR = 0.88045 GBP = 1.15285 USD (rates of 2026-11-20, rates.csv)`. */
  readonly statement: string;
}

/**
 * The run's rate set with one more report's rates added (unchanged when the report converted
 * nothing, or when no reporting currency was asked for).
 *
 * @example
 * ```ts
 * import { addReportRates } from "./summary_rates.ts";
 * const doc = {
 *   reportingCurrency: {
 *     code: "EUR",
 *     rates: [{ currency: "USD", rate: "1.15285", date: "2026-11-20" }],
 *   },
 * };
 * const rates = addReportRates(null, doc, "rates.csv");
 * console.log(rates?.statement); // "1 EUR = 1.15285 USD (rates of 2026-11-20, rates.csv)"
 * ```
 */
export function addReportRates(
  run: RunRates | null,
  doc: Pick<RenderDocument, "reportingCurrency">,
  source: string,
): RunRates | null {
  const used = doc.reportingCurrency;
  if (!used) return run;
  const byCurrency = new Map((run?.rates ?? []).map((r) => [r.currency, r]));
  for (const r of used.rates) if (!byCurrency.has(r.currency)) byCurrency.set(r.currency, r);
  const rates = [...byCurrency.values()].sort((a, b) =>
    a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0
  );
  return {
    code: used.code,
    rates,
    source,
    statement: ratesStatement(used.code, rates, source),
  };
}
