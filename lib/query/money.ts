/**
 * Money, exactly: amounts as integer minor units (cents), sums per currency that never cross
 * currencies, and the way back to major units for display.
 *
 * @module
 */

/**
 * An amount in integer minor units (2 decimals), or `null` when it is missing or not finite.
 * Binary noise is removed first and halves round away from zero (1.005 → 101, -0.125 → -13).
 *
 * @example
 * ```ts
 * import { toMinorUnits } from "./money.ts";
 * console.log(toMinorUnits(19.99), toMinorUnits(1.005), toMinorUnits(null)); // 1999 101 null
 * ```
 */
export function toMinorUnits(amount: number | null | undefined): number | null {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return null;
  const scaled = Number((amount * 100).toPrecision(15));
  return Math.sign(scaled) * Math.round(Math.abs(scaled)) || 0;
}

/**
 * Minor units back to a major-unit amount (`null` stays `null`).
 *
 * @example
 * ```ts
 * import { fromMinorUnits } from "./money.ts";
 * console.log(fromMinorUnits(1999)); // 19.99
 * ```
 */
export function fromMinorUnits(minor: number | null | undefined): number | null {
  return typeof minor === "number" ? minor / 100 : null;
}

/**
 * Sums amounts per currency in integer minor units: one total per currency code, never one
 * across currencies. Items without an amount are skipped; a currency with no amount at all is
 * absent from the result.
 *
 * @example
 * ```ts
 * import { sumByCurrency } from "./money.ts";
 * const totals = sumByCurrency(
 *   [{ c: "EUR", v: 0.1 }, { c: "EUR", v: 0.2 }, { c: "USD", v: 5 }, { c: "USD", v: null }],
 *   (r) => r.v,
 *   (r) => r.c,
 * );
 * console.log(totals); // Map { "EUR" => 0.3, "USD" => 5 }
 * ```
 */
export function sumByCurrency<T>(
  items: Iterable<T>,
  amount: (item: T) => number | null | undefined,
  currency: (item: T) => string,
): Map<string, number> {
  const cents = new Map<string, number>();
  for (const item of items) {
    const minor = toMinorUnits(amount(item));
    if (minor === null) continue;
    const code = currency(item);
    cents.set(code, (cents.get(code) ?? 0) + minor);
  }
  return new Map([...cents].map(([code, c]) => [code, c / 100]));
}

/** An exact decimal: `units × 10^-scale` (a rate such as 1.08345 is `108345n` at scale 5). */
export interface ExactDecimal {
  /** The digits as an integer. */
  readonly units: bigint;
  /** How many of them are decimals. */
  readonly scale: number;
}

/**
 * Reads a plain positive decimal exactly (`1.08345`, `0.1`, `160`): no sign, exponent or
 * separators, at most 30 digits; `null` for anything else (or zero).
 *
 * @example
 * ```ts
 * import { parseExactDecimal } from "./money.ts";
 * console.log(parseExactDecimal("1.08345")); // { units: 108345n, scale: 5 }
 * console.log(parseExactDecimal("1e3"), parseExactDecimal("0")); // null null
 * ```
 */
export function parseExactDecimal(text: string): ExactDecimal | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match || match[1].length + (match[2]?.length ?? 0) > 30) return null;
  const units = BigInt(match[1] + (match[2] ?? ""));
  return units === 0n ? null : { units, scale: match[2]?.length ?? 0 };
}

/**
 * Converts integer minor units at a rate quoted as units of the amount's currency per one unit
 * of the target currency (as central banks publish them): `minor ÷ rate`, computed exactly in
 * integers and rounded once, half away from zero, to the target's minor units.
 *
 * @example
 * ```ts
 * import { convertMinorUnits, parseExactDecimal } from "./money.ts";
 * const rate = parseExactDecimal("1.08345")!; // USD per EUR
 * console.log(convertMinorUnits(100_000, rate)); // 92298 (USD 1,000.00 = EUR 922.98)
 * console.log(convertMinorUnits(-5, parseExactDecimal("2")!)); // -3
 * ```
 */
export function convertMinorUnits(minor: number, rate: ExactDecimal): number {
  const n = BigInt(minor) * 10n ** BigInt(rate.scale);
  const magnitude = ((n < 0n ? -n : n) * 2n + rate.units) / (rate.units * 2n);
  return Number(n < 0n ? -magnitude : magnitude);
}
