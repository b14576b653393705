/**
 * The reports samkit ships, in the order `samkit list` shows them: every definition, the ones
 * that read the SAM API, and the ids of the flagship reports. A pack (`./pack`) is checked
 * against such a list; `runReport` (`./render`) runs any one of them. Re-exports only.
 *
 * @example The ids of the built-in reports
 * ```ts
 * import { FLAGSHIP_REPORTS, REPORTS } from "./reports.ts";
 *
 * console.log(REPORTS.map((r) => r.id));
 * console.log(FLAGSHIP_REPORTS.every((id) => REPORTS.some((r) => r.id === id))); // true
 * ```
 *
 * @module
 */

export { API_REPORTS, FLAGSHIP_REPORTS, REPORTS } from "./reports/mod.ts";
