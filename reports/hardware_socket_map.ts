/**
 * Hardware socket map: physical servers and virtualisation hosts with their hardware, cluster
 * and per-core and core-factor requirements (rules: `lib/sam/processor_licensing.ts`), and their
 * VMs grouped by host. Which computers are hosts and what is read for them (404 keeps the row
 * with blanks and a note): `lib/sam/host_inventory.ts`; clusters from data-center coverages:
 * `lib/sam/data_center_clusters.ts`; rows: `lib/sam/socket_map_rows.ts`; columns:
 * `hardware_socket_map_sections.ts`.
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { computersInScope, ORGANIZATION_PARAM } from "../lib/sam/computers_in_scope.ts";
import { clusterPlacement } from "../lib/sam/data_center_clusters.ts";
import { hostInventory, NO_HARDWARE } from "../lib/sam/host_inventory.ts";
import { LICENSING_PARAMS, licensingRules } from "../lib/sam/processor_licensing.ts";
import { hostRows, vmRows } from "../lib/sam/socket_map_rows.ts";
import { HOST_COLUMNS, VM_COLUMNS } from "./hardware_socket_map_sections.ts";

export { coreFactorOf, coreFactorRequirement } from "../lib/sam/processor_licensing.ts";
export { perCoreRequirement } from "../lib/sam/processor_licensing.ts";

/** The slice of the SAM client this report reads. */
export type HardwareSocketMapClient = ClientSlice<{
  estate: "computers" | "computer" | "hardware" | "socketMap" | "dataCenterClusters";
  licenses: "extendedCoverages";
  organizations: "tree";
}>;

type Ctx = ReportContext<HardwareSocketMapClient, QueryContext>;
/** The hosts a headline over hardware figures adds (the others are counted apart). */
const unknown = { counted: "hosts with hardware data" };
const hostSums = ["vms", "sockets", "processors", "cores", "logicalProcessors"];

async function data(ctx: Ctx): Promise<ReportData> {
  const rules = licensingRules(ctx.params), { rule } = rules;
  const computers = await computersInScope(ctx, ctx.params.organization as string | undefined);
  const inventory = await hostInventory(ctx, computers);
  const clusters = await clusterPlacement(ctx, inventory.vmHost);
  const hosts = hostRows(inventory, clusters, rules);
  const blank = hosts.filter((r) => r.note === NO_HARDWARE).length;
  return {
    sections: [{
      id: "hosts",
      title: "Servers and virtualisation hosts",
      description: "Physical servers and hosts of virtual machines with their processors and " +
        `two licensing figures: per core (at least ${rule.minCoresPerProcessor} cores per ` +
        `processor and ${rule.minCoresPerServer} per server, in packs of ${rule.corePackSize}; ` +
        "x86 servers only, the rule is not applied to IBM POWER, ARM or SPARC hosts) " +
        "and cores × core factor of the processor manufacturer, rounded up. The cluster is the " +
        "one most of the host's VMs are covered in by a data-center extended coverage. Hosts " +
        "without hardware data are listed with blanks and a note" +
        (blank
          ? `; totals and headlines add the ${hosts.length - blank} of ${hosts.length} hosts ` +
            `with hardware data (${blank} without hardware data).`
          : "."),
      columns: HOST_COLUMNS,
      rows: hosts,
      totals: { sum: [...hostSums, "perCoreRequirement", "coreFactorRequirement"] },
      emptyText: "No physical servers or virtualisation hosts match these parameters.",
      // The cover leads with the requirements; the caveat (no hardware data) after them.
      facts: [
        { label: "Per-core requirement", sum: "perCoreRequirement", unknown, cover: true },
        { label: "Core-factor requirement", sum: "coreFactorRequirement", unknown, cover: true },
        { label: "Servers and hosts", count: true, cover: true },
        { label: "Physical cores", sum: "cores", unknown, cover: true },
        {
          label: "Without hardware data",
          count: true,
          where: (r) => r.note === NO_HARDWARE,
          cover: true,
        },
      ],
    }, {
      id: "virtual-machines",
      title: "Virtual machines by host",
      description: "Every virtual machine under the host it runs on (from the computer detail); " +
        "the hypervisor and cluster are the host's unless the VM's own records say otherwise.",
      columns: VM_COLUMNS,
      rows: vmRows(inventory, clusters),
      group: { by: "host", label: "Host" },
      totals: { sum: ["cores", "logicalProcessors"] },
      emptyText: "No virtual machines match these parameters.",
      facts: [{ label: "Virtual machines", count: true }],
    }],
  };
}

/**
 * The hardware socket map report (`hardware-socket-map`).
 *
 * @example
 * ```ts ignore
 * import { hardwareSocketMap } from "./hardware_socket_map.ts";
 * console.log(hardwareSocketMap.landscape); // true
 * ```
 */
export const hardwareSocketMap = defineReport<HardwareSocketMapClient, QueryContext>({
  id: "hardware-socket-map",
  title: "Hardware socket map",
  description: "Physical servers and virtualisation hosts with their hardware, processors and " +
    "cores, their virtual machines and data center cluster (from the data-center extended " +
    "coverages of their VMs), and per-core and core-factor licensing requirements computed " +
    "from the parameters.",
  params: { organization: ORGANIZATION_PARAM, ...LICENSING_PARAMS },
  filterResource: "Computer",
  landscape: true,
  data,
});
