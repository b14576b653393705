/**
 * A reporting currency: every money figure of a report gains a converted companion, here and
 * nowhere else. Each currency column `cost` gets a column `costInEUR` right after it (the
 * original amount and its currency stay beside it), in EUR on every row and totals line; each
 * totals spec sums the converted columns too, with a line "all currencies (EUR)" over every row;
 * and each per-currency money fact gets a fact "…, all currencies (EUR)" summing the converted
 * rows; a "Reporting currency" fact states the rates used and their dates.
 *
 * One rounding rule, so a cent agrees in every table: an amount is converted once, where it is
 * first stated (a license's cost, a position's shortfall cost), exactly (integer cents, the rate
 * as an exact decimal) and rounded to the cent, half away from zero; every converted figure made
 * of such amounts — a row's total of its parts, a subtotal, a total, an all-currencies total — is
 * the sum of those converted, rounded amounts, never the conversion of a sum. A report whose rows
 * are sums (per vendor, per month) gives them their converted companions itself from the amounts
 * they add up ({@link withConverted}, {@link convertedSums}); the rest are converted row by row
 * here. An amount in a currency without a rate is a {@link MissingFxRateError} naming the
 * currency, never skipped.
 *
 * @module
 */

import type {
  AmountConverter,
  Column,
  Fact,
  ReportData,
  Row,
  Section,
  TotalsSpec,
} from "../report/model.ts";
import type { FactSpec, SectionFact } from "../report/facts.ts";
import { convertMinorUnits, fromMinorUnits, toMinorUnits } from "../query/money.ts";
import { type Measure, sumMoney } from "../query/measures.ts";
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

/**
 * The rounding rule of converted amounts, as every converted section states it.
 *
 * @example
 * ```ts
 * import { ROUNDING_RULE } from "./reporting_currency.ts";
 * console.log(ROUNDING_RULE.startsWith("each amount")); // true
 * ```
 */
export const ROUNDING_RULE: string = "each amount is converted once, where it is first stated (a " +
  "license's cost, a position's cost), and rounded to the cent (half away from zero); every " +
  "converted subtotal, total and all-currencies total is the sum of those rounded amounts, so " +
  "it adds up from the converted figures above it. The original amount and currency stay " +
  "beside them.";

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
export class FxConverter implements AmountConverter {
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

/**
 * The key of a money column's converted companion (`cost` → `costInEUR`).
 *
 * @example
 * ```ts
 * import { convertedKey } from "./reporting_currency.ts";
 * console.log(convertedKey("totalCost", "EUR")); // "totalCostInEUR"
 * ```
 */
export function convertedKey(key: string, code: string): string {
  return `${key}In${code}`;
}

const companion = convertedKey;

/** What {@link withConverted} converts of each item. */
export interface ConvertedAmounts<T> {
  /** The keys of the amounts, each in the item's own currency, converted once each. */
  readonly amounts: readonly string[];
  /** The item's currency code (null: none, its amounts are not converted). */
  readonly currency: (item: T) => string | null | undefined;
  /**
   * Keys whose converted amount is the sum of the converted amounts of other keys (a license's
   * cost to date of its purchase, maintenance and support), used when the original amount is that
   * sum to the cent; else it is converted as it is.
   */
  readonly sums?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Each item with the converted companion of each amount (see the module doc: converted once,
 * rounded to the cent; a sum of parts as the sum of its converted parts). Without a reporting
 * currency (`fx` undefined) the items are returned as they are.
 *
 * @example
 * ```ts
 * import { FxConverter, withConverted } from "./reporting_currency.ts";
 * import { parseFxRates } from "./fx_rates.ts";
 * const rates = parseFxRates("date,currency,rate\n2026-01-15,USD,3\n", "rates.csv");
 * const fx = new FxConverter({ code: "EUR", rates, source: "rates.csv" }, new Date("2026-02-01"));
 * const [line] = withConverted([{ a: 0.1, b: 0.1, total: 0.2, currency: "USD" }], fx, {
 *   amounts: ["a", "b", "total"],
 *   currency: (l) => l.currency,
 *   sums: { total: ["a", "b"] },
 * });
 * console.log(line.aInEUR, line.bInEUR, line.totalInEUR); // 0.03 0.03 0.06 (not 0.2 ÷ 3 = 0.07)
 * ```
 */
export function withConverted<T extends object>(
  items: readonly T[],
  fx: AmountConverter | undefined,
  options: ConvertedAmounts<T>,
): (T & Row)[] {
  if (!fx) return items as (T & Row)[];
  return items.map((item) => {
    const row = item as unknown as Row;
    const code = options.currency(item)?.trim();
    const out: Row = { ...row, [REPORTING_CURRENCY_KEY]: fx.code };
    const amount = (key: string) => typeof row[key] === "number" ? row[key] as number : null;
    for (const key of options.amounts) {
      out[companion(key, fx.code)] = code ? fx.convert(amount(key), code) : null;
    }
    for (const [key, parts] of Object.entries(options.sums ?? {})) {
      const whole = toMinorUnits(amount(key));
      const split = parts.map((p) => toMinorUnits(amount(p)) ?? 0);
      if (whole === null || whole !== split.reduce((a, b) => a + b, 0) || !code) continue;
      const converted = parts.map((p) => toMinorUnits(out[companion(p, fx.code)] as number) ?? 0);
      out[companion(key, fx.code)] = fromMinorUnits(converted.reduce((a, b) => a + b, 0));
    }
    return out as T & Row;
  });
}

/**
 * The measures (for `groupBy`) that sum the converted companions of `keys` over a group's items
 * to the cent (null where no item has one); none without a reporting currency. A group's
 * converted figure is so the sum of its items' converted amounts, as the module doc rules.
 *
 * @example
 * ```ts
 * import { convertedSums } from "./reporting_currency.ts";
 * import { aggregate } from "../query/group_by.ts";
 * const fx = { code: "EUR", convert: (n: number | null) => n };
 * const rows = [{ costInEUR: 0.1 }, { costInEUR: 0.2 }];
 * console.log(aggregate(rows, convertedSums(fx, ["cost"]))); // { costInEUR: 0.3 }
 * ```
 */
export function convertedSums(
  fx: AmountConverter | undefined,
  keys: readonly string[],
): Record<string, Measure<Row, number | null>> {
  if (!fx) return {};
  return Object.fromEntries(keys.map((key) => {
    const name = companion(key, fx.code);
    return [name, sumMoney((r: Row) => r[name] as number | null)];
  }));
}

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
    currency: code,
    ...(c.decimals === undefined ? {} : { decimals: c.decimals }),
    ...(c.width === undefined ? {} : { width: c.width }),
  };
}

async function* convertedRows(section: Section, fx: FxConverter): AsyncIterable<Row> {
  const money = section.columns.filter((c) => c.type === "currency");
  for await (const row of section.rows) {
    const out: Row = { ...row, [REPORTING_CURRENCY_KEY]: fx.code };
    for (const c of money) {
      const key = companion(c.key, fx.code);
      // A companion the report computed (a sum of converted amounts) is kept as it is.
      if (key in row) continue;
      const amount = row[c.key];
      const currency = row[c.currencyKey ?? "currency"];
      const known = typeof amount === "number" && typeof currency === "string" && currency !== "";
      out[key] = known ? fx.convert(amount, currency.trim()) : null;
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

/**
 * The totals spec summing, beside each money column it sums (per currency), its converted
 * companion, and the companions of its `converted` columns (a table of one row per currency).
 */
function convertedTotals(section: Section, code: string): TotalsSpec | undefined {
  const spec = section.totals;
  if (!spec) return undefined;
  const money = (key: string) =>
    section.columns.some((c) => c.key === key && c.type === "currency" && !c.currency);
  const summed = spec.perCurrency ? spec.sum.filter(money) : [];
  const extra = [...summed, ...(spec.converted ?? []).filter(money)].map((k) => companion(k, code));
  return { ...spec, sum: [...spec.sum, ...extra.filter((k) => !spec.sum.includes(k))] };
}

function convertedSection(section: Section, fx: FxConverter, note: string): Section {
  if (!section.columns.some((c) => c.type === "currency")) return section;
  const totals = convertedTotals(section, fx.code);
  return {
    ...section,
    description: `${section.description ?? ""}${section.description ? " " : ""}${note}`,
    columns: convertedColumns(section.columns, fx.code),
    rows: convertedRows(section, fx),
    ...(totals ? { totals } : {}),
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
    `under Reporting currency: ${ROUNDING_RULE}`;
  const sections = data.sections.map((s) => convertedSection(s, fx, note));
  const facts = data.facts?.flatMap((f: FactSpec) => {
    const section = data.sections.find((s) => s.id === f.section);
    return section ? convertedFacts([f], section, fx.code) : [f];
  });
  // The rates go on the cover beside the converted figures a report puts there.
  const cover = [...data.facts ?? [], ...data.sections.flatMap((s) => s.facts ?? [])]
    .some((f) => f.cover);
  const statement = (): Fact => ({
    label: "Reporting currency",
    value: fx.statement(),
    type: "text",
    ...(cover ? { cover } : {}),
  });
  return {
    sections,
    ...(facts ? { facts } : {}),
    summary: () => [...data.summary?.() ?? [], statement()],
  };
}
