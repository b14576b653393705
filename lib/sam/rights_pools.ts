/**
 * Surplus of another version or edition, as reallocation pools: each position of the scope with
 * a surplus, with its licenses that carry downgrade or cross-edition rights (`rights.ts`). A
 * pool covers a need of the same metric in the same product family when some of its licenses
 * carry every right the move needs; only those licenses give units.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { ElpResult } from "../query/elp/elp.ts";
import type { ReallocationOptions, SurplusPool } from "./reallocate.ts";
import { grants, neededRights, type ProductVersion, rightsLabel } from "./rights.ts";

/**
 * The pools of the scope's surplus positions whose licenses carry downgrade or cross-edition
 * rights, largest surplus first. In an organisation's scope, only licenses of its organisations.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { toArray } from "../query/collect.ts";
 * import { reportElp } from "./elp_rows.ts";
 * import { rightsPools } from "./rights_pools.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp } = await reportElp(ctx);
 *   const pools = rightsPools(elp, await toArray(ctx.client.licenses.list()));
 *   console.log(pools.length);
 * });
 * ```
 */
export function rightsPools(
  elp: Pick<ElpResult, "positions" | "organizations">,
  licenses: readonly Resource<"License">[],
): SurplusPool[] {
  const inScope = (l: Resource<"License">) =>
    !elp.organizations || elp.organizations.has(l.organizationId ?? "");
  const pools: SurplusPool[] = [];
  for (const p of elp.positions) {
    if (p.surplus <= 0) continue;
    const own = licenses
      .filter((l) =>
        l.id && l.applicationId === p.applicationId && l.metricId === p.metricId &&
        (l.quantity ?? 0) > 0 && (l.isDowngrade === true || l.isCrossEdition === true) &&
        inScope(l)
      )
      .sort((a, b) => (a.id! < b.id! ? -1 : 1))
      .map((l) => ({ id: l.id, quantity: l.quantity! }));
    if (own.length === 0) continue;
    pools.push({
      applicationId: p.applicationId,
      metricId: p.metricId,
      organizationId: null,
      surplus: p.surplus,
      licenses: own,
    });
  }
  return pools.sort((a, b) =>
    b.surplus - a.surplus || (a.applicationId < b.applicationId ? -1 : 1)
  );
}

/**
 * What allows a pool to cover a need (the rights, in words) and which of its licenses may give.
 *
 * @example
 * ```ts
 * import { rightsRules } from "./rights_pools.ts";
 * const registry = new Map([
 *   ["DB19", { id: "DB19", familyId: "DB", versionIndex: 19, editionIndex: 1 }],
 *   ["DB12", { id: "DB12", familyId: "DB", versionIndex: 12, editionIndex: 1 }],
 * ]);
 * const rules = rightsRules(registry, [{ id: "L1", isDowngrade: true }]);
 * const pool = { applicationId: "DB19", metricId: "CORE", organizationId: null, surplus: 4, licenses: [] };
 * console.log(rules.allows(pool, { applicationId: "DB12", metricId: "CORE", shortfall: 2 })); // "Downgrade"
 * ```
 */
export function rightsRules(
  registry: ReadonlyMap<string | null, ProductVersion>,
  licenses: readonly {
    readonly id: string | null;
    readonly isDowngrade?: boolean | null;
    readonly isCrossEdition?: boolean | null;
  }[],
): Required<Pick<ReallocationOptions, "allows" | "eligible">> {
  const byId = new Map(licenses.map((l) => [l.id, l]));
  const needed = (from: string, to: string) => {
    const a = registry.get(from), b = registry.get(to);
    return a && b ? neededRights(a, b) : null;
  };
  return {
    allows: (pool, need) => {
      if (pool.metricId !== need.metricId) return null;
      const rights = needed(pool.applicationId, need.applicationId);
      return rights ? rightsLabel(rights) : null;
    },
    eligible: (license, pool, need) => {
      const rights = needed(pool.applicationId, need.applicationId);
      const recorded = byId.get(license.id);
      return rights !== null && recorded !== undefined && grants(recorded, rights);
    },
  };
}
