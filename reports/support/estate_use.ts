/**
 * What the estate uses of each application: its installations (installed computer applications)
 * and its metric requirement (the metric tracking requirement summed), optionally only on one
 * organisation's computers and only for some applications. Both collections are read as
 * streams, grouped per application.
 *
 * @module
 */

import type { EstateApi } from "../../lib/api/client.ts";
import type { QueryContext } from "../../lib/query/context.ts";
import { groupStream } from "../../lib/query/group_by.ts";
import { computersById } from "../../lib/query/lookups.ts";
import { count, sum } from "../../lib/query/measures.ts";

/** Per application id: installations and requirement. */
export interface EstateUse {
  /** Installed computer applications. */
  readonly installations: ReadonlyMap<string | null, number>;
  /** The metric tracking requirement, summed (non-finite values count as 0). */
  readonly requirement: ReadonlyMap<string | null, number>;
}

/** Which installations and metrics count. */
export interface EstateUseScope {
  /** Only on this organisation's computers (default: all). */
  readonly organization?: string;
  /** Only these application ids (default: every application). */
  readonly applications?: { has(id: string): boolean };
  /** Cancels the reads. */
  readonly signal?: AbortSignal;
}

/**
 * Installations and requirement per application in `scope`. The computers are read (through
 * the run's cache) only when an organisation is given.
 *
 * @example
 * ```ts ignore
 * import { estateUse } from "./estate_use.ts";
 * const use = await estateUse(ctx, { organization: "ORG06" });
 * console.log(use.installations.get("APP0001") ?? 0);
 * ```
 */
export async function estateUse(
  ctx: {
    readonly client: { readonly estate: Pick<EstateApi, "computers" | "applications" | "metrics"> };
    readonly query: QueryContext;
  },
  scope: EstateUseScope = {},
): Promise<EstateUse> {
  const { organization, applications, signal } = scope;
  const orgOf = organization === undefined ? undefined : await computersById(ctx);
  const counts = (r: { applicationId: string | null; computerId: string | null }) =>
    !!r.applicationId && (!applications || applications.has(r.applicationId)) &&
    (orgOf === undefined || orgOf.get(r.computerId)?.organizationId === organization);
  const installs = ctx.client.estate.applications({ filter: "isInstalled -eq true", signal });
  const installed = await groupStream(installs, (i) => ({ id: i.applicationId }), {
    n: count((i) => i.isInstalled === true && counts(i)),
  });
  const metrics = ctx.client.estate.metrics({ signal });
  const required = await groupStream(metrics, (m) => ({ id: m.applicationId }), {
    n: sum((m) => counts(m) ? m.requirement : 0),
  });
  return {
    installations: new Map(installed.map((g) => [g.id, g.n])),
    requirement: new Map(required.map((g) => [g.id, g.n])),
  };
}
