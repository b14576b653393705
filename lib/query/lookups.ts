/**
 * Lookups by id for joins: the software registry and the computers, each read once per run
 * through the run's cache (so every report of a pack shares one read).
 *
 * @module
 */

import type { EstateApi, RegistryApi } from "../api/client.ts";
import type { Computer, RegistryApplication } from "../api/types.ts";
import type { QueryContext } from "./context.ts";

export type { Computer, RegistryApplication };

/**
 * The registry's applications by id, read once per run (cache key `registry.applications`, or
 * `registry.applications?filter=…`).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { registryById } from "./lookups.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const registry = await registryById(ctx);
 *   const [id, app] = [...registry][0];
 *   console.log(id, app.name);
 * });
 * ```
 */
export async function registryById(
  ctx: {
    readonly client: { readonly registry: Pick<RegistryApi, "applications"> };
    readonly query: QueryContext;
  },
  filter?: string,
): Promise<Map<string, RegistryApplication>> {
  const key = filter ? `registry.applications?filter=${filter}` : "registry.applications";
  const apps = await ctx.query.all(
    key,
    () => ctx.client.registry.applications(filter ? { filter } : {}),
  );
  return new Map(apps.filter((a) => a.id).map((a) => [a.id!, a]));
}

/**
 * The computers by id, read once per run (cache key `estate.computers`, or with the filter).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { computersById } from "./lookups.ts";
 * await withReferenceContext({ computers: 20 }, async (ctx) => {
 *   const computers = await computersById(ctx);
 *   console.log(computers.size); // 20
 * });
 * ```
 */
export function computersById(
  ctx: {
    readonly client: { readonly estate: Pick<EstateApi, "computers"> };
    readonly query: QueryContext;
  },
  filter?: string,
): Promise<Map<string | null, Computer>> {
  if (filter) {
    return ctx.query.index(
      `estate.computers?filter=${filter}`,
      () => ctx.client.estate.computers({ filter }),
      (c) => c.id,
    );
  }
  return ctx.query.index("estate.computers", () => ctx.client.estate.computers(), (c) => c.id);
}
