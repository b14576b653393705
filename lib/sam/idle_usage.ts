/**
 * The usage of installs, as harvest reads it: every installed install of the given applications
 * (`/computers-applications`, narrowed on the server to `isInstalled` and the applications) with
 * its idle days — whole days since the last use; a never-used install counts from its first
 * discovery (as `unused-software` does), and with neither date it is idle forever (`null`).
 *
 * @module
 */

import type { EstateApi } from "../api/client.ts";
import { and, eq, isIn } from "../api/filter_builder.ts";
import type { QueryContext } from "../query/context.ts";
import { daysSince } from "../query/dates.ts";
import type { InstallUsage } from "./harvest.ts";

/** What {@link installedUsage} needs of the run. */
export interface UsageContext {
  /** The estate's installed applications. */
  readonly client: { readonly estate: Pick<EstateApi, "applications"> };
  /** The run's query context. */
  readonly query: QueryContext;
}

const CHUNK = 40;

/**
 * Installed installs of `applicationIds` by application, then computer, with their idle days at
 * `now`. Where a computer lists an application twice, the more recently used install counts.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { installedUsage } from "./idle_usage.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const usage = await installedUsage(ctx, ["APP0011"], ctx.now);
 *   const [first] = usage.get("APP0011")?.values() ?? [];
 *   console.log(first?.computerId, first?.idleDays);
 * });
 * ```
 */
export async function installedUsage(
  ctx: UsageContext,
  applicationIds: readonly string[],
  now: Date,
): Promise<Map<string, Map<string, InstallUsage>>> {
  const apps = [...new Set(applicationIds)].sort();
  const out = new Map<string, Map<string, InstallUsage>>();
  for (let i = 0; i < apps.length; i += CHUNK) {
    const chunk = apps.slice(i, i + CHUNK);
    const filter = and(eq("isInstalled", true), isIn("applicationId", chunk));
    const rows = await ctx.query.all(
      `estate.applications:installed:${chunk.join(",")}`,
      () => ctx.client.estate.applications({ filter }),
    );
    for (const r of rows) {
      if (r.isInstalled !== true || !r.computerId || !r.applicationId) continue;
      const usage: InstallUsage = {
        computerId: r.computerId,
        applicationId: r.applicationId,
        lastUsed: r.lastUsed ?? null,
        firstDiscovered: r.firstDiscovered ?? null,
        idleDays: daysSince(r.lastUsed ?? r.firstDiscovered, now),
      };
      const byComputer = out.get(r.applicationId) ?? new Map<string, InstallUsage>();
      out.set(r.applicationId, byComputer);
      const seen = byComputer.get(r.computerId);
      if (!seen || (seen.idleDays ?? Infinity) > (usage.idleDays ?? Infinity)) {
        byComputer.set(r.computerId, usage);
      }
    }
  }
  return out;
}
