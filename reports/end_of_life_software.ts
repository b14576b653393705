/**
 * End-of-life software: installations of registry applications marked end of life (what counts
 * and how the service is asked: `lib/sam/end_of_life.ts`; the user's filter applies to the
 * registry), summarised per application and listed per organisation (by name) and computer.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { organizationNames, organizationScope } from "../lib/query/names.ts";
import { checkOrganization } from "../lib/sam/organization_check.ts";
import { date, integer, text } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import { applicationsByDate, endOfLifeInstalls } from "../lib/sam/end_of_life_installs.ts";
import { installsByOrganization } from "../lib/sam/end_of_life_installs.ts";

export { MAX_IN_LIST } from "../lib/sam/end_of_life.ts";

/** The slice of the SAM client this report reads. */
export type EndOfLifeSoftwareClient = ClientSlice<
  { registry: "applications"; estate: "computers" | "applications"; organizations: "tree" }
>;

const TIMELINE = {
  type: "timeline",
  title: "End-of-life dates (installations after the name)",
  label: "label",
  date: "endOfLifeDate",
  value: "installations",
  withinMonths: 12,
  top: 40,
} as const;

async function data(
  ctx: ReportContext<EndOfLifeSoftwareClient, QueryContext>,
): Promise<ReportData> {
  const orgId = ctx.params.organization as string | undefined;
  await checkOrganization(ctx, orgId);
  const [installs, orgNames] = await Promise.all([
    endOfLifeInstalls(ctx, orgId),
    organizationNames(ctx),
  ]);
  return {
    sections: [{
      id: "applications",
      title: `End-of-life applications installed${organizationScope(orgNames, orgId)}`,
      description: "Registry applications marked end of life that are installed somewhere, " +
        "earliest end-of-life date first.",
      columns: [
        text("application", "Application", { width: 30 }),
        text("version", "Version", { width: 10, whenUnfilled: "drop" }),
        text("manufacturer", "Manufacturer", { width: 20 }),
        date("endOfLifeDate", "End of life"),
        integer("installations", "Installations"),
        integer("computers", "Computers"),
        integer("organizations", "Organizations"),
      ],
      rows: applicationsByDate(installs),
      totals: { sum: ["installations"] },
      chart: TIMELINE,
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
        text("version", "Version", { width: 10, whenUnfilled: "drop" }),
        date("endOfLifeDate", "End of life"),
        date("lastUsed", "Last used"),
        date("firstDiscovered", "First discovered"),
      ],
      rows: installsByOrganization(installs),
      group: { by: "organization", label: "Organization" },
      totals: { sum: [] },
      emptyText: "No computer has an end-of-life application installed.",
      facts: [
        { label: "Computers affected", distinct: "computer" },
        { label: "Organizations affected", distinct: "organization" },
      ],
    }],
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
    organization: stringParam("Only computers of this organization (default: all organizations)"),
  },
  filterResource: "RegistryApplication",
  landscape: true,
  data,
});
