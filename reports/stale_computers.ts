/**
 * Stale computers: computers not scanned for N days (or never scanned) and quarantined computers,
 * by organisation (by name from the organisation tree, else the id), with days since the last
 * scan, status and quarantine date. Only quarantined computers get a detail call (the quarantine
 * date; through the run's fan-out, cache key `estate.computer:<id>`).
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import { toArray } from "../lib/query/collect.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { detailsById } from "../lib/query/details.ts";
import { groupBy } from "../lib/query/group_by.ts";
import { count, min } from "../lib/query/measures.ts";
import { asc, desc, sortBy } from "../lib/query/sort.ts";
import { boolean, date, datetime, integer, percent, text } from "../lib/report/columns.ts";
import { whenPositive, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { organizationLabel, organizationNames } from "./support/names.ts";
import { scanAge } from "./support/scan_age.ts";

export { daysSince } from "../lib/query/dates.ts";

/** The slice of the SAM client this report reads. */
export type StaleComputersClient = ClientSlice<{
  estate: "computers" | "computer";
  organizations: "tree";
}>;

async function data(ctx: ReportContext<StaleComputersClient, QueryContext>): Promise<ReportData> {
  const days = ctx.params.days as number;
  const names = await organizationNames(ctx);
  const computers = (await toArray(ctx.client.estate.computers({ filter: ctx.filter })))
    .filter((c) => c.id).map((c) => ({
      ...scanAge(c, ctx.now, days),
      ...{ id: c.id!, hostName: c.hostName, status: c.status },
      organizationId: c.organizationId?.trim() || null,
      organization: organizationLabel(names, c.organizationId?.trim() ?? ""),
    }));
  const flagged = computers.filter((c) => c.flagged);
  const quarantined = flagged.filter((c) => c.quarantined);
  const details = await detailsById(
    ctx,
    quarantined,
    "estate.computer",
    ctx.client.estate.computer,
  );
  const organizations = groupBy(computers, (c) => ({
    organization: c.organization,
    organizationId: c.organizationId,
  }), {
    computers: count(),
    stale: count((c) => c.stale),
    neverScanned: count((c) => c.daysSinceScan === null),
    quarantined: count((c) => c.quarantined),
    flagged: count((c) => c.flagged),
    oldestScan: min((c) => c.lastScan),
  });
  return {
    sections: [{
      id: "organizations",
      title: "Stale and quarantined computers per organization",
      description: `Computers not scanned for ${days} days or more (never-scanned computers ` +
        `included) and quarantined computers, counted per organization.`,
      columns: [
        text("organization", "Organization", { width: 20 }),
        text("organizationId", "Organization id", { width: 10 }),
        integer("computers", "Computers"),
        integer("stale", `Not scanned ${days}+ days`, { emphasis: whenPositive("stale", "warn") }),
        integer("neverScanned", "Never scanned"),
        integer("quarantined", "Quarantined", { emphasis: whenPositive("quarantined", "bad") }),
        integer("flagged", "Stale or quarantined"),
        percent("share", "Share flagged"),
        date("oldestScan", "Oldest scan"),
      ],
      rows: sortBy(organizations, asc((o) => o.organization), asc((o) => o.organizationId ?? ""))
        .map((o) => ({ ...o, share: o.computers ? o.flagged / o.computers : 0 })),
      totals: { sum: ["computers", "stale", "neverScanned", "quarantined", "flagged"] },
      emptyText: "No computers match these parameters.",
      facts: [
        { label: "Computers checked", sum: "computers" },
        { label: `Not scanned for ${days}+ days`, sum: "stale" },
        { label: "Never scanned", sum: "neverScanned" },
        { label: "Quarantined", sum: "quarantined" },
        { label: "Organizations affected", count: true, where: (o) => (o.flagged as number) > 0 },
      ],
    }, {
      id: "computers",
      title: "Stale and quarantined computers",
      description: "Each flagged computer, grouped by organization, longest unscanned first.",
      columns: [
        text("organization", "Organization", { width: 20 }),
        text("hostName", "Computer", { width: 24 }),
        text("status", "Status"),
        datetime("lastScan", "Last scan"),
        integer("daysSinceScan", "Days since scan", { emphasis: whenTrue("stale", "warn") }),
        boolean("stale", "Stale"),
        boolean("quarantined", "Quarantined", { emphasis: whenTrue("quarantined", "bad") }),
        date("quarantineDate", "Quarantine date"),
        text("reason", "Reason", { width: 28 }),
      ],
      rows: sortBy(
        flagged,
        asc((c) => c.organization),
        asc((c) => c.organizationId ?? ""),
        desc((c) => c.daysSinceScan),
        asc((c) => c.hostName ?? ""),
        asc((c) => c.id),
      ).map((c) => ({ ...c, quarantineDate: details.get(c.id!)?.quarantineDate ?? null })),
      group: { by: "organization", label: "Organization" },
      totals: { sum: [] },
      emptyText: `Every computer was scanned in the last ${days} days and none is quarantined.`,
    }],
  };
}

/**
 * The stale computers report.
 *
 * @example
 * ```ts ignore
 * import { staleComputers } from "./stale_computers.ts";
 * const data = await staleComputers.data(ctx);
 * console.log(data.sections.map((s) => s.id)); // ["organizations", "computers"]
 * ```
 */
export const staleComputers = defineReport<StaleComputersClient, QueryContext>({
  id: "stale-computers",
  title: "Stale and quarantined computers",
  description: "Computers not scanned for N days and quarantined computers, by organization, " +
    "with days since the last scan, status and quarantine date.",
  params: {
    days: {
      type: "integer",
      description: "A computer is stale when its last scan is this many days old or older",
      default: 30,
      min: 1,
      max: 3650,
    },
  },
  filterResource: "Computer",
  landscape: true,
  data,
});
