/**
 * Ordering for report rows: a text comparison that sorts numbers inside names naturally and is
 * total (ties broken by code point), and comparators that compose (`sortBy(rows, asc(a), desc(b))`).
 *
 * @module
 */

const collator = new Intl.Collator("en", { numeric: true });

/**
 * Compares two texts for display order: natural numbers ("Office 2" before "Office 10"), then by
 * code point, so that the order is total and the same on every machine.
 *
 * @example
 * ```ts
 * import { compareText } from "./sort.ts";
 * console.log(["b10", "b9", "a"].sort(compareText)); // ["a", "b9", "b10"]
 * ```
 */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A comparator of two items. */
export type Comparator<T> = (a: T, b: T) => number;

/** A sortable value: text, number, date or missing. */
export type SortValue = string | number | Date | boolean | null | undefined;

/** Nulls go last in ascending order (and first in descending, as a mirror). */
function compareValues(a: SortValue, b: SortValue): number {
  const missingA = a === null || a === undefined || (a instanceof Date && isNaN(a.getTime()));
  const missingB = b === null || b === undefined || (b instanceof Date && isNaN(b.getTime()));
  if (missingA || missingB) return missingA === missingB ? 0 : missingA ? 1 : -1;
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  const x = a instanceof Date ? a.getTime() : Number(a);
  const y = b instanceof Date ? b.getTime() : Number(b);
  return x - y;
}

/**
 * Ascending by a value — a function of the item, or a key of it — (text naturally, numbers and
 * dates numerically, missing values last).
 *
 * @example
 * ```ts
 * import { asc, sortBy } from "./sort.ts";
 * console.log(sortBy([{ n: 2 }, { n: null }, { n: 1 }], asc((r) => r.n))); // [{n:1},{n:2},{n:null}]
 * ```
 */
export function asc<T>(value: ((item: T) => SortValue) | keyof T & string): Comparator<T> {
  const read = reader(value);
  return (a, b) => compareValues(read(a), read(b));
}

/** A value reader from a function or a key. */
function reader<T>(value: ((item: T) => SortValue) | keyof T & string): (item: T) => SortValue {
  return typeof value === "function" ? value : (item) => item[value] as SortValue;
}

/**
 * Descending by a value (missing values first, the mirror of {@link asc}).
 *
 * @example
 * ```ts
 * import { desc, sortBy } from "./sort.ts";
 * console.log(sortBy([{ n: 1 }, { n: 3 }], desc((r) => r.n))); // [{n:3},{n:1}]
 * console.log(sortBy([{ n: 1 }, { n: 3 }], desc("n"))); // [{n:3},{n:1}]
 * ```
 */
export function desc<T>(value: ((item: T) => SortValue) | keyof T & string): Comparator<T> {
  const read = reader(value);
  return (a, b) => compareValues(read(b), read(a));
}

/**
 * Chains comparators: the first that tells two items apart decides.
 *
 * @example
 * ```ts
 * import { asc, desc, orderBy } from "./sort.ts";
 * const cmp = orderBy<{ a: string; n: number }>(asc((r) => r.a), desc((r) => r.n));
 * console.log(cmp({ a: "x", n: 1 }, { a: "x", n: 2 }) > 0); // true
 * ```
 */
export function orderBy<T>(...comparators: readonly Comparator<T>[]): Comparator<T> {
  return (a, b) => {
    for (const compare of comparators) {
      const c = compare(a, b);
      if (c !== 0) return c;
    }
    return 0;
  };
}

/**
 * A sorted copy of `items` (stable), ordered by the comparators in turn.
 *
 * @example
 * ```ts
 * import { asc, sortBy } from "./sort.ts";
 * console.log(sortBy(["Office 10", "Office 9"], asc((s) => s))); // ["Office 9", "Office 10"]
 * ```
 */
export function sortBy<T>(items: Iterable<T>, ...comparators: readonly Comparator<T>[]): T[] {
  return [...items].sort(orderBy(...comparators));
}
