/**
 * Reads the service's compliance allocation (`/compliance/summary/{applicationId}/allocation`)
 * of each application, through the run's fan-out (one read per application per run), for the
 * ELP's cross-check of an organisation scope (`allocation_check.ts`).
 *
 * @module
 */

import type { Resource } from "../../api/catalogue.ts";
import type { ClientSlice } from "../../api/client.ts";
import type { QueryContext } from "../context.ts";
import { toArray } from "../collect.ts";
import { isMissingRead } from "../names.ts";

/** The slice of the SAM client the allocation read needs. */
export type AllocationClient = ClientSlice<{ licenses: "complianceAllocation" }>;

type Ctx = { readonly client: AllocationClient; readonly query: QueryContext };

/**
 * The compliance allocation rows of each application, by application id; `null` where the
 * service does not offer them (404, 405, 501, or a token without the scope: 403).
 *
 * @example
 * ```ts ignore
 * import { readAllocations } from "./allocation_read.ts";
 * const rows = await readAllocations(ctx, ["APP0001"]);
 * console.log(rows.get("APP0001")?.length);
 * ```
 */
export async function readAllocations(
  ctx: Ctx,
  applicationIds: readonly string[],
): Promise<Map<string, Resource<"ComplianceAllocation">[] | null>> {
  const out = new Map<string, Resource<"ComplianceAllocation">[] | null>();
  const read = async (app: string) => {
    try {
      return await toArray(ctx.client.licenses.complianceAllocation(app));
    } catch (error) {
      if (isMissingRead(error)) return null;
      throw error;
    }
  };
  const reads = ctx.query.fanOut(
    [...new Set(applicationIds)],
    (app) => `licenses.complianceAllocation:${app}`,
    read,
  );
  for await (const [app, rows] of reads) out.set(app, rows);
  return out;
}
