/**
 * Exchange rates for a reporting currency, from a CSV file `date,currency,rate`: the rate is
 * units of that currency per one unit of the reporting currency, as central banks publish them
 * (`2026-01-15,USD,1.08345` with EUR reporting: 1 EUR = 1.08345 USD). Rates are kept as exact
 * decimals; a run uses, per currency, the latest rate dated on or before its day.
 *
 * ```csv
 * date,currency,rate
 * 2026-01-15,USD,1.08345
 * 2026-01-15,GBP,0.8571
 * ```
 *
 * @module
 */

import { parse } from "csv-parse/sync";
import { checkContained } from "../fs/containment.ts";
import { type ExactDecimal, parseExactDecimal } from "../query/money.ts";
import { readProblem, readRegularTextFile } from "../fs/regular_file.ts";

/** A rates file that cannot be read or used; names the file and line (exit code 2). */
export class FxRatesFileError extends Error {
  /**
   * Builds the error from what is wrong with the rates.
   *
   * @param message What is wrong, where.
   */
  constructor(message: string) {
    super(message);
    this.name = "FxRatesFileError";
  }
}

/** One rate of a rates file. */
export interface FxRate {
  /** The day it was published (`YYYY-MM-DD`). */
  readonly date: string;
  /** The currency (ISO 4217). */
  readonly currency: string;
  /** Units of `currency` per one unit of the reporting currency, exactly. */
  readonly rate: ExactDecimal;
  /** The rate as written. */
  readonly text: string;
}

const CODE = /^[A-Z]{3}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The largest rates file read (a few years of daily rates of every currency fit). */
const MAX_BYTES = 20_000_000;

function rateOf(record: Record<string, string>, where: string): FxRate {
  const date = (record.date ?? "").trim();
  const currency = (record.currency ?? "").trim();
  const text = (record.rate ?? "").trim();
  if (!DATE.test(date) || isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new FxRatesFileError(
      `${where}: date must be YYYY-MM-DD, got ${JSON.stringify(date.slice(0, 40))}`,
    );
  }
  if (!CODE.test(currency)) {
    throw new FxRatesFileError(
      `${where}: currency must be a 3-letter ISO 4217 code, got ${
        JSON.stringify(currency.slice(0, 40))
      }`,
    );
  }
  const rate = parseExactDecimal(text);
  if (!rate) {
    throw new FxRatesFileError(
      `${where}: rate must be a positive decimal like 1.08345, got ${
        JSON.stringify(text.slice(0, 40))
      }`,
    );
  }
  return { date, currency, rate, text };
}

/**
 * Parses the text of a rates file (`name` is used in errors): a header row naming `date`,
 * `currency` and `rate`, then one rate a line; two different rates for one day and currency
 * are an error.
 *
 * @example
 * ```ts
 * import { parseFxRates } from "./fx_rates.ts";
 * const rates = parseFxRates("date,currency,rate\n2026-01-15,USD,1.08345\n", "rates.csv");
 * console.log(rates[0].currency, rates[0].rate); // "USD" { units: 108345n, scale: 5 }
 * ```
 */
export function parseFxRates(text: string, name: string): FxRate[] {
  let records: Record<string, string>[];
  try {
    records = parse(text.replace(/^\uFEFF/, ""), {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
    });
  } catch (error) {
    throw new FxRatesFileError(`${name}: not CSV: ${(error as Error).message.slice(0, 200)}`);
  }
  const seen = new Map<string, FxRate>();
  return records.map((record, i) => {
    const rate = rateOf(record, `${name}, line ${i + 2}`);
    const key = `${rate.date} ${rate.currency}`;
    const first = seen.get(key);
    if (
      first &&
      first.rate.units * 10n ** BigInt(rate.rate.scale) !==
        rate.rate.units * 10n ** BigInt(first.rate.scale)
    ) {
      throw new FxRatesFileError(
        `${name}, line ${i + 2}: a second rate for ${rate.currency} on ${rate.date}`,
      );
    }
    seen.set(key, rate);
    return rate;
  });
}

/**
 * Reads a rates file from disk (checked to lead where it says, at most 20 MB).
 *
 * @example
 * ```ts
 * import { readFxRates } from "./fx_rates.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/rates.csv`, "date,currency,rate\n2026-01-15,USD,1.08345\n");
 * const [usd] = await readFxRates(`${dir}/rates.csv`);
 * console.log(usd.date, usd.currency, usd.text); // "2026-01-15" "USD" "1.08345"
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readFxRates(path: string): Promise<FxRate[]> {
  checkContained(path, { what: "rates file" });
  let text: string;
  try {
    if ((await Deno.stat(path)).size > MAX_BYTES) {
      throw new Error(`larger than ${MAX_BYTES / 1_000_000} MB`);
    }
    text = await readRegularTextFile(path);
  } catch (error) {
    throw new FxRatesFileError(`rates file ${path}: ${readProblem(error)}`);
  }
  const rates = parseFxRates(text, path);
  if (!rates.length) throw new FxRatesFileError(`rates file ${path}: no rates`);
  return rates;
}
