/**
 * Requirements carried by a physical virtualisation host instead of its virtual machines, by
 * samkit's ELP rules: one `metric_tracking` row per host and application with `physicalHost` 1,
 * covered once ({@link cover}). Two cases:
 * - host-based per-core products (an Oracle-style database on virtual machines, no
 *   sub-capacity, `hostBased` families): the row is made when the first virtual machine of the
 *   host installs the product; its `initialRequirement` is the host's physical cores, its
 *   `requirement` `max(ceil(cores × coreFactor), minimum)` (x86 hosts take the family's core
 *   factor, IBM POWER its own factor 1); the virtual machines' installs take the host row's
 *   entitlement state ({@link hostBasedState});
 * - Windows Server Datacenter licensed for a VMware cluster: each host of the cluster carries
 *   the cores its cluster license pays for ({@link emitClusterHostRow}); the Windows virtual
 *   machines on it have extended coverage.
 *
 * @module
 */

import { CPUS, ORGANIZATIONS } from "./generator_catalogue.ts";
import { APP_INFOS, computerId, type Ctx, FAMILIES, type Row } from "./generator_context.ts";
import { cover } from "./generator_coverage.ts";
import { type HostPlan, Hypervisor } from "./generator_plan.ts";

/** Families whose rows count as database servers. */
const DB_KEYS = new Set(["sql-server", "oracle-db", "db2"]);
const appFamily = (app: number) => APP_INFOS[app].family;
const appId = (app: number) => APP_INFOS[app].id;

/** A metric tracking row with every count 0 but the given fields. */
function metricRow(fields: Row): Row {
  return {
    computerId: null,
    metricId: null,
    applicationId: null,
    initialRequirement: 0,
    includedInBundle: 0,
    outsideMetricPeriod: 0,
    secondaryUseRightsDesktopLaptop: 0,
    secondaryUseRightsDevice: 0,
    extendedCoverageForDcc: 0,
    extendedCoverageForHost: 0,
    multipleVersionEdition: 0,
    virtualDesktopInfrastructure: 0,
    minimumRequirement: 0,
    coreFactor: 1,
    physicalHost: 1,
    requirement: 0,
    computerAppExclusions: 0,
    serverOs: 0,
    virtualMachine: 0,
    unknownPhysicalHost: 0,
    manuallyExcluded: 0,
    requirementMoved: 0,
    serverOsFlag: 0,
    databaseServer: 0,
    ...fields,
  };
}

/** Initial requirement, minimum and core factor of a host's physical cores. */
function hostCores(h: HostPlan, factor: number): [number, number, number] {
  const cpu = CPUS[h.cpu];
  const coreFactor = cpu.manufacturer === "IBM" ? 1 : factor;
  if (h.noHardware) return [0, 16, coreFactor];
  return [h.sockets * cpu.cores, 0, coreFactor];
}

/** Emit the host row of `app` on host `h` with its coverage; returns the entitlement state. */
function hostRow(
  ctx: Ctx,
  h: HostPlan,
  app: number,
  figures: { initial: number; minimum: number; coreFactor: number; first: number },
): string {
  const family = appFamily(app);
  const fam = FAMILIES[family];
  const requirement = Math.max(
    Math.ceil(figures.initial * figures.coreFactor),
    figures.minimum,
  );
  const id = computerId(h.computer);
  const organizationId = ORGANIZATIONS[ctx.plan.org[h.computer]].id;
  const serverOs = h.hypervisor === Hypervisor.HyperV ? 1 : 0;
  const state = cover(ctx, {
    computerId: id,
    organizationId,
    app,
    family,
    metric: fam.metric,
    requirement,
    user: -1,
    first: figures.first,
    crossPlatform: false,
    assignment: {
      invalidAssignmentReasons: 0,
      hasVmUseRights: true,
      numberOfSupportedVirtualMachines: ctx.plan.vmCount[ctx.plan.hostOrdinal[h.computer]],
    },
  });
  ctx.emit(
    "metric_tracking",
    metricRow({
      computerId: id,
      metricId: fam.metric,
      applicationId: appId(app),
      initialRequirement: figures.initial,
      minimumRequirement: figures.minimum,
      coreFactor: figures.coreFactor,
      requirement,
      serverOs,
      unknownPhysicalHost: h.noHardware ? 1 : 0,
      serverOsFlag: serverOs,
      databaseServer: DB_KEYS.has(fam.key) ? 1 : 0,
    }),
  );
  return state;
}

/**
 * The entitlement state of a virtual machine's install of host-based product `app` on host
 * ordinal `host`: the state of the host row, which is made and covered on first use.
 *
 * @example
 * ```ts ignore
 * const state = hostBasedState(ctx, plan.hostOf[i], app); // "ES03" when the host is short
 * ```
 */
export function hostBasedState(ctx: Ctx, host: number, app: number): string {
  const key = `${host}|${app}`;
  const known = ctx.book.hostStates.get(key);
  if (known !== undefined) return known;
  const h = ctx.plan.hosts[host];
  const [initial, minimum, coreFactor] = hostCores(h, FAMILIES[appFamily(app)].coreFactor ?? 1);
  const state = hostRow(ctx, h, app, { initial, minimum, coreFactor, first: -1 });
  ctx.book.hostStates.set(key, state);
  return state;
}

/**
 * Emit the Windows Server Datacenter row of a host of a VMware cluster licensed with
 * Datacenter, covered by the cluster's license. Does nothing for other hosts.
 *
 * @example
 * ```ts ignore
 * emitClusterHostRow(ctx, plan.hostOrdinal[i]);
 * ```
 */
export function emitClusterHostRow(ctx: Ctx, host: number): void {
  const h = ctx.plan.hosts[host];
  if (h.cluster < 0 || h.hypervisor === Hypervisor.HyperV) return;
  const license = ctx.book.clusterLicense[h.cluster];
  if (license < 0) return;
  const cpu = CPUS[h.cpu];
  const initial = h.noHardware ? 0 : h.sockets * cpu.cores;
  const minimum = h.noHardware ? 16 : Math.max(16, 8 * h.sockets);
  hostRow(ctx, h, ctx.book.list[license].app, { initial, minimum, coreFactor: 1, first: license });
}
