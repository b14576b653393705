/**
 * Names for the ids the reports show: organisation names from the organisation tree (one read
 * per run, cache key `organizations.names`) and metric names per application from the registry
 * (one read per application, cache key `registry.metrics:<applicationId>`), both through the
 * run's query context so a pack asks once.
 *
 * A name is a convenience, never a reason to fail: when the service lacks the operation (404,
 * 405, 501) or the token lacks its scope (403), or a node or metric is not there, the label is
 * the id. Any other error (a server failure, a malformed answer) is thrown, as for every read.
 *
 * Not a report: `reports/mod.ts` lists the report definitions.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { OrganizationsApi, RegistryApi } from "../api/client.ts";
import { ApiError, NotFoundError, PermissionError } from "../api/errors.ts";
import type { QueryContext } from "./context.ts";
/**
 * The label of rows without an organisation.
 *
 * @example
 * ```ts
 * import { NO_ORGANIZATION } from "./names.ts";
 * console.log(NO_ORGANIZATION); // "(no organization)"
 * ```
 */
export const NO_ORGANIZATION = "(no organization)";

type OrganizationNode = Resource<"OrganizationNode">;

/** Organisation names by id (empty when the service has no organisation tree). */
export type OrganizationNames = ReadonlyMap<string, string>;

/** Metric names by {@link metricKey} (application id and metric id). */
export type MetricNames = ReadonlyMap<string, string>;

/**
 * Whether `error` says the service lacks an optional read (404, 405, 501) or the token lacks its
 * scope (403): then a name lookup gives ids instead.
 *
 * @example
 * ```ts
 * import { NotFoundError } from "../api/errors.ts";
 * import { isMissingRead } from "./names.ts";
 * const gone = new NotFoundError({ status: 404, method: "GET", path: "/tree", message: "" });
 * console.log(isMissingRead(gone), isMissingRead(new Error("boom"))); // true false
 * ```
 */
export function isMissingRead(error: unknown): boolean {
  if (error instanceof NotFoundError || error instanceof PermissionError) return true;
  return error instanceof ApiError && (error.status === 405 || error.status === 501);
}

/**
 * The label of every node of an organisation tree: its name, or, when two nodes share a name,
 * `Parent / Name` (the parent's name); a node without a name is labelled with its id.
 *
 * @example
 * ```ts
 * import { organizationLabels } from "./names.ts";
 * const labels = organizationLabels([
 *   { id: "O1", parentId: null, name: "Contoso" },
 *   { id: "O2", parentId: "O1", name: "Sales" },
 *   { id: "O3", parentId: "O2", name: "Sales" },
 * ]);
 * console.log(labels.get("O2"), labels.get("O3")); // "Contoso / Sales" "Sales / Sales"
 * ```
 */
export function organizationLabels(
  nodes: readonly Pick<OrganizationNode, "id" | "parentId" | "name">[],
): Map<string, string> {
  const named = nodes.filter((n) => n.id);
  const nameOf = new Map(named.map((n) => [n.id!, n.name?.trim() || n.id!]));
  const uses = new Map<string, number>();
  for (const name of nameOf.values()) uses.set(name, (uses.get(name) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const n of named) {
    const name = nameOf.get(n.id!)!;
    const parent = n.parentId ? nameOf.get(n.parentId) : undefined;
    out.set(n.id!, uses.get(name)! > 1 && parent ? `${parent} / ${name}` : name);
  }
  return out;
}

/**
 * Organisation labels by id ({@link organizationLabels}) from the organisation tree, read once
 * per run (cache key `organizations.names`); empty when the service lacks the tree
 * ({@link isMissingRead}).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { organizationLabel, organizationNames } from "./names.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const orgs = await organizationNames(ctx);
 *   console.log(organizationLabel(orgs, [...orgs.keys()][0])); // its path, e.g. "Contoso"
 * });
 * ```
 */
export function organizationNames(ctx: {
  readonly client: { readonly organizations: Pick<OrganizationsApi, "tree"> };
  readonly query: QueryContext;
}): Promise<OrganizationNames> {
  return ctx.query.once("organizations.names", async () => {
    try {
      return organizationLabels(await ctx.client.organizations.tree().toArray());
    } catch (error) {
      if (isMissingRead(error)) return new Map<string, string>();
      throw error;
    }
  });
}

/**
 * The label of an organisation id: its name from `names`, the id when the tree lacks it, and
 * `(no organization)` when there is no id.
 *
 * @example
 * ```ts
 * import { organizationLabel } from "./names.ts";
 * const names = new Map([["ORG07", "Contoso EMEA / IT"]]);
 * console.log(organizationLabel(names, "ORG07")); // "Contoso EMEA / IT"
 * console.log(organizationLabel(names, "ORG99")); // "ORG99"
 * console.log(organizationLabel(names, null)); // "(no organization)"
 * ```
 */
export function organizationLabel(names: OrganizationNames, id: string | null | undefined): string {
  const trimmed = id?.trim();
  if (!trimmed) return NO_ORGANIZATION;
  return names.get(trimmed) ?? trimmed;
}

/**
 * The key of a metric in {@link MetricNames}: application id and metric id.
 *
 * @example
 * ```ts
 * import { metricKey } from "./names.ts";
 * console.log(metricKey("APP0009", "MET02")); // "APP0009\u0000MET02"
 * ```
 */
export function metricKey(applicationId: string, metricId: string): string {
  return `${applicationId}\u0000${metricId}`;
}

/**
 * The registry's metric names of each application (one read per application through the run's
 * fan-out, cache key `registry.metrics:<id>`); an application whose metrics the service does not
 * serve ({@link isMissingRead}) contributes none.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { metricLabel, metricNames } from "./names.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const metrics = await metricNames(ctx, ["APP0009"]);
 *   console.log(metricLabel(metrics, "APP0009", "MET02")); // the metric's name, e.g. "Processor cores"
 * });
 * ```
 */
export async function metricNames(
  ctx: {
    readonly client: { readonly registry: Pick<RegistryApi, "metrics"> };
    readonly query: QueryContext;
  },
  applicationIds: Iterable<string>,
): Promise<MetricNames> {
  const out = new Map<string, string>();
  const ids = [...new Set(applicationIds)].filter((id) => id !== "");
  for await (
    const [app, metrics] of ctx.query.fanOut(
      ids,
      (id) => `registry.metrics:${id}`,
      (id) => applicationMetrics(ctx, id),
    )
  ) {
    for (const m of metrics) {
      if (m.id && m.name?.trim()) out.set(metricKey(app, m.id), m.name.trim());
    }
  }
  return out;
}

/**
 * The registry metrics of one application (names, list prices), `[]` when the service does not
 * serve them; cached per run under `registry.metrics:<id>` when read through {@link metricNames}
 * or the ELP inputs.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { applicationMetrics } from "./names.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const metrics = await applicationMetrics(ctx, "APP0009");
 *   console.log(metrics.map((m) => m.name));
 * });
 * ```
 */
export async function applicationMetrics(
  ctx: { readonly client: { readonly registry: Pick<RegistryApi, "metrics"> } },
  applicationId: string,
): Promise<Resource<"RegistryMetric">[]> {
  try {
    return await ctx.client.registry.metrics(applicationId).toArray();
  } catch (error) {
    if (isMissingRead(error)) return [];
    throw error;
  }
}

/**
 * The label of a metric of an application: its registry name, else the metric id, else
 * `(no metric)`.
 *
 * @example
 * ```ts
 * import { metricKey, metricLabel } from "./names.ts";
 * const names = new Map([[metricKey("APP0009", "MET02"), "Processor cores"]]);
 * console.log(metricLabel(names, "APP0009", "MET02")); // "Processor cores"
 * console.log(metricLabel(names, "APP0001", "MET02")); // "MET02"
 * console.log(metricLabel(names, "APP0001", null)); // "(no metric)"
 * ```
 */
export function metricLabel(
  names: MetricNames,
  applicationId: string | null | undefined,
  metricId: string | null | undefined,
): string {
  if (!metricId) return "(no metric)";
  return (applicationId ? names.get(metricKey(applicationId, metricId)) : undefined) ?? metricId;
}

/**
 * The scope suffix of a title restricted to one organisation: its name and id, or only its id
 * when the tree has no name for it; empty when there is no restriction.
 *
 * @example
 * ```ts
 * import { organizationScope } from "./names.ts";
 * const names = new Map([["ORG07", "Contoso EMEA / IT"]]);
 * console.log(organizationScope(names, "ORG07")); // " (organization Contoso EMEA / IT, id ORG07)"
 * console.log(organizationScope(names, "ORG99")); // " (organization ORG99)"
 * console.log(organizationScope(names, undefined)); // ""
 * ```
 */
export function organizationScope(names: OrganizationNames, id: string | undefined): string {
  if (id === undefined) return "";
  const name = names.get(id.trim());
  return name === undefined ? ` (organization ${id})` : ` (organization ${name}, id ${id})`;
}
