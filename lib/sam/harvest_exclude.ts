/**
 * The `exclude` parameter of license-optimization: applications or computers never to harvest.
 *
 * @module
 */

import { ParamError } from "../report/errors.ts";

/**
 * The `exclude` parameter as a list: a JSON list of strings, or names separated by commas.
 *
 * @example
 * ```ts
 * import { readExclude } from "./harvest_exclude.ts";
 * console.log(readExclude("C000012, Visio"), readExclude('["a,b"]')); // ["C000012", "Visio"] ["a,b"]
 * ```
 */
export function readExclude(value: unknown): string[] {
  if (value === undefined || value === null || value === "") return [];
  const text = String(value).trim();
  if (!text.startsWith("[")) return text.split(",").map((s) => s.trim()).filter(Boolean);
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    list = null;
  }
  if (!Array.isArray(list) || !list.every((s) => typeof s === "string")) {
    throw new ParamError(
      "exclude",
      `expected a JSON list of names or ids, e.g. ["C000012"]; got ${text.slice(0, 60)}`,
    );
  }
  return list.map((s) => s.trim()).filter(Boolean);
}
