/**
 * The licensing of one installed licensable product: its requirement under the family's metric
 * (cores with core factor and minimums, PVU, or one per install), the entitlement state it ends
 * in (excluded, inactive, extended coverage, host-based, secondary use rights, or ordinary
 * coverage from the licenses that can cover it), and its `metric_tracking` and
 * `computer_application_entitlements` rows.
 *
 * @module
 */

import { MET, Profile, STATE, USD_PER } from "./generator_catalogue.ts";
import { APP_INFOS, type Ctx, FAMILIES } from "./generator_context.ts";
import { cover } from "./generator_coverage.ts";
import {
  coverageParent,
  DB_FAMILIES,
  emitExtendedCoverage,
} from "./generator_extended_coverage.ts";
import { hostBasedState } from "./generator_host_rows.ts";
import type { Machine } from "./generator_machine.ts";
import { Kind } from "./generator_plan.ts";

/** The requirement of an install before any exclusion or coverage. */
interface Requirement {
  readonly initial: number;
  readonly minimum: number;
  readonly coreFactor: number;
  /** `max(ceil(initial × coreFactor), minimum)`. */
  readonly base: number;
}

/** Where an install's requirement ended up, and the tracking flags that say why. */
interface Outcome {
  readonly requirement: number;
  readonly state: string;
  readonly outsideMetricPeriod?: number;
  readonly manually?: number;
  readonly moved?: number;
  readonly dcc?: number;
  readonly hostCoverage?: number;
  readonly secondary?: number;
}

/** The requirement of an install of license family `family` on this machine. */
function requirementOf(m: Machine, family: number): Requirement {
  const fam = FAMILIES[family];
  const metric = fam.metric;
  const { cpu, coreCount, noHardware, sockets } = m.hw;
  let initial = 1, minimum = 0, coreFactor = 1;
  if (metric === MET.cores || metric === MET.pvu) {
    coreFactor = metric === MET.cores ? (cpu.manufacturer === "IBM" ? 1 : fam.coreFactor ?? 1) : 1;
    initial = noHardware ? 0 : metric === MET.pvu ? coreCount * cpu.pvu : coreCount;
    if (fam.key === "windows-server") minimum = m.isVirtual ? 8 : Math.max(16, 8 * sockets);
    else if (fam.key === "vsphere") minimum = 16 * sockets;
    else if (fam.key === "sql-server") minimum = m.isVirtual ? 4 : 4 * sockets;
    if (noHardware) minimum = Math.max(minimum, metric === MET.pvu ? 1200 : 16);
  }
  return { initial, minimum, coreFactor, base: Math.max(Math.ceil(initial * coreFactor), minimum) };
}

/** The outcome of an install that no exclusion applies to. */
function coveredOutcome(ctx: Ctx, m: Machine, a: number, family: number, req: number): Outcome {
  const { plan, book } = ctx;
  const fam = FAMILIES[family];
  const hostBased = m.kind === Kind.Vm && m.myHost !== null && fam.hostBased === true;
  const parent = coverageParent(ctx, m, a, family, hostBased);
  if (parent !== null) {
    emitExtendedCoverage(ctx, m, a, parent);
    return {
      requirement: 0,
      state: STATE.extendedCoverage,
      moved: 1,
      dcc: parent.dcc ? 1 : 0,
      hostCoverage: parent.hostCoverage ? 1 : 0,
    };
  }
  if (hostBased) {
    // Licensed per physical core of the host: the host row carries the requirement.
    return { requirement: 0, state: hostBasedState(ctx, plan.hostOf[m.index], a), moved: 1 };
  }
  if (m.kind === Kind.Laptop && fam.key === "office" && m.random.chance(0.04)) {
    return { requirement: 0, state: STATE.licensed, secondary: 1 };
  }
  // Ordinary coverage from every license that can cover the install.
  const hostPlan = m.hostPlan;
  const clusterLicense = hostPlan && hostPlan.cluster >= 0 && fam.key === "windows-server"
    ? book.clusterLicense[hostPlan.cluster]
    : -1;
  const state = cover(ctx, {
    computerId: m.id,
    organizationId: m.org.id,
    app: a,
    family,
    metric: fam.metric,
    requirement: req,
    user: plan.user[m.index],
    first: clusterLicense,
    crossPlatform: fam.crossPlatform && m.profile === Profile.Mac,
    assignment: {
      // InactiveComputer (8) of the real service's reason flags.
      invalidAssignmentReasons: m.life.inactive ? 8 : 0,
      hasVmUseRights: m.kind === Kind.Host,
      numberOfSupportedVirtualMachines: hostPlan ? plan.vmCount[plan.hostOrdinal[m.index]] : 0,
    },
  });
  return { requirement: req, state };
}

/** The outcome of an install: excluded by hand, outside the metric period, or covered. */
function outcomeOf(ctx: Ctx, m: Machine, a: number, family: number, req: number): Outcome {
  if (m.life.excluded) return { requirement: 0, state: STATE.excluded, manually: 1 };
  if (m.life.inactive) return { requirement: 0, state: STATE.excluded, outsideMetricPeriod: 1 };
  return coveredOutcome(ctx, m, a, family, req);
}

/**
 * License install `a` of a machine: emit its tracking and entitlement rows (and any extended
 * coverage, transfer, tracking or assignment rows its coverage makes) and return its list price
 * in cents of the machine's currency. `familyCount` counts the machine's installs per family.
 *
 * @example
 * ```ts
 * import { licenseInstall } from "./generator_install_licensing.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * import { APP_INFOS } from "./generator_context.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const tables = new Set<string>();
 * const emit = (table: string) => void tables.add(table);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * const m = planMachine(ctx, 0);
 * const a = m.sw.installs.find((x) => APP_INFOS[x].family >= 0);
 * if (a !== undefined) licenseInstall(ctx, m, a, new Map());
 * console.log(a === undefined || tables.has("metric_tracking")); // true
 * ```
 */
export function licenseInstall(
  ctx: Ctx,
  m: Machine,
  a: number,
  familyCount: ReadonlyMap<number, number>,
): number {
  const family = APP_INFOS[a].family;
  const fam = FAMILIES[family];
  const req = requirementOf(m, family);
  const costCents = Math.round(
    ((fam.buy[0]?.[2] ?? 50) * req.base / USD_PER[m.purchase.currency]) * 100,
  );
  const out = outcomeOf(ctx, m, a, family, req.base);
  emitLicensingRows(ctx, m, a, family, req, out, familyCount);
  return costCents;
}

/** The `metric_tracking` and `computer_application_entitlements` rows of an install. */
function emitLicensingRows(
  ctx: Ctx,
  m: Machine,
  a: number,
  family: number,
  req: Requirement,
  out: Outcome,
  familyCount: ReadonlyMap<number, number>,
): void {
  const metric = FAMILIES[family].metric;
  const { kind, isVirtual } = m;
  const serverOs = m.names.serverOs ? 1 : 0;
  const manually = out.manually ?? 0;
  ctx.emit("metric_tracking", {
    computerId: m.id,
    metricId: metric,
    applicationId: APP_INFOS[a].id,
    initialRequirement: req.initial,
    includedInBundle: 0,
    outsideMetricPeriod: out.outsideMetricPeriod ?? 0,
    secondaryUseRightsDesktopLaptop: out.secondary ?? 0,
    secondaryUseRightsDevice: 0,
    extendedCoverageForDcc: out.dcc ?? 0,
    extendedCoverageForHost: out.hostCoverage ?? 0,
    multipleVersionEdition: (familyCount.get(family) ?? 0) > 1 ? 1 : 0,
    virtualDesktopInfrastructure: kind === Kind.Vdi ? 1 : 0,
    minimumRequirement: req.minimum,
    coreFactor: req.coreFactor,
    physicalHost: kind === Kind.Host ? 1 : 0,
    requirement: out.requirement,
    computerAppExclusions: manually,
    serverOs,
    virtualMachine: isVirtual ? 1 : 0,
    unknownPhysicalHost: m.myHost?.noHardware ? 1 : 0,
    manuallyExcluded: manually,
    requirementMoved: out.moved ?? 0,
    serverOsFlag: serverOs,
    databaseServer: DB_FAMILIES.has(family) ? 1 : 0,
  });
  ctx.emit("computer_application_entitlements", {
    computerId: m.id,
    applicationId: APP_INFOS[a].id,
    metricId: metric,
    entitlementStateId: out.state,
  });
}
