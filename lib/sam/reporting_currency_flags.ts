/**
 * The reporting-currency options of a run (`--reporting-currency EUR --fx-rates FILE`, or the
 * pack file's `reportingCurrency` and `fxRates`), checked and the rates read before any request.
 *
 * @module
 */

import { FxRatesFileError, readFxRates } from "./fx_rates.ts";
import type { ReportingCurrencyOptions } from "./reporting_currency.ts";

/**
 * The reporting currency asked for, its rates read, or undefined when neither is given. Only
 * one of the two, or a code that is not three capital letters, is an {@link FxRatesFileError}.
 *
 * @example
 * ```ts
 * import { reportingCurrencyOf } from "./reporting_currency_flags.ts";
 * console.log(await reportingCurrencyOf({})); // undefined
 * try {
 *   await reportingCurrencyOf({ code: "EUR" });
 * } catch (e) {
 *   console.log((e as Error).message); // --reporting-currency EUR needs --fx-rates FILE …
 * }
 * ```
 */
export async function reportingCurrencyOf(
  { code, ratesFile, names = { code: "--reporting-currency", rates: "--fx-rates" } }: {
    readonly code?: string;
    readonly ratesFile?: string;
    readonly names?: { readonly code: string; readonly rates: string };
  },
): Promise<ReportingCurrencyOptions | undefined> {
  if (code === undefined && ratesFile === undefined) return undefined;
  if (code === undefined) {
    throw new FxRatesFileError(`${names.rates} needs ${names.code} (the currency to report in)`);
  }
  if (!/^[A-Z]{3}$/.test(code)) {
    throw new FxRatesFileError(
      `${names.code} must be a 3-letter ISO 4217 code such as EUR, got ${
        JSON.stringify(code.slice(0, 40))
      }`,
    );
  }
  if (ratesFile === undefined) {
    throw new FxRatesFileError(
      `${names.code} ${code} needs ${names.rates} FILE (CSV date,currency,rate: units of each ` +
        `currency per 1 ${code})`,
    );
  }
  const rates = await readFxRates(ratesFile);
  const self = rates.find((r) =>
    r.currency === code && r.rate.units !== 10n ** BigInt(r.rate.scale)
  );
  if (self) {
    throw new FxRatesFileError(
      `${ratesFile}: the rate of ${code} itself must be 1, got ${self.text}`,
    );
  }
  return { code, rates, source: ratesFile.split(/[\\/]/).pop() || ratesFile };
}
