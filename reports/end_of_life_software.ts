/**
 * End-of-life software: installations of registry applications marked end of life (what counts
 * and how the service is asked: `support/end_of_life.ts`; the user's filter applies to the
 * registry), summarised per application and listed per organisation (by name) and computer.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { filterMap } from "../lib/query/filter_map.ts";
import { groupBy } from "../lib/query/group_by.ts";
import { type Computer, computersById, registryById } from "../lib/query/lookups.ts";
import { count, distinct, first } from "../lib/query/measures.ts";
import { organizationLabel, organizationNames, organizationScope } from "../lib/query/names.ts";
import { asc, sortBy } from "../lib/query/sort.ts";
import { date, integer, text } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { endOfLifeRegistryFilter, installedFilter } from "./support/end_of_life.ts";
import { isEndOfLifeInstall } from "./support/end_of_life.ts";
import { applicationLabel, applicationName } from "./support/lookups.ts";
import { versionWhenSent } from "./support/versions.ts";

export { MAX_IN_LIST } from "./support/end_of_life.ts";

/** The slice of the SAM client this report reads. */
export type EndOfLifeSoftwareClient = ClientSlice<
  { registry: "applications"; estate: "computers" | "applications"; organizations: "tree" }
>;

type Ctx = ReportContext<EndOfLifeSoftwareClient, QueryContext>;

async function data(ctx: Ctx): Promise<ReportData> {
  const orgId = ctx.params.organization as string | undefined;
  const [registry, orgNames] = await Promise.all([
    registryById(ctx, endOfLifeRegistryFilter(ctx.filter)),
    organizationNames(ctx),
  ]);
  const apps = new Map([...registry].filter(([, a]) => a.isEndOfLife === true));
  const computers = apps.size ? await computersById(ctx) : new Map<string | null, Computer>();
  const installed = () => ctx.client.estate.applications({ filter: installedFilter(apps.keys()) });
  const inScope = (c?: Computer) => orgId === undefined || c?.organizationId === orgId;
  const installs = await filterMap(apps.size ? installed() : [], (i) => {
    const [app, c] = [apps.get(i.applicationId ?? ""), computers.get(i.computerId)];
    if (!isEndOfLifeInstall(i, apps) || !inScope(c)) return null;
    return {
      applicationId: i.applicationId!,
      computerId: i.computerId!,
      hostName: c?.hostName ?? "",
      computer: c?.hostName ?? i.computerId,
      organization: organizationLabel(orgNames, c?.organizationId),
      status: c?.status ?? null,
      lastScan: c?.lastScanDate ?? null,
      application: applicationName(i.applicationId!, app),
      label: applicationLabel(i.applicationId!, app),
      version: app?.version ?? null,
      manufacturer: app?.manufacturer ?? null,
      endOfLifeDate: app?.endOfLifeDate ?? null,
      lastUsed: i.lastUsed,
      firstDiscovered: i.firstDiscovered,
    };
  });
  const applications = groupBy(installs, (i) => ({ applicationId: i.applicationId }), {
    install: first((i: typeof installs[number]) => i),
    installations: count(),
    computers: distinct((i) => i.computerId),
    organizations: distinct((i) => i.organization),
  }).map(({ install, ...figures }) => ({ ...install!, ...figures }));
  return {
    sections: versionWhenSent([{
      id: "applications",
      title: `End-of-life applications installed${organizationScope(orgNames, orgId)}`,
      description: "Registry applications marked end of life that are installed somewhere, " +
        "earliest end-of-life date first.",
      columns: [
        text("application", "Application", { width: 30 }),
        text("version", "Version", { width: 10 }),
        text("manufacturer", "Manufacturer", { width: 20 }),
        date("endOfLifeDate", "End of life"),
        integer("installations", "Installations"),
        integer("computers", "Computers"),
        integer("organizations", "Organizations"),
      ],
      rows: sortBy(
        applications,
        asc((a) => a.endOfLifeDate),
        asc((a) => a.label),
        asc((a) => a.applicationId),
      ),
      totals: { sum: ["installations"] },
      emptyText: "No end-of-life application is installed.",
      facts: [
        { label: "End-of-life applications installed", count: true },
        { label: "Installations", sum: "installations" },
      ],
    }, {
      id: "computers",
      title: "End-of-life installations per organization and computer",
      description: "Each installation of an end-of-life application, grouped by organization.",
      columns: [
        text("organization", "Organization", { width: 20 }),
        text("computer", "Computer", { width: 24 }),
        text("status", "Computer status"),
        date("lastScan", "Last scan"),
        text("application", "Application", { width: 30 }),
        text("version", "Version", { width: 10 }),
        date("endOfLifeDate", "End of life"),
        date("lastUsed", "Last used"),
        date("firstDiscovered", "First discovered"),
      ],
      rows: sortBy(
        installs,
        asc("organization"),
        asc("hostName"),
        asc("computerId"),
        asc("label"),
        asc("applicationId"),
      ),
      group: { by: "organization", label: "Organization" },
      totals: { sum: [] },
      emptyText: "No computer has an end-of-life application installed.",
      facts: [
        { label: "Computers affected", distinct: "computer" },
        { label: "Organizations affected", distinct: "organization" },
      ],
    }]),
  };
}

/**
 * The end-of-life software report.
 *
 * @example
 * ```ts ignore
 * import { endOfLifeSoftware } from "./end_of_life_software.ts";
 * const data = await endOfLifeSoftware.data(ctx);
 * console.log(data.sections.map((s) => s.id)); // ["applications", "computers"]
 * ```
 */
export const endOfLifeSoftware = defineReport<EndOfLifeSoftwareClient, QueryContext>({
  id: "end-of-life-software",
  title: "End-of-life software",
  description: "Installations of registry applications that are end of life, summarised per " +
    "application and listed per organization and computer.",
  params: {
    organization: {
      type: "string",
      description: "Only computers of this organization (default: all organizations)",
    },
  },
  filterResource: "RegistryApplication",
  landscape: true,
  data,
});
