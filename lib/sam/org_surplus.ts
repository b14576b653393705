/**
 * Surplus in other organisations: for a report scoped to an organisation (and its descendants),
 * the position of every organisation outside that scope, each alone (so no unit counts twice),
 * by the ELP's own organisation rules (`lib/query/elp/org_scope.ts`). What an organisation can
 * give is its surplus, at most what is allocated to it by organisation assignment (computer,
 * user, site and datacenter allocations stay where they are assigned); the move names the
 * organisation's own licenses of the product, else its allocation.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { QueryContext } from "../query/context.ts";
import type { ElpClient } from "../query/elp/inputs.ts";
import { readElpInputs } from "../query/elp/inputs.ts";
import { scopeElpInputs } from "../query/elp/org_scope.ts";
import { computeElp } from "../query/elp/position.ts";
import { entitlementAllocations } from "../query/elp/entitlement_allocations.ts";
import { computersById } from "../query/lookups.ts";
import type { SurplusPool } from "./reallocate.ts";

/** What {@link organizationPools} reads with: the ELP's client slice and the run's query context. */
export interface OrganizationPoolsContext {
  /** The SAM client. */
  readonly client: ElpClient;
  /** The run's query context. */
  readonly query: QueryContext;
}

const key = (app: string | null, metric: string | null) => `${app}\u0000${metric}`;

/** Units each organisation may move, per application × metric × organisation. */
function movable(
  rows: readonly Resource<"Entitlement">[] | null,
  licenses: readonly Resource<"License">[],
): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string, q: number | null) => out.set(k, (out.get(k) ?? 0) + Math.max(0, q ?? 0));
  if (rows === null) {
    for (const l of licenses) {
      add(`${key(l.applicationId, l.metricId)}\u0000${l.organizationId}`, l.quantity);
    }
    return out;
  }
  for (const a of rows) {
    if ((a.assignmentType ?? "").toLowerCase() !== "organization") continue;
    add(`${key(a.applicationId, a.metricId)}\u0000${a.organizationId}`, a.quantity);
  }
  return out;
}

/**
 * The surplus pools of the organisations outside `scope` for the given application × metric
 * keys (`applicationId\u0000metricId`), largest first.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { organizationNames } from "../query/names.ts";
 * import { organizationPools } from "./org_surplus.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const organizations = [...(await organizationNames(ctx)).keys()].sort();
 *   const pools = await organizationPools(ctx, {
 *     scope: new Set(organizations.slice(0, 1)),
 *     organizations,
 *     keys: new Set(["APP0011\u0000MET02"]),
 *   });
 *   console.log(pools.length);
 * });
 * ```
 */
export async function organizationPools(
  ctx: OrganizationPoolsContext,
  options: {
    readonly scope: ReadonlySet<string>;
    readonly organizations: readonly string[];
    readonly keys: ReadonlySet<string>;
  },
): Promise<SurplusPool[]> {
  const [data, rows, computers] = await Promise.all([
    readElpInputs(ctx),
    entitlementAllocations(ctx),
    computersById(ctx),
  ]);
  const orgOf = (id: string | null | undefined) => computers.get(id ?? "")?.organizationId;
  const transfers = data.transfers.map((t) => ({
    ...t,
    organizationId: t.organizationId ?? ("computerId" in t ? orgOf(t.computerId) : null),
  }));
  const canMove = movable(rows, data.licenses);
  const pools: SurplusPool[] = [];
  for (const org of options.organizations) {
    if (options.scope.has(org)) continue;
    const inputs = scopeElpInputs(
      { licenses: data.licenses, allocations: rows, transfers, requirements: data.requirements },
      new Set([org]),
      orgOf,
    );
    for (const line of computeElp(inputs)) {
      const k = key(line.applicationId, line.metricId);
      if (!options.keys.has(k) || line.surplus <= 0) continue;
      const surplus = Math.min(line.surplus, canMove.get(`${k}\u0000${org}`) ?? 0);
      if (surplus <= 0) continue;
      const own = data.licenses
        .filter((l) =>
          l.organizationId === org && key(l.applicationId, l.metricId) === k && l.id &&
          (l.quantity ?? 0) > 0
        )
        .sort((a, b) => (a.id! < b.id! ? -1 : 1))
        .map((l) => ({ id: l.id, quantity: l.quantity! }));
      const licenses = own.length > 0 ? own : [{ id: null, quantity: surplus }];
      pools.push({ ...line, organizationId: org, surplus, licenses });
    }
  }
  return pools.sort((a, b) =>
    b.surplus - a.surplus || (a.organizationId! < b.organizationId! ? -1 : 1)
  );
}
