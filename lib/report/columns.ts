/**
 * Column builders, so a section's columns read as a list of what is shown:
 * `[text("application", "Application", { width: 34 }), integer("installs", "Installs")]`.
 *
 * @module
 */

import type { Column, ColumnType, Row } from "./model.ts";

/** What a column may add to its key, label and type. */
export interface ColumnOptions {
  /** Preferred width in characters. */
  readonly width?: number;
  /** Decimal places (number, currency, percent). */
  readonly decimals?: number;
  /** For money: the row key of the currency code (default `currency`). */
  readonly currencyKey?: string;
  /** Emphasis of a cell (`warn` or `bad`) from its row. */
  readonly emphasis?: (row: Row) => "warn" | "bad" | undefined;
  /** `drop`: left out, with a note, when no row of its section has a value in it. */
  readonly whenUnfilled?: "drop";
  /** A spreadsheet formula over other columns of the row (see `Column.formula`). */
  readonly formula?: string;
}

function builder(type: ColumnType) {
  return (key: string, label: string, options: ColumnOptions = {}): Column => ({
    key,
    label,
    type,
    ...options,
  });
}

/**
 * A text column.
 *
 * @example
 * ```ts
 * import { text } from "./columns.ts";
 * console.log(text("application", "Application", { width: 30 }));
 * // { key: "application", label: "Application", type: "text", width: 30 }
 * ```
 */
export const text: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "text",
);

/**
 * A whole-number column (counts, quantities).
 *
 * @example
 * ```ts
 * import { integer } from "./columns.ts";
 * console.log(integer("installs", "Installs").type); // "integer"
 * ```
 */
export const integer: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "integer",
);

/**
 * A decimal number column (`decimals` places, default 0).
 *
 * @example
 * ```ts
 * import { number } from "./columns.ts";
 * console.log(number("factor", "Core factor", { decimals: 2 }).decimals); // 2
 * ```
 */
export const number: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "number",
);

/**
 * An amount of money; its currency code is in the row under `currencyKey` (default `currency`).
 *
 * @example
 * ```ts
 * import { money } from "./columns.ts";
 * console.log(money("totalCost", "Total cost").type); // "currency"
 * ```
 */
export const money: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "currency",
);

/**
 * A date column (date only).
 *
 * @example
 * ```ts
 * import { date } from "./columns.ts";
 * console.log(date("purchaseDate", "Purchased").type); // "date"
 * ```
 */
export const date: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "date",
);

/**
 * A date-and-time column.
 *
 * @example
 * ```ts
 * import { datetime } from "./columns.ts";
 * console.log(datetime("lastScan", "Last scan").type); // "datetime"
 * ```
 */
export const datetime: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "datetime",
);

/**
 * A yes/no column.
 *
 * @example
 * ```ts
 * import { boolean } from "./columns.ts";
 * console.log(boolean("stale", "Stale").type); // "boolean"
 * ```
 */
export const boolean: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "boolean",
);

/**
 * A share column (0.25 is shown as 25%).
 *
 * @example
 * ```ts
 * import { percent } from "./columns.ts";
 * console.log(percent("share", "Share flagged").type); // "percent"
 * ```
 */
export const percent: (key: string, label: string, options?: ColumnOptions) => Column = builder(
  "percent",
);

/**
 * Emphasis when a numeric cell is above zero (for counts of problems).
 *
 * @example
 * ```ts
 * import { integer, whenPositive } from "./columns.ts";
 * const col = integer("stale", "Stale", { emphasis: whenPositive("stale", "warn") });
 * console.log(col.emphasis?.({ stale: 2 })); // "warn"
 * ```
 */
export function whenPositive(
  key: string,
  level: "warn" | "bad",
): (row: Row) => "warn" | "bad" | undefined {
  return (row) => (typeof row[key] === "number" && (row[key] as number) > 0 ? level : undefined);
}

/**
 * Emphasis when a cell is truthy (for flags).
 *
 * @example
 * ```ts
 * import { boolean, whenTrue } from "./columns.ts";
 * const col = boolean("quarantined", "Quarantined", { emphasis: whenTrue("quarantined", "bad") });
 * console.log(col.emphasis?.({ quarantined: true })); // "bad"
 * ```
 */
export function whenTrue(
  key: string,
  level: "warn" | "bad",
): (row: Row) => "warn" | "bad" | undefined {
  return (row) => (row[key] ? level : undefined);
}

/**
 * Emphasis when a numeric cell is below zero (a shortfall shown as a negative position).
 *
 * @example
 * ```ts
 * import { integer, whenNegative } from "./columns.ts";
 * const col = integer("position", "Position", { emphasis: whenNegative("position", "bad") });
 * console.log(col.emphasis?.({ position: -3 })); // "bad"
 * ```
 */
export function whenNegative(
  key: string,
  level: "warn" | "bad",
): (row: Row) => "warn" | "bad" | undefined {
  return (row) => (typeof row[key] === "number" && (row[key] as number) < 0 ? level : undefined);
}
