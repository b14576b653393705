/**
 * The licenses' allocations to organisations (`licenses.entitlements`), read once per run and
 * shared by every reader of the run's query context; `null` when the service does not offer
 * them (a missing read: not found, not permitted, not implemented).
 *
 * @module
 */

import type { Resource } from "../../api/catalogue.ts";
import { toArray } from "../collect.ts";
import type { QueryContext } from "../context.ts";
import { isMissingRead } from "../names.ts";
import type { ElpClient } from "./inputs.ts";

/** What the read needs: the client's license area and the run's query context. */
export interface AllocationsContext {
  /** A client with `licenses.entitlements`. */
  readonly client: Pick<ElpClient, "licenses">;
  /** The run's query context (the read is cached under `licenses.entitlements`). */
  readonly query: QueryContext;
}

/**
 * Every allocation of a license to an organisation, or `null` when the service lacks the read.
 *
 * @example
 * ```ts ignore
 * import { entitlementAllocations } from "./entitlement_allocations.ts";
 * const rows = await entitlementAllocations({ client, query });
 * console.log(rows === null ? "not offered" : `${rows.length} allocations`);
 * ```
 */
export async function entitlementAllocations(
  ctx: AllocationsContext,
): Promise<Resource<"Entitlement">[] | null> {
  return await ctx.query.once("licenses.entitlements", async () => {
    try {
      return await toArray(ctx.client.licenses.entitlements());
    } catch (error) {
      if (isMissingRead(error)) return null;
      throw error;
    }
  });
}
