/**
 * Reallocation: surplus entitlements that cover what harvest left short, each move naming the
 * license it takes units from. A pool is one position's surplus — the same application × metric
 * in another organisation, or another version or edition whose licenses carry the rights to
 * cover it (`rights.ts`). No unit is used twice: a pool gives at most its surplus, a license at
 * most its quantity, over every move.
 *
 * @module
 */

/** A license a pool may take units from. */
export interface PoolLicense {
  /** The license id; null for an allocation no license of the organisation is named for. */
  readonly id: string | null;
  /** Its quantity (the most it can give over every move). */
  readonly quantity: number;
}

/** A surplus that may cover shortfalls. */
export interface SurplusPool {
  /** The application. */
  readonly applicationId: string;
  /** The metric. */
  readonly metricId: string;
  /** The organisation holding it; null for the report's own scope. */
  readonly organizationId: string | null;
  /** Units it can give. */
  readonly surplus: number;
  /** Its licenses, in the order units are taken. */
  readonly licenses: readonly PoolLicense[];
}

/** A position still short, in the order needs are served. */
export interface ReallocationNeed {
  /** The application. */
  readonly applicationId: string;
  /** The metric. */
  readonly metricId: string;
  /** Units short. */
  readonly shortfall: number;
}

/** One proposed move of license units. */
export interface Reassignment {
  /** The license moved; null for an allocation's units. */
  readonly licenseId: string | null;
  /** Where the units come from. */
  readonly from: SurplusPool;
  /** Where they go. */
  readonly to: ReallocationNeed;
  /** Units moved. */
  readonly units: number;
  /** What allows it (from {@link ReallocationOptions.allows}). */
  readonly basis: string;
}

/** Options of {@link reallocate}. */
export interface ReallocationOptions {
  /** Why `pool` may cover `need` (a label), or null when it may not. */
  readonly allows: (pool: SurplusPool, need: ReallocationNeed) => string | null;
  /** Which of the pool's licenses carry what the move needs (default: all). */
  readonly eligible?: (license: PoolLicense, pool: SurplusPool, need: ReallocationNeed) => boolean;
  /** Units already taken per license id (shared across calls so no unit is used twice). */
  readonly taken?: Map<string, number>;
}

const EPSILON = 1e-9;

/**
 * Covers each need from the pools in their order; returns the moves and leaves each pool's
 * remaining surplus in `left` (by pool).
 *
 * @example
 * ```ts
 * import { reallocate } from "./reallocate.ts";
 * const pool = {
 *   applicationId: "DB", metricId: "CORE", organizationId: "EMEA", surplus: 6,
 *   licenses: [{ id: "L1", quantity: 4 }, { id: "L2", quantity: 10 }],
 * };
 * const { moves } = reallocate([{ applicationId: "DB", metricId: "CORE", shortfall: 5 }], [pool], {
 *   allows: (p, n) => p.applicationId === n.applicationId ? "Organisation move" : null,
 * });
 * console.log(moves.map((m) => [m.licenseId, m.units])); // [["L1", 4], ["L2", 1]]
 * ```
 */
export function reallocate(
  needs: readonly ReallocationNeed[],
  pools: readonly SurplusPool[],
  options: ReallocationOptions,
): { moves: Reassignment[]; left: Map<SurplusPool, number> } {
  const taken = options.taken ?? new Map<string, number>();
  const left = new Map(pools.map((p) => [p, p.surplus]));
  const moves: Reassignment[] = [];
  for (const need of needs) {
    let short = need.shortfall;
    for (const pool of pools) {
      if (short <= EPSILON) break;
      const basis = options.allows(pool, need);
      if (basis === null || left.get(pool)! <= EPSILON) continue;
      for (const license of pool.licenses) {
        if (short <= EPSILON || left.get(pool)! <= EPSILON) break;
        if (options.eligible && !options.eligible(license, pool, need)) continue;
        const key = license.id ?? `${pool.organizationId}|${pool.applicationId}|${pool.metricId}`;
        const room = license.quantity - (taken.get(key) ?? 0);
        const units = Math.min(short, left.get(pool)!, room);
        if (units <= EPSILON) continue;
        taken.set(key, (taken.get(key) ?? 0) + units);
        left.set(pool, left.get(pool)! - units);
        short -= units;
        moves.push({ licenseId: license.id, from: pool, to: need, units, basis });
      }
    }
  }
  return { moves, left };
}
