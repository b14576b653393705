/**
 * Measures: what {@link groupBy} (and {@link aggregate}) compute per group while items pass —
 * counts, distinct counts, exact sums, money sums in integer minor units, minimum, maximum.
 * Each measure is a small fold (`init`, `add`, `result`), so groups never keep their items.
 *
 * @module
 */

import { fromMinorUnits, toMinorUnits } from "./money.ts";

/** A fold over a group's items: start value, step, and the figure it yields. */
export interface Measure<T, R> {
  /** A fresh accumulator. */
  init(): unknown;
  /** Adds one item; returns the accumulator. */
  add(acc: unknown, item: T): unknown;
  /** The figure of a finished group. */
  result(acc: unknown): R;
}

/** A value read from an item for a measure. */
export type Value<T, V> = (item: T) => V;

function measure<T, A, R>(
  init: () => A,
  add: (acc: A, item: T) => A,
  result: (acc: A) => R,
): Measure<T, R> {
  return {
    init,
    add: add as (acc: unknown, item: T) => unknown,
    result: result as (acc: unknown) => R,
  };
}

/**
 * Counts the items of a group, or those for which `where` holds.
 *
 * @example
 * ```ts
 * import { count } from "./measures.ts";
 * import { aggregate } from "./group_by.ts";
 * console.log(aggregate([1, 2, 3], { all: count(), odd: count((n: number) => n % 2 === 1) }));
 * // { all: 3, odd: 2 }
 * ```
 */
export function count<T>(where?: (item: T) => boolean): Measure<T, number> {
  return measure<T, number, number>(
    () => 0,
    (n, item) => (!where || where(item) ? n + 1 : n),
    (n) => n,
  );
}

/**
 * Counts the distinct values of a group (missing values are not counted).
 *
 * @example
 * ```ts
 * import { distinct } from "./measures.ts";
 * import { aggregate } from "./group_by.ts";
 * console.log(aggregate(["a", "b", "a", null], { apps: distinct((s: string | null) => s) }));
 * // { apps: 2 }
 * ```
 */
export function distinct<T>(value: Value<T, unknown>): Measure<T, number> {
  return measure<T, Set<unknown>, number>(
    () => new Set(),
    (seen, item) => {
      const v = value(item);
      if (v !== null && v !== undefined) seen.add(v);
      return seen;
    },
    (seen) => seen.size,
  );
}

/**
 * Sums a numeric value (missing and non-finite values skipped). Integers sum exactly; for
 * fractional values use {@link sumMoney} when they are money.
 *
 * @example
 * ```ts
 * import { sum } from "./measures.ts";
 * import { aggregate } from "./group_by.ts";
 * console.log(aggregate([{ q: 2 }, { q: null }, { q: 5 }], { qty: sum((r) => r.q) })); // { qty: 7 }
 * ```
 */
export function sum<T>(value: Value<T, number | null | undefined>): Measure<T, number> {
  return measure<T, number, number>(
    () => 0,
    (total, item) => {
      const v = value(item);
      return typeof v === "number" && Number.isFinite(v) ? total + v : total;
    },
    (total) => total,
  );
}

/**
 * Sums amounts of money exactly, in integer minor units (cents), and returns major units —
 * or `null` when no item of the group had an amount (unknown is not zero). Amounts of different
 * currencies must not meet in one group: group by the currency too.
 *
 * @example
 * ```ts
 * import { sumMoney } from "./measures.ts";
 * import { aggregate } from "./group_by.ts";
 * const rows = [{ eur: 0.1 }, { eur: 0.2 }, { eur: null }];
 * console.log(aggregate(rows, { total: sumMoney((r) => r.eur) })); // { total: 0.3 }
 * console.log(aggregate([{ eur: null }], { total: sumMoney((r) => r.eur) })); // { total: null }
 * ```
 */
export function sumMoney<T>(
  value: Value<T, number | null | undefined>,
): Measure<T, number | null> {
  return measure<T, number | null, number | null>(
    () => null,
    (cents, item) => {
      const minor = toMinorUnits(value(item));
      return minor === null ? cents : (cents ?? 0) + minor;
    },
    (cents) => fromMinorUnits(cents),
  );
}

/**
 * The smallest value of a group (numbers or dates; `null` when none).
 *
 * @example
 * ```ts
 * import { min } from "./measures.ts";
 * import { aggregate } from "./group_by.ts";
 * console.log(aggregate([{ n: 3 }, { n: 1 }], { least: min((r) => r.n) })); // { least: 1 }
 * ```
 */
export function min<T, V extends number | Date>(
  value: Value<T, V | null | undefined>,
): Measure<T, V | null> {
  return extreme(value, (a, b) => a < b);
}

/**
 * The largest value of a group (numbers or dates; `null` when none).
 *
 * @example
 * ```ts
 * import { max } from "./measures.ts";
 * import { aggregate } from "./group_by.ts";
 * console.log(aggregate([{ n: 3 }, { n: 1 }], { most: max((r) => r.n) })); // { most: 3 }
 * ```
 */
export function max<T, V extends number | Date>(
  value: Value<T, V | null | undefined>,
): Measure<T, V | null> {
  return extreme(value, (a, b) => a > b);
}

function extreme<T, V extends number | Date>(
  value: Value<T, V | null | undefined>,
  better: (a: V, b: V) => boolean,
): Measure<T, V | null> {
  return measure<T, V | null, V | null>(
    () => null,
    (best, item) => {
      const v = value(item);
      if (v === null || v === undefined) return best;
      if (v instanceof Date ? isNaN(v.getTime()) : !Number.isFinite(v)) return best;
      return best === null || better(v, best) ? v : best;
    },
    (best) => best,
  );
}

/**
 * The value of the group's first item (for attributes that are the same across a group, such as
 * an application's publisher).
 *
 * @example
 * ```ts
 * import { first } from "./measures.ts";
 * import { aggregate } from "./group_by.ts";
 * console.log(aggregate([{ p: "Microsoft" }, { p: "x" }], { publisher: first((r) => r.p) }));
 * // { publisher: "Microsoft" }
 * ```
 */
export function first<T, V>(value: Value<T, V>): Measure<T, V | null> {
  const none = Symbol("none");
  return measure<T, V | typeof none, V | null>(
    () => none,
    (seen, item) => (seen === none ? value(item) : seen),
    (seen) => (seen === none ? null : seen),
  );
}
