/**
 * Applications per organisation, the README's example report: installs joined to computers and
 * the registry, grouped, in one declared section with its headline facts.
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import { eq } from "../lib/api/filter_builder.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { groupStream } from "../lib/query/group_by.ts";
import { computersById, registryById } from "../lib/query/lookups.ts";
import { count, distinct, max } from "../lib/query/measures.ts";
import { organizationLabel, organizationNames } from "../lib/query/names.ts";
import { asc, desc, sortBy } from "../lib/query/sort.ts";
import { datetime, integer, text } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { applicationLabel } from "../lib/sam/lookups.ts";

/** The slice of the SAM client this report reads. */
export type AppsPerOrgClient = ClientSlice<
  { estate: "applications" | "computers"; registry: "applications"; organizations: "tree" }
>;

async function data(ctx: ReportContext<AppsPerOrgClient, QueryContext>): Promise<ReportData> {
  const lookups = [computersById(ctx), registryById(ctx), organizationNames(ctx)] as const;
  const [computers, registry, names] = await Promise.all(lookups);
  const installs = ctx.client.estate.applications({ filter: eq("isInstalled", true) });
  const rows = await groupStream(installs, (i) => ({
    organization: organizationLabel(names, computers.get(i.computerId)?.organizationId),
    application: applicationLabel(i.applicationId ?? "", registry.get(i.applicationId ?? "")),
    publisher: registry.get(i.applicationId ?? "")?.manufacturer ?? null,
  }), {
    installs: count(),
    computers: distinct((i) => i.computerId),
    lastUsed: max((i) => i.lastUsed),
  });
  return {
    sections: [{
      id: "applications",
      title: "Applications per organization",
      description: "Installations, distinct computers and the latest use, per organization.",
      columns: [
        text("organization", "Organization", { width: 24 }),
        text("application", "Application", { width: 36 }),
        text("publisher", "Publisher", { width: 20 }),
        integer("installs", "Installations"),
        integer("computers", "Computers"),
        datetime("lastUsed", "Last used"),
      ],
      rows: sortBy(rows, asc("organization"), desc("installs"), asc("application")),
      group: { by: "organization", label: "Organization" },
      totals: { sum: ["installs"] },
      facts: [
        { label: "Installations", sum: "installs" },
        { label: "Applications", distinct: "application" },
        { label: "Organizations", distinct: "organization" },
      ],
    }],
  };
}

/**
 * The applications-per-organisation report (the README's example).
 *
 * @example
 * ```ts
 * import { applicationsPerOrganization } from "./applications_per_organization.ts";
 * console.log(applicationsPerOrganization.id); // "applications-per-organization"
 * ```
 */
export const applicationsPerOrganization = defineReport<AppsPerOrgClient, QueryContext>({
  id: "applications-per-organization",
  title: "Applications per organization",
  description: "Installed applications per organization: installations, computers, last use.",
  params: {},
  data,
});
