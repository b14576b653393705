/**
 * The index of the reports samkit ships: every definition, in the order `samkit list` shows
 * them. Each report is a module of this folder named after its id (`stale-computers` is
 * `stale_computers.ts`) that exports one definition; `lib/report/load_report.ts` loads a
 * built-in id and a user's report module path the same way, from the module.
 *
 * @module
 */

import type { ReportDefinition } from "../lib/report/model.ts";
import { BUILT_IN_FOLDER } from "../lib/report/built_in.ts";
import { licenseCostSummary } from "./license_cost_summary.ts";
import { entitlementStateByComputer } from "./entitlement_state_by_computer.ts";
import { hardwareSocketMap } from "./hardware_socket_map.ts";
import { licensePosition } from "./license_position.ts";
import { explainPosition } from "./explain_position.ts";
import { licenseOptimization } from "./license_optimization.ts";
import { unusedSoftware } from "./unused_software.ts";
import { endOfLifeSoftware } from "./end_of_life_software.ts";
import { connectorHealth } from "./connector_health.ts";
import { staleComputers } from "./stale_computers.ts";
import { applicationsPerOrganization } from "./applications_per_organization.ts";
import { trends } from "./trends.ts";
import { runDiff } from "./run_diff.ts";
import { portfolio } from "./portfolio.ts";
import { renewals } from "./renewals.ts";

export {
  applicationsPerOrganization,
  connectorHealth,
  endOfLifeSoftware,
  entitlementStateByComputer,
  explainPosition,
  hardwareSocketMap,
  licenseCostSummary,
  licenseOptimization,
  licensePosition,
  portfolio,
  renewals,
  runDiff,
  staleComputers,
  trends,
  unusedSoftware,
};

/**
 * Every report, flagship reports first.
 *
 * @example
 * ```ts
 * import { REPORTS } from "./mod.ts";
 * console.log(REPORTS.map((r) => r.id));
 * ```
 */
export const REPORTS: readonly ReportDefinition[] = [
  licenseCostSummary,
  entitlementStateByComputer,
  hardwareSocketMap,
  licensePosition,
  explainPosition,
  licenseOptimization,
  unusedSoftware,
  endOfLifeSoftware,
  connectorHealth,
  staleComputers,
  applicationsPerOrganization,
  renewals,
  portfolio,
  trends,
  runDiff,
];

/**
 * The reports that read the SAM API (not samkit's own run history): every one of them runs
 * against any SAM API, the embedded reference server included.
 *
 * @example
 * ```ts
 * import { API_REPORTS } from "./mod.ts";
 * console.log(API_REPORTS.some((r) => r.id === "trends")); // false
 * ```
 */
export const API_REPORTS: readonly ReportDefinition[] = REPORTS.filter((r) =>
  r.reads !== "history"
);

/**
 * The folder of the built-in report modules (this one).
 *
 * @example
 * ```ts
 * import { REPORTS_FOLDER } from "./mod.ts";
 * console.log(new URL("stale_computers.ts", REPORTS_FOLDER).pathname.endsWith("/reports/stale_computers.ts")); // true
 * ```
 */
export const REPORTS_FOLDER: URL = BUILT_IN_FOLDER;

/** The flagship reports that `deno task demo` renders. */
export const FLAGSHIP_REPORTS: readonly string[] = [
  "license-cost-summary",
  "entitlement-state-by-computer",
  "hardware-socket-map",
  "applications-per-organization",
];
