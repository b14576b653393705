/**
 * The names samkit's report templates share with a theme's: the partials a template may include
 * and the helpers it may call.
 *
 * @module
 */

/**
 * The partials of the report templates (`{{> cover}}`…), besides `css` (the stylesheet).
 *
 * @example
 * ```ts
 * import { PARTIALS } from "./template_names.ts";
 * console.log(PARTIALS.includes("cover")); // true
 * ```
 */
export const PARTIALS = ["cover", "summary", "table", "totals", "chart"] as const;

/**
 * samkit's formatting helpers (see `templates.ts`).
 *
 * @example
 * ```ts
 * import { HELPERS } from "./template_names.ts";
 * console.log(HELPERS.includes("currency")); // true
 * ```
 */
export const HELPERS: readonly string[] = [
  "number",
  "integer",
  "currency",
  "percent",
  "date",
  "datetime",
  "boolean",
  "fact",
];

/**
 * Handlebars' own helpers a template may call (not `log`, which would write data to the console).
 *
 * @example
 * ```ts
 * import { BUILTIN_HELPERS } from "./template_names.ts";
 * console.log(BUILTIN_HELPERS.includes("each")); // true
 * ```
 */
export const BUILTIN_HELPERS: readonly string[] = ["if", "unless", "each", "with", "lookup"];
