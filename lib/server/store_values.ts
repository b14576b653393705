/**
 * The storage form of a value in the reference server's SQLite store: strings as TEXT, numbers as
 * REAL, booleans as INTEGER 0/1, dates as TEXT in `Date.prototype.toISOString()` form, string
 * arrays as JSON TEXT.
 *
 * @module
 */

import type { SQLInputValue } from "node:sqlite";
import type { FieldType } from "../api/catalogue.ts";

/**
 * Whether date text is already in storage form (`2024-01-02T03:04:05.000Z`: 24 characters, `.`
 * and `Z` in place), so it is stored as it is.
 *
 * @example
 * ```ts
 * import { inStorageForm } from "./store_values.ts";
 * console.log(inStorageForm("2024-01-02T03:04:05.000Z"), inStorageForm("2024-01-02")); // true false
 * ```
 */
export function inStorageForm(text: string): boolean {
  return text.length === 24 && text.charCodeAt(19) === 46 && text.charCodeAt(23) === 90;
}

/**
 * Normalise a date value to `toISOString()` form; unparseable text is kept as given.
 *
 * @example
 * ```ts
 * import { storeDate } from "./store_values.ts";
 * console.log(storeDate("2024-01-02")); // "2024-01-02T00:00:00.000Z"
 * ```
 */
export function storeDate(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  if (inStorageForm(s)) return s;
  const t = Date.parse(s);
  return Number.isNaN(t) ? s : new Date(t).toISOString();
}

/**
 * Convert a value to its storage form for a column type (`null` and `undefined` are NULL).
 *
 * @example
 * ```ts
 * import { storeValue } from "./store_values.ts";
 * console.log(storeValue("boolean", true), storeValue("strings", ["a"])); // 1 '["a"]'
 * ```
 */
export function storeValue(type: FieldType, v: unknown): SQLInputValue {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "boolean":
      return typeof v === "boolean"
        ? (v ? 1 : 0)
        : v === "true"
        ? 1
        : v === "false"
        ? 0
        : Number(v);
    case "number":
      return typeof v === "number" ? v : Number(v);
    case "date":
      return storeDate(v);
    case "strings":
      return typeof v === "string" ? v : JSON.stringify(v);
    default:
      return typeof v === "string" ? v : String(v);
  }
}
