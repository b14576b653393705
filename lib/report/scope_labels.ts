/**
 * How a run's scope reads to a person: an `organization` parameter holds an id (`ORG07`), which a
 * cover, a page footer or a workbook states with the organisation's name beside it ("Contoso
 * EMEA / IT (ORG07)"), from the organisation tree the run reads once (the report has usually read
 * it already: no further request then). A name is a convenience: a client without the tree, an
 * id the tree lacks, or a failed read leaves the id alone.
 *
 * @module
 */

import type { ReportScope, ScopeParameter } from "./scope.ts";
import type { QueryContext } from "../query/context.ts";
import { organizationNames } from "../query/names.ts";

/** The parameter whose value is an organisation id. */
const ORGANIZATION = "organization";

/** A client that can read the organisation tree. */
type TreeClient = Parameters<typeof organizationNames>[0]["client"];

function hasTree(client: unknown): client is TreeClient {
  const organizations = (client as { organizations?: { tree?: unknown } } | null)?.organizations;
  return typeof organizations?.tree === "function";
}

/**
 * `scope` with the organisation's name as the `label` of a given `organization` parameter, when
 * the client reads the organisation tree and the tree names it.
 *
 * @example
 * ```ts
 * import { labelledScope } from "./scope_labels.ts";
 * import { withReferenceContext } from "../../server.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const scope = await labelledScope({
 *     parameters: [{ name: "organization", description: "", value: "ORG07", origin: "given" }],
 *   }, ctx);
 *   console.log(scope.parameters[0].label); // the organisation's name, e.g. "Contoso EMEA / IT"
 * });
 * ```
 */
export async function labelledScope(
  scope: ReportScope,
  ctx: { readonly client: unknown; readonly query: QueryContext },
): Promise<ReportScope> {
  const at = scope.parameters.findIndex((p) =>
    p.name === ORGANIZATION && p.origin === "given" && typeof p.value === "string"
  );
  if (at < 0 || !hasTree(ctx.client)) return scope;
  const id = String(scope.parameters[at].value).trim();
  let name: string | undefined;
  try {
    name = (await organizationNames({ client: ctx.client, query: ctx.query })).get(id);
  } catch {
    return scope; // a name is a convenience, never a reason to fail the run
  }
  if (!name || name === id) return scope;
  const parameters: ScopeParameter[] = scope.parameters.map((p, i) =>
    i === at ? { ...p, label: name } : p
  );
  return { ...scope, parameters };
}
