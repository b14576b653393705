/**
 * The end-of-life installations of a run, one row each (computer, organisation by name,
 * application and its end-of-life date), read as `end_of_life.ts` rules say (the registry's
 * end-of-life applications, with the user's filter; their installed copies), optionally only on
 * one organisation's computers; and their figures per application.
 *
 * @module
 */

import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { filterMap } from "../query/filter_map.ts";
import { groupBy } from "../query/group_by.ts";
import { type Computer, computersById, registryById } from "../query/lookups.ts";
import { count, distinct, first } from "../query/measures.ts";
import { organizationLabel, type OrganizationNames } from "../query/names.ts";
import { organizationNames } from "../query/names.ts";
import { asc, sortBy } from "../query/sort.ts";
import { endOfLifeRegistryFilter, installedFilter, isEndOfLifeInstall } from "./end_of_life.ts";
import { applicationLabel, applicationName } from "./lookups.ts";
import type {
  ComputerApplication as Install,
  RegistryApplication as Application,
} from "../api/types.ts";

/** What the installations are read with: the client slice, the run's cache, the user's filter. */
export interface EndOfLifeContext {
  /** The client (registry applications, computers, installations, organisation tree). */
  readonly client: ClientSlice<
    { registry: "applications"; estate: "computers" | "applications"; organizations: "tree" }
  >;
  /** The run's query context. */
  readonly query: QueryContext;
  /** The user's registry filter. */
  readonly filter?: string;
}

/** One installation of an end-of-life application. */
export type EndOfLifeInstall = {
  readonly applicationId: string;
  readonly computerId: string;
  /** The computer's host name, `""` when unknown (for sorting). */
  readonly hostName: string;
  /** The host name, else the computer id. */
  readonly computer: string;
  readonly organization: string;
  readonly status: string | null;
  readonly lastScan: Date | null;
  readonly application: string;
  /** The application's label (for sorting). */
  readonly label: string;
  readonly version: string | null;
  readonly manufacturer: string | null;
  readonly endOfLifeDate: Date | null;
  readonly lastUsed: Date | null;
  readonly firstDiscovered: Date | null;
};

/**
 * The row of an end-of-life installation `install` of `app` on computer `c`.
 *
 * @example
 * ```ts
 * import { installRow } from "./end_of_life_installs.ts";
 * const install = { applicationId: "APP1", computerId: "C1", lastUsed: null, firstDiscovered: null };
 * const row = installRow(install, { name: "Flash", version: "9" }, { hostName: "pc1" }, new Map());
 * console.log(row.computer, row.organization); // "pc1" "(no organization)"
 * ```
 */
export function installRow(
  install: Pick<Install, "applicationId" | "computerId" | "lastUsed" | "firstDiscovered">,
  app: Partial<Application> | undefined,
  c: Partial<Computer> | undefined,
  orgNames: OrganizationNames,
): EndOfLifeInstall {
  const id = install.applicationId!;
  return {
    applicationId: id,
    computerId: install.computerId!,
    hostName: c?.hostName ?? "",
    computer: c?.hostName ?? install.computerId!,
    organization: organizationLabel(orgNames, c?.organizationId),
    status: c?.status ?? null,
    lastScan: c?.lastScanDate ?? null,
    application: applicationName(id, app as Application | undefined),
    label: applicationLabel(id, app as Application | undefined),
    version: app?.version ?? null,
    manufacturer: app?.manufacturer ?? null,
    endOfLifeDate: app?.endOfLifeDate ?? null,
    lastUsed: install.lastUsed,
    firstDiscovered: install.firstDiscovered,
  };
}

/**
 * The end-of-life installations, on the computers of organisation `orgId` when given (computers
 * are read only when some application is end of life).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { endOfLifeInstalls } from "./end_of_life_installs.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const installs = await endOfLifeInstalls(ctx);
 *   console.log(installs[0]?.application, installs[0]?.endOfLifeDate);
 * });
 * ```
 */
export async function endOfLifeInstalls(
  ctx: EndOfLifeContext,
  orgId?: string,
): Promise<EndOfLifeInstall[]> {
  const [registry, orgNames] = await Promise.all([
    registryById(ctx, endOfLifeRegistryFilter(ctx.filter)),
    organizationNames(ctx),
  ]);
  const apps = new Map([...registry].filter(([, a]) => a.isEndOfLife === true));
  if (apps.size === 0) return [];
  const computers = await computersById(ctx);
  const installs = ctx.client.estate.applications({ filter: installedFilter(apps.keys()) });
  return await filterMap(installs, (i) => {
    const c = computers.get(i.computerId);
    if (!isEndOfLifeInstall(i, apps) || (orgId !== undefined && c?.organizationId !== orgId)) {
      return null;
    }
    return installRow(i, apps.get(i.applicationId ?? ""), c, orgNames);
  });
}

/** An end-of-life application's first installation and its figures. */
export type EndOfLifeApplication = EndOfLifeInstall & {
  readonly installations: number;
  readonly computers: number;
  readonly organizations: number;
};

/**
 * Per application (in order of first installation): its first installation's fields, with the
 * number of installations, distinct computers and distinct organisations.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { endOfLifeInstalls, perApplication } from "./end_of_life_installs.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const apps = perApplication(await endOfLifeInstalls(ctx));
 *   console.log(apps[0]?.application, apps[0]?.installations);
 * });
 * ```
 */
export function perApplication(installs: readonly EndOfLifeInstall[]): EndOfLifeApplication[] {
  return groupBy(installs, (i) => ({ applicationId: i.applicationId }), {
    install: first((i: EndOfLifeInstall) => i),
    installations: count(),
    computers: distinct((i) => i.computerId),
    organizations: distinct((i) => i.organization),
  }).map(({ install, ...figures }) => ({ ...install!, ...figures }));
}

/**
 * The applications of {@link perApplication}, earliest end-of-life date first (then by label
 * and id): the order of the report's table and of its timeline.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { applicationsByDate, endOfLifeInstalls } from "./end_of_life_installs.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   console.log(applicationsByDate(await endOfLifeInstalls(ctx))[0]?.endOfLifeDate);
 * });
 * ```
 */
export function applicationsByDate(
  installs: readonly EndOfLifeInstall[],
): EndOfLifeApplication[] {
  return sortBy(perApplication(installs), asc("endOfLifeDate"), asc("label"), asc("applicationId"));
}

/**
 * The installations by organisation, computer (host name, then id) and application.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { endOfLifeInstalls, installsByOrganization } from "./end_of_life_installs.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   console.log(installsByOrganization(await endOfLifeInstalls(ctx))[0]?.organization);
 * });
 * ```
 */
export function installsByOrganization(installs: readonly EndOfLifeInstall[]): EndOfLifeInstall[] {
  return sortBy(
    installs,
    asc("organization"),
    asc("hostName"),
    asc("computerId"),
    asc("label"),
    asc("applicationId"),
  );
}
