/**
 * The numbers samkit accepts, from the service and from the user's files: finite, and within the
 * range where a double holds them exactly.
 *
 * - Any number (a count, a quantity, cores, sockets, a percentage) is at most
 *   `Number.MAX_SAFE_INTEGER` (2^53 − 1 = 9,007,199,254,740,991) in magnitude: beyond it whole
 *   numbers are rounded (`9007199254740993` reads as 9007199254740992), so a count there is not
 *   the count sent.
 * - A money amount is at most 9,999,999,999,999.99 in magnitude (below 10^13): 15 significant
 *   digits with its cents, which a double holds exactly to the cent and which samkit's sums in
 *   minor units (`toMinorUnits`) keep.
 *
 * `Infinity`, `NaN` and anything beyond these bounds are refused, never read as a blank or a
 * rounded value.
 *
 * @module
 */

/** What a number is, for its bound. */
export type NumberKind = "number" | "money";

/**
 * The largest magnitude of a number of {@link NumberKind} `number`: 2^53 − 1.
 *
 * @example
 * ```ts
 * import { MAX_EXACT_NUMBER } from "./number_range.ts";
 * console.log(MAX_EXACT_NUMBER); // 9007199254740991
 * ```
 */
export const MAX_EXACT_NUMBER: number = Number.MAX_SAFE_INTEGER;

/**
 * The largest magnitude of a money amount: 9,999,999,999,999.99.
 *
 * @example
 * ```ts
 * import { MAX_MONEY } from "./number_range.ts";
 * console.log(MAX_MONEY); // 9999999999999.99
 * ```
 */
export const MAX_MONEY = 9_999_999_999_999.99;

/** The bound of a kind. */
function limitOf(kind: NumberKind): number {
  return kind === "money" ? MAX_MONEY : MAX_EXACT_NUMBER;
}

/**
 * Whether `value` is a finite number within the bound of its kind.
 *
 * @example
 * ```ts
 * import { inExactRange } from "./number_range.ts";
 * console.log(inExactRange(12.5, "number"), inExactRange(Infinity, "number")); // true false
 * console.log(inExactRange(9007199254740992, "number")); // false
 * console.log(inExactRange(1e13, "money"), inExactRange(-9999999999999.99, "money")); // false true
 * ```
 */
export function inExactRange(value: number, kind: NumberKind): boolean {
  return Number.isFinite(value) && Math.abs(value) <= limitOf(kind);
}

/**
 * What a number of a kind must be, in words (for messages: "cannot read … as a …").
 *
 * @example
 * ```ts
 * import { rangeText } from "./number_range.ts";
 * console.log(rangeText("number")); // "finite number of at most 9007199254740991 in magnitude"
 * console.log(rangeText("money")); // "money amount of at most 9999999999999.99 in magnitude"
 * ```
 */
export function rangeText(kind: NumberKind): string {
  return kind === "money"
    ? `money amount of at most ${MAX_MONEY} in magnitude`
    : `finite number of at most ${MAX_EXACT_NUMBER} in magnitude`;
}

/** A decimal number as text: a sign, digits with an optional point, an optional exponent. */
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A number written as text (`"12"`, `"-1.5"`, `"1.6e4"`, spaces around allowed) within the bound
 * of its kind, or `undefined` for any other text (`"12x"`, `"1e309"`, `"9007199254740993"`).
 *
 * @example
 * ```ts
 * import { readNumberText } from "./number_range.ts";
 * console.log(readNumberText(" 1.6e4 ", "number"), readNumberText("1e309", "number")); // 16000 undefined
 * console.log(readNumberText("9007199254740993", "number")); // undefined
 * console.log(readNumberText("23750.5", "money"), readNumberText("1e14", "money")); // 23750.5 undefined
 * ```
 */
export function readNumberText(text: string, kind: NumberKind): number | undefined {
  const t = text.trim();
  if (!NUMBER_TEXT.test(t)) return undefined;
  const value = Number(t);
  return inExactRange(value, kind) ? value : undefined;
}
