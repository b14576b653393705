/**
 * Hardware socket map: physical servers and virtualisation hosts with manufacturer and model,
 * sockets, processors, cores, logical processors and processor type, whether the socket count is
 * a manual override, the data center cluster where known, and two processor-licensing figures per
 * host computed from parameters (never from product names):
 *
 * - per-core requirement: the sum over processors of max(cores of the processor,
 *   `minCoresPerProcessor`), at least `minCoresPerServer`, rounded up to a multiple of
 *   `corePackSize`;
 * - core-factor requirement: cores × the factor of the processor manufacturer (`coreFactors`,
 *   matched case-insensitively as a part of the manufacturer's name, else its `default`),
 *   rounded up.
 *
 * Virtual machines are listed in their own section, grouped by host.
 *
 * Manufacturer and model come from the socket map; when it is missing (404) they fall back to the
 * computer record, while every hardware figure stays blank and the row carries a note.
 *
 * Which computers: a host is a computer that is not virtual and is a server (`isServer`) or runs
 * a virtual machine (some VM's `hostComputerId` names it). VMs are the virtual computers; their
 * host comes from the computer detail (`hostComputerId`).
 *
 * Processors: the per-core rule counts the inventoried processors (`processorCount`, else the
 * socket count) with the cores spread evenly over them. A manual socket-count override is shown
 * (the "Manual sockets" column and the overridden socket count) but does not change the figures.
 *
 * Cluster: the API has no computer → cluster field. It is derived from extended coverages whose
 * parent is a data center (`isParentComputerDatacenter`): the coverage's parent id is a cluster
 * id (the data center clusters collection gives its name) and its extended computer a VM covered
 * through that cluster. A VM's cluster is that cluster, else its host's; a host's cluster is the
 * one most of its VMs are covered in. Hosts without such VMs have a blank cluster.
 *
 * Data: computers (cache key `estate.computers`, or `estate.computers?filter=…`), one detail per
 * VM and per VM host (`estate.computer:<id>`), hardware and socket map per host and hardware per VM
 * (`estate.hardware:<id>`, `estate.socketMap:<id>`; `null` on 404: the row is kept with blanks and
 * a note), extended coverages (`licenses.extendedCoverages`) and clusters
 * (`estate.dataCenterClusters`).
 *
 * @module
 */

import type { Resource } from "../lib/api/catalogue.ts";
import type { EstateApi, LicensesApi } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import type { Column, Fact, ReportContext, ReportData, Row } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import { ParamError } from "../lib/report/errors.ts";
import { compareText, computersById, detailsById, orNull } from "./support/lookups.ts";

type Computer = Resource<"Computer">;
type Hardware = Resource<"Hardware">;
type SocketMap = Resource<"SocketMap">;

/** The slice of the SAM client this report reads. */
export interface HardwareSocketMapClient {
  /** Computers, computer details, hardware, socket maps and clusters. */
  readonly estate: Pick<
    EstateApi,
    "computers" | "computer" | "hardware" | "socketMap" | "dataCenterClusters"
  >;
  /** Extended coverages (host → data center cluster). */
  readonly licenses: Pick<LicensesApi, "extendedCoverages">;
}

type Ctx = ReportContext<HardwareSocketMapClient, QueryContext>;

/** The default core factors by processor manufacturer. */
export const DEFAULT_CORE_FACTORS: Readonly<Record<string, number>> = {
  Intel: 0.5,
  AMD: 0.5,
  IBM: 1,
  Apple: 1,
  default: 1,
};

/** The note of a host or VM whose hardware inventory is missing (404). */
export const NO_HARDWARE = "No hardware data";
/** The note of a host whose socket map is missing (404). */
export const NO_SOCKET_MAP = "No socket map";
/** The group label of VMs whose host is unknown. */
export const UNKNOWN_HOST = "(host unknown)";

/** Parameters of the per-core rule. */
export interface PerCoreRule {
  /** Cores counted at least per processor. */
  readonly minCoresPerProcessor: number;
  /** Cores counted at least per server. */
  readonly minCoresPerServer: number;
  /** Cores are bought in packs of this size. */
  readonly corePackSize: number;
}

/**
 * The per-core requirement of a host: the sum over its processors of max(cores,
 * `minCoresPerProcessor`) (cores spread evenly over the processors), at least
 * `minCoresPerServer`, rounded up to a multiple of `corePackSize`. `null` without a processor
 * or core count.
 *
 * @example
 * ```ts
 * import { perCoreRequirement } from "./hardware_socket_map.ts";
 * const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };
 * console.log(perCoreRequirement(2, 12, rule)); // 16 (2 × max(6, 8))
 * console.log(perCoreRequirement(2, 40, rule)); // 40
 * console.log(perCoreRequirement(1, 4, rule)); // 16
 * ```
 */
export function perCoreRequirement(
  processors: number | null,
  cores: number | null,
  rule: PerCoreRule,
): number | null {
  if (!processors || processors < 1 || cores === null || !Number.isFinite(cores) || cores < 0) {
    return null;
  }
  const n = Math.round(processors);
  const base = Math.floor(cores / n);
  const extra = Math.round(cores - base * n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += Math.max(base + (i < extra ? 1 : 0), rule.minCoresPerProcessor);
  }
  const wanted = Math.max(sum, rule.minCoresPerServer);
  const pack = Math.max(1, rule.corePackSize);
  return Math.ceil(wanted / pack) * pack;
}

/**
 * The core factor of a processor manufacturer: the first key (other than `default`, longest
 * first) contained case-insensitively in the manufacturer's name, else `default`, else 1.
 *
 * @example
 * ```ts
 * import { coreFactorOf } from "./hardware_socket_map.ts";
 * console.log(coreFactorOf("GenuineIntel", { Intel: 0.5, default: 1 })); // 0.5
 * console.log(coreFactorOf(null, { Intel: 0.5, default: 1 })); // 1
 * ```
 */
export function coreFactorOf(
  manufacturer: string | null,
  factors: Readonly<Record<string, number>>,
): number {
  const name = (manufacturer ?? "").toLowerCase();
  const keys = Object.keys(factors).filter((k) => k !== "default" && k.trim() !== "")
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  for (const key of keys) {
    if (name !== "" && name.includes(key.toLowerCase())) return factors[key];
  }
  return factors.default ?? 1;
}

/**
 * The core-factor requirement: cores × factor, rounded up (binary noise removed first, so
 * 0.7 × 10 is 7). `null` without a core count.
 *
 * @example
 * ```ts
 * import { coreFactorRequirement } from "./hardware_socket_map.ts";
 * console.log(coreFactorRequirement(40, 0.5), coreFactorRequirement(6, 0.75)); // 20 5
 * ```
 */
export function coreFactorRequirement(cores: number | null, factor: number): number | null {
  if (cores === null || !Number.isFinite(cores)) return null;
  return Math.ceil(Number((cores * factor).toPrecision(12)));
}

function readFactors(value: unknown): Record<string, number> {
  if (value === undefined || value === null) return { ...DEFAULT_CORE_FACTORS };
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ParamError("coreFactors", 'expected a JSON object such as {"Intel":0.5,"default":1}');
  }
  const out: Record<string, number> = {};
  for (const [key, factor] of Object.entries(value as Record<string, unknown>)) {
    if (typeof factor !== "number" || !Number.isFinite(factor) || factor <= 0) {
      throw new ParamError("coreFactors", `the factor of "${key}" must be a positive number`);
    }
    out[key] = factor;
  }
  return out;
}

/** Computer id → cluster id, from extended coverages whose parent is a data center. */
async function clusterOfCovered(ctx: Ctx): Promise<Map<string, string>> {
  const coverages = await ctx.query.all(
    "licenses.extendedCoverages",
    () => ctx.client.licenses.extendedCoverages(),
  );
  const out = new Map<string, string>();
  const sorted = coverages
    .filter((c) =>
      c.isParentComputerDatacenter === true && c.parentComputerId && c.extendedComputerId
    )
    .sort((a, b) => compareText(a.id ?? "", b.id ?? ""));
  for (const c of sorted) {
    if (!out.has(c.extendedComputerId!)) out.set(c.extendedComputerId!, c.parentComputerId!);
  }
  return out;
}

/**
 * The cluster of each host: the cluster most of its VMs are covered in (ties: the smaller id).
 *
 * @example
 * ```ts
 * import { hostClusters } from "./hardware_socket_map.ts";
 * const vmHost = new Map([["VM1", "H1"], ["VM2", "H1"], ["VM3", "H1"]]);
 * const covered = new Map([["VM1", "DCC02"], ["VM2", "DCC02"], ["VM3", "DCC01"]]);
 * console.log(hostClusters(vmHost, covered).get("H1")); // "DCC02"
 * ```
 */
export function hostClusters(
  vmHost: ReadonlyMap<string, string>,
  covered: ReadonlyMap<string, string>,
): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const [vm, host] of vmHost) {
    const cluster = covered.get(vm);
    if (!cluster) continue;
    let v = votes.get(host);
    if (!v) votes.set(host, v = new Map());
    v.set(cluster, (v.get(cluster) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const [host, v] of votes) {
    const best = [...v].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    out.set(host, best[0]);
  }
  return out;
}

/** One host, resolved. */
interface Host {
  computer: Computer;
  hardware: Hardware | null;
  socketMap: SocketMap | null;
  vms: number;
}

async function data(ctx: Ctx): Promise<ReportData> {
  const organization = ctx.params.organization as string | undefined;
  const rule: PerCoreRule = {
    minCoresPerProcessor: ctx.params.minCoresPerProcessor as number ?? 8,
    minCoresPerServer: ctx.params.minCoresPerServer as number ?? 16,
    corePackSize: ctx.params.corePackSize as number ?? 2,
  };
  const factors = readFactors(ctx.params.coreFactors);

  const [index, covered, clusters] = await Promise.all([
    computersById(ctx, ctx.filter),
    clusterOfCovered(ctx),
    ctx.query.index(
      "estate.dataCenterClusters",
      () => ctx.client.estate.dataCenterClusters(),
      (c) => c.id,
    ),
  ]);
  const computers = [...index.values()].filter((c) =>
    c.id && (organization === undefined || c.organizationId === organization)
  ).sort((a, b) => compareText(a.hostName ?? "", b.hostName ?? "") || compareText(a.id!, b.id!));
  const byId = new Map(computers.map((c) => [c.id!, c]));

  // VMs and their hosts.
  const vms = computers.filter((c) => c.isVirtual === true);
  const computerDetail = (id: string) => ctx.client.estate.computer(id, { signal: ctx.signal });
  const vmDetail = await detailsById(ctx, vms, "estate.computer", computerDetail);
  const vmCount = new Map<string, number>();
  const vmHost = new Map<string, string>();
  for (const vm of vms) {
    const host = vmDetail.get(vm.id!)?.hostComputerId;
    if (!host) continue;
    vmHost.set(vm.id!, host);
    vmCount.set(host, (vmCount.get(host) ?? 0) + 1);
  }
  const hostCluster = hostClusters(vmHost, covered);

  const hostComputers = computers.filter((c) =>
    c.isVirtual !== true && (c.isServer === true || vmCount.has(c.id!))
  );
  const hostDetail = await detailsById(
    ctx,
    hostComputers.filter((c) => vmCount.has(c.id!)),
    "estate.computer",
    computerDetail,
  );
  const hardwareOf = (c: Computer) =>
    orNull(() => ctx.client.estate.hardware(c.id!, { signal: ctx.signal }));
  const hosts: Host[] = [];
  const vmHardware = new Map<string, Hardware | null>();
  const socketMaps = await detailsById(
    ctx,
    hostComputers,
    "estate.socketMap",
    (id) => ctx.client.estate.socketMap(id, { signal: ctx.signal }),
  );
  for await (
    const [c, hardware] of ctx.query.fanOut(
      [...hostComputers, ...vms],
      (c) => `estate.hardware:${c.id}`,
      hardwareOf,
    )
  ) {
    if (c.isVirtual === true) {
      vmHardware.set(c.id!, hardware);
      continue;
    }
    hosts.push({
      computer: c,
      hardware,
      socketMap: socketMaps.get(c.id!) ?? null,
      vms: vmCount.get(c.id!) ?? 0,
    });
  }

  const clusterName = (clusterId: string | undefined): string | null =>
    clusterId ? clusters.get(clusterId)?.name ?? clusterId : null;

  let perCoreTotal = 0, factorTotal = 0, missing = 0, physicalCores = 0;
  const hostRows: Row[] = hosts.map(({ computer: c, hardware: hw, socketMap: sm, vms }) => {
    const sockets = hw?.socketCount ?? sm?.socketCount ?? null;
    const processors = hw?.processorCount ?? null;
    const cores = hw?.coreCount ?? null;
    const perCore = hw ? perCoreRequirement(processors ?? sockets, cores, rule) : null;
    const factor = hw ? coreFactorOf(hw.processorManufacturer, factors) : null;
    const byFactor = hw && factor !== null ? coreFactorRequirement(cores, factor) : null;
    const note = !hw ? NO_HARDWARE : !sm ? NO_SOCKET_MAP : null;
    if (!hw) missing++;
    perCoreTotal += perCore ?? 0;
    factorTotal += byFactor ?? 0;
    physicalCores += cores ?? 0;
    return {
      hostName: c.hostName ?? c.id,
      manufacturer: sm?.manufacturer ?? c.manufacturer,
      model: sm?.model ?? c.model,
      cluster: clusterName(hostCluster.get(c.id!)),
      vms,
      sockets,
      manualOverride: hw?.isSocketCountManualOverrideEnabled ?? null,
      processors,
      cores,
      logicalProcessors: hw?.logicalProcessorCount ?? null,
      processorType: hw?.processorType ?? null,
      perCoreRequirement: perCore,
      coreFactor: factor,
      coreFactorRequirement: byFactor,
      note,
    };
  });

  const hostName = (id: string) => byId.get(id)?.hostName ?? id;
  const vmRows: Row[] = vms.map((vm) => {
    const detail = vmDetail.get(vm.id!) ?? null;
    const hostId = detail?.hostComputerId ?? null;
    const hw = vmHardware.get(vm.id!) ?? null;
    return {
      host: hostId ? hostName(hostId) : UNKNOWN_HOST,
      cluster: clusterName(covered.get(vm.id!) ?? (hostId ? hostCluster.get(hostId) : undefined)),
      hypervisor: detail?.hypervisorName ??
        (hostId ? hostDetail.get(hostId)?.hypervisorName : null) ?? null,
      hostName: vm.hostName ?? vm.id,
      operatingSystem: vm.operatingSystem,
      isServer: vm.isServer,
      processors: hw?.processorCount ?? null,
      cores: hw?.coreCount ?? null,
      logicalProcessors: hw?.logicalProcessorCount ?? null,
      note: [detail ? null : "No computer detail", hw ? null : NO_HARDWARE]
        .filter((n) => n).join("; ") || null,
    };
  }).sort((a, b) =>
    Number(a.host === UNKNOWN_HOST) - Number(b.host === UNKNOWN_HOST) ||
    compareText(a.host as string, b.host as string) ||
    compareText(a.hostName as string, b.hostName as string)
  );

  const warn = (row: Row) => (row.note ? "warn" as const : undefined);
  const sections = [
    {
      id: "hosts",
      title: "Servers and virtualisation hosts",
      description: "Physical servers and hosts of virtual machines with their processors and " +
        `two licensing figures: per core (at least ${rule.minCoresPerProcessor} cores per ` +
        `processor and ${rule.minCoresPerServer} per server, in packs of ${rule.corePackSize}) ` +
        "and cores × core factor of the processor manufacturer, rounded up. The cluster is the " +
        "one most of the host's VMs are covered in by a data-center extended coverage. Hosts " +
        "without hardware data are listed with blanks and a note.",
      columns: [
        { key: "hostName", label: "Host", type: "text", width: 18 },
        { key: "manufacturer", label: "Manufacturer", type: "text", width: 12 },
        { key: "model", label: "Model", type: "text", width: 18 },
        { key: "cluster", label: "Cluster", type: "text", width: 14 },
        { key: "vms", label: "VMs", type: "integer", width: 5 },
        { key: "sockets", label: "Sockets", type: "integer", width: 7 },
        { key: "manualOverride", label: "Manual sockets", type: "boolean", width: 7 },
        { key: "processors", label: "CPUs", type: "integer", width: 5 },
        { key: "cores", label: "Cores", type: "integer", width: 6 },
        { key: "logicalProcessors", label: "Threads", type: "integer", width: 7 },
        { key: "processorType", label: "Processor type", type: "text", width: 28 },
        { key: "perCoreRequirement", label: "Per-core req.", type: "integer", width: 8 },
        { key: "coreFactor", label: "Factor", type: "number", decimals: 2, width: 6 },
        {
          key: "coreFactorRequirement",
          label: "Core-factor req.",
          type: "integer",
          width: 10,
        },
        { key: "note", label: "Note", type: "text", width: 16, emphasis: warn },
      ] satisfies Column[],
      rows: hostRows,
      totals: {
        sum: [
          "vms",
          "sockets",
          "processors",
          "cores",
          "logicalProcessors",
          "perCoreRequirement",
          "coreFactorRequirement",
        ],
      },
      emptyText: "No physical servers or virtualisation hosts match these parameters.",
    },
    {
      id: "virtual-machines",
      title: "Virtual machines by host",
      description: "Every virtual machine under the host it runs on (from the computer detail); " +
        "the hypervisor and cluster are the host's unless the VM's own records say otherwise.",
      columns: [
        { key: "hostName", label: "Virtual machine", type: "text", width: 18 },
        { key: "host", label: "Host", type: "text", width: 16 },
        { key: "cluster", label: "Cluster", type: "text", width: 14 },
        { key: "hypervisor", label: "Hypervisor", type: "text", width: 16 },
        { key: "operatingSystem", label: "Operating system", type: "text", width: 26 },
        { key: "isServer", label: "Server", type: "boolean", width: 6 },
        { key: "processors", label: "CPUs", type: "integer", width: 5 },
        { key: "cores", label: "Cores", type: "integer", width: 6 },
        { key: "logicalProcessors", label: "Threads", type: "integer", width: 7 },
        { key: "note", label: "Note", type: "text", width: 14, emphasis: warn },
      ] satisfies Column[],
      rows: vmRows,
      group: { by: "host", label: "Host" },
      totals: { sum: ["cores", "logicalProcessors"] },
      emptyText: "No virtual machines match these parameters.",
    },
  ];

  const summary = (): Fact[] => [
    { label: "Servers and hosts", value: hostRows.length, type: "integer" },
    { label: "Per-core requirement", value: perCoreTotal, type: "integer" },
    { label: "Core-factor requirement", value: factorTotal, type: "integer" },
    { label: "Without hardware data", value: missing, type: "integer" },
    { label: "Physical cores", value: physicalCores, type: "integer" },
    { label: "Virtual machines", value: vmRows.length, type: "integer" },
  ];

  return { sections, summary };
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
  params: {
    organization: {
      type: "string",
      description: "Organisation id: only computers of this organisation",
    },
    minCoresPerProcessor: {
      type: "integer",
      description: "Per-core rule: cores counted at least per processor",
      default: 8,
      min: 0,
      max: 1024,
    },
    minCoresPerServer: {
      type: "integer",
      description: "Per-core rule: cores counted at least per server",
      default: 16,
      min: 0,
      max: 4096,
    },
    corePackSize: {
      type: "integer",
      description: "Per-core rule: cores are licensed in packs of this size",
      default: 2,
      min: 1,
      max: 1024,
    },
    coreFactors: {
      type: "json",
      description: "Core factor by processor manufacturer (matched as part of the name), with a " +
        '"default"',
      default: DEFAULT_CORE_FACTORS,
    },
  },
  filterResource: "Computer",
  landscape: true,
  data,
});
