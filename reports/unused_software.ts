/**
 * Unused software: installed applications not used for a while, bucketed by idle days per
 * application and listed per computer, with the licenses that could be reclaimed and their value.
 * Rules in `support/`: idle_buckets, reclaimable, idle_installs (what is read), unused_rows,
 * reclaim_value (its chart and value section). Every headline is a fact over its section's rows.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { boolean, date, integer, money, text, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { readThresholds, THRESHOLDS_PARAM } from "./support/idle_buckets.ts";
import { countColumns, countKeys, idleCounts, idleInstalls } from "./support/idle_installs.ts";
import { licensedInstalls } from "./support/reclaimable.ts";
import { applicationRows, installationRows } from "./support/unused_rows.ts";
import { reclaimChart, reclaimValueSection } from "./support/reclaim_value.ts";
import { rowLookups } from "./support/unused_rows.ts";

/** The slice of the SAM client this report reads. */
export type UnusedSoftwareClient = ClientSlice<{
  licenses: "list" | "computerEntitlements" | "entitlementStates";
  registry: "applications";
  estate: "computers" | "applications";
  organizations: "tree";
}>;

async function data(ctx: ReportContext<UnusedSoftwareClient, QueryContext>): Promise<ReportData> {
  const thresholds = readThresholds(ctx.params.thresholds);
  const first = thresholds[0], top = thresholds[thresholds.length - 1];
  const [lookups, isLicensed] = await Promise.all([rowLookups(ctx), licensedInstalls(ctx)]);
  const rules = { thresholds, isLicensed, hasLicense: (id: string) => lookups.licensed.has(id) };
  const apps = applicationRows(await idleCounts(idleInstalls(ctx, rules), thresholds), lookups);
  return {
    sections: [{
      id: "applications",
      title: "Unused installations per application",
      description: "Installed applications by days since last use (thresholds " +
        `${thresholds.join(", ")} days, from the report date), never-used installs counted ` +
        `apart. Reclaimable: licensed installs unused for ${top} days or more (or never used), ` +
        "valued at the average license unit price paid; blank for an application without any " +
        "license. Largest reclaimable value first, per currency.",
      columns: [
        text("application", "Application", { width: 30 }),
        text("version", "Version", { width: 10 }),
        text("manufacturer", "Manufacturer", { width: 18 }),
        ...countColumns(thresholds),
        text("currency", "Currency", { width: 8 }),
        money("unitPrice", "Average unit price"),
        money("reclaimValue", "Reclaimable value"),
      ],
      rows: apps,
      totals: { sum: countKeys(thresholds) },
      chart: reclaimChart(apps),
      emptyText: `Every installed application was used in the last ${first} days.`,
      facts: [
        { label: "Installations of listed applications", sum: "installations" },
        { label: "Never used", sum: "never" },
        { label: "Reclaimable licenses", sum: "reclaimable" },
      ],
    }, {
      id: "installations",
      title: `Installations unused for ${first} days or more`,
      description: "One row per computer and application, grouped by organization, in " +
        "computer order. Never-used installs count their idle days from first discovery.",
      columns: [
        text("organization", "Organization", { width: 16 }),
        text("computer", "Computer", { width: 22 }),
        text("application", "Application", { width: 30 }),
        text("version", "Version", { width: 10 }),
        date("lastUsed", "Last used"),
        date("firstDiscovered", "First discovered"),
        integer("idleDays", "Days unused"),
        text("bucket", "Bucket", { width: 14 }),
        boolean("licensed", "Licensed"),
        boolean("reclaimable", "Reclaimable", { emphasis: whenTrue("reclaimable", "warn") }),
      ],
      rows: installationRows(idleInstalls(ctx, rules, true), lookups),
      group: { by: "organization", label: "Organization" },
      totals: { sum: [] },
      emptyText: `No installation has gone unused for ${first} days or more.`,
      facts: [{ label: `Installations unused ${first}+ days`, count: true }],
    }, reclaimValueSection(apps, top)],
  };
}

/**
 * The unused software report.
 *
 * @example
 * ```ts
 * import { unusedSoftware } from "./unused_software.ts";
 * console.log(unusedSoftware.id); // "unused-software"
 * ```
 */
export const unusedSoftware = defineReport<UnusedSoftwareClient, QueryContext>({
  id: "unused-software",
  title: "Unused software",
  description: "Installed applications not used for a while: idle-day buckets per application, " +
    "idle installations per computer, and the licenses that could be reclaimed with their value.",
  params: { thresholds: THRESHOLDS_PARAM },
  filterResource: "ComputerApplication",
  landscape: true,
  data,
});
