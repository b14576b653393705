/**
 * The hardware inventory of one computer: the `hardware` row (memory, disks, processors),
 * one `processors` row per socket, the `socket_maps` row, `logical_disks`, and the hard and
 * optical `drives`. Display adapters and monitors are in `generator_display_rows.ts`.
 *
 * @module
 */

import { Profile } from "./generator_catalogue.ts";
import type { Ctx } from "./generator_context.ts";
import type { Disk } from "./generator_disks.ts";
import type { Machine } from "./generator_machine.ts";
import { Hypervisor, Kind } from "./generator_plan.ts";

/** Memory in MB, memory slots and slots in use. */
interface Memory {
  readonly memory: number;
  readonly slots: number;
  readonly used: number;
}

/** Draw the memory of a machine of this kind. */
function planMemory(m: Machine): Memory {
  const { random: r, kind } = m;
  const { sockets, cpu } = m.hw;
  if (kind === Kind.Desktop) {
    const memory = r.pick([8192, 16384, 16384, 32768]);
    const slots = r.pick([2, 4]);
    return { memory, slots, used: Math.min(slots, Math.max(1, memory / 16384)) };
  }
  if (kind === Kind.Laptop) {
    const memory = r.pick([16384, 32768]);
    return { memory, slots: 2, used: r.int(1, 2) };
  }
  if (kind === Kind.Mac) {
    const memory = cpu.cores >= 12 ? r.pick([18432, 36864]) : r.pick([8192, 16384, 24576]);
    return { memory, slots: 0, used: 0 };
  }
  if (kind === Kind.Host) {
    const memory = r.pick([524288, 1048576, 2097152]);
    const slots = 16 * sockets;
    return { memory, slots, used: Math.min(slots, memory / 65536) };
  }
  if (kind === Kind.Server) {
    const memory = r.pick([65536, 131072, 262144, 524288]) * (sockets >= 4 ? 2 : 1);
    const slots = 16 * sockets;
    return { memory, slots, used: Math.min(slots, Math.max(1, memory / 32768)) };
  }
  const memory = kind === Kind.Vdi
    ? r.pick([8192, 16384])
    : r.pick([4096, 8192, 16384, 32768, 65536]);
  return { memory, slots: 1, used: 1 };
}

/** The `hardware`, `processors` and `socket_maps` rows. */
function emitProcessorRows(ctx: Ctx, m: Machine, disks: readonly Disk[]): void {
  const { hw, id } = m;
  const { cpu } = hw;
  const { memory, slots, used } = planMemory(m);
  const system = disks[0];
  const totalSize = disks.reduce((s, d) => s + d.size, 0);
  const totalFree = disks.reduce((s, d) => s + d.free, 0);
  ctx.emit("hardware", {
    computerId: id,
    processorType: cpu.type,
    processorManufacturer: cpu.manufacturer,
    processorCount: hw.sockets,
    coreCount: hw.coreCount,
    processorSpeed: cpu.speed,
    memorySlots: slots,
    memorySlotsAvailable: slots - used,
    physicalMemory: memory,
    systemDiskSpace: system.size,
    systemDiskSpaceAvailable: system.free,
    totalDiskSpace: totalSize,
    totalDiskSpaceAvailable: totalFree,
    totalDiskSpaceUsed: totalSize - totalFree,
    socketCount: hw.socketCount,
    chipModulesPerProcessor: cpu.type.startsWith("AMD EPYC") ? 4 : 1,
    logicalProcessorCount: hw.logical,
    isSocketCountManualOverrideEnabled: hw.override,
  });
  for (let s = 0; s < hw.sockets; s++) {
    ctx.emit("processors", {
      computerId: id,
      processorType: cpu.type,
      processorManufacturer: cpu.manufacturer,
      processorCount: 1,
      coreCount: hw.coresPer,
      processorSpeed: cpu.speed,
    });
  }
  ctx.emit("socket_maps", {
    computerId: id,
    manufacturer: hw.manufacturer,
    model: hw.model,
    socketCount: hw.socketCount,
  });
}

/** The `logical_disks` rows; the first disk is the system disk. */
function emitLogicalDisks(ctx: Ctx, m: Machine, disks: readonly Disk[]): void {
  for (const d of disks) {
    ctx.emit("logical_disks", {
      computerId: m.id,
      name: d.name,
      volumeName: d.volume,
      isSystemDisk: d === disks[0],
      isUpdated: m.random.chance(0.95),
      diskSizeMB: d.size,
      freeSpaceMB: d.free,
    });
  }
}

/** The product name of a machine's hard drives. */
function hardDriveName(m: Machine): string {
  const { kind, hw } = m;
  return m.isVirtual
    ? ["VMware Virtual disk SCSI Disk Device", "Microsoft Virtual Disk", "NUTANIX VDISK"][
      m.myHost!.hypervisor
    ]
    : kind === Kind.Mac
    ? "APPLE SSD AP0512Z"
    : kind === Kind.Desktop || kind === Kind.Laptop
    ? m.random.pick([
      "Samsung SSD 980 PRO 1TB",
      "KXG80ZNV512G NVMe KIOXIA 512GB",
      "PC SN740 NVMe WD 512GB",
    ])
    : hw.manufacturer === "HPE"
    ? "HPE LOGICAL VOLUME SCSI Disk Device"
    : hw.manufacturer === "IBM"
    ? "IBM MPIO FC 2145"
    : hw.manufacturer === "Lenovo"
    ? "Lenovo RAID 940-8i SCSI Disk Device"
    : "DELL PERC H755 Front SCSI Disk Device";
}

/** The optical drive's name, or undefined when the machine has none. */
function opticalDriveName(m: Machine): string | undefined {
  const kind = m.kind;
  const chance = kind === Kind.Desktop || kind === Kind.Server ? 0.3 : kind === Kind.Vm ? 0.5 : 0;
  if (!m.random.chance(chance)) return undefined;
  return kind === Kind.Vm
    ? (m.myHost!.hypervisor === Hypervisor.Esxi
      ? "NECVMWar VMware SATA CD00"
      : "Msft Virtual CD/ROM")
    : kind === Kind.Desktop
    ? "HL-DT-ST DVD+-RW GUD1N"
    : "TEAC DV-28SW";
}

/** The hard `drives` (one per disk, or one for all on Unix and Macs) and any optical drive. */
function emitDrives(ctx: Ctx, m: Machine, disks: readonly Disk[]): void {
  const r = m.random;
  const name = hardDriveName(m);
  const oneDrive = m.profile === Profile.Linux || m.profile === Profile.Aix || m.kind === Kind.Mac;
  const sizes = oneDrive ? [disks.reduce((s, d) => s + d.size, 0)] : disks.map((d) => d.size);
  for (const size of sizes) {
    ctx.emit("drives", {
      computerId: m.id,
      name,
      diskSizeMB: size + r.int(500, 2048),
      isUpdated: true,
      kind: "hard",
    });
  }
  const optical = opticalDriveName(m);
  if (optical !== undefined) {
    ctx.emit("drives", {
      computerId: m.id,
      name: optical,
      diskSizeMB: 0,
      isUpdated: true,
      kind: "optical",
    });
  }
}

/**
 * Emit a computer's hardware, processor, socket map, logical disk and drive rows (call only for
 * computers with hardware inventory).
 *
 * @example
 * ```ts
 * import { planDisks } from "./generator_disks.ts";
 * import { emitHardwareRows } from "./generator_hardware_rows.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const tables = new Set<string>();
 * const emit = (table: string) => void tables.add(table);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * const m = planMachine(ctx, 0);
 * emitHardwareRows(ctx, m, planDisks(m));
 * console.log(tables.has("hardware"), tables.has("drives")); // true true
 * ```
 */
export function emitHardwareRows(ctx: Ctx, m: Machine, disks: readonly Disk[]): void {
  emitProcessorRows(ctx, m, disks);
  emitLogicalDisks(ctx, m, disks);
  emitDrives(ctx, m, disks);
}
