/**
 * What the entitlement-state report reads before it counts, in parallel and each once per run:
 * the entitlement states (with the report's `state` and `uncoveredStates` parameters applied),
 * the registry's applications, the computers in scope of its `organization` parameter (and the
 * run's filter) and the organisations' names.
 *
 * @module
 */

import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { type Computer, type RegistryApplication, registryById } from "../query/lookups.ts";
import { type OrganizationNames, organizationNames } from "../query/names.ts";
import { computersInScope } from "./computers_in_scope.ts";
import { type EntitlementStates, statesOfRun } from "./entitlement_states.ts";

/** The inputs of a run. */
export interface EntitlementInputs {
  /** The states, with the parameters applied. */
  readonly states: EntitlementStates;
  /** The registry's applications by id. */
  readonly registry: Map<string, RegistryApplication>;
  /** The computers in scope, by host name then id. */
  readonly computers: Computer[];
  /** Organisation names by id. */
  readonly orgNames: OrganizationNames;
}

/**
 * Reads the inputs of a run (`licenses.entitlementStates`, `registry.applications`,
 * `estate.computers` or with the filter, `organizations.names`); a `state` parameter that names
 * no single state is a `ParamError` once every read is done.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { entitlementInputs } from "./entitlement_inputs.ts";
 * await withReferenceContext({ computers: 20 }, async (ctx) => {
 *   const { states, computers } = await entitlementInputs(ctx);
 *   console.log(states.columns.length > 0, computers.length);
 * });
 * ```
 */
export async function entitlementInputs(ctx: {
  readonly client: ClientSlice<{
    estate: "computers";
    licenses: "entitlementStates";
    registry: "applications";
    organizations: "tree";
  }>;
  readonly query: QueryContext;
  readonly params: Readonly<Record<string, unknown>>;
  readonly filter?: string;
}): Promise<EntitlementInputs> {
  const [apiStates, registry, computers, orgNames] = await Promise.all([
    ctx.query.all("licenses.entitlementStates", () => ctx.client.licenses.entitlementStates()),
    registryById(ctx),
    computersInScope(ctx, ctx.params.organization as string | undefined),
    organizationNames(ctx),
  ]);
  return { states: statesOfRun(apiStates, ctx.params), registry, computers, orgNames };
}
