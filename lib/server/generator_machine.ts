/**
 * One computer of the generated estate as the emitters see it: what the plan says it is, and
 * what its planners drew for it (lifecycle, hardware identity, software, names, logons,
 * purchase), in the fixed order that keeps every random draw where it always was.
 *
 * @module
 */

import { type Organization, ORGANIZATIONS } from "./generator_catalogue.ts";
import { computerId, type Ctx, streamFor } from "./generator_context.ts";
import { type HardwareIdentity, planHardwareIdentity } from "./generator_machine_hardware.ts";
import { type Lifecycle, planLifecycle } from "./generator_machine_lifecycle.ts";
import { type Logons, planLogons } from "./generator_machine_logons.ts";
import { type Naming, planNaming } from "./generator_machine_naming.ts";
import { planPurchase, type Purchase } from "./generator_machine_purchase.ts";
import { planSoftware, type Software } from "./generator_machine_software.ts";
import { type HostPlan, Kind } from "./generator_plan.ts";
import type { Random } from "./random.ts";

/** What the plan says a computer is, and its random stream. */
export interface MachineBase {
  /** Computer index. */
  readonly index: number;
  /** `C000001` … */
  readonly id: string;
  readonly kind: Kind;
  /** Software profile (see `Profile`). */
  readonly profile: number;
  readonly org: Organization;
  /** The host plan when this computer is a virtualisation host. */
  readonly hostPlan: HostPlan | null;
  /** The host a virtual machine or VDI machine runs on. */
  readonly myHost: HostPlan | null;
  readonly isVirtual: boolean;
  readonly isServer: boolean;
  /** An end user's machine (it has a primary user). */
  readonly endUser: boolean;
  /**
   * The computer's own random stream. Planners and emitters draw from it in emission order;
   * drawing in another order changes the estate.
   */
  readonly random: Random;
}

/** A computer with everything its planners drew. */
export interface Machine extends MachineBase {
  readonly life: Lifecycle;
  readonly hw: HardwareIdentity;
  readonly sw: Software;
  readonly names: Naming;
  readonly logons: Logons;
  readonly purchase: Purchase;
}

/** What the plan says computer `i` is. */
function machineBase(ctx: Ctx, i: number): MachineBase {
  const { plan, seed } = ctx;
  const kind = plan.kind[i] as Kind;
  return {
    index: i,
    id: computerId(i),
    kind,
    profile: plan.profile[i],
    org: ORGANIZATIONS[plan.org[i]],
    hostPlan: kind === Kind.Host ? plan.hosts[plan.hostOrdinal[i]] : null,
    myHost: plan.hostOf[i] >= 0 ? plan.hosts[plan.hostOf[i]] : null,
    isVirtual: kind === Kind.Vm || kind === Kind.Vdi,
    isServer: kind === Kind.Server || kind === Kind.Host || kind === Kind.Vm,
    endUser: plan.user[i] >= 0,
    random: streamFor(seed, "computer", i),
  };
}

/**
 * Plan computer `i`: lifecycle, hardware identity, software (from the stream of the computer
 * whose choices it repeats), names, logons and purchase, in that order.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const plan = buildPlan(1, 40);
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ctx = createContext({ seed: 1, now, n: 40, plan, emit: () => {} });
 * const m = planMachine(ctx, 0);
 * console.log(m.id, m.sw.installs.length > 0); // "C000001" true
 * ```
 */
export function planMachine(ctx: Ctx, i: number): Machine {
  const { plan, now, seed } = ctx;
  const base = machineBase(ctx, i);
  const life = planLifecycle(base, now);
  const hw = planHardwareIdentity(base, plan);
  const sw = planSoftware(base, plan, streamFor(seed, "apps", plan.appSource[i]));
  const names = planNaming(base, hw, sw);
  const logons = planLogons(base, plan, life);
  const purchase = planPurchase(base, hw, life);
  return { ...base, life, hw, sw, names, logons, purchase };
}
