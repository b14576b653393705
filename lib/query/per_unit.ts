/**
 * A price per unit as a measure of {@link groupBy}: the amounts of a group summed exactly in
 * integer minor units (cents), divided by the units they bought, rounded to the cent.
 *
 * @module
 */

import type { Measure } from "./measures.ts";
import { toMinorUnits } from "./money.ts";

/** What one item adds to a price per unit. */
interface PerUnitAcc {
  /** Amounts in cents. */
  cents: number;
  /** Units of the items that had an amount. */
  units: number;
}

/**
 * The average amount per unit of a group: Σ amount ÷ Σ units, to the cent. Only items with an
 * amount take part (their units, missing as 0, are the divisor); `null` when those units sum to
 * 0 or less (or no item had an amount).
 *
 * @example
 * ```ts
 * import { perUnit } from "./per_unit.ts";
 * import { aggregate } from "./group_by.ts";
 * const rows = [{ paid: 100, qty: 3 }, { paid: 0.01, qty: null }, { paid: null, qty: 50 }];
 * console.log(aggregate(rows, { avg: perUnit((r) => r.paid, (r) => r.qty) })); // { avg: 33.34 }
 * ```
 */
export function perUnit<T>(
  amount: (item: T) => number | null | undefined,
  units: (item: T) => number | null | undefined,
): Measure<T, number | null> {
  return {
    init: (): PerUnitAcc => ({ cents: 0, units: 0 }),
    add: (acc, item) => {
      const a = acc as PerUnitAcc;
      const cents = toMinorUnits(amount(item));
      if (cents === null) return a;
      const n = units(item);
      return { cents: a.cents + cents, units: a.units + (Number.isFinite(n) ? n! : 0) };
    },
    result: (acc) => {
      const a = acc as PerUnitAcc;
      return a.units > 0 ? Math.round(a.cents / a.units) / 100 : null;
    },
  };
}
