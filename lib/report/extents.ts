/**
 * Extents computed while rows pass, so a renderer can size a column for its widest value before it
 * writes the first row (XLSX writes column widths ahead of the rows; a printed table sets its
 * columns' widths in its head):
 *
 * - of each numeric column (`number`, `integer`, `currency`, `percent`), the smallest and the
 *   largest finite number: a number's displayed text only grows with its magnitude, so the widest
 *   positive value is the largest and the widest negative one the smallest;
 * - of each text column, the length of its longest line and of its longest word (a run without
 *   white space: an id, a host name, a word a printed column must not break).
 *
 * Memory is one pair per column, never per row.
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

/** The longest line and the longest word (characters) of a text column's values. */
export interface TextExtent {
  /** Characters of the longest line (a value's lines are split at line breaks). */
  readonly longestLine: number;
  /** Characters of the longest run without white space. */
  readonly longestWord: number;
}

/**
 * Column key → extent: a {@link NumberExtent} for a numeric column with at least one finite
 * number, a {@link TextExtent} for a text column with at least one non-empty value.
 */
export type Extents = Readonly<Record<string, NumberExtent | TextExtent>>;

const NUMERIC: ReadonlySet<ColumnType> = new Set(["number", "integer", "currency", "percent"]);

/**
 * The extent of a numeric column, or undefined (no number, or a text column's extent).
 *
 * @example
 * ```ts
 * import { numberExtent } from "./extents.ts";
 * console.log(numberExtent({ cost: { min: 1, max: 2 } }, "cost")); // { min: 1, max: 2 }
 * console.log(numberExtent({ name: { longestLine: 3, longestWord: 3 } }, "name")); // undefined
 * ```
 */
export function numberExtent(extents: Extents | undefined, key: string): NumberExtent | undefined {
  const extent = extents?.[key];
  return extent && "min" in extent ? extent : undefined;
}

/**
 * The extent of a text column, or undefined (no value, or a numeric column's extent).
 *
 * @example
 * ```ts
 * import { textExtent } from "./extents.ts";
 * console.log(textExtent({ name: { longestLine: 9, longestWord: 5 } }, "name")?.longestWord); // 5
 * ```
 */
export function textExtent(extents: Extents | undefined, key: string): TextExtent | undefined {
  const extent = extents?.[key];
  return extent && "longestLine" in extent ? extent : undefined;
}

/** Whether a UTF-16 code unit is white space that breaks a line (space, tab, line breaks). */
function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 ||
    code === 0x2028 || code === 0x2029 || code === 0x3000;
}

/**
 * Accumulates the extents of a section's numeric and text columns while rows pass.
 *
 * @example
 * ```ts
 * import { ExtentAccumulator } from "./extents.ts";
 * const extents = new ExtentAccumulator([
 *   { key: "name", label: "Name", type: "text" },
 *   { key: "cost", label: "Cost", type: "currency" },
 * ]);
 * extents.add({ name: "Acrobat Pro", cost: 12.5 });
 * extents.add({ name: "b", cost: -3 });
 * extents.add({ name: "c", cost: null });
 * console.log(extents.result());
 * // { cost: { min: -3, max: 12.5 }, name: { longestLine: 11, longestWord: 7 } }
 * ```
 */
export class ExtentAccumulator {
  #keys: string[];
  #min: number[];
  #max: number[];
  #textKeys: string[];
  #line: number[];
  #word: number[];

  /** @param columns The section's columns; numeric and text ones are tracked. */
  constructor(columns: readonly Column[]) {
    this.#keys = columns.filter((c) => NUMERIC.has(c.type)).map((c) => c.key);
    this.#min = this.#keys.map(() => Infinity);
    this.#max = this.#keys.map(() => -Infinity);
    this.#textKeys = columns.filter((c) => c.type === "text").map((c) => c.key);
    this.#line = this.#textKeys.map(() => 0);
    this.#word = this.#textKeys.map(() => 0);
  }

  /** Takes one row's numbers and texts into account (other values are skipped). */
  add(row: Row): void {
    for (let i = 0; i < this.#keys.length; i++) {
      const value = row[this.#keys[i]];
      if (typeof value !== "number" || !Number.isFinite(value)) continue;
      if (value < this.#min[i]) this.#min[i] = value;
      if (value > this.#max[i]) this.#max[i] = value;
    }
    for (let i = 0; i < this.#textKeys.length; i++) {
      const value = row[this.#textKeys[i]];
      if (value === null || value === undefined) continue;
      const text = typeof value === "string" ? value : String(value);
      // A text no longer than both extents cannot lengthen either: most rows stop here.
      if (text.length <= this.#word[i] && text.length <= this.#line[i]) continue;
      this.#measure(i, text);
    }
  }

  #measure(i: number, text: string): void {
    let line = 0;
    let word = 0;
    let longestLine = this.#line[i];
    let longestWord = this.#word[i];
    for (let k = 0; k < text.length; k++) {
      const code = text.charCodeAt(k);
      if (code === 10 || code === 13) {
        line = 0;
        word = 0;
        continue;
      }
      line++;
      word = isSpace(code) ? 0 : word + 1;
      if (line > longestLine) longestLine = line;
      if (word > longestWord) longestWord = word;
    }
    this.#line[i] = longestLine;
    this.#word[i] = longestWord;
  }

  /** The extents so far. */
  result(): Extents {
    const out: Record<string, NumberExtent | TextExtent> = {};
    this.#keys.forEach((key, i) => {
      if (this.#min[i] <= this.#max[i]) out[key] = { min: this.#min[i], max: this.#max[i] };
    });
    this.#textKeys.forEach((key, i) => {
      if (this.#line[i] > 0) {
        out[key] = { longestLine: this.#line[i], longestWord: this.#word[i] };
      }
    });
    return out;
  }
}
