/**
 * Unused software: installed applications not used for a while, bucketed by idle days per
 * application and listed per computer, and what harvesting the idle installs gives back per
 * application × metric — in the metric's units, against the effective license position (a short
 * position takes the harvested units first), valued at the position's unit price. Rules in
 * `lib/sam/`: idle_buckets, reclaimable, idle_installs (what is read), unused_rows,
 * reclaim_usage (the service's compliance usage beside each position); its columns, sections and
 * chart are declared in `unused_software_sections.ts`. Every headline is a fact over its section's rows.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { effectiveLicensePosition } from "../lib/query/elp/elp.ts";
import type { ElpClient } from "../lib/query/elp/inputs.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { readThresholds, THRESHOLDS_PARAM } from "../lib/sam/idle_buckets.ts";
import { countKeys, readIdleInstalls } from "../lib/sam/idle_installs.ts";
import { idleUnitsTally, licensedInstalls } from "../lib/sam/reclaimable.ts";
import {
  applicationColumns,
  INSTALLATION_COLUMNS,
  reclaimSection,
  reclaimValueSection,
} from "./unused_software_sections.ts";
import { type UsageClient, withServiceUsage } from "../lib/sam/reclaim_usage.ts";
import {
  applicationRows,
  installationRows,
  organizationOf,
  reclaimRows,
} from "../lib/sam/unused_rows.ts";
import { rowLookups } from "../lib/sam/unused_rows.ts";
import { withConverted } from "../lib/sam/reporting_currency.ts";

/** The slice of the SAM client this report reads (the ELP's, and the installs and registry). */
export type UnusedSoftwareClient =
  & ElpClient
  & UsageClient
  & ClientSlice<{
    licenses: "list" | "computerEntitlements" | "entitlementStates";
    registry: "applications";
    estate: "computers" | "applications" | "metrics";
    organizations: "tree";
  }>;

async function data(ctx: ReportContext<UnusedSoftwareClient, QueryContext>): Promise<ReportData> {
  const thresholds = readThresholds(ctx.params.thresholds);
  const first = thresholds[0], top = thresholds[thresholds.length - 1];
  const [lookups, isLicensed, elp, tracking] = await Promise.all([
    rowLookups(ctx),
    licensedInstalls(ctx),
    effectiveLicensePosition(ctx, { coverage: false }), // Positions only: no device is shown.
    ctx.query.all("estate.metrics", () => ctx.client.estate.metrics()),
  ]);
  const rules = { thresholds, isLicensed };
  const tally = idleUnitsTally(tracking);
  // One read of the installs: counted per application, tallied for the reclaim, and the idle
  // ones kept compactly for the list per computer.
  const { counts, idle } = await readIdleInstalls(ctx, rules, tally.add);
  // With a reporting currency each position's value is converted once; the currencies add them.
  const reclaim = withConverted(
    await withServiceUsage(ctx, reclaimRows(tally.lines(), elp.positions, lookups.registry)),
    ctx.reportingCurrency,
    { amounts: ["unitPrice", "reclaimValue"], currency: (r) => r.currency },
  );
  return {
    facts: [
      // What the reader decides on: the money and units to reclaim first; the counts after.
      {
        section: "reclaim-value",
        label: "Reclaimable value",
        sum: "value",
        perCurrency: "currency",
        cover: true,
      },
      {
        section: "reclaim",
        label: "Reclaimable units",
        sum: "reclaimable",
        perCurrency: "metric",
        cover: true,
      },
      {
        section: "reclaim",
        label: "Positions with licenses to reclaim",
        count: true,
        where: (r) => (r.reclaimable as number) > 0,
        cover: true,
      },
      {
        section: "applications",
        label: "Harvest candidates (installations)",
        sum: "candidates",
        cover: true,
      },
    ],
    sections: [
      {
        id: "applications",
        title: "Unused installations per application",
        description: "Installed applications by days since last use (thresholds " +
          `${thresholds.join(", ")} days, from the report date), never-used installs counted ` +
          `apart. Harvest candidates: installs unused for ${top} days or more, or never used and ` +
          "of unknown age. Most unused installs first.",
        columns: applicationColumns(thresholds),
        rows: applicationRows(counts, lookups),
        totals: { sum: countKeys(thresholds) },
        emptyText: counts.length
          ? `Every installed application was used in the last ${first} days.`
          : "No installed application matches these parameters.",
        facts: [
          { label: "Installations of listed applications", sum: "installations" },
          { label: "Never used (installations)", sum: "never" },
        ],
      },
      reclaimSection(reclaim, top),
      {
        id: "installations",
        title: `Installations unused for ${first} days or more`,
        description: "One row per computer and application, grouped by organization, in " +
          "computer order. Never-used installs count their idle days from first discovery. " +
          "Licensed: its entitlement state consumes a license.",
        columns: INSTALLATION_COLUMNS,
        // Already grouped by organization, in the group order: the spool never sorts them.
        rows: installationRows(idle.inGroupOrder(organizationOf(lookups)), lookups),
        group: { by: "organization", label: "Organization" },
        totals: { sum: [] },
        emptyText: `No installation has gone unused for ${first} days or more.`,
        facts: [{ label: `Installations unused ${first}+ days`, count: true }],
      },
      reclaimValueSection(reclaim, top, ctx.reportingCurrency),
    ],
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
    "idle installations per computer, and the licenses harvesting them would free per " +
    "application and metric (a short position's shortfall covered first), with their value.",
  params: { thresholds: THRESHOLDS_PARAM },
  filterResource: "ComputerApplication",
  landscape: true,
  data,
});
