/**
 * The start of one estate generation after the plan: buy the licenses (which emits their rows)
 * and gather everything the per-computer emitters share into one {@link Ctx}.
 *
 * @module
 */

import { APP_INFOS, type Ctx, type Row } from "./generator_context.ts";
import { planLicenses } from "./generator_licenses.ts";
import type { Plan } from "./generator_plan.ts";

/** Options of {@link createContext}. */
export interface ContextOptions {
  /** Seed of the estate. */
  readonly seed: number;
  /** The estate's "now" (ms since the epoch). */
  readonly now: number;
  /** Number of computers. */
  readonly n: number;
  /** Receives every row (license rows already during this call). */
  readonly emit: (table: string, row: Row) => void;
  /** The estate's plan, from `buildPlan(seed, n)`. */
  readonly plan: Plan;
}

/**
 * Buy the estate's licenses and return the shared state of the generation: contracts, the
 * license book, empty aggregates and id counters.
 *
 * @example
 * ```ts
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const tables = new Set<string>();
 * const ctx = createContext({
 *   seed: 1,
 *   now: Date.parse("2026-11-01T00:00:00Z"),
 *   n: 40,
 *   plan: buildPlan(1, 40),
 *   emit: (table) => tables.add(table),
 * });
 * console.log(ctx.contracts, tables.has("licenses")); // 4 true
 * ```
 */
export function createContext(options: ContextOptions): Ctx {
  const { seed, now, n, emit, plan } = options;
  const contracts = Math.max(4, Math.ceil(n / 150));
  const book = planLicenses({ seed, now, n, emit, plan, contracts });
  const apps = APP_INFOS.length;
  return {
    seed,
    now,
    n,
    emit,
    plan,
    book,
    contracts,
    agg: {
      appComputers: new Int32Array(apps),
      appInstalls: new Int32Array(apps),
      appEndUsers: new Int32Array(apps),
      appAdmins: Array.from({ length: apps }, () => new Set<number>()),
      adminUsage: new Map(),
    },
    ids: {
      computerTransfer: 0,
      userTransfer: 0,
      computerTracking: 0,
      userTracking: 0,
      computerAssignment: 0,
      userAssignment: 0,
      extendedCoverage: 0,
    },
  };
}
