/**
 * Which computers are virtualisation hosts and VMs, and what a row says when inventory is
 * missing. A host is a computer that is not virtual and is a server (`isServer`) or runs a
 * virtual machine; VMs are the virtual computers, their host named by the computer detail
 * (`hostComputerId`).
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { detailsById } from "../query/details.ts";
import { groupBy } from "../query/group_by.ts";
import { count } from "../query/measures.ts";
import type { Computer } from "../api/types.ts";

/** The note of a host or VM whose hardware inventory is missing (404). */
export const NO_HARDWARE = "No hardware data";
/** The note of a host whose socket map is missing (404). */
export const NO_SOCKET_MAP = "No socket map";
/** The note of a VM whose computer detail is missing (404). */
export const NO_DETAIL = "No computer detail";
/** The group label of VMs whose host is unknown. */
export const UNKNOWN_HOST = "(host unknown)";

/**
 * VM id → host id, for the VMs whose detail names a host.
 *
 * @example
 * ```ts
 * import { vmHosts } from "./host_inventory.ts";
 * const details = new Map([["VM1", { hostComputerId: "H1" }], ["VM2", null]]);
 * console.log(vmHosts(details)); // Map { "VM1" => "H1" }
 * ```
 */
export function vmHosts(
  details: ReadonlyMap<string, { readonly hostComputerId?: string | null } | null>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [vm, detail] of details) {
    if (detail?.hostComputerId) out.set(vm, detail.hostComputerId);
  }
  return out;
}

/**
 * Host id → number of VMs running on it.
 *
 * @example
 * ```ts
 * import { vmCounts } from "./host_inventory.ts";
 * console.log(vmCounts(new Map([["VM1", "H1"], ["VM2", "H1"]])).get("H1")); // 2
 * ```
 */
export function vmCounts(vmHost: ReadonlyMap<string, string>): Map<string, number> {
  const hosts = groupBy(vmHost.values(), (host) => ({ host }), { vms: count() });
  return new Map(hosts.map((h) => [h.host, h.vms]));
}

/**
 * Whether a computer is a host: not virtual, and a server or running VMs.
 *
 * @example
 * ```ts
 * import { isHost } from "./host_inventory.ts";
 * console.log(isHost({ id: "H1", isVirtual: false, isServer: false }, new Map([["H1", 3]]))); // true
 * ```
 */
export function isHost(
  computer: Pick<Resource<"Computer">, "id" | "isVirtual" | "isServer">,
  vmCount: ReadonlyMap<string, number>,
): boolean {
  return computer.isVirtual !== true &&
    (computer.isServer === true || vmCount.has(computer.id!));
}

/**
 * The note of a host row: {@link NO_HARDWARE} without hardware data, else {@link NO_SOCKET_MAP}
 * without a socket map, else `null`.
 *
 * @example
 * ```ts
 * import { hostNote } from "./host_inventory.ts";
 * console.log(hostNote({}, null)); // "No socket map"
 * ```
 */
export function hostNote(hardware: unknown, socketMap: unknown): string | null {
  return !hardware ? NO_HARDWARE : !socketMap ? NO_SOCKET_MAP : null;
}

/**
 * The note of a VM row: what is missing of its computer detail and hardware, `null` when
 * nothing is.
 *
 * @example
 * ```ts
 * import { vmNote } from "./host_inventory.ts";
 * console.log(vmNote(null, null)); // "No computer detail; No hardware data"
 * ```
 */
export function vmNote(detail: unknown, hardware: unknown): string | null {
  return [detail ? null : NO_DETAIL, hardware ? null : NO_HARDWARE].filter((n) => n).join("; ") ||
    null;
}

/** A host with its hardware (null on 404), socket map (null on 404) and number of VMs. */
export interface InventoryHost {
  /** The computer. */
  readonly computer: Computer;
  /** Its hardware inventory. */
  readonly hardware: Resource<"Hardware"> | null;
  /** Its socket map. */
  readonly socketMap: Resource<"SocketMap"> | null;
  /** VMs running on it. */
  readonly vms: number;
}

/** A VM with its detail and hardware (null on 404), its host and hypervisor. */
export interface InventoryVm {
  /** The computer. */
  readonly computer: Computer;
  /** Its computer detail. */
  readonly detail: Resource<"ComputerDetail"> | null;
  /** Its hardware inventory. */
  readonly hardware: Resource<"Hardware"> | null;
  /** The host id from the detail. */
  readonly hostId: string | null;
  /** The host's name (its id when not among the computers, {@link UNKNOWN_HOST} when none). */
  readonly host: string;
  /** The VM's hypervisor, else its host's. */
  readonly hypervisor: string | null;
}

/** Hosts and VMs of a list of computers, with what was read for them. */
export interface Inventory {
  /** The hosts, in the computers' order. */
  readonly hosts: InventoryHost[];
  /** The VMs, in the computers' order. */
  readonly vms: InventoryVm[];
  /** VM id → host id. */
  readonly vmHost: Map<string, string>;
}

/**
 * Reads the hosts and VMs among `computers` through the run's fan-out: the detail of each VM
 * and of each VM host (`estate.computer:<id>`), the socket map of each host
 * (`estate.socketMap:<id>`) and the hardware of both (`estate.hardware:<id>`); 404 is `null`.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { toArray } from "../query/collect.ts";
 * import { hostInventory } from "./host_inventory.ts";
 * await withReferenceContext({ computers: 40 }, async (ctx) => {
 *   const computers = await toArray(ctx.client.estate.computers());
 *   const { hosts, vms } = await hostInventory(ctx, computers);
 *   console.log(hosts.length, vms.length);
 * });
 * ```
 */
export async function hostInventory(
  ctx: {
    readonly client: ClientSlice<{ estate: "computer" | "hardware" | "socketMap" }>;
    readonly query: QueryContext;
    readonly signal?: AbortSignal;
  },
  computers: readonly Computer[],
): Promise<Inventory> {
  const { estate } = ctx.client, signal = ctx.signal;
  const detail = (id: string) => estate.computer(id, { signal });
  const vms = computers.filter((c) => c.isVirtual === true);
  const vmDetail = await detailsById(ctx, vms, "estate.computer", detail);
  const vmHost = vmHosts(vmDetail), vmCount = vmCounts(vmHost);
  const hosts = computers.filter((c) => isHost(c, vmCount));
  const hosting = hosts.filter((c) => vmCount.has(c.id!));
  const hostDetail = await detailsById(ctx, hosting, "estate.computer", detail);
  const socketMap = (id: string) => estate.socketMap(id, { signal });
  const socketMaps = await detailsById(ctx, hosts, "estate.socketMap", socketMap);
  const hardwareOf = (id: string) => estate.hardware(id, { signal });
  const hardware = await detailsById(ctx, [...hosts, ...vms], "estate.hardware", hardwareOf);
  const names = new Map(computers.map((c) => [c.id, c.hostName ?? c.id]));
  return {
    hosts: hosts.map((c) => ({
      computer: c,
      hardware: hardware.get(c.id!) ?? null,
      socketMap: socketMaps.get(c.id!) ?? null,
      vms: vmCount.get(c.id!) ?? 0,
    })),
    vms: vms.map((c) => {
      const own = vmDetail.get(c.id!) ?? null, hostId = own?.hostComputerId ?? null;
      return {
        computer: c,
        detail: own,
        hardware: hardware.get(c.id!) ?? null,
        hostId,
        host: hostId ? names.get(hostId) ?? hostId : UNKNOWN_HOST,
        hypervisor: own?.hypervisorName ??
          (hostId ? hostDetail.get(hostId)?.hypervisorName : null) ?? null,
      };
    }),
    vmHost,
  };
}
