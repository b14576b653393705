/**
 * Unused software: installed applications not used for a while, bucketed by idle days per
 * application and listed per computer, with the licenses that could be reclaimed and their value.
 *
 * Rules:
 * - Idle days are whole days from the last use to the run's clock (`ctx.now`). An install with no
 *   last-use date is "never used"; its idle days count from when it was first discovered (unknown
 *   discovery: idle past every threshold).
 * - Per application, installs fall in one bucket: used within the first threshold, one bucket per
 *   threshold interval (`30–89 days`, `90–179 days`, `180+ days` with the default thresholds), or
 *   never used.
 * - The per-computer list holds every install idle for at least the first threshold (never-used
 *   installs included, once discovered that long ago).
 * - Reclaimable: an install idle for at least the top threshold whose computer-application
 *   entitlement state says it consumes a license (a state named `Licensed…` or
 *   `Under-licensed`). Its value is the application's average license unit price (amount paid ÷
 *   units, in the currency of most units bought — see license-position) × reclaimable count,
 *   shown per currency and never summed across currencies.
 *
 * @module
 */

import type { Resource } from "../lib/api/catalogue.ts";
import type { ClientSlice, FilterOptions } from "../lib/api/client.ts";
import { and, eq, exists, le, or } from "../lib/api/filter_builder.ts";
import { parseFilter } from "../lib/api/filter_parser.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { aggregate } from "../lib/query/group_by.ts";
import { groupByFields } from "../lib/query/group_fields.ts";
import { groupStream } from "../lib/query/group_by.ts";
import { count, sum, sumMoney } from "../lib/query/measures.ts";
import { asc, desc, sortBy } from "../lib/query/sort.ts";
import { boolean, date, integer, money, text, whenPositive } from "../lib/report/columns.ts";
import { whenTrue } from "../lib/report/columns.ts";
import {
  defineReport,
  type ReportContext,
  type ReportData,
  type Row,
} from "../lib/report/model.ts";
import {
  bucketLabel,
  DEFAULT_THRESHOLDS,
  idleness,
  readThresholds,
} from "./support/idle_buckets.ts";
import { isReclaimable, licensedInstalls } from "./support/reclaimable.ts";
import { applicationLabel, applicationName, computersById, costAt } from "./support/lookups.ts";
import { licensePrices, pricingLine, registryById, unitCents } from "./support/lookups.ts";
import { organizationLabel, organizationNames } from "./support/names.ts";

export { DEFAULT_THRESHOLDS, idleDays, readThresholds } from "./support/idle_buckets.ts";
export { consumesLicense } from "./support/reclaimable.ts";

/** The slice of the SAM client this report reads. */
export type UnusedSoftwareClient = ClientSlice<{
  licenses: "list" | "computerEntitlements" | "entitlementStates";
  registry: "applications";
  estate: "computers" | "applications";
  organizations: "tree";
}>;

const DAY = 86_400_000;

async function data(ctx: ReportContext<UnusedSoftwareClient, QueryContext>): Promise<ReportData> {
  const thresholds = readThresholds(ctx.params.thresholds);
  const first = thresholds[0], top = thresholds[thresholds.length - 1];
  const [registry, computers, { prices }, isLicensed, orgNames] = await Promise.all([
    registryById(ctx),
    computersById(ctx),
    licensePrices(ctx),
    licensedInstalls(ctx),
    organizationNames(ctx),
  ]);
  const userFilter = ctx.filter ? [parseFilter(ctx.filter)] : [];
  const installed = eq("isInstalled", true);
  const idle = (i: Resource<"ComputerApplication">) => {
    const state = idleness(i, ctx.now, thresholds);
    const licensed = isLicensed(i);
    return { ...i, ...state, licensed, reclaimable: isReclaimable(licensed, state.idleDays, top) };
  };
  async function* installs(filter: FilterOptions["filter"], sort?: string) {
    for await (const i of ctx.client.estate.applications({ filter, sort, signal: ctx.signal })) {
      if (i.isInstalled === true && i.applicationId) yield idle(i);
    }
  }
  const perApp = await groupStream(
    installs(userFilter.length ? and(installed, ...userFilter) : installed),
    (i) => ({ id: i.applicationId! }),
    {
      installations: count(),
      recent: count((i) => i.recent),
      ...Object.fromEntries(thresholds.map((t, b) => [`idle${t}`, count((i) => i.bucket === b)])),
      never: count((i) => i.never),
      reclaimable: count((i) => i.reclaimable),
    },
  );
  const appRows = sortBy(
    perApp.map((c) => ({ ...c, unused: c.installations - c.recent })).filter((c) => c.unused > 0),
    desc((c) => c.unused),
    asc((c) => applicationLabel(c.id, registry.get(c.id))),
    asc((c) => c.id),
  ).map((c) => {
    const line = pricingLine(prices.get(c.id));
    return {
      ...c,
      application: applicationName(c.id, registry.get(c.id)),
      version: registry.get(c.id)?.version ?? null,
      manufacturer: registry.get(c.id)?.manufacturer ?? null,
      currency: line?.currency ?? null,
      unitPrice: line ? Math.round(unitCents(line)) / 100 : null,
      reclaimValue: c.reclaimable > 0 && line ? costAt(c.reclaimable, line) : null,
    };
  });

  // The installs idle past the first threshold, streamed (narrowed on the server).
  const cutoff = new Date(ctx.now.getTime() - first * DAY);
  const idleFilter = and(
    installed,
    or(le("lastUsed", cutoff), exists("lastUsed", false)),
    ...userFilter,
  );
  async function* installRows(): AsyncGenerator<Row> {
    for await (const i of installs(idleFilter, "computerId:asc,applicationId:asc")) {
      if (i.idleDays !== null && i.idleDays < first) continue;
      const computer = computers.get(i.computerId);
      yield {
        organization: organizationLabel(orgNames, computer?.organizationId),
        computer: computer?.hostName ?? i.computerId,
        application: applicationName(i.applicationId!, registry.get(i.applicationId!)),
        version: registry.get(i.applicationId!)?.version ?? null,
        ...{ lastUsed: i.lastUsed, firstDiscovered: i.firstDiscovered, idleDays: i.idleDays },
        ...{ bucket: i.bucketLabel, licensed: i.licensed, reclaimable: i.reclaimable },
      };
    }
  }

  const thresholdText = thresholds.join(", ");
  return {
    sections: [
      {
        id: "applications",
        title: "Unused installations per application",
        description: `Installed applications by days since last use (thresholds ${thresholdText} ` +
          `days, from the report date), never-used installs counted apart. Reclaimable: ` +
          `licensed installs unused for ${top} days or more (or never used), valued at the ` +
          `average license unit price paid.`,
        columns: [
          text("application", "Application", { width: 30 }),
          text("version", "Version", { width: 10 }),
          text("manufacturer", "Manufacturer", { width: 18 }),
          integer("installations", "Installations"),
          integer("recent", `Used within ${first} days`),
          ...thresholds.map((t, b) => integer(`idle${t}`, `Unused ${bucketLabel(thresholds, b)}`)),
          integer("never", "Never used", { emphasis: whenPositive("never", "warn") }),
          integer("reclaimable", "Reclaimable licenses"),
          text("currency", "Currency", { width: 8 }),
          money("unitPrice", "Average unit price"),
          money("reclaimValue", "Reclaimable value"),
        ],
        rows: appRows,
        totals: {
          sum: [
            "installations",
            "recent",
            ...thresholds.map((t) => `idle${t}`),
            "never",
            "reclaimable",
          ],
        },
        chart: {
          type: "bar",
          title: `Installations unused ${first}+ days or never used`,
          label: "application",
          value: "unused",
          top: 15,
        },
        emptyText: `Every installed application was used in the last ${first} days.`,
        facts: [
          { label: "Never used", sum: "never" },
          { label: "Reclaimable licenses", sum: "reclaimable" },
        ],
      },
      {
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
        rows: installRows(),
        group: { by: "organization", label: "Organization" },
        totals: { sum: [] },
        emptyText: `No installation has gone unused for ${first} days or more.`,
      },
      {
        id: "reclaim-value",
        title: "Reclaimable license value per currency",
        description: "Value of the reclaimable licenses per currency (amounts in different " +
          "currencies are never added). A row without a currency counts reclaimable licenses " +
          "of applications whose licenses carry no price.",
        columns: [
          text("currency", "Currency", { width: 8 }),
          integer("applications", "Applications"),
          integer("licenses", "Reclaimable licenses"),
          money("value", "Value"),
        ],
        rows: groupByFields(appRows.filter((r) => r.reclaimable > 0), ["currency"], {
          applications: count(),
          licenses: sum((r) => r.reclaimable as number),
          value: sumMoney((r) => r.reclaimValue as number | null),
        }),
        emptyText: `No licensed installation has gone unused for ${top} days or more.`,
        facts: [{ label: "Reclaimable value", sum: "value", perCurrency: "currency" }],
      },
    ],
    // Not derivable from a section's rows: every installation checked (the table lists only
    // applications with an unused install), and the unused count (a chart value, not a column).
    summary: () => {
      const all = aggregate(perApp, {
        installations: sum((c) => c.installations),
        unused: sum((c) => c.installations - c.recent),
      });
      return [
        { label: "Installations", value: all.installations, type: "integer" },
        { label: `Unused ${first}+ days or never used`, value: all.unused, type: "integer" },
      ];
    },
  };
}

/**
 * The unused software report.
 *
 * @example
 * ```ts ignore
 * import { unusedSoftware } from "./unused_software.ts";
 * const data = await unusedSoftware.data(ctx);
 * console.log(data.sections.map((s) => s.id)); // ["applications", "installations", "reclaim-value"]
 * ```
 */
export const unusedSoftware = defineReport<UnusedSoftwareClient, QueryContext>({
  id: "unused-software",
  title: "Unused software",
  description: "Installed applications not used for a while: idle-day buckets per application, " +
    "idle installations per computer, and the licenses that could be reclaimed with their value.",
  params: {
    thresholds: {
      type: "json",
      description: "Idle-day thresholds, ascending (JSON list, e.g. [30,90,180]): installs are " +
        "bucketed by them, listed per computer past the first, reclaimable past the last",
      default: DEFAULT_THRESHOLDS,
    },
  },
  filterResource: "ComputerApplication",
  landscape: true,
  data,
});
