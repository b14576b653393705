/**
 * Extents computed while rows pass: the smallest and the largest finite number of each numeric
 * column (`number`, `integer`, `currency`, `percent`). A renderer that must size a column for its
 * widest value before it writes the first row (XLSX writes column widths ahead of the rows) knows
 * it from these two: a number's displayed text only grows with its magnitude, so the widest
 * positive value is the largest and the widest negative one the smallest. Memory is one pair per
 * column, never per row.
 *
 * @module
 */

import type { Column, ColumnType, Row } from "./model.ts";

/** The smallest and largest finite number a column holds. */
export interface NumberExtent {
  /** The smallest value. */
  readonly min: number;
  /** The largest value. */
  readonly max: number;
}

/** Column key → extent; a numeric column without a single finite number has no entry. */
export type Extents = Readonly<Record<string, NumberExtent>>;

const NUMERIC: ReadonlySet<ColumnType> = new Set(["number", "integer", "currency", "percent"]);

/**
 * Accumulates the extents of a section's numeric columns while rows pass.
 *
 * @example
 * ```ts
 * import { ExtentAccumulator } from "./extents.ts";
 * const extents = new ExtentAccumulator([
 *   { key: "name", label: "Name", type: "text" },
 *   { key: "cost", label: "Cost", type: "currency" },
 * ]);
 * extents.add({ name: "a", cost: 12.5 });
 * extents.add({ name: "b", cost: -3 });
 * extents.add({ name: "c", cost: null });
 * console.log(extents.result()); // { cost: { min: -3, max: 12.5 } }
 * ```
 */
export class ExtentAccumulator {
  #keys: string[];
  #min: number[];
  #max: number[];

  /** @param columns The section's columns; only numeric ones are tracked. */
  constructor(columns: readonly Column[]) {
    this.#keys = columns.filter((c) => NUMERIC.has(c.type)).map((c) => c.key);
    this.#min = this.#keys.map(() => Infinity);
    this.#max = this.#keys.map(() => -Infinity);
  }

  /** Takes one row's numbers into account (values that are not finite numbers are skipped). */
  add(row: Row): void {
    for (let i = 0; i < this.#keys.length; i++) {
      const value = row[this.#keys[i]];
      if (typeof value !== "number" || !Number.isFinite(value)) continue;
      if (value < this.#min[i]) this.#min[i] = value;
      if (value > this.#max[i]) this.#max[i] = value;
    }
  }

  /** The extents so far. */
  result(): Extents {
    const out: Record<string, NumberExtent> = {};
    this.#keys.forEach((key, i) => {
      if (this.#min[i] <= this.#max[i]) out[key] = { min: this.#min[i], max: this.#max[i] };
    });
    return out;
  }
}
