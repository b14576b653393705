/**
 * The rows of the hardware socket map: one per host (its hardware, cluster, number of VMs,
 * licensing figures from `processor_licensing.ts` and a note of what is missing) and one per VM
 * (its host, cluster, hypervisor and hardware), VMs of a known host first, by host then name.
 *
 * @module
 */

import { asc, sortBy } from "../query/sort.ts";
import type { Row } from "../report/model.ts";
import type { ClusterPlacement } from "./data_center_clusters.ts";
import { hostNote, type Inventory, UNKNOWN_HOST, vmNote } from "./host_inventory.ts";
import {
  hostFigures,
  type LicensingRules,
  PER_CORE_X86_ONLY,
  perCoreApplies,
} from "./processor_licensing.ts";

/**
 * A row per host, in the inventory's order: manufacturer and model from the socket map, else
 * the computer's; figures from its hardware (blank without).
 *
 * @example
 * ```ts
 * import { hostRows } from "./socket_map_rows.ts";
 * import { DEFAULT_CORE_FACTORS } from "./processor_licensing.ts";
 * const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };
 * const host = { computer: { id: "H1", hostName: "h1" }, hardware: null, socketMap: null, vms: 2 };
 * const rows = hostRows({ hosts: [host] } as never, { ofHost: () => "DC1" }, { rule, factors: DEFAULT_CORE_FACTORS });
 * console.log(rows[0].cluster, rows[0].vms, rows[0].note); // "DC1" 2 "No hardware data"
 * ```
 */
export function hostRows(
  inventory: Pick<Inventory, "hosts">,
  clusters: Pick<ClusterPlacement, "ofHost">,
  rules: LicensingRules,
): Row[] {
  return inventory.hosts.map(({ computer: c, hardware: hw, socketMap: sm, vms }) => ({
    hostName: c.hostName ?? c.id,
    manufacturer: sm?.manufacturer ?? c.manufacturer,
    model: sm?.model ?? c.model,
    cluster: clusters.ofHost(c.id!),
    vms,
    ...hostFigures(hw, sm, rules),
    note: [hostNote(hw, sm), hw && !perCoreApplies(hw) ? PER_CORE_X86_ONLY : null]
      .filter(Boolean).join("; ") || null,
  }));
}

/**
 * A row per VM, VMs of an unknown host last, then by host and VM name.
 *
 * @example
 * ```ts
 * import { vmRows } from "./socket_map_rows.ts";
 * const vm = (id: string, host: string) => ({ computer: { id, hostName: id }, detail: {}, hardware: null, hostId: null, host, hypervisor: null });
 * const inventory = { vms: [vm("V2", "(host unknown)"), vm("V3", "h1"), vm("V1", "h1")] };
 * console.log(vmRows(inventory as never, { ofVm: () => null }).map((r) => r.hostName)); // ["V1", "V3", "V2"]
 * ```
 */
export function vmRows(
  inventory: Pick<Inventory, "vms">,
  clusters: Pick<ClusterPlacement, "ofVm">,
): Row[] {
  const rows = inventory.vms.map(({ computer: vm, hardware: hw, ...own }) => ({
    host: own.host,
    cluster: clusters.ofVm(vm.id!, own.hostId),
    hypervisor: own.hypervisor,
    hostName: vm.hostName ?? vm.id,
    operatingSystem: vm.operatingSystem,
    isServer: vm.isServer,
    processors: hw?.processorCount ?? null,
    cores: hw?.coreCount ?? null,
    logicalProcessors: hw?.logicalProcessorCount ?? null,
    note: vmNote(own.detail, hw),
  }));
  return sortBy(
    rows,
    asc((r) => r.host === UNKNOWN_HOST),
    asc((r) => r.host),
    asc((r) => r.hostName),
  );
}
