/**
 * A reporting currency: every money figure of a report gains a converted companion, here and
 * nowhere else. Each currency column `cost` gets a column `costInEUR` right after it (the
 * original amount and its currency stay beside it), and each per-currency money fact gets a
 * fact "…, all currencies (EUR)" summing the converted rows; a "Reporting currency" fact states
 * the rates used and their dates. Amounts are converted exactly (integer cents, the rate as an
 * exact decimal, one rounding per amount, half away from zero); an amount in a currency without
 * a rate is a {@link MissingFxRateError} naming the currency, never skipped.
 *
 * @module
 */

import type { Column, Fact, ReportData, Row, Section } from "../report/model.ts";
import type { FactSpec, SectionFact } from "../report/facts.ts";
import { convertMinorUnits, toMinorUnits } from "../query/money.ts";
import type { FxRate } from "./fx_rates.ts";

/** An amount in a currency the rates file has no rate for (exit code 2). */
export class MissingFxRateError extends Error {
  /** The currency without a rate. */
  readonly currency: string;
  /**
   * Builds the error from the currency and what is wrong.
   *
   * @param currency The currency.
   * @param message What is missing, where.
   */
  constructor(currency: string, message: string) {
    super(message);
    this.name = "MissingFxRateError";
    this.currency = currency;
  }
}

/** The reporting currency of a run: its code and the rates file. */
export interface ReportingCurrencyOptions {
  /** The reporting currency (ISO 4217). */
  readonly code: string;
  /** The rates (units of each currency per one unit of `code`). */
  readonly rates: readonly FxRate[];
  /** Where the rates came from, for messages (the file's path). */
  readonly source: string;
}

/** The row key holding the reporting currency's code in converted rows. */
export const REPORTING_CURRENCY_KEY = "reportingCurrency";

/** A rate used by a run, for the statement of rates. */
export interface UsedRate {
  /** The currency converted from. */
  readonly currency: string;
  /** The rate as written in the file (`1` for the reporting currency itself). */
  readonly rate: string;
  /** Its date (null for the reporting currency itself). */
  readonly date: string | null;
}

/**
 * Converts amounts into the reporting currency on one day, remembering the rates it used.
 *
 * @example
 * ```ts
 * import { FxConverter } from "./reporting_currency.ts";
 * import { parseFxRates } from "./fx_rates.ts";
 * const rates = parseFxRates("date,currency,rate\n2026-01-15,USD,1.08345\n", "rates.csv");
 * const fx = new FxConverter({ code: "EUR", rates, source: "rates.csv" }, new Date("2026-02-01"));
 * console.log(fx.convert(1000, "USD"), fx.convert(0.1, "EUR")); // 922.98 0.1
 * console.log(fx.statement()); // "1 EUR = 1.08345 USD (rates of 2026-01-15, rates.csv)"
 * ```
 */
export class FxConverter {
  #options: ReportingCurrencyOptions;
  #day: string;
  #used = new Map<string, FxRate | null>();

  /**
   * Holds the rates of the options, as of the given date.
   *
   * @param options The reporting currency and its rates.
   * @param asOf The run's day: each currency's latest rate on or before it is used.
   */
  constructor(options: ReportingCurrencyOptions, asOf: Date) {
    this.#options = options;
    this.#day = asOf.toISOString().slice(0, 10);
  }

  /** The reporting currency's code. */
  get code(): string {
    return this.#options.code;
  }

  #rate(currency: string): FxRate | null {
    if (currency === this.code) return null;
    if (this.#used.has(currency)) return this.#used.get(currency)!;
    let best: FxRate | undefined;
    for (const r of this.#options.rates) {
      if (r.currency === currency && r.date <= this.#day && (!best || r.date > best.date)) best = r;
    }
    if (!best) {
      throw new MissingFxRateError(
        currency,
        `no exchange rate for ${JSON.stringify(currency.slice(0, 40))} in ` +
          `${this.#options.source} on or before ${this.#day} (the rate is units of that ` +
          `currency per 1 ${this.code}): add it, or run without --reporting-currency`,
      );
    }
    this.#used.set(currency, best);
    return best;
  }

  /** `amount` in `currency` converted (null stays null; throws when there is no rate). */
  convert(amount: number | null, currency: string): number | null {
    const minor = toMinorUnits(amount);
    if (minor === null) return null;
    const rate = this.#rate(currency);
    if (!rate) this.#used.set(currency, null);
    return (rate ? convertMinorUnits(minor, rate.rate) : minor) / 100;
  }

  /** The rates used so far, by currency code. */
  used(): UsedRate[] {
    return [...this.#used].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([currency, r]) => ({
      currency,
      rate: r ? r.text : "1",
      date: r ? r.date : null,
    }));
  }

  /** The rates used, for a person: `1 EUR = 1.08345 USD = 0.8571 GBP (rates of 2026-01-15, file)`. */
  statement(): string {
    return ratesStatement(this.code, this.used(), this.#options.source);
  }
}

/**
 * The statement of rates used, for a person (the "Reporting currency" fact, and the pack
 * summary's statement of the rates its reports used).
 *
 * @example
 * ```ts
 * import { ratesStatement } from "./reporting_currency.ts";
 * const used = [{ currency: "USD", rate: "1.08345", date: "2026-01-15" }];
 * console.log(ratesStatement("EUR", used, "rates.csv"));
 * // "1 EUR = 1.08345 USD (rates of 2026-01-15, rates.csv)"
 * ```
 */
export function ratesStatement(code: string, rates: readonly UsedRate[], source: string): string {
  const used = rates.filter((u) => u.date !== null);
  if (!used.length) return `${code} (no amount needed converting)`;
  const dates = [...new Set(used.map((u) => u.date))];
  const each = used.map((u) => `${u.rate} ${u.currency}${dates.length > 1 ? ` (${u.date})` : ""}`);
  const when = dates.length > 1 ? "rates of the dates shown" : `rates of ${dates[0]}`;
  return `1 ${code} = ${each.join(" = ")} (${when}, ${source})`;
}

/** The companion key of a converted column (`cost` → `costInEUR`). */
const companion = (key: string, code: string) => `${key}In${code}`;

/** The columns, each money column's companion after it (or after its currency column, next to it). */
function convertedColumns(columns: readonly Column[], code: string): Column[] {
  const codeKey = (c: Column) => c.currencyKey ?? "currency";
  const out: Column[] = [];
  columns.forEach((c, i) => {
    out.push(c);
    if (c.type === "currency" && columns[i + 1]?.key !== codeKey(c)) out.push(converted(c, code));
    const money = columns[i - 1];
    if (money?.type === "currency" && c.key === codeKey(money)) out.push(converted(money, code));
  });
  return out;
}

function converted(c: Column, code: string): Column {
  return {
    key: companion(c.key, code),
    label: `${c.label} (${code})`,
    type: "currency",
    currencyKey: REPORTING_CURRENCY_KEY,
    ...(c.decimals === undefined ? {} : { decimals: c.decimals }),
    ...(c.width === undefined ? {} : { width: c.width }),
  };
}

async function* convertedRows(section: Section, fx: FxConverter): AsyncIterable<Row> {
  const money = section.columns.filter((c) => c.type === "currency");
  for await (const row of section.rows) {
    const out: Row = { ...row, [REPORTING_CURRENCY_KEY]: fx.code };
    for (const c of money) {
      const amount = row[c.key];
      const currency = row[c.currencyKey ?? "currency"];
      const known = typeof amount === "number" && typeof currency === "string" && currency !== "";
      out[companion(c.key, fx.code)] = known ? fx.convert(amount, currency.trim()) : null;
    }
    yield out;
  }
}

/** The facts with a converted total before each per-currency money sum (whose figures follow it). */
function convertedFacts<F extends SectionFact>(
  facts: readonly F[],
  section: Section,
  code: string,
): F[] {
  return facts.flatMap((f) => {
    const column = "sum" in f ? section.columns.find((c) => c.key === f.sum) : undefined;
    if (!("sum" in f) || !f.perCurrency || column?.type !== "currency") return [f];
    return [{
      ...f,
      label: `${f.label}, all currencies`,
      sum: companion(f.sum, code),
      perCurrency: REPORTING_CURRENCY_KEY,
    }, f];
  });
}

function convertedSection(section: Section, fx: FxConverter, note: string): Section {
  if (!section.columns.some((c) => c.type === "currency")) return section;
  return {
    ...section,
    description: `${section.description ?? ""}${section.description ? " " : ""}${note}`,
    columns: convertedColumns(section.columns, fx.code),
    rows: convertedRows(section, fx),
    ...(section.facts ? { facts: convertedFacts(section.facts, section, fx.code) } : {}),
  };
}

/**
 * A report's data with every money column and per-currency money fact given a converted
 * companion (see the module doc), and the statement of rates as the last fact.
 *
 * @example
 * ```ts
 * import { FxConverter, inReportingCurrency } from "./reporting_currency.ts";
 * import { parseFxRates } from "./fx_rates.ts";
 * const rates = parseFxRates("date,currency,rate\n2026-01-15,USD,1.08345\n", "rates.csv");
 * const fx = new FxConverter({ code: "EUR", rates, source: "rates.csv" }, new Date("2026-02-01"));
 * const data = inReportingCurrency({
 *   sections: [{
 *     id: "s", title: "S", rows: [{ cost: 1000, currency: "USD" }],
 *     columns: [{ key: "cost", label: "Cost", type: "currency" }],
 *   }],
 * }, fx);
 * console.log(data.sections[0].columns.map((c) => c.key)); // ["cost", "costInEUR"]
 * ```
 */
export function inReportingCurrency(data: ReportData, fx: FxConverter): ReportData {
  const note = `Columns marked (${fx.code}) are converted to ${fx.code} at the rates stated ` +
    "under Reporting currency, each amount rounded to the cent; the original amount and " +
    "currency stay beside them.";
  const sections = data.sections.map((s) => convertedSection(s, fx, note));
  const facts = data.facts?.flatMap((f: FactSpec) => {
    const section = data.sections.find((s) => s.id === f.section);
    return section ? convertedFacts([f], section, fx.code) : [f];
  });
  const statement = (): Fact => ({
    label: "Reporting currency",
    value: fx.statement(),
    type: "text",
  });
  return {
    sections,
    ...(facts ? { facts } : {}),
    summary: () => [...data.summary?.() ?? [], statement()],
  };
}
