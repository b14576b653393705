/**
 * Totals computed while rows pass: the sum of each column a {@link TotalsSpec} names, one line per
 * currency when the spec is per currency (amounts in different currencies are never added
 * together), and a `rows` count per line. Sums are compensated (Neumaier), so adding a million
 * amounts stays exact to the cent, and currency sums are rounded to the column's decimals.
 *
 * Also the grouping helpers renderers share: a group key that compares cell values by value, and
 * {@link groupedRows}, which walks a section's rows and reports group starts and group ends with
 * their subtotals.
 *
 * @module
 */

import type { CellValue, Column, GroupSpec, Row, Totals, TotalsSpec } from "./model.ts";

/** The totals line label when the spec is not per currency. */
export const ALL = "All";

/** The totals line label for rows whose currency code is missing. */
export const NO_CURRENCY = "(none)";

/**
 * The label of the totals line that sums, over every row whatever its currency, the columns whose
 * amounts are all in one currency `code` (columns converted to a reporting currency).
 *
 * @example
 * ```ts
 * import { allCurrenciesLine, isAllCurrenciesLine } from "./totals.ts";
 * console.log(allCurrenciesLine("EUR"), isAllCurrenciesLine("EUR")); // "all currencies (EUR)" false
 * ```
 */
export function allCurrenciesLine(code: string): string {
  return `all currencies (${code})`;
}

/**
 * Whether a totals line label is an {@link allCurrenciesLine} (no currency code can be one).
 *
 * @example
 * ```ts
 * import { isAllCurrenciesLine } from "./totals.ts";
 * console.log(isAllCurrenciesLine("all currencies (EUR)")); // true
 * ```
 */
export function isAllCurrenciesLine(label: string): boolean {
  return label.startsWith("all currencies (");
}

/**
 * The key of a totals line that says how many of its rows had a value to add in `key`: present
 * only when some had none (a host without hardware data), so a total over fewer rows than the
 * line's `rows` never reads as complete.
 *
 * @example
 * ```ts
 * import { computeTotals, knownKey } from "./totals.ts";
 * const totals = computeTotals([{ n: 2 }, { n: null }], { sum: ["n"] });
 * console.log(knownKey("n"), totals.All); // "n:known" { n: 2, "n:known": 1, rows: 2 }
 * ```
 */
export function knownKey(key: string): string {
  return `${key}${KNOWN_SUFFIX}`;
}

/** The end of a {@link knownKey}. */
const KNOWN_SUFFIX = ":known";

/**
 * How many rows of a totals line a sum left out for want of a value: the most over its summed
 * keys (0 when every sum added every row).
 *
 * @example
 * ```ts
 * import { computeTotals, rowsWithoutValue } from "./totals.ts";
 * const totals = computeTotals([{ n: 2 }, { n: null }, { n: 1 }], { sum: ["n"] });
 * console.log(rowsWithoutValue(totals.All)); // 1
 * ```
 */
export function rowsWithoutValue(line: Readonly<Record<string, number>>): number {
  const rows = line.rows ?? 0;
  let most = 0;
  for (const [key, known] of Object.entries(line)) {
    if (key.endsWith(KNOWN_SUFFIX)) most = Math.max(most, rows - known);
  }
  return most;
}

/** A compensated running sum (Neumaier's variant of Kahan summation). */
class CompensatedSum {
  #sum = 0;
  #compensation = 0;

  add(value: number): void {
    const t = this.#sum + value;
    if (Math.abs(this.#sum) >= Math.abs(value)) this.#compensation += (this.#sum - t) + value;
    else this.#compensation += (value - t) + this.#sum;
    this.#sum = t;
  }

  get value(): number {
    return this.#sum + this.#compensation;
  }
}

/**
 * Rounds half away from zero to `decimals` places, after removing binary noise (so 1.005 → 1.01).
 *
 * @example
 * ```ts
 * import { roundTo } from "./totals.ts";
 * roundTo(1.005, 2); // 1.01
 * roundTo(-0.125, 2); // -0.13
 * ```
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  const scaled = Math.abs(Number((value * factor).toPrecision(15)));
  const rounded = Math.round(scaled) / factor;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

/** Removes float noise beyond 15 significant digits (0.1 + 0.2 → 0.3). */
function clean(value: number): number {
  return Number.isFinite(value) && value !== 0 ? Number(value.toPrecision(15)) : value;
}

/** One totals line while it accumulates. */
interface Line {
  rows: number;
  sums: CompensatedSum[];
  /** Per summed key, how many of the line's rows had a number to add. */
  known: number[];
}

/** A fresh totals line over `keys`. */
function emptyLine(keys: readonly string[]): Line {
  return { rows: 0, sums: keys.map(() => new CompensatedSum()), known: keys.map(() => 0) };
}

/**
 * Accumulates totals for a spec while rows pass; memory grows with the number of currencies,
 * never with the number of rows.
 *
 * @example
 * ```ts
 * import { TotalsAccumulator } from "./totals.ts";
 * const totals = new TotalsAccumulator({ sum: ["cost"], perCurrency: "currency" }, [
 *   { key: "cost", label: "Cost", type: "currency" },
 * ]);
 * totals.add({ cost: 0.1, currency: "EUR" });
 * totals.add({ cost: 0.2, currency: "EUR" });
 * totals.add({ cost: 5, currency: "USD" });
 * totals.result(); // { EUR: { cost: 0.3, rows: 2 }, USD: { cost: 5, rows: 1 } }
 * ```
 */
export class TotalsAccumulator {
  #keys: readonly string[];
  #decimals: (number | undefined)[];
  #perCurrency?: string;
  #lines = new Map<string, Line>();
  #count = 0;
  /** The label of the line over every row, when columns in one fixed currency are summed. */
  #across?: string;
  /** Which keys the line over every row sums (those in the fixed currency). */
  #acrossKeys: boolean[] = [];

  /**
   * @param spec What to sum (no spec: only a row count on an `All` line).
   * @param columns The section's columns, to round currency sums to their decimals; a summed
   *   column in one fixed currency (`Column.currency`) adds a line {@link allCurrenciesLine}
   *   summing it over every row (without `perCurrency`, the one line is that line).
   */
  constructor(spec: TotalsSpec | undefined, columns: readonly Column[] = []) {
    this.#keys = (spec?.sum ?? []).filter((key) => key !== "rows");
    this.#perCurrency = spec?.perCurrency;
    const of = (key: string) => columns.find((c) => c.key === key);
    this.#decimals = this.#keys.map((key) => {
      const column = of(key);
      return column?.type === "currency" ? column.decimals ?? 2 : undefined;
    });
    const fixed = this.#keys.map((key) => of(key)?.currency).find((code) => code);
    if (fixed) {
      this.#across = allCurrenciesLine(fixed);
      this.#acrossKeys = this.#keys.map((key) => of(key)?.currency === fixed);
    }
  }

  /** How many rows have been added. */
  get count(): number {
    return this.#count;
  }

  /** Adds one row. Values that are not finite numbers (null, text) are skipped. */
  add(row: Row): void {
    this.#count++;
    const label = this.#labelOf(row);
    // A row with no currency and nothing to sum (an unpriced position) opens no "(none)" line.
    if (label !== NO_CURRENCY || this.#keys.some((k) => Number.isFinite(row[k]))) {
      this.#addTo(label, row, () => true);
    }
    if (this.#across && this.#perCurrency !== undefined) {
      this.#addTo(this.#across, row, (i) => this.#acrossKeys[i]);
    }
  }

  #addTo(label: string, row: Row, summed: (index: number) => boolean): void {
    let line = this.#lines.get(label);
    if (!line) {
      line = emptyLine(this.#keys);
      this.#lines.set(label, line);
    }
    line.rows++;
    for (let i = 0; i < this.#keys.length; i++) {
      const value = row[this.#keys[i]];
      if (summed(i) && typeof value === "number" && Number.isFinite(value)) {
        line.sums[i].add(value);
        line.known[i]++;
      }
    }
  }

  #labelOf(row: Row): string {
    if (this.#perCurrency === undefined) return this.#across ?? ALL;
    const code = row[this.#perCurrency];
    return typeof code === "string" && code.trim() !== "" ? code.trim() : NO_CURRENCY;
  }

  /**
   * The totals so far: without `perCurrency` always one line, `All` (or the
   * {@link allCurrenciesLine} when a column in one fixed currency is summed), with zeros when no
   * row was added and without a column that was blank on every row; per currency one line per
   * code, sorted by code (none when no row was added), then, when a column in one fixed currency
   * is summed and there are several codes, the {@link allCurrenciesLine} summing it over every
   * row.
   */
  result(): Totals {
    const out: Totals = {};
    const only = this.#across ?? ALL;
    if (this.#perCurrency === undefined && !this.#lines.has(only)) {
      this.#lines.set(only, emptyLine(this.#keys));
    }
    // The line over every row comes last, after the currencies it adds up.
    const labels = [...this.#lines.keys()].sort((a, b) =>
      Number(a === this.#across) - Number(b === this.#across) || (a < b ? -1 : a > b ? 1 : 0)
    );
    // Beside a single currency's line, the line over every row would repeat its converted sums.
    const single = this.#perCurrency !== undefined && labels.length === 2;
    for (const label of single ? labels.filter((l) => l !== this.#across) : labels) {
      const line = this.#lines.get(label)!;
      const entry: Record<string, number> = {};
      const across = label === this.#across && this.#perCurrency !== undefined;
      this.#keys.forEach((key, i) => {
        if (across && !this.#acrossKeys[i]) return;
        // Without currencies, a column blank on every row of the line (unknown: a host without
        // hardware data) has no total: blank, not 0. No rows at all still total 0.
        if (this.#perCurrency === undefined && line.rows > 0 && line.known[i] === 0) return;
        const decimals = this.#decimals[i];
        const sum = line.sums[i].value;
        entry[key] = decimals === undefined ? clean(sum) : roundTo(sum, decimals);
        // A sum that left out rows without a value says how many rows it added.
        if (line.known[i] < line.rows) entry[knownKey(key)] = line.known[i];
      });
      entry.rows = line.rows;
      out[label] = entry;
    }
    return out;
  }
}

/**
 * Computes totals of an iterable of rows in one pass.
 *
 * @example
 * ```ts
 * import { computeTotals } from "./totals.ts";
 * computeTotals([{ n: 1 }, { n: 2 }], { sum: ["n"] }); // { All: { n: 3, rows: 2 } }
 * ```
 */
export function computeTotals(
  rows: Iterable<Row>,
  spec: TotalsSpec | undefined,
  columns: readonly Column[] = [],
): Totals {
  const totals = new TotalsAccumulator(spec, columns);
  for (const row of rows) totals.add(row);
  return totals.result();
}

/**
 * A string that is equal for two cell values exactly when they belong to the same group (dates by
 * instant, numbers by value, text exactly, missing values together).
 *
 * @example
 * ```ts
 * import { groupKey } from "./totals.ts";
 * groupKey(new Date(0)) === groupKey(new Date(0)); // true
 * groupKey("1") === groupKey(1); // false
 * ```
 */
export function groupKey(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "z:";
  if (value instanceof Date) return `d:${value.getTime()}`;
  return `${(typeof value)[0]}:${value}`;
}

const collator = new Intl.Collator("en", { numeric: true });

/**
 * Orders group values: numbers, then dates, then booleans, then text (natural order), missing
 * values last. Used to sort rows whose groups do not arrive together.
 *
 * @example
 * ```ts
 * import { compareGroupValues } from "./totals.ts";
 * ["b", null, "a10", "a9"].sort(compareGroupValues); // ["a9", "a10", "b", null]
 * ```
 */
export function compareGroupValues(a: CellValue | undefined, b: CellValue | undefined): number {
  const rank = (v: CellValue | undefined) =>
    v === null || v === undefined
      ? 4
      : typeof v === "number"
      ? 0
      : v instanceof Date
      ? 1
      : typeof v === "boolean"
      ? 2
      : 3;
  const ra = rank(a), rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 4) return 0;
  if (ra === 0) return (a as number) - (b as number);
  if (ra === 1) return (a as Date).getTime() - (b as Date).getTime();
  if (ra === 2) return Number(a) - Number(b);
  const c = collator.compare(a as string, b as string);
  return c !== 0 ? c : (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
}

/**
 * Watches group values as rows arrive and tells whether the groups arrive scattered (a group
 * value seen again after another one), in which case the rows must be sorted by group. Memory
 * grows with the number of groups, not rows; watching stops once scattering is found.
 *
 * @example
 * ```ts
 * import { GroupArrival } from "./totals.ts";
 * const arrival = new GroupArrival();
 * for (const v of ["a", "a", "b", "a"]) arrival.add(v);
 * console.log(arrival.scattered); // true
 * ```
 */
export class GroupArrival {
  #seen = new Set<string>();
  #current: string | undefined;
  #scattered = false;

  /** Notes the next row's group value. */
  add(value: CellValue | undefined): void {
    if (this.#scattered) return;
    const key = groupKey(value);
    if (key === this.#current) return;
    if (this.#seen.has(key)) {
      this.#scattered = true;
      this.#seen.clear();
      return;
    }
    this.#seen.add(key);
    this.#current = key;
  }

  /** Whether a group came back after another group. */
  get scattered(): boolean {
    return this.#scattered;
  }
}

/** What {@link groupedRows} yields. */
export type GroupEvent =
  | { readonly kind: "start"; readonly value: CellValue; readonly index: number }
  | { readonly kind: "row"; readonly row: Row; readonly index: number }
  | {
    readonly kind: "end";
    readonly value: CellValue;
    readonly rows: number;
    readonly totals: Totals;
  };

/**
 * Walks rows in order, yielding a `start` event when a group begins, each `row` (with its index
 * in the section), and an `end` event with the group's row count and subtotals (per the totals
 * spec, per currency when asked) when it closes. Without a group spec it yields only `row`
 * events. Rows should arrive with each group together (spooled sections guarantee it).
 *
 * @example
 * ```ts
 * import { groupedRows } from "./totals.ts";
 * const rows = [{ v: "A", n: 1 }, { v: "A", n: 2 }, { v: "B", n: 5 }];
 * for await (const event of groupedRows(rows, { group: { by: "v" }, totalsSpec: { sum: ["n"] } })) {
 *   if (event.kind === "end") console.log(event.value, event.totals.All.n); // A 3, then B 5
 * }
 * ```
 */
export async function* groupedRows(
  rows: AsyncIterable<Row> | Iterable<Row>,
  section: {
    readonly group?: GroupSpec;
    readonly totalsSpec?: TotalsSpec;
    readonly columns?: readonly Column[];
  },
): AsyncGenerator<GroupEvent> {
  const by = section.group?.by;
  let index = 0;
  if (by === undefined) {
    for await (const row of rows) yield { kind: "row", row, index: index++ };
    return;
  }
  let current: string | undefined;
  let value: CellValue = null;
  let totals: TotalsAccumulator | undefined;
  for await (const row of rows) {
    const v = row[by] ?? null;
    const key = groupKey(v);
    if (key !== current) {
      if (totals) {
        yield { kind: "end", value, rows: totals.count, totals: totals.result() };
      }
      current = key;
      value = v;
      totals = new TotalsAccumulator(section.totalsSpec, section.columns);
      yield { kind: "start", value, index };
    }
    totals!.add(row);
    yield { kind: "row", row, index: index++ };
  }
  if (totals) yield { kind: "end", value, rows: totals.count, totals: totals.result() };
}
