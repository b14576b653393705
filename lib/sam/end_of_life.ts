/**
 * What counts as an end-of-life installation: an installed copy (`isInstalled` true) on a known
 * computer of a registry application marked `isEndOfLife`; and the filters that ask the service
 * for just those (the registry for end-of-life applications, together with the user's filter;
 * the installations narrowed to those applications while their ids fit in a query string).
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import { and, eq, isIn } from "../api/filter_builder.ts";
import { parseFilter } from "../api/filter_parser.ts";
import { printFilter } from "../api/filter_printer.ts";

/**
 * The most application ids put in an `-in` list on the server; beyond, filtering is local.
 *
 * @example
 * ```ts
 * import { MAX_IN_LIST } from "./end_of_life.ts";
 * console.log(MAX_IN_LIST); // 100
 * ```
 */
export const MAX_IN_LIST = 100;

/**
 * The registry filter for end-of-life applications, and the user's registry filter when given.
 *
 * @example
 * ```ts
 * import { endOfLifeRegistryFilter } from "./end_of_life.ts";
 * console.log(endOfLifeRegistryFilter()); // "isEndOfLife -eq true"
 * ```
 */
export function endOfLifeRegistryFilter(userFilter?: string): string {
  const eol = eq("isEndOfLife", true);
  return printFilter(userFilter ? and(eol, parseFilter(userFilter)) : eol);
}

/**
 * The installations filter: installed copies, of these applications when there are at most
 * {@link MAX_IN_LIST} of them (sorted, so the request is the same whatever the order).
 *
 * @example
 * ```ts
 * import { installedFilter } from "./end_of_life.ts";
 * console.log(installedFilter(["APP2", "APP1"]).includes("-in")); // true
 * ```
 */
export function installedFilter(applicationIds: Iterable<string>): string {
  const ids = [...applicationIds].sort();
  const installed = eq("isInstalled", true);
  return printFilter(
    ids.length <= MAX_IN_LIST ? and(installed, isIn("applicationId", ids)) : installed,
  );
}

/**
 * Whether an installation is an installed copy, on a computer, of one of the end-of-life
 * applications `endOfLife` (by id).
 *
 * @example
 * ```ts
 * import { isEndOfLifeInstall } from "./end_of_life.ts";
 * const apps = new Set(["APP1"]);
 * const install = { isInstalled: true, applicationId: "APP1", computerId: "C1" };
 * console.log(isEndOfLifeInstall(install, apps)); // true
 * ```
 */
export function isEndOfLifeInstall(
  install: Pick<Resource<"ComputerApplication">, "isInstalled" | "applicationId" | "computerId">,
  endOfLife: { has(id: string): boolean },
): boolean {
  return install.isInstalled === true && !!install.computerId && !!install.applicationId &&
    endOfLife.has(install.applicationId);
}
