/**
 * Which data center cluster a computer is in. The API has no computer → cluster field: it is
 * derived from extended coverages whose parent is a data center (`isParentComputerDatacenter`):
 * the coverage's parent id is a cluster id and its extended computer a VM covered through that
 * cluster. A VM's cluster is that cluster, else its host's; a host's cluster is the one most of
 * its VMs are covered in.
 *
 * @module
 */

import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { groupBy } from "../query/group_by.ts";
import { count } from "../query/measures.ts";
import { asc, sortBy } from "../query/sort.ts";

/**
 * Computer id → cluster id, from the extended coverages whose parent is a data center (read
 * once per run, `licenses.extendedCoverages`); the coverage with the smallest id decides.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { clusterOfCovered } from "./data_center_clusters.ts";
 * await withReferenceContext({ computers: 60 }, async (ctx) => {
 *   const covered = await clusterOfCovered(ctx);
 *   console.log(covered.size); // virtual machines covered through their cluster
 * });
 * ```
 */
export async function clusterOfCovered(ctx: {
  readonly client: ClientSlice<{ licenses: "extendedCoverages" }>;
  readonly query: QueryContext;
}): Promise<Map<string, string>> {
  const coverages = await ctx.query.all(
    "licenses.extendedCoverages",
    () => ctx.client.licenses.extendedCoverages(),
  );
  const out = new Map<string, string>();
  const datacenter = coverages.filter((c) =>
    c.isParentComputerDatacenter === true && c.parentComputerId && c.extendedComputerId
  );
  for (const c of sortBy(datacenter, asc((c) => c.id ?? ""))) {
    if (!out.has(c.extendedComputerId!)) out.set(c.extendedComputerId!, c.parentComputerId!);
  }
  return out;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The cluster of each host: the cluster most of its VMs are covered in (ties: the smaller id).
 *
 * @example
 * ```ts
 * import { hostClusters } from "./data_center_clusters.ts";
 * const vmHost = new Map([["VM1", "H1"], ["VM2", "H1"], ["VM3", "H1"]]);
 * const covered = new Map([["VM1", "DCC02"], ["VM2", "DCC02"], ["VM3", "DCC01"]]);
 * console.log(hostClusters(vmHost, covered).get("H1")); // "DCC02"
 * ```
 */
export function hostClusters(
  vmHost: ReadonlyMap<string, string>,
  covered: ReadonlyMap<string, string>,
): Map<string, string> {
  const placed = [...vmHost].filter(([vm]) => covered.get(vm))
    .map(([vm, host]) => ({ host, cluster: covered.get(vm)! }));
  const votes = groupBy(placed, (p) => p, { vms: count() })
    .sort((a, b) => b.vms - a.vms || byCodePoint(a.cluster, b.cluster));
  const out = new Map<string, string>();
  for (const v of votes) if (!out.has(v.host)) out.set(v.host, v.cluster);
  return out;
}

/** Cluster names of hosts and VMs. */
export interface ClusterPlacement {
  /** The name of a host's cluster (`null` when unknown). */
  ofHost(hostId: string): string | null;
  /** The name of a VM's cluster: its own, else its host's (`null` when unknown). */
  ofVm(vmId: string, hostId: string | null): string | null;
}

/**
 * The clusters of hosts and VMs by name (the data center clusters collection, read once per
 * run as `estate.dataCenterClusters`; the cluster id when it has no such cluster).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { clusterPlacement } from "./data_center_clusters.ts";
 * await withReferenceContext({ computers: 60 }, async (ctx) => {
 *   const clusters = await clusterPlacement(ctx, new Map([["VM0001", "H0001"]]));
 *   console.log(clusters.ofVm("VM0001", "H0001")); // the cluster's name, or null
 * });
 * ```
 */
export async function clusterPlacement(
  ctx: {
    readonly client: ClientSlice<{
      licenses: "extendedCoverages";
      estate: "dataCenterClusters";
    }>;
    readonly query: QueryContext;
  },
  vmHost: ReadonlyMap<string, string>,
): Promise<ClusterPlacement> {
  const [covered, clusters] = await Promise.all([
    clusterOfCovered(ctx),
    ctx.query.index(
      "estate.dataCenterClusters",
      () => ctx.client.estate.dataCenterClusters(),
      (c) => c.id,
    ),
  ]);
  const ofHost = hostClusters(vmHost, covered);
  const name = (id?: string) => id ? clusters.get(id)?.name ?? id : null;
  return {
    ofHost: (hostId) => name(ofHost.get(hostId)),
    ofVm: (vmId, hostId) => name(covered.get(vmId) ?? (hostId ? ofHost.get(hostId) : undefined)),
  };
}
