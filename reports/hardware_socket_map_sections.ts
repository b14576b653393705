/**
 * The hardware socket map's columns, declared: a host's hardware, processors and its per-core
 * and core-factor requirements; a virtual machine's host, cluster and processors.
 *
 * @module
 */

import { boolean, integer, number, text, whenTrue } from "../lib/report/columns.ts";
import type { Column } from "../lib/report/model.ts";

const processorColumns = [
  integer("processors", "CPUs", { width: 5 }),
  integer("cores", "Cores", { width: 6 }),
  integer("logicalProcessors", "Threads", { width: 7 }),
];

/**
 * The columns of the "hosts" section.
 *
 * @example
 * ```ts
 * import { HOST_COLUMNS } from "./hardware_socket_map_sections.ts";
 * console.log(HOST_COLUMNS.some((c) => c.key === "perCoreRequirement")); // true
 * ```
 */
export const HOST_COLUMNS: Column[] = [
  text("hostName", "Host", { width: 18 }),
  text("manufacturer", "Manufacturer", { width: 12 }),
  text("model", "Model", { width: 18 }),
  text("cluster", "Cluster", { width: 14 }),
  integer("vms", "VMs", { width: 5 }),
  integer("sockets", "Sockets", { width: 7 }),
  boolean("manualOverride", "Manual sockets", { width: 7 }),
  ...processorColumns,
  text("processorType", "Processor type", { width: 28 }),
  integer("perCoreRequirement", "Per-core req.", { width: 8 }),
  number("coreFactor", "Factor", { decimals: 2, width: 6 }),
  integer("coreFactorRequirement", "Core-factor req.", { width: 10 }),
  text("note", "Note", { width: 16, emphasis: whenTrue("note", "warn") }),
];

/**
 * The columns of the "virtual-machines" section.
 *
 * @example
 * ```ts
 * import { VM_COLUMNS } from "./hardware_socket_map_sections.ts";
 * console.log(VM_COLUMNS[0].label); // "Virtual machine"
 * ```
 */
export const VM_COLUMNS: Column[] = [
  text("hostName", "Virtual machine", { width: 18 }),
  text("host", "Host", { width: 16 }),
  text("cluster", "Cluster", { width: 14 }),
  text("hypervisor", "Hypervisor", { width: 16 }),
  text("operatingSystem", "Operating system", { width: 26 }),
  boolean("isServer", "Server", { width: 6 }),
  ...processorColumns,
  text("note", "Note", { width: 14, emphasis: whenTrue("note", "warn") }),
];
