/**
 * The rows of the renewals report: a renewal due (`renewals.ts`) named for an analyst — its month,
 * its status (ended while still installed, due within 30 or 90 days, or later; cost unknown),
 * the application's label and publisher, and the organisation's name.
 *
 * @module
 */

import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { registryById } from "../query/lookups.ts";
import { organizationLabel, organizationNames } from "../query/names.ts";
import type { ReportContext, Row } from "../report/model.ts";
import { applicationLabel } from "./lookups.ts";
import type { Renewal } from "./renewals.ts";

/** The report context the rows need: the registry and the organisation tree. */
export type RenewalRowsContext = ReportContext<
  ClientSlice<{ registry: "applications"; organizations: "tree" }>,
  QueryContext
>;

/** The status of a subscription that ended while its application is still installed. */
export const EXPIRED = "Expired, in use";

/** The days within which a renewal is "due soon" and "due this quarter". */
export const DUE_SOON_DAYS = 30;
/** See {@link DUE_SOON_DAYS}. */
export const DUE_QUARTER_DAYS = 90;

/**
 * A renewal's status, from its facts: ended while still installed, due within 30 days, within
 * 90 days, or later; and whether its cost is known.
 *
 * @example
 * ```ts
 * import { renewalStatus } from "./renewal_rows.ts";
 * console.log(renewalStatus({ expiredInUse: false, daysLeft: 12, annualCost: 100 })); // "Due within 30 days"
 * console.log(renewalStatus({ expiredInUse: false, daysLeft: 200, annualCost: null })); // "Due later, cost unknown"
 * ```
 */
export function renewalStatus(
  r: {
    readonly expiredInUse: boolean;
    readonly daysLeft: number;
    readonly annualCost: number | null;
  },
): string {
  if (r.expiredInUse) return EXPIRED;
  const when = r.daysLeft <= DUE_SOON_DAYS
    ? `Due within ${DUE_SOON_DAYS} days`
    : r.daysLeft <= DUE_QUARTER_DAYS
    ? `Due within ${DUE_QUARTER_DAYS} days`
    : "Due later";
  return r.annualCost === null ? `${when}, cost unknown` : when;
}
const SHORT = { Subscription: "Subscr.", Maintenance: "Maint.", Support: "Support" } as const;

/**
 * The renewals report's rows: each renewal due with its month, status, application label,
 * publisher and organisation name (registry and organisation tree each read once per run).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { renewalRows } from "./renewal_rows.ts";
 * import { readRenewalSources } from "./renewal_sources.ts";
 * import { renewalsDue } from "./renewals.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const sources = await readRenewalSources(ctx);
 *   const due = renewalsDue(
 *     { licenses: sources.licenses, periods: sources.periods ?? [] },
 *     { now: ctx.now, horizonDays: 365 },
 *   );
 *   const rows = await renewalRows(ctx, due);
 *   console.log(rows[0]?.label); // e.g. "Subscr. · Microsoft Visio 2021"
 * });
 * ```
 */
export async function renewalRows(
  ctx: RenewalRowsContext,
  due: readonly Renewal[],
): Promise<Row[]> {
  const [registry, names] = await Promise.all([registryById(ctx), organizationNames(ctx)]);
  return due.map((r) => {
    const app = registry.get(r.applicationId ?? "");
    const application = r.applicationId
      ? applicationLabel(r.applicationId, app)
      : "(no application)";
    return {
      month: r.endDate.toISOString().slice(0, 7),
      endDate: r.endDate,
      daysLeft: r.daysLeft,
      kind: r.kind,
      status: renewalStatus(r),
      expiredInUse: r.expiredInUse,
      application,
      publisher: app?.manufacturer ?? null,
      organization: organizationLabel(names, r.organizationId),
      annualCost: r.annualCost,
      currency: r.currency,
      licenseId: r.licenseId,
      label: `${SHORT[r.kind]} · ${application}`,
    };
  });
}
