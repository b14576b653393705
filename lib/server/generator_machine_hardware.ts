/**
 * A computer's hardware identity: manufacturer, model, processor, sockets and cores, whether it
 * has hardware inventory at all, and a manual socket-count override. Hosts take theirs from the
 * plan, virtual machines their host's processor, physical machines a model of their kind.
 *
 * @module
 */

import {
  type CpuDecl,
  CPUS,
  type ModelDecl,
  MODELS,
  Profile,
  VM_MODELS,
} from "./generator_catalogue.ts";
import type { MachineBase } from "./generator_machine.ts";
import { Kind, type Plan } from "./generator_plan.ts";
import type { Random } from "./random.ts";

/** Hardware identity of one computer. */
export interface HardwareIdentity {
  readonly manufacturer: string;
  readonly model: string;
  readonly cpu: CpuDecl;
  readonly sockets: number;
  /** Cores per socket. */
  readonly coresPer: number;
  readonly hyperthreading: boolean;
  readonly coreCount: number;
  /** Logical processors (twice the cores with hyperthreading). */
  readonly logical: number;
  /** No hardware inventory rows (and no processor figures on the computer row). */
  readonly noHardware: boolean;
  /** The socket count was overridden by hand. */
  readonly override: boolean;
  /** The socket count shown (half the sockets when overridden). */
  readonly socketCount: number;
}

interface Chassis {
  manufacturer: string;
  model: string;
  cpu: CpuDecl;
  sockets: number;
  coresPer: number;
  hyperthreading: boolean;
}

function pickModel(r: Random, models: readonly ModelDecl[]): ModelDecl {
  return models[r.weightedIndex(models.map((m) => m.weight))];
}

/** The model list a physical machine of this kind and profile is drawn from. */
function modelsFor(kind: Kind, profile: number): readonly ModelDecl[] {
  return kind === Kind.Desktop
    ? MODELS.desktop
    : kind === Kind.Laptop
    ? MODELS.laptop
    : kind === Kind.Mac
    ? MODELS.mac
    : profile === Profile.Aix
    ? MODELS.power
    : MODELS.server;
}

/** Manufacturer, model, processor and sockets. */
function chassis(m: MachineBase): Chassis {
  const { random: r, kind, hostPlan, myHost } = m;
  if (hostPlan) {
    const cpu = CPUS[hostPlan.cpu];
    return {
      manufacturer: hostPlan.model.manufacturer,
      model: hostPlan.model.model,
      cpu,
      sockets: hostPlan.sockets,
      coresPer: cpu.cores,
      hyperthreading: true,
    };
  }
  if (myHost) {
    const [manufacturer, model] = VM_MODELS[myHost.hypervisor];
    const cpu = CPUS[myHost.cpu];
    const sockets = kind === Kind.Vdi ? r.int(1, 2) : r.weighted([[1, 4], [2, 4], [4, 1]]);
    const coresPer = kind === Kind.Vdi ? r.pick([2, 4]) : r.pick([1, 2, 4, 8]);
    return { manufacturer, model, cpu, sockets, coresPer, hyperthreading: false };
  }
  const model = pickModel(r, modelsFor(kind, m.profile));
  const cpu = CPUS[r.pick(model.cpus)];
  const sockets = kind === Kind.Server
    ? cpu.maxSockets === 1 ? 1 : r.weighted([[1, 15], [2, 75], [4, cpu.maxSockets >= 4 ? 10 : 0]])
    : 1;
  return {
    manufacturer: model.manufacturer,
    model: model.model,
    cpu,
    sockets,
    coresPer: cpu.cores,
    hyperthreading: cpu.hyperthreading,
  };
}

/**
 * Draw a computer's hardware identity.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { planHardwareIdentity } from "./generator_machine_hardware.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const plan = buildPlan(1, 40);
 * const ctx = createContext({ seed: 1, now, n: 40, plan, emit: () => {} });
 * const hw = planHardwareIdentity(planMachine(ctx, 0), plan);
 * console.log(hw.coreCount === hw.sockets * hw.coresPer); // true
 * ```
 */
export function planHardwareIdentity(m: MachineBase, plan: Plan): HardwareIdentity {
  const { random: r, kind, hostPlan, isVirtual } = m;
  const c = chassis(m);
  const coreCount = c.sockets * c.coresPer;
  const noHardware = hostPlan ? hostPlan.noHardware : r.chance(isVirtual ? 0.008 : 0.012);
  const override = (kind === Kind.Server || kind === Kind.Vm || kind === Kind.Host) &&
    (r.chance(0.03) || m.index === plan.firstVm);
  return {
    ...c,
    coreCount,
    logical: c.hyperthreading ? coreCount * 2 : coreCount,
    noHardware,
    override,
    socketCount: override && c.sockets > 1 ? c.sockets >> 1 : c.sockets,
  };
}
