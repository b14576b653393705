/**
 * The built-in reports by id, without loading them: where each one's module is (`reports/`,
 * named after its id) and which ids there are, so that a command running one report loads that
 * report's module alone. `reports/mod.ts` loads every definition; a test holds this list to it.
 *
 * @module
 */

import type { ReportDefinition } from "./model.ts";

/**
 * The folder of samkit's own report modules.
 *
 * @example
 * ```ts
 * import { BUILT_IN_FOLDER } from "./built_in.ts";
 * console.log(BUILT_IN_FOLDER.pathname.endsWith("/reports/")); // true
 * ```
 */
export const BUILT_IN_FOLDER: URL = new URL("../../reports/", import.meta.url);

/**
 * The id of every built-in report, in the order `samkit list` shows them.
 *
 * @example
 * ```ts
 * import { BUILT_IN_IDS } from "./built_in.ts";
 * console.log(BUILT_IN_IDS.includes("stale-computers")); // true
 * ```
 */
export const BUILT_IN_IDS: readonly string[] = [
  "license-cost-summary",
  "entitlement-state-by-computer",
  "hardware-socket-map",
  "license-position",
  "explain-position",
  "license-optimization",
  "unused-software",
  "end-of-life-software",
  "connector-health",
  "stale-computers",
  "applications-per-organization",
  "renewals",
  "portfolio",
  "trends",
  "run-diff",
];

/**
 * Every built-in definition, loaded when a command needs the whole catalogue (a pack's check,
 * the worker): importing `reports/mod.ts` loads every report's modules, which a command that
 * fails early or prints its help never needs.
 *
 * @example
 * ```ts
 * import { builtInReports } from "./built_in.ts";
 * console.log((await builtInReports()).length > 0); // true
 * ```
 */
export async function builtInReports(): Promise<readonly ReportDefinition[]> {
  return (await import("../../reports/mod.ts")).REPORTS;
}

/**
 * The module of the built-in report `id` (`stale-computers` is `reports/stale_computers.ts`),
 * or undefined when samkit has no report of that id.
 *
 * @example
 * ```ts
 * import { builtInModuleUrl } from "./built_in.ts";
 * console.log(builtInModuleUrl("stale-computers")?.pathname.endsWith("/reports/stale_computers.ts")); // true
 * console.log(builtInModuleUrl("nope")); // undefined
 * ```
 */
export function builtInModuleUrl(id: string): URL | undefined {
  if (!BUILT_IN_IDS.includes(id)) return undefined;
  return new URL(`${id.replaceAll("-", "_")}.ts`, BUILT_IN_FOLDER);
}
