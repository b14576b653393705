/**
 * The service's own view beside each harvest position of unused-software: its compliance usage
 * (`/compliance/summary/{applicationId}/usage`), per application × metric the units of the
 * requirement covered by licenses of that metric (`mainCoverage`) and of other metrics
 * (`otherMetricCoverage`), and whether it counts the requirement only partly covered
 * (`isPartial`). A partly covered position is one where harvested units go to the shortfall
 * first; where the service and samkit's ELP disagree on that, the row says so.
 *
 * One read per application with harvest candidates, through the run's fan-out. Blank where the
 * service offers no usage for the application (404, 405, 501, 403) or has no row for the metric.
 *
 * @module
 */

import type { ComplianceUsage as Usage } from "../api/types.ts";
import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { toArray } from "../query/collect.ts";
import { isMissingRead } from "../query/names.ts";
import type { ReclaimRow } from "./unused_rows.ts";

/** The slice of the SAM client the usage read needs. */
export type UsageClient = ClientSlice<{ licenses: "complianceUsage" }>;

/** The service's usage figures of one application × metric (all `null`: no usage known). */
export interface ServiceUsage {
  /** Units covered by licenses of any metric, as the service counts them. */
  readonly serviceCovered: number | null;
  /** The service counts the requirement only partly covered. */
  readonly servicePartial: boolean | null;
  /** The service's partial coverage disagrees with samkit's shortfall (one says short, one not). */
  readonly serviceDisagrees: boolean | null;
}

/** What {@link withServiceUsage} reads with: the client's slice and the run's query context. */
export interface ServiceUsageContext {
  /** The SAM client. */
  readonly client: UsageClient;
  /** The run's query context. */
  readonly query: QueryContext;
}

const NONE: ServiceUsage = { serviceCovered: null, servicePartial: null, serviceDisagrees: null };

/**
 * The service's usage of one position from its application's usage rows: Σ coverage of the
 * rows of the metric, partial when any of them is; all `null` without such a row.
 *
 * @example
 * ```ts
 * import { usageOf } from "./reclaim_usage.ts";
 * const rows = [
 *   { applicationId: "A", metricId: "M", licenseMetricId: "M", mainCoverage: 4, otherMetricCoverage: 1, isPartial: true },
 * ];
 * console.log(usageOf(rows, { metricId: "M", shortfall: 0 }));
 * // { serviceCovered: 5, servicePartial: true, serviceDisagrees: true }
 * ```
 */
export function usageOf(
  rows: readonly Pick<Usage, "metricId" | "mainCoverage" | "otherMetricCoverage" | "isPartial">[],
  position: { readonly metricId: string; readonly shortfall: number },
): ServiceUsage {
  const mine = rows.filter((u) => u.metricId === position.metricId);
  if (mine.length === 0) return NONE;
  const covered = mine.reduce(
    (n, u) => n + (u.mainCoverage ?? 0) + (u.otherMetricCoverage ?? 0),
    0,
  );
  const partial = mine.some((u) => u.isPartial === true);
  return {
    serviceCovered: covered,
    servicePartial: partial,
    serviceDisagrees: partial !== position.shortfall > 0,
  };
}

/** The usage rows of an application, or `null` where the service does not offer them. */
async function readUsage(ctx: ServiceUsageContext, applicationId: string): Promise<Usage[] | null> {
  try {
    return await toArray(ctx.client.licenses.complianceUsage(applicationId));
  } catch (error) {
    if (isMissingRead(error)) return null;
    throw error;
  }
}

/**
 * The reclaim rows with the service's usage beside each (see the module doc), in their order.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { registryById } from "../query/lookups.ts";
 * import { reportElp } from "./elp_rows.ts";
 * import { withServiceUsage } from "./reclaim_usage.ts";
 * import { reclaimRows } from "./unused_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp } = await reportElp(ctx);
 *   const [p] = elp.positions;
 *   const idle = [{ applicationId: p.applicationId, metricId: p.metricId, installs: 1, units: 1 }];
 *   const rows = reclaimRows(idle, elp.positions, await registryById(ctx));
 *   const [row] = await withServiceUsage(ctx, rows);
 *   console.log(row.serviceCovered, row.serviceDisagrees);
 * });
 * ```
 */
export async function withServiceUsage(
  ctx: ServiceUsageContext,
  rows: readonly ReclaimRow[],
): Promise<(ReclaimRow & ServiceUsage)[]> {
  const usage = new Map<string, Usage[] | null>();
  const apps = [...new Set(rows.map((r) => r.applicationId))];
  const reads = ctx.query.fanOut(
    apps,
    (app) => `licenses.complianceUsage:${app}`,
    (app) => readUsage(ctx, app),
  );
  for await (const [app, list] of reads) usage.set(app, list);
  return rows.map((r) => ({ ...r, ...usageOf(usage.get(r.applicationId) ?? [], r) }));
}
