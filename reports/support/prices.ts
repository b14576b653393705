/**
 * Prices paid for licenses, never mixing currencies: per application and currency the licenses,
 * units bought and amount paid; the average unit price (amount ÷ units); and the one currency an
 * application's amounts are priced in — the currency of most units bought (ties: the
 * alphabetically first code).
 *
 * @module
 */

import type { Resource } from "../../lib/api/catalogue.ts";
import type { LicensesApi } from "../../lib/api/client.ts";
import type { QueryContext } from "../../lib/query/context.ts";
import { groupBy } from "../../lib/query/group_by.ts";
import { count, sum } from "../../lib/query/measures.ts";
import { toMinorUnits } from "../../lib/query/money.ts";

/** What was paid for an application's licenses in one currency. */
export interface PriceLine {
  /** ISO 4217 code. */
  readonly currency: string;
  /** Licenses priced in this currency. */
  licenses: number;
  /** Units bought (sum of quantities of those licenses). */
  units: number;
  /** Amount paid, in integer cents. */
  cents: number;
}

/**
 * The average unit price of `line` in cents (unrounded): amount paid ÷ units bought.
 *
 * @example
 * ```ts
 * import { unitCents } from "./prices.ts";
 * console.log(unitCents({ currency: "EUR", licenses: 2, units: 4, cents: 1000 })); // 250
 * ```
 */
export function unitCents(line: PriceLine): number {
  return line.cents / line.units;
}

/**
 * The price line an application's amounts are priced in: the currency with the most units
 * (ties: the alphabetically first code); `undefined` when nothing was paid.
 *
 * @example
 * ```ts
 * import { pricingLine } from "./prices.ts";
 * const lines = new Map([
 *   ["EUR", { currency: "EUR", licenses: 1, units: 5, cents: 5000 }],
 *   ["USD", { currency: "USD", licenses: 2, units: 10, cents: 12000 }],
 * ]);
 * console.log(pricingLine(lines)?.currency); // "USD"
 * ```
 */
export function pricingLine(
  lines: ReadonlyMap<string, PriceLine> | undefined,
): PriceLine | undefined {
  let best: PriceLine | undefined;
  for (const line of lines?.values() ?? []) {
    if (
      !best || line.units > best.units ||
      (line.units === best.units && line.currency < best.currency)
    ) best = line;
  }
  return best;
}

/**
 * Cost in currency units of `units` at the line's average unit price, rounded to the cent.
 *
 * @example
 * ```ts
 * import { costAt } from "./prices.ts";
 * console.log(costAt(3, { currency: "EUR", licenses: 1, units: 3, cents: 1000 })); // 10
 * ```
 */
export function costAt(units: number, line: PriceLine): number {
  return Math.round(units * line.cents / line.units) / 100;
}

/**
 * The average unit price of `line` in currency units, rounded to the cent.
 *
 * @example
 * ```ts
 * import { unitPrice } from "./prices.ts";
 * console.log(unitPrice({ currency: "EUR", licenses: 1, units: 3, cents: 1000 })); // 3.33
 * ```
 */
export function unitPrice(line: PriceLine): number {
  return Math.round(unitCents(line)) / 100;
}

/** How a shortfall is priced. */
export interface ShortfallPrice {
  /** The pricing currency ({@link pricingLine}); `null` when nothing was paid. */
  readonly currency: string | null;
  /** Its average unit price, rounded to the cent. */
  readonly unitPrice: number | null;
  /** The shortfall at that price; `null` when there is no shortfall or no price. */
  readonly shortfallCost: number | null;
}

/**
 * Prices `shortfall` units at the average unit price paid in the currency of most units bought.
 *
 * @example
 * ```ts
 * import { priceShortfall } from "./prices.ts";
 * const lines = new Map([["EUR", { currency: "EUR", licenses: 1, units: 3, cents: 1000 }]]);
 * console.log(priceShortfall(2, lines)); // { currency: "EUR", unitPrice: 3.33, shortfallCost: 6.67 }
 * ```
 */
export function priceShortfall(
  shortfall: number,
  lines: ReadonlyMap<string, PriceLine> | undefined,
): ShortfallPrice {
  const line = pricingLine(lines);
  return {
    currency: line?.currency ?? null,
    unitPrice: line ? unitPrice(line) : null,
    shortfallCost: shortfall > 0 && line ? costAt(shortfall, line) : null,
  };
}

/** One row of what was paid: a price line with its amount and average price in major units. */
export interface PricePaid {
  /** ISO 4217 code. */
  readonly currency: string;
  /** Licenses priced in this currency. */
  readonly licenses: number;
  /** Units bought. */
  readonly units: number;
  /** Amount paid. */
  readonly amountPaid: number;
  /** Average unit price, rounded to the cent. */
  readonly unitPrice: number;
  /** The currency the application's amounts are priced in ({@link pricingLine}). */
  readonly pricing: boolean;
}

/**
 * An application's price lines as rows, in currency code order, the pricing one marked.
 *
 * @example
 * ```ts
 * import { pricesPaid } from "./prices.ts";
 * const lines = new Map([["EUR", { currency: "EUR", licenses: 1, units: 3, cents: 1000 }]]);
 * console.log(pricesPaid(lines)[0]);
 * // { currency: "EUR", licenses: 1, units: 3, amountPaid: 10, unitPrice: 3.33, pricing: true }
 * ```
 */
export function pricesPaid(lines: ReadonlyMap<string, PriceLine> | undefined): PricePaid[] {
  const chosen = pricingLine(lines);
  return [...lines?.values() ?? []].sort((a, b) => a.currency < b.currency ? -1 : 1).map((
    line,
  ) => ({
    currency: line.currency,
    licenses: line.licenses,
    units: line.units,
    amountPaid: line.cents / 100,
    unitPrice: unitPrice(line),
    pricing: line === chosen,
  }));
}

/** Whether a license's price counts: a currency, a finite purchase value, a positive quantity. */
const priced = (l: Resource<"License">) =>
  !!l.purchaseCurrency?.trim() && Number.isFinite(l.purchaseValue) &&
  Number.isFinite(l.quantity) && l.quantity! > 0;

/**
 * Per application, the licensed quantity (all licenses, `quantity` summed) and what was paid per
 * currency (licenses with a currency, a purchase value and a positive quantity; amounts in
 * integer cents). Reads the licenses once per run (cache key `licenses.list`).
 *
 * @example
 * ```ts ignore
 * import { licensePrices } from "./prices.ts";
 * const { prices } = await licensePrices(ctx, { organization: "ORG01" });
 * ```
 */
export async function licensePrices(
  ctx: {
    readonly client: { readonly licenses: Pick<LicensesApi, "list"> };
    readonly query: QueryContext;
  },
  options: { readonly organization?: string } = {},
): Promise<{ quantity: Map<string, number>; prices: Map<string, Map<string, PriceLine>> }> {
  const licenses = (await ctx.query.all("licenses.list", () => ctx.client.licenses.list()))
    .filter((l) => l.applicationId)
    .filter((l) => options.organization === undefined || l.organizationId === options.organization);
  const quantity = groupBy(licenses, (l) => ({ app: l.applicationId! }), {
    units: sum((l) => l.quantity),
  });
  const lines = groupBy(licenses.filter(priced), (l) => ({
    app: l.applicationId!,
    currency: l.purchaseCurrency!.trim(),
  }), {
    licenses: count(),
    units: sum((l) => l.quantity),
    cents: sum((l) => toMinorUnits(l.purchaseValue)),
  });
  const prices = new Map<string, Map<string, PriceLine>>();
  for (const { app, ...line } of lines) {
    prices.set(app, (prices.get(app) ?? new Map()).set(line.currency, line));
  }
  return { quantity: new Map(quantity.map((q) => [q.app, q.units])), prices };
}
