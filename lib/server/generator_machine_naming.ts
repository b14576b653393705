/**
 * A computer's names: its host name (site, kind and, for servers, the role its software gives
 * it), its address, and whether it runs Windows or a Windows server operating system. No random
 * draws.
 *
 * @module
 */

import { Profile } from "./generator_catalogue.ts";
import { pad } from "./generator_context.ts";
import type { MachineBase } from "./generator_machine.ts";
import type { HardwareIdentity } from "./generator_machine_hardware.ts";
import { hasApp, hasFamily, type Software } from "./generator_machine_software.ts";
import { Hypervisor, Kind } from "./generator_plan.ts";

/** Names and platform of one computer. */
export interface Naming {
  readonly hostName: string;
  /** `10.<org net>.x.y`. */
  readonly ipAddress: string;
  /** Runs Windows (desktop, server or Hyper-V host). */
  readonly windows: boolean;
  /** Runs a Windows server operating system. */
  readonly serverOs: boolean;
}

/** The role part of a server's name, from its software and profile. */
function serverRole(profile: number, sw: Software): string {
  return hasFamily(sw, "sql-server") || hasApp(sw, "sql2019-express")
    ? "SQL"
    : hasFamily(sw, "oracle-db") || hasFamily(sw, "db2")
    ? "DB"
    : hasFamily(sw, "weblogic")
    ? "WLS"
    : profile === Profile.Linux
    ? "LNX"
    : profile === Profile.Aix
    ? "AIX"
    : "APP";
}

/** The host name of a computer. */
function hostNameOf(m: MachineBase, hw: HardwareIdentity, sw: Software): string {
  const { kind, org } = m;
  const num = pad(m.index + 1, 5);
  return kind === Kind.Desktop
    ? `${org.site}-WS-${num}`
    : kind === Kind.Laptop
    ? `${org.site}-LT-${num}`
    : kind === Kind.Mac
    ? `${hw.model.replaceAll(" ", "-")}-${num}`
    : kind === Kind.Vdi
    ? `${org.site}-VDI-${num}`
    : kind === Kind.Host
    ? `${org.site}-${["ESX", "HV", "AHV"][m.hostPlan!.hypervisor]}-${num}`
    : kind === Kind.Vm
    ? `${org.site}-VM-${serverRole(m.profile, sw)}-${num}`
    : `${org.site}-SRV-${serverRole(m.profile, sw)}-${num}`;
}

/**
 * Name a computer.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { planNaming } from "./generator_machine_naming.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit: () => {} });
 * const m = planMachine(ctx, 0);
 * console.log(planNaming(m, m.hw, m.sw).hostName === m.names.hostName); // true
 * ```
 */
export function planNaming(m: MachineBase, hw: HardwareIdentity, sw: Software): Naming {
  const i = m.index;
  const { profile, hostPlan } = m;
  return {
    hostName: hostNameOf(m, hw, sw),
    ipAddress: `10.${m.org.net}.${Math.floor(i / 253) % 256}.${1 + (i % 253)}`,
    windows: profile === Profile.Win || profile === Profile.WinServer ||
      hostPlan?.hypervisor === Hypervisor.HyperV,
    serverOs: profile === Profile.WinServer || hostPlan?.hypervisor === Hypervisor.HyperV,
  };
}
