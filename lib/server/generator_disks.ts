/**
 * The disk layout of one computer: its logical disks with size and free space (MB), by kind
 * and platform (ESXi and AHV hosts, Macs, Linux, AIX, Windows clients, Windows servers and
 * Hyper-V hosts).
 *
 * @module
 */

import { Profile } from "./generator_catalogue.ts";
import type { MachineBase } from "./generator_machine.ts";
import { Hypervisor, Kind } from "./generator_plan.ts";
import type { Random } from "./random.ts";

/** One logical disk. */
export interface Disk {
  /** Mount point or drive letter. */
  readonly name: string;
  readonly volume: string;
  /** Size in MB. */
  readonly size: number;
  /** Free space in MB. */
  readonly free: number;
}

type DiskOf = (name: string, volume: string, size: number, usedShare: [number, number]) => Disk;

/** Disks of Unix-like machines and non-Hyper-V hosts, or undefined for Windows ones. */
function unixDisks(r: Random, d: DiskOf, m: MachineBase): Disk[] | undefined {
  if (m.kind === Kind.Host && m.hostPlan?.hypervisor !== Hypervisor.HyperV) {
    return [
      d("/", "BOOTBANK", 32768, [0.2, 0.5]),
      d("/vmfs/volumes/local-datastore", "local-datastore", r.pick([1907729, 3815458]), [0.3, 0.8]),
    ];
  }
  if (m.profile === Profile.Mac) {
    return [d("/", "Macintosh HD", r.pick([494384, 994662]), [0.2, 0.8])];
  }
  if (m.profile === Profile.Linux) {
    const list = [
      d("/", "root", r.pick([51200, 102400]), [0.2, 0.6]),
      d("/var", "var", r.pick([20480, 51200, 204800]), [0.1, 0.7]),
    ];
    if (r.chance(0.6)) list.push(d("/opt", "opt", r.pick([102400, 262144, 524288]), [0.1, 0.8]));
    return list;
  }
  if (m.profile === Profile.Aix) {
    return [
      d("/", "hd4", 20480, [0.3, 0.6]),
      d("/usr", "hd2", 40960, [0.4, 0.7]),
      d("/data", "datalv", r.pick([1048576, 2097152]), [0.2, 0.8]),
    ];
  }
  return undefined;
}

/** Disks of Windows clients, Windows servers and Hyper-V hosts. */
function windowsDisks(r: Random, d: DiskOf, m: MachineBase): Disk[] {
  if (m.profile === Profile.Win) {
    const list = [d("C:", r.pick(["Windows", "OS"]), r.pick([237568, 475136, 951296]), [0.3, 0.9])];
    if (m.kind === Kind.Desktop && r.chance(0.2)) {
      list.push(d("D:", "Data", r.pick([953869, 1907729]), [0.05, 0.7]));
    }
    return list;
  }
  const list = [
    d("C:", "System", r.pick([102400, 153600, 204800]), [0.3, 0.8]),
  ];
  if (m.kind !== Kind.Vm || r.chance(0.5)) {
    list.push(d("D:", "Data", r.pick([512000, 1048576, 2097152, 4194304]), [0.1, 0.8]));
  }
  return list;
}

/**
 * Draw a computer's logical disks (drawn for every computer, inventoried or not).
 *
 * @example
 * ```ts
 * import { planDisks } from "./generator_disks.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit: () => {} });
 * const disks = planDisks(planMachine(ctx, 0));
 * console.log(disks.every((d) => d.free <= d.size)); // true
 * ```
 */
export function planDisks(m: MachineBase): Disk[] {
  const r = m.random;
  const d: DiskOf = (name, volume, size, usedShare) => {
    const free = Math.round(size * (1 - r.float(usedShare[0], usedShare[1])));
    return { name, volume, size, free };
  };
  return unixDisks(r, d, m) ?? windowsDisks(r, d, m);
}
