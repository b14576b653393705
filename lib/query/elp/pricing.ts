/**
 * Pricing a position: what a shortfall would cost and what a surplus is worth, from the first
 * source that has a price for the application and metric —
 *
 * 1. `paid`: the average unit price already paid (amount ÷ units over the licenses of that
 *    application and metric with a purchase value, in ONE currency: the one most units were
 *    bought in; ties by code);
 * 2. `list`: the registry's list price of the application's metric (`licenseCost`,
 *    `licenseCostCurrency`);
 * 3. `file`: a price file the user supplies (see `price_file.ts`);
 *
 * else the position is unpriced (its units are still shown). Amounts are in the price's
 * currency and never added across currencies. A cost is the printed unit price (rounded to the
 * cent) × units, so it reproduces from the printed figures.
 *
 * @module
 */

import { toMinorUnits } from "../money.ts";

/** Where a unit price came from. */
export type PriceSource = "paid" | "list" | "file";

/** A unit price in one currency. */
export interface UnitPrice {
  /** Where it came from. */
  readonly source: PriceSource;
  /** ISO 4217 code. */
  readonly currency: string;
  /** Minor units (cents) per unit, possibly fractional (an average). */
  readonly unitCents: number;
  /** The price as a ratio, for exact arithmetic: `basisCents` for `basisUnits` units. */
  readonly basisCents: number;
  /** See {@link UnitPrice.basisCents}. */
  readonly basisUnits: number;
}

/** What was paid for an application's licenses of one metric in one currency. */
export interface PaidLine {
  /** ISO 4217 code. */
  readonly currency: string;
  /** Licenses with a purchase value in this currency. */
  licenses: number;
  /** Units those licenses bought. */
  units: number;
  /** What they cost, in integer cents. */
  cents: number;
}

/** A license as pricing reads it. */
export interface PricedLicense {
  readonly applicationId: string | null;
  readonly metricId: string | null;
  readonly quantity: number | null;
  readonly purchaseValue: number | null;
  readonly purchaseCurrency: string | null;
}

/**
 * The key of an application and metric in the price maps.
 *
 * @example
 * ```ts
 * import { priceKey } from "./pricing.ts";
 * console.log(priceKey("APP1", "MET1")); // "APP1\u0000MET1"
 * ```
 */
export function priceKey(applicationId: string, metricId: string): string {
  return `${applicationId}\u0000${metricId}`;
}

/**
 * What was paid per application × metric and currency (licenses with a quantity above 0, a
 * currency and a purchase value).
 *
 * @example
 * ```ts
 * import { paidPrices, priceKey } from "./pricing.ts";
 * const paid = paidPrices([
 *   { applicationId: "A", metricId: "M", quantity: 4, purchaseValue: 100, purchaseCurrency: "EUR" },
 * ]);
 * console.log(paid.get(priceKey("A", "M"))?.get("EUR")); // { currency: "EUR", licenses: 1, units: 4, cents: 10000 }
 * ```
 */
export function paidPrices(
  licenses: Iterable<PricedLicense>,
): Map<string, Map<string, PaidLine>> {
  const out = new Map<string, Map<string, PaidLine>>();
  for (const l of licenses) {
    const currency = l.purchaseCurrency?.trim();
    const cents = toMinorUnits(l.purchaseValue);
    const units = l.quantity ?? 0;
    if (!l.applicationId || !l.metricId || !currency || cents === null || !(units > 0)) continue;
    const key = priceKey(l.applicationId, l.metricId);
    let lines = out.get(key);
    if (!lines) out.set(key, lines = new Map());
    let line = lines.get(currency);
    if (!line) lines.set(currency, line = { currency, licenses: 0, units: 0, cents: 0 });
    line.licenses++;
    line.units += units;
    line.cents += cents;
  }
  return out;
}

/**
 * The paid line a position is priced at: the currency most units were bought in (ties: the
 * alphabetically first code).
 *
 * @example
 * ```ts
 * import { mainPaidLine } from "./pricing.ts";
 * const lines = new Map([
 *   ["USD", { currency: "USD", licenses: 1, units: 5, cents: 500 }],
 *   ["EUR", { currency: "EUR", licenses: 2, units: 5, cents: 450 }],
 * ]);
 * console.log(mainPaidLine(lines)?.currency); // "EUR"
 * ```
 */
export function mainPaidLine(
  lines: ReadonlyMap<string, PaidLine> | undefined,
): PaidLine | undefined {
  let best: PaidLine | undefined;
  for (const line of lines?.values() ?? []) {
    if (
      !best || line.units > best.units ||
      (line.units === best.units && line.currency < best.currency)
    ) best = line;
  }
  return best;
}

/** The price sources of {@link choosePrice}, each by {@link priceKey}. */
export interface PriceSources {
  /** What was paid (from {@link paidPrices}). */
  readonly paid: ReadonlyMap<string, ReadonlyMap<string, PaidLine>>;
  /** Registry list prices: currency and major-unit price per unit. */
  readonly list: ReadonlyMap<string, { readonly currency: string; readonly unitPrice: number }>;
  /** A user's price file: currency and major-unit price per unit. */
  readonly file: ReadonlyMap<string, { readonly currency: string; readonly unitPrice: number }>;
}

/**
 * The unit price of an application and metric from the first source that has one, or
 * `undefined` (unpriced).
 *
 * @example
 * ```ts
 * import { choosePrice, priceKey } from "./pricing.ts";
 * const list = new Map([[priceKey("A", "M"), { currency: "USD", unitPrice: 12.5 }]]);
 * const price = choosePrice("A", "M", { paid: new Map(), list, file: new Map() });
 * console.log(price?.source, price?.currency, price?.unitCents); // "list" "USD" 1250
 * ```
 */
export function choosePrice(
  applicationId: string,
  metricId: string,
  sources: PriceSources,
): UnitPrice | undefined {
  const key = priceKey(applicationId, metricId);
  const paid = mainPaidLine(sources.paid.get(key));
  if (paid) {
    const { currency, cents, units } = paid;
    return {
      source: "paid",
      currency,
      unitCents: cents / units,
      basisCents: cents,
      basisUnits: units,
    };
  }
  for (const source of ["list", "file"] as const) {
    const p = sources[source].get(key);
    const cents = toMinorUnits(p?.unitPrice);
    if (p && cents !== null && cents > 0) {
      return { source, currency: p.currency, unitCents: cents, basisCents: cents, basisUnits: 1 };
    }
  }
  return undefined;
}

/**
 * The unit price as printed: whole minor units (cents), an average paid rounded half up. Costs
 * and values are this printed price × units, so every printed cost reproduces from the printed
 * unit price and units.
 *
 * @example
 * ```ts
 * import { printedUnitCents } from "./pricing.ts";
 * const price = { source: "paid", currency: "EUR", unitCents: 1e4 / 3, basisCents: 10_000, basisUnits: 3 } as const;
 * console.log(printedUnitCents(price)); // 3333
 * ```
 */
export function printedUnitCents(price: UnitPrice): number {
  return Math.round(price.basisCents / price.basisUnits);
}

/**
 * What `units` cost at `price`, in major units: the printed unit price ({@link printedUnitCents})
 * × units, rounded to the cent only where units are fractional.
 *
 * @example
 * ```ts
 * import { valueAt } from "./pricing.ts";
 * const price = { source: "paid", currency: "EUR", unitCents: 1e4 / 3, basisCents: 10_000, basisUnits: 3 } as const;
 * console.log(valueAt(3, price), valueAt(1, price)); // 99.99 33.33
 * ```
 */
export function valueAt(units: number, price: UnitPrice): number {
  return Math.round(units * printedUnitCents(price)) / 100;
}
