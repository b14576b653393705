/**
 * The SAM domain rules the reports use, for an analysis of your own: licensing rules (per core,
 * core factors, processor licensing), entitlement states and coverage, organisation scope, the
 * effective license position's rows, license-list costs, idle and reclaim rules, connector
 * statuses, end of life, stale computers, harvest and reallocation, renewals, reporting currency
 * and run history. Loads no renderer, browser, database or mail package. Re-exports only.
 *
 * @example Licensing rules on plain numbers
 * ```ts
 * import {
 *   coreFactorOf,
 *   coreFactorRequirement,
 *   DEFAULT_CORE_FACTORS,
 *   perCoreRequirement,
 * } from "./sam.ts";
 *
 * // A 2-socket, 12-core x86 host under per-core minimums, and 40 AMD cores.
 * const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };
 * console.log(perCoreRequirement(2, 12, rule)); // 16
 * console.log(coreFactorRequirement(40, coreFactorOf("AMD", DEFAULT_CORE_FACTORS))); // 20
 * ```
 *
 * @module
 */

export * from "./lib/sam/mod.ts";
export type {
  ElpBasis,
  ElpDeviceRequirement,
  ElpOptions,
  ElpPosition,
  ElpResult,
} from "./lib/query/elp/elp.ts";
export type { ElpClient, ElpData } from "./lib/query/elp/inputs.ts";
export {
  type ElpInputs,
  type ElpLicense,
  type ElpLine,
  type ElpRequirementRow,
  type ElpTransfer,
  TRANSFER_KINDS,
  type TransferKind,
} from "./lib/query/elp/position.ts";
export type { PriceFileEntry } from "./lib/query/elp/price_file.ts";
export type { PaidLine, PriceSource, PriceSources, UnitPrice } from "./lib/query/elp/pricing.ts";
export type { CrossCheckDifference } from "./lib/query/elp/compare_figures.ts";
export type { StateCounts } from "./lib/query/elp/reconcile.ts";
