/**
 * Who logs on to a computer: its end user (and now and then an administrator), or one to three
 * administrators on servers; ESXi and AHV hosts have no logons. Also the `logon_history` rows.
 *
 * @module
 */

import { DAY, HOUR, iso, userId } from "./generator_context.ts";
import type { Ctx } from "./generator_context.ts";
import type { Machine, MachineBase } from "./generator_machine.ts";
import type { Lifecycle } from "./generator_machine_lifecycle.ts";
import { Hypervisor, type Plan } from "./generator_plan.ts";

/** One user's logons to one computer. */
export interface Logon {
  /** User index. */
  readonly user: number;
  /** Last logon (ms). */
  last: number;
  readonly count: number;
}

/** The logons of one computer. */
export interface Logons {
  readonly list: readonly Logon[];
  /** The logon with the highest count, or null. */
  readonly mostFrequent: Logon | null;
  /** The latest logon, or null. */
  readonly mostRecent: Logon | null;
}

/** Draw who logged on, and how often and when. */
function drawLogons(m: MachineBase, plan: Plan, life: Lifecycle): Logon[] {
  const { random: r, hostPlan } = m;
  const { lastScan } = life;
  const logons: Logon[] = [];
  const pickAdmin = () => r.int(0, plan.adminCount - 1);
  if (m.endUser) {
    logons.push({
      user: plan.user[m.index],
      last: lastScan - r.int(0, 2 * DAY),
      count: r.int(40, 900),
    });
    if (r.chance(0.08)) {
      logons.push({ user: pickAdmin(), last: lastScan - r.int(0, 20 * DAY), count: r.int(1, 12) });
    }
  } else if (!(hostPlan && hostPlan.hypervisor !== Hypervisor.HyperV)) {
    const wanted = Math.min(plan.adminCount, r.int(1, 3));
    while (logons.length < wanted) {
      const u = pickAdmin();
      if (logons.some((l) => l.user === u)) continue;
      logons.push({ user: u, last: lastScan - r.int(0, 30 * DAY), count: r.int(3, 400) });
    }
  }
  for (const l of logons) l.last = Math.max(l.last, life.clientInstall + HOUR);
  return logons;
}

/**
 * Draw a computer's logons; none lies before its client was installed.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { planLogons } from "./generator_machine_logons.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const plan = buildPlan(1, 40);
 * const ctx = createContext({ seed: 1, now, n: 40, plan, emit: () => {} });
 * const m = planMachine(ctx, 0);
 * console.log(planLogons(m, plan, m.life).list.length > 0); // true
 * ```
 */
export function planLogons(m: MachineBase, plan: Plan, life: Lifecycle): Logons {
  const list = drawLogons(m, plan, life);
  let mostFrequent: Logon | null = null, mostRecent: Logon | null = null;
  for (const l of list) {
    if (!mostFrequent || l.count > mostFrequent.count) mostFrequent = l;
    if (!mostRecent || l.last > mostRecent.last) mostRecent = l;
  }
  return { list, mostFrequent, mostRecent };
}

/**
 * Emit a computer's `logon_history` rows.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { emitLogonHistory } from "./generator_machine_logons.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const tables: string[] = [];
 * const emit = (table: string) => void tables.push(table);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * emitLogonHistory(ctx, planMachine(ctx, 0));
 * console.log(tables.includes("logon_history")); // true
 * ```
 */
export function emitLogonHistory(ctx: Ctx, m: Machine): void {
  for (const l of m.logons.list) {
    ctx.emit("logon_history", {
      computerId: m.id,
      userId: userId(l.user),
      lastLogon: iso(l.last),
      logonCount: l.count,
    });
  }
}
