/**
 * The computers a per-computer report covers: the computers read once per run (or those of the
 * run's filter) that have an id, only those of one organisation when the report's
 * `organization` parameter names one, by host name then id.
 *
 * @module
 */

import type { EstateApi } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { type Computer, computersById } from "../query/lookups.ts";
import { asc, sortBy } from "../query/sort.ts";
import type { ParamSpec } from "../report/model.ts";
import { stringParam } from "../report/param_builders.ts";
import type { OrganizationsApi } from "../api/client_organizations.ts";
import { checkOrganization } from "./organization_check.ts";

/**
 * The `organization` parameter of a per-computer report.
 *
 * @example
 * ```ts
 * import { ORGANIZATION_PARAM } from "./computers_in_scope.ts";
 * console.log(ORGANIZATION_PARAM.type); // "string"
 * ```
 */
export const ORGANIZATION_PARAM: ParamSpec = stringParam(
  "Organisation id: only computers of this organisation",
);

/**
 * The computers with an id, of `organization` when given, by host name then id.
 *
 * @example
 * ```ts
 * import { inScope } from "./computers_in_scope.ts";
 * const pcs = [
 *   { id: "C2", hostName: "b", organizationId: "ORG01" },
 *   { id: "C1", hostName: "a", organizationId: "ORG02" },
 *   { id: null, hostName: "c", organizationId: "ORG01" },
 * ];
 * console.log(inScope(pcs).map((c) => c.id), inScope(pcs, "ORG01").map((c) => c.id));
 * // ["C1", "C2"] ["C2"]
 * ```
 */
export function inScope<C extends Pick<Computer, "id" | "hostName" | "organizationId">>(
  computers: Iterable<C>,
  organization?: string,
): C[] {
  const wanted = [...computers].filter((c) =>
    c.id && (organization === undefined || c.organizationId === organization)
  );
  return sortBy(wanted, asc((c) => c.hostName ?? ""), asc((c) => c.id));
}

/**
 * The computers of a run (`estate.computers`, or with the run's filter) in scope of
 * `organization` ({@link inScope}); an organisation the service's tree lacks is a ParamError
 * ({@link checkOrganization}).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { computersInScope } from "./computers_in_scope.ts";
 * await withReferenceContext({ computers: 20 }, async (ctx) => {
 *   const computers = await computersInScope(ctx, undefined);
 *   console.log(computers.length, computers.every((c) => c.id !== null)); // 20 true
 * });
 * ```
 */
export async function computersInScope(
  ctx: {
    readonly client: {
      readonly estate: Pick<EstateApi, "computers">;
      readonly organizations: Pick<OrganizationsApi, "tree">;
    };
    readonly query: QueryContext;
    readonly filter?: string;
  },
  organization: string | undefined,
): Promise<Computer[]> {
  await checkOrganization(ctx, organization);
  return inScope((await computersById(ctx, ctx.filter)).values(), organization);
}
