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

import type { EstateApi, LicensesApi, OrganizationsApi, RegistryApi } from "../lib/api/client.ts";
import type { Resource } from "../lib/api/catalogue.ts";
import { and, eq, exists, le, or } from "../lib/api/filter_builder.ts";
import { parseFilter } from "../lib/api/filter_parser.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { ParamError } from "../lib/report/errors.ts";
import type { Column, Fact, ReportContext, ReportData, Row } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import {
  applicationLabel,
  applicationName,
  compareText,
  computersById,
  costAt,
  currencyFact,
  licensePrices,
  pricingLine,
  registryById,
  unitCents,
} from "./support/lookups.ts";
import { organizationLabel, organizationNames } from "./support/names.ts";

type ComputerApplication = Resource<"ComputerApplication">;

/** The slice of the SAM client this report reads. */
export interface UnusedSoftwareClient {
  /** Licenses (prices) and computer-application entitlements with their states. */
  readonly licenses: Pick<LicensesApi, "list" | "computerEntitlements" | "entitlementStates">;
  /** The application registry. */
  readonly registry: Pick<RegistryApi, "applications">;
  /** Computers and installations. */
  readonly estate: Pick<EstateApi, "computers" | "applications">;
  /** The organisation tree (names). */
  readonly organizations: Pick<OrganizationsApi, "tree">;
}

type Ctx = ReportContext<UnusedSoftwareClient, QueryContext>;

const DAY = 86_400_000;

/**
 * The default thresholds in days.
 *
 * @example
 * ```ts
 * import { DEFAULT_THRESHOLDS } from "./unused_software.ts";
 * console.log(DEFAULT_THRESHOLDS); // [30, 90, 180]
 * ```
 */
export const DEFAULT_THRESHOLDS: readonly number[] = [30, 90, 180];

/**
 * Reads the `thresholds` parameter: a non-empty list of up to 6 strictly ascending whole numbers
 * of days, each at least 1.
 *
 * @example
 * ```ts
 * import { readThresholds } from "./unused_software.ts";
 * console.log(readThresholds([30, 90])); // [30, 90]
 * ```
 */
export function readThresholds(value: unknown): number[] {
  const list = value ?? DEFAULT_THRESHOLDS;
  const bad = (why: string) =>
    new ParamError("thresholds", `${why}, e.g. [30,90,180]; got ${JSON.stringify(value)}`);
  if (!Array.isArray(list) || list.length === 0 || list.length > 6) {
    throw bad("expected a list of 1 to 6 day counts");
  }
  for (let i = 0; i < list.length; i++) {
    const n = list[i];
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
      throw bad("every threshold must be a whole number of days, at least 1");
    }
    if (i > 0 && n <= list[i - 1]) throw bad("thresholds must be strictly ascending");
  }
  return [...list];
}

/**
 * Whether an entitlement state means the install consumes a license: a name starting a word with
 * `licensed` (`Licensed`, `Licensed <via upgrade & downgrade>`, `Under-licensed`), not
 * `Unlicensed`.
 *
 * @example
 * ```ts
 * import { consumesLicense } from "./unused_software.ts";
 * console.log(consumesLicense("Under-licensed"), consumesLicense("Unlicensed")); // true false
 * ```
 */
export function consumesLicense(stateName: string | null | undefined): boolean {
  return /(^|[\s-])licensed\b/i.test(stateName ?? "");
}

/**
 * Idle days of an install (see the module rules); null means unknown, i.e. idle forever.
 *
 * @example
 * ```ts
 * import { idleDays } from "./unused_software.ts";
 * idleDays({ lastUsed: null, firstDiscovered: new Date("2024-01-01T00:00:00Z") } as never,
 *   new Date("2024-01-31T00:00:00Z")); // 30
 * ```
 */
export function idleDays(install: ComputerApplication, now: Date): number | null {
  const since = install.lastUsed ?? install.firstDiscovered;
  if (!since || Number.isNaN(since.getTime())) return null;
  return Math.max(0, Math.floor((now.getTime() - since.getTime()) / DAY));
}

interface AppCounts {
  installations: number;
  recent: number;
  buckets: number[];
  never: number;
  reclaimable: number;
}

async function data(ctx: Ctx): Promise<ReportData> {
  const thresholds = readThresholds(ctx.params.thresholds);
  const first = thresholds[0], top = thresholds[thresholds.length - 1];
  const [registry, computers, { prices }, states, orgNames] = await Promise.all([
    registryById(ctx),
    computersById(ctx),
    licensePrices(ctx),
    ctx.query.all("licenses.entitlementStates", () => ctx.client.licenses.entitlementStates()),
    organizationNames(ctx),
  ]);
  const licensedStates = new Set(states.filter((s) => consumesLicense(s.name)).map((s) => s.id));
  const licensed = new Set<string>();
  for await (const e of ctx.client.licenses.computerEntitlements({ signal: ctx.signal })) {
    if (e.entitlementStateId && licensedStates.has(e.entitlementStateId)) {
      licensed.add(`${e.computerId}\u0000${e.applicationId}`);
    }
  }
  const isLicensed = (i: ComputerApplication) =>
    licensed.has(`${i.computerId}\u0000${i.applicationId}`);

  const userFilter = ctx.filter ? [parseFilter(ctx.filter)] : [];
  const installed = eq("isInstalled", true);
  const bucketOf = (days: number) => {
    let b = -1;
    for (let i = 0; i < thresholds.length; i++) if (days >= thresholds[i]) b = i;
    return b;
  };

  // Pass 1: counts per application.
  const counts = new Map<string, AppCounts>();
  const pass1 = ctx.client.estate.applications({
    filter: userFilter.length ? and(installed, ...userFilter) : installed,
    signal: ctx.signal,
  });
  for await (const i of pass1) {
    if (i.isInstalled !== true || !i.applicationId) continue;
    let c = counts.get(i.applicationId);
    if (!c) {
      counts.set(
        i.applicationId,
        c = {
          installations: 0,
          recent: 0,
          buckets: thresholds.map(() => 0),
          never: 0,
          reclaimable: 0,
        },
      );
    }
    c.installations++;
    const idle = idleDays(i, ctx.now);
    if (!i.lastUsed) c.never++;
    else {
      const b = bucketOf(idle!);
      if (b < 0) c.recent++;
      else c.buckets[b]++;
    }
    if ((idle === null || idle >= top) && isLicensed(i)) c.reclaimable++;
  }

  const label = (id: string) => applicationLabel(id, registry.get(id));
  const appIds = [...counts.keys()]
    .filter((id) => {
      const c = counts.get(id)!;
      return c.never > 0 || c.buckets.some((n) => n > 0);
    })
    .sort((a, b) => {
      const ca = counts.get(a)!, cb = counts.get(b)!;
      const ua = ca.installations - ca.recent, ub = cb.installations - cb.recent;
      return ub - ua || compareText(label(a), label(b)) || compareText(a, b);
    });
  const value = new Map<string, { applications: number; licenses: number; cents: number }>();
  let unpriced = { applications: 0, licenses: 0 };
  const appRows: Row[] = appIds.map((id) => {
    const c = counts.get(id)!;
    const line = pricingLine(prices.get(id));
    let reclaimValue: number | null = null;
    if (c.reclaimable > 0 && line) {
      reclaimValue = costAt(c.reclaimable, line);
      const v = value.get(line.currency) ?? { applications: 0, licenses: 0, cents: 0 };
      v.applications++;
      v.licenses += c.reclaimable;
      v.cents += Math.round(reclaimValue * 100);
      value.set(line.currency, v);
    } else if (c.reclaimable > 0) {
      unpriced = {
        applications: unpriced.applications + 1,
        licenses: unpriced.licenses + c.reclaimable,
      };
    }
    const row: Row = {
      application: applicationName(id, registry.get(id)),
      version: registry.get(id)?.version ?? null,
      manufacturer: registry.get(id)?.manufacturer ?? null,
      installations: c.installations,
      recent: c.recent,
      never: c.never,
      unused: c.installations - c.recent,
      reclaimable: c.reclaimable,
      currency: line?.currency ?? null,
      unitPrice: line ? Math.round(unitCents(line)) / 100 : null,
      reclaimValue,
    };
    c.buckets.forEach((n, b) => row[`idle${thresholds[b]}`] = n);
    return row;
  });

  const bucketLabel = (b: number) =>
    b + 1 < thresholds.length
      ? `${thresholds[b]}–${thresholds[b + 1] - 1} days`
      : `${thresholds[b]}+ days`;
  const bucketColumns: Column[] = thresholds.map((t, b) => ({
    key: `idle${t}`,
    label: `Unused ${bucketLabel(b)}`,
    type: "integer",
  }));

  // Pass 2: the installs idle past the first threshold, streamed (narrowed on the server).
  const cutoff = new Date(ctx.now.getTime() - first * DAY);
  const idleFilter = and(
    installed,
    or(le("lastUsed", cutoff), exists("lastUsed", false)),
    ...userFilter,
  );
  async function* installRows(): AsyncGenerator<Row> {
    const source = ctx.client.estate.applications({
      filter: idleFilter,
      sort: "computerId:asc,applicationId:asc",
      signal: ctx.signal,
    });
    for await (const i of source) {
      if (i.isInstalled !== true || !i.applicationId) continue;
      const idle = idleDays(i, ctx.now);
      if (idle !== null && idle < first) continue;
      const computer = computers.get(i.computerId);
      const lic = isLicensed(i);
      yield {
        organization: organizationLabel(orgNames, computer?.organizationId),
        computer: computer?.hostName ?? i.computerId,
        application: applicationName(i.applicationId, registry.get(i.applicationId)),
        version: registry.get(i.applicationId)?.version ?? null,
        lastUsed: i.lastUsed,
        firstDiscovered: i.firstDiscovered,
        idleDays: idle,
        bucket: i.lastUsed ? bucketLabel(bucketOf(idle!)) : "Never used",
        licensed: lic,
        reclaimable: lic && (idle === null || idle >= top),
      };
    }
  }

  const valueRows: Row[] = [...value.entries()].sort(([a], [b]) => a < b ? -1 : 1).map((
    [currency, v],
  ) => ({
    currency,
    applications: v.applications,
    licenses: v.licenses,
    value: v.cents / 100,
  }));
  if (unpriced.applications > 0) {
    valueRows.push({
      currency: null,
      applications: unpriced.applications,
      licenses: unpriced.licenses,
      value: null,
    });
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
          { key: "application", label: "Application", type: "text", width: 30 },
          { key: "version", label: "Version", type: "text", width: 10 },
          { key: "manufacturer", label: "Manufacturer", type: "text", width: 18 },
          { key: "installations", label: "Installations", type: "integer" },
          { key: "recent", label: `Used within ${first} days`, type: "integer" },
          ...bucketColumns,
          {
            key: "never",
            label: "Never used",
            type: "integer",
            emphasis: (r) => (r.never as number) > 0 ? "warn" : undefined,
          },
          { key: "reclaimable", label: "Reclaimable licenses", type: "integer" },
          { key: "currency", label: "Currency", type: "text", width: 8 },
          { key: "unitPrice", label: "Average unit price", type: "currency" },
          { key: "reclaimValue", label: "Reclaimable value", type: "currency" },
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
      },
      {
        id: "installations",
        title: `Installations unused for ${first} days or more`,
        description: "One row per computer and application, grouped by organization, in " +
          "computer order. Never-used installs count their idle days from first discovery.",
        columns: [
          { key: "organization", label: "Organization", type: "text", width: 16 },
          { key: "computer", label: "Computer", type: "text", width: 22 },
          { key: "application", label: "Application", type: "text", width: 30 },
          { key: "version", label: "Version", type: "text", width: 10 },
          { key: "lastUsed", label: "Last used", type: "date" },
          { key: "firstDiscovered", label: "First discovered", type: "date" },
          { key: "idleDays", label: "Days unused", type: "integer" },
          { key: "bucket", label: "Bucket", type: "text", width: 14 },
          { key: "licensed", label: "Licensed", type: "boolean" },
          {
            key: "reclaimable",
            label: "Reclaimable",
            type: "boolean",
            emphasis: (r) => r.reclaimable ? "warn" : undefined,
          },
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
          { key: "currency", label: "Currency", type: "text", width: 8 },
          { key: "applications", label: "Applications", type: "integer" },
          { key: "licenses", label: "Reclaimable licenses", type: "integer" },
          { key: "value", label: "Value", type: "currency" },
        ],
        rows: valueRows,
        emptyText: `No licensed installation has gone unused for ${top} days or more.`,
      },
    ],
    summary: (): Fact[] => {
      const sum = (f: (c: AppCounts) => number) =>
        [...counts.values()].reduce((n, c) => n + f(c), 0);
      const facts: Fact[] = [
        { label: "Installations", value: sum((c) => c.installations), type: "integer" },
        {
          label: `Unused ${first}+ days or never used`,
          value: sum((c) => c.installations - c.recent),
          type: "integer",
        },
        { label: "Never used", value: sum((c) => c.never), type: "integer" },
        { label: "Reclaimable licenses", value: sum((c) => c.reclaimable), type: "integer" },
      ];
      for (const row of valueRows) {
        if (row.currency === null) continue;
        facts.push(currencyFact("Reclaimable value", row.currency as string, row.value));
      }
      return facts;
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
