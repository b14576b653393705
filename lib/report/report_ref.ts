/**
 * What names a report on the command line or in a pack: a built-in id (`stale-computers`) or the
 * path of a report module (`./reports/servers_by_os.ts`).
 *
 * @module
 */

import { extname } from "node:path";

/**
 * The file name endings a report module may have.
 *
 * @example
 * ```ts
 * import { MODULE_EXTENSIONS } from "./report_ref.ts";
 * console.log(MODULE_EXTENSIONS.includes(".ts")); // true
 * ```
 */
export const MODULE_EXTENSIONS: readonly string[] = [".ts", ".mts", ".js", ".mjs"];

/**
 * Whether a report reference is a module path rather than a built-in id: it holds a `/` (or
 * `\`), or ends like a module file (`.ts`, `.js`…). Ids are kebab-case and never do.
 *
 * @example
 * ```ts
 * import { isReportPath } from "./report_ref.ts";
 * console.log(isReportPath("./reports/servers_by_os.ts"), isReportPath("stale-computers"));
 * // true false
 * ```
 */
export function isReportPath(ref: string): boolean {
  return /[/\\]/.test(ref) || MODULE_EXTENSIONS.includes(extname(ref).toLowerCase());
}
