/**
 * The estate generator's plan: what kind of machine each computer index is, which organisation
 * and user it belongs to, which virtualisation host each virtual machine runs on, the data center
 * clusters and the disaster-recovery pairs. Small typed arrays only, so a plan of 50,000
 * computers costs a few hundred kilobytes; the rows themselves are produced later, one computer
 * at a time.
 *
 * @module
 */

import { hashSeed, Random } from "./random.ts";
import { CPUS, ORGANIZATIONS } from "./generator_catalogue.ts";
import { planVirtualLayer } from "./generator_plan_hosts.ts";
import { placeComputers } from "./generator_plan_placement.ts";
import { planReplicas } from "./generator_plan_replicas.ts";
import {
  type ClusterPlan,
  type HostPlan,
  Kind,
  type Plan,
  type PlanArrays,
} from "./generator_plan_types.ts";

export {
  type ClusterPlan,
  type HostPlan,
  Hypervisor,
  HYPERVISOR_LABEL,
  HYPERVISOR_NAME,
  Kind,
  type Plan,
} from "./generator_plan_types.ts";

/**
 * Core requirement of a host for per-core licensing of the whole host (min 16, 8 per CPU).
 *
 * @example
 * ```ts
 * import { buildPlan, hostCoreRequirement } from "./generator_plan.ts";
 * const plan = buildPlan(1, 400);
 * console.log(plan.hosts.every((h) => hostCoreRequirement(h) >= 16)); // true
 * ```
 */
export function hostCoreRequirement(h: HostPlan): number {
  if (h.noHardware) return 16;
  return Math.max(16, 8 * h.sockets, h.sockets * CPUS[h.cpu].cores);
}

/** Shuffled machine kinds of an estate of `n` computers, in fixed proportions. */
function planKinds(r: Random, n: number): Uint8Array {
  const round = Math.round;
  const hostsN = n >= 10 ? Math.max(1, round(0.03 * n)) : 0;
  const vmN = hostsN ? round(0.19 * n) : 0;
  const vdiN = hostsN ? round(0.05 * n) : 0;
  const serverN = n >= 5 ? Math.max(1, round(0.08 * n)) : 0;
  const macN = n >= 8 ? round(0.04 * n) : 0;
  const laptopN = round(0.27 * n);
  const desktopN = Math.max(0, n - hostsN - vmN - vdiN - serverN - macN - laptopN);
  const kind = new Uint8Array(n);
  let k = 0;
  const fill = (count: number, value: Kind) => {
    for (let j = 0; j < count && k < n; j++) kind[k++] = value;
  };
  fill(desktopN, Kind.Desktop);
  fill(laptopN, Kind.Laptop);
  fill(macN, Kind.Mac);
  fill(vdiN, Kind.Vdi);
  fill(serverN, Kind.Server);
  fill(hostsN, Kind.Host);
  fill(vmN, Kind.Vm);
  r.shuffle(kind);
  return kind;
}

/** Administrators: one per twelve servers, hosts and VMs, at least two. */
function adminCountOf(kind: Uint8Array): number {
  let servers = 0;
  for (let i = 0; i < kind.length; i++) {
    const kd = kind[i] as Kind;
    if (kd === Kind.Server || kd === Kind.Host || kd === Kind.Vm) servers++;
  }
  return kind.length > 0 ? Math.max(2, Math.round(servers / 12)) : 0;
}

/** Empty per-computer arrays for the given kinds. */
function emptyArrays(kind: Uint8Array): PlanArrays {
  const n = kind.length;
  return {
    n,
    kind,
    profile: new Uint8Array(n),
    org: new Uint8Array(n),
    user: new Int32Array(n).fill(-1),
    hostOrdinal: new Int32Array(n).fill(-1),
    hostOf: new Int32Array(n).fill(-1),
    sibling: new Int32Array(n).fill(-1),
    replicaPair: new Int32Array(n).fill(-1),
    appSource: new Int32Array(n),
    profileCount: [0, 0, 0, 0, 0, 0],
  };
}

/**
 * Build the plan of an estate: kinds, then hosts and clusters, then the placement of every
 * other computer, then disaster-recovery pairs and forced installs, all from one random stream.
 *
 * @example
 * ```ts
 * import { buildPlan } from "./generator_plan.ts";
 * const plan = buildPlan(1, 400);
 * console.log(plan.kind.length); // 400
 * ```
 */
export function buildPlan(seed: number, n: number): Plan {
  const r = new Random(hashSeed(seed, "plan", n));
  const a = emptyArrays(planKinds(r, n));
  const adminCount = adminCountOf(a.kind);
  const { hosts, clusters } = planVirtualLayer(r, a);
  const placed = placeComputers(r, a, { adminCount, hostCount: hosts.length });
  const forced = planReplicas(r, a, { winVms: placed.winVms, hostCount: hosts.length });
  const vmCount = new Int32Array(hosts.length);
  for (let i = 0; i < n; i++) if (a.hostOf[i] >= 0) vmCount[a.hostOf[i]]++;
  const endUsers = placed.endUsers;
  const leaverCount = endUsers > 0 ? Math.max(1, Math.round(endUsers * 0.03)) : 0;
  return {
    ...a,
    forced,
    hosts,
    clusters,
    adminCount,
    endUserCount: endUsers,
    leaverCount,
    userCount: adminCount + endUsers + leaverCount,
    winServerPhysical: placed.winServerPhysical,
    winServerVirtual: placed.winServerVirtual,
    firstVm: a.kind.indexOf(Kind.Vm),
    vmCount,
  };
}

/**
 * The real-only fields of a data center cluster, from the plan (no random draws): the
 * organisation of its first host, a controller id, and a virtual-machine peak equal to the
 * machines running on its hosts, seen one day before `now` over a 90-day window.
 *
 * @example
 * ```ts
 * import { buildPlan, clusterRealFields } from "./generator_plan.ts";
 * const plan = buildPlan(1, 400);
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * console.log(clusterRealFields(plan, plan.clusters[0], now).virtualPeakIntervalDays); // 90
 * ```
 */
export function clusterRealFields(
  plan: Plan,
  cluster: ClusterPlan,
  now: number,
): Record<string, string | number | null> {
  const first = cluster.hosts[0];
  return {
    organizationId: first === undefined
      ? null
      : ORGANIZATIONS[plan.org[plan.hosts[first].computer]].id,
    controllerId: cluster.index + 1,
    virtualPeakIntervalDays: 90,
    virtualPeakIntervalType: 0,
    virtualPeakCount: cluster.hosts.reduce((s, h) => s + plan.vmCount[h], 0),
    virtualPeakDate: new Date(now - 86_400_000).toISOString(),
  };
}
