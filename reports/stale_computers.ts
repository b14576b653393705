/**
 * Stale computers: computers not scanned for N days (or never scanned) and quarantined computers,
 * by organisation (by name from the organisation tree, else the id), with days since the last
 * scan, status and quarantine date. Only quarantined computers get a detail call (the quarantine
 * date; through the run's fan-out, cache key `estate.computer:<id>`). Rows:
 * `lib/sam/stale_computer_rows.ts`; rules: `lib/sam/scan_age.ts`.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { boolean, date, datetime, integer, percent, text } from "../lib/report/columns.ts";
import { whenPositive, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { integerParam } from "../lib/report/param_builders.ts";
import { flaggedComputers, perOrganization } from "../lib/sam/stale_computer_rows.ts";
import { staleComputerRows } from "../lib/sam/stale_computer_rows.ts";

export { daysSince } from "../lib/query/dates.ts";

/** The slice of the SAM client this report reads. */
export type StaleComputersClient = ClientSlice<{
  estate: "computers" | "computer";
  organizations: "tree";
}>;

async function data(ctx: ReportContext<StaleComputersClient, QueryContext>): Promise<ReportData> {
  const days = ctx.params.days as number;
  const computers = await staleComputerRows(ctx, days);
  const flagged = await flaggedComputers(ctx, computers);
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
      rows: perOrganization(computers),
      totals: { sum: ["computers", "stale", "neverScanned", "quarantined", "flagged"] },
      emptyText: "No computers match these parameters.",
      // The cover leads with the computers to act on; what was checked follows.
      facts: [
        { label: `Not scanned for ${days}+ days`, sum: "stale", cover: true },
        { label: "Never scanned", sum: "neverScanned", cover: true },
        { label: "Quarantined", sum: "quarantined", cover: true },
        {
          label: "Organizations affected",
          count: true,
          where: (o) => (o.flagged as number) > 0,
          cover: true,
        },
        { label: "Computers checked", sum: "computers", cover: true },
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
      rows: flagged,
      group: { by: "organization", label: "Organization" },
      totals: { sum: [] },
      // "Every computer" only when some were checked.
      emptyText: computers.length
        ? `Every computer was scanned in the last ${days} days and none is quarantined.`
        : "No computer matches these parameters.",
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
    days: integerParam("A computer is stale when its last scan is this many days old or older", {
      default: 30,
      min: 1,
      max: 3650,
    }),
  },
  filterResource: "Computer",
  landscape: true,
  data,
});
