/**
 * End-of-life software: installations of registry applications marked end of life, summarised
 * per application and listed per organisation and computer.
 *
 * The registry is asked for `isEndOfLife -eq true` (and the user's filter, which applies to
 * registry applications); installations are then read once, narrowed on the server to installed
 * copies of those applications when the list is short enough for a query string. Organisations
 * are shown by name (the organisation tree, read once per run; the id when it has none).
 *
 * @module
 */

import type { EstateApi, OrganizationsApi, RegistryApi } from "../lib/api/client.ts";
import { and, eq, isIn } from "../lib/api/filter_builder.ts";
import { parseFilter } from "../lib/api/filter_parser.ts";
import { printFilter } from "../lib/api/filter_printer.ts";
import type { QueryContext } from "../lib/query/context.ts";
import type { Fact, ReportContext, ReportData, Row } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import {
  applicationLabel,
  applicationName,
  compareText,
  computersById,
  registryById,
} from "./support/lookups.ts";
import { organizationLabel, organizationNames, organizationScope } from "./support/names.ts";
import { versionWhenSent } from "./support/versions.ts";

/** The slice of the SAM client this report reads. */
export interface EndOfLifeSoftwareClient {
  /** The application registry. */
  readonly registry: Pick<RegistryApi, "applications">;
  /** Computers and the installations of all computers. */
  readonly estate: Pick<EstateApi, "computers" | "applications">;
  /** The organisation tree (names). */
  readonly organizations: Pick<OrganizationsApi, "tree">;
}

type Ctx = ReportContext<EndOfLifeSoftwareClient, QueryContext>;

/**
 * The most application ids put in an `-in` list on the server; beyond, filtering is local.
 *
 * @example
 * ```ts
 * import { MAX_IN_LIST } from "./end_of_life_software.ts";
 * console.log(MAX_IN_LIST); // 100
 * ```
 */
export const MAX_IN_LIST = 100;

interface Install {
  organization: string;
  computerId: string;
  hostName: string | null;
  status: string | null;
  lastScan: Date | null;
  applicationId: string;
  lastUsed: Date | null;
  firstDiscovered: Date | null;
}

async function data(ctx: Ctx): Promise<ReportData> {
  const organization = ctx.params.organization as string | undefined;
  const eol = eq("isEndOfLife", true);
  const registryFilter = printFilter(ctx.filter ? and(eol, parseFilter(ctx.filter)) : eol);
  const [registry, orgNames] = await Promise.all([
    registryById(ctx, registryFilter),
    organizationNames(ctx),
  ]);
  const apps = new Map([...registry].filter(([, a]) => a.isEndOfLife === true));

  const installs: Install[] = [];
  if (apps.size > 0) {
    const computers = await computersById(ctx);
    const ids = [...apps.keys()].sort();
    const installed = eq("isInstalled", true);
    const filter = printFilter(
      ids.length <= MAX_IN_LIST ? and(installed, isIn("applicationId", ids)) : installed,
    );
    for await (const install of ctx.client.estate.applications({ filter, signal: ctx.signal })) {
      if (install.isInstalled !== true || !install.applicationId || !install.computerId) continue;
      if (!apps.has(install.applicationId)) continue;
      const computer = computers.get(install.computerId);
      const org = organizationLabel(orgNames, computer?.organizationId);
      if (organization !== undefined && computer?.organizationId !== organization) continue;
      installs.push({
        organization: org,
        computerId: install.computerId,
        hostName: computer?.hostName ?? null,
        status: computer?.status ?? null,
        lastScan: computer?.lastScanDate ?? null,
        applicationId: install.applicationId,
        lastUsed: install.lastUsed,
        firstDiscovered: install.firstDiscovered,
      });
    }
  }

  const label = (id: string) => applicationLabel(id, apps.get(id));
  const perApp = new Map<
    string,
    { installations: number; computers: Set<string>; organizations: Set<string> }
  >();
  for (const i of installs) {
    let a = perApp.get(i.applicationId);
    if (!a) {
      perApp.set(
        i.applicationId,
        a = { installations: 0, computers: new Set(), organizations: new Set() },
      );
    }
    a.installations++;
    a.computers.add(i.computerId);
    a.organizations.add(i.organization);
  }
  const eolTime = (id: string) => apps.get(id)?.endOfLifeDate?.getTime() ?? Infinity;
  const appRows: Row[] = [...perApp.entries()]
    .sort(([a], [b]) =>
      eolTime(a) - eolTime(b) || compareText(label(a), label(b)) || compareText(a, b)
    )
    .map(([id, a]) => ({
      application: applicationName(id, apps.get(id)),
      version: apps.get(id)?.version ?? null,
      manufacturer: apps.get(id)?.manufacturer ?? null,
      endOfLifeDate: apps.get(id)?.endOfLifeDate ?? null,
      installations: a.installations,
      computers: a.computers.size,
      organizations: a.organizations.size,
    }));

  installs.sort((a, b) =>
    compareText(a.organization, b.organization) ||
    compareText(a.hostName ?? "", b.hostName ?? "") ||
    compareText(a.computerId, b.computerId) ||
    compareText(label(a.applicationId), label(b.applicationId)) ||
    compareText(a.applicationId, b.applicationId)
  );
  const detailRows: Row[] = installs.map((i) => ({
    organization: i.organization,
    computer: i.hostName ?? i.computerId,
    status: i.status,
    lastScan: i.lastScan,
    application: applicationName(i.applicationId, apps.get(i.applicationId)),
    version: apps.get(i.applicationId)?.version ?? null,
    endOfLifeDate: apps.get(i.applicationId)?.endOfLifeDate ?? null,
    lastUsed: i.lastUsed,
    firstDiscovered: i.firstDiscovered,
  }));

  const computersAffected = new Set(installs.map((i) => i.computerId)).size;
  const orgsAffected = new Set(installs.map((i) => i.organization)).size;
  const scope = organizationScope(orgNames, organization);
  return {
    sections: versionWhenSent([
      {
        id: "applications",
        title: `End-of-life applications installed${scope}`,
        description: "Registry applications marked end of life that are installed somewhere, " +
          "earliest end-of-life date first.",
        columns: [
          { key: "application", label: "Application", type: "text", width: 30 },
          { key: "version", label: "Version", type: "text", width: 10 },
          { key: "manufacturer", label: "Manufacturer", type: "text", width: 20 },
          { key: "endOfLifeDate", label: "End of life", type: "date" },
          { key: "installations", label: "Installations", type: "integer" },
          { key: "computers", label: "Computers", type: "integer" },
          { key: "organizations", label: "Organizations", type: "integer" },
        ],
        rows: appRows,
        totals: { sum: ["installations"] },
        emptyText: "No end-of-life application is installed.",
      },
      {
        id: "computers",
        title: "End-of-life installations per organization and computer",
        description: "Each installation of an end-of-life application, grouped by organization.",
        columns: [
          { key: "organization", label: "Organization", type: "text", width: 20 },
          { key: "computer", label: "Computer", type: "text", width: 24 },
          { key: "status", label: "Computer status", type: "text" },
          { key: "lastScan", label: "Last scan", type: "date" },
          { key: "application", label: "Application", type: "text", width: 30 },
          { key: "version", label: "Version", type: "text", width: 10 },
          { key: "endOfLifeDate", label: "End of life", type: "date" },
          { key: "lastUsed", label: "Last used", type: "date" },
          { key: "firstDiscovered", label: "First discovered", type: "date" },
        ],
        rows: detailRows,
        group: { by: "organization", label: "Organization" },
        totals: { sum: [] },
        emptyText: "No computer has an end-of-life application installed.",
      },
    ]),
    summary: (): Fact[] => [
      { label: "End-of-life applications installed", value: appRows.length, type: "integer" },
      { label: "Installations", value: installs.length, type: "integer" },
      { label: "Computers affected", value: computersAffected, type: "integer" },
      { label: "Organizations affected", value: orgsAffected, type: "integer" },
    ],
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
