/**
 * An `organization` parameter names an organisation of the service's tree: an id the tree lacks
 * (a typo) stops the run with the known ids (exit 2), before a report of zeros is printed. Every
 * report that takes the parameter checks it here, with the tree read once per run.
 *
 * @module
 */

import type { OrganizationsApi } from "../api/client_organizations.ts";
import type { QueryContext } from "../query/context.ts";
import { organizationNames } from "../query/names.ts";
import { ParamError } from "../report/errors.ts";

/** What {@link checkOrganization} reads: the organisation tree, once per run. */
export interface OrganizationCheckContext {
  /** A client with the organisation tree. */
  readonly client: { readonly organizations: Pick<OrganizationsApi, "tree"> };
  /** The run's query context (the tree is read once per run). */
  readonly query: QueryContext;
}

/** The most ids the error lists. */
const LISTED = 12;

/**
 * The error for an organisation id the tree lacks, listing the tree's ids.
 *
 * @example
 * ```ts
 * import { unknownOrganization } from "./organization_check.ts";
 * console.log(unknownOrganization("ORG99", ["ORG01", "ORG02"]).message);
 * // 'parameter "organization": "ORG99" is not an organisation of the service's organisation tree (ids: ORG01, ORG02)'
 * ```
 */
export function unknownOrganization(organization: string, ids: readonly string[]): ParamError {
  const more = ids.length > LISTED ? ", …" : "";
  return new ParamError(
    "organization",
    `"${organization}" is not an organisation of the service's organisation tree ` +
      `(ids: ${ids.slice(0, LISTED).join(", ")}${more})`,
  );
}

/**
 * Throws {@link unknownOrganization} when `organization` is given and the service's organisation
 * tree (read once per run) lacks it; a service without the tree cannot be checked, and passes.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { checkOrganization } from "./organization_check.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   await checkOrganization(ctx, "ORG02"); // fine
 *   await checkOrganization(ctx, "ORG99").catch((e) => console.log(e.name)); // "ParamError"
 * });
 * ```
 */
export async function checkOrganization(
  ctx: OrganizationCheckContext,
  organization: string | undefined,
): Promise<void> {
  if (organization === undefined) return;
  const names = await organizationNames(ctx);
  if (names.size === 0 || names.has(organization)) return;
  throw unknownOrganization(organization, [...names.keys()]);
}
