/**
 * A computer's lifecycle: its status (active, quarantined, inactive, or just not scanned for a
 * while), whether it is excluded from licensing, and the dates that follow from them.
 *
 * @module
 */

import { DAY, HOUR, MINUTE } from "./generator_context.ts";
import type { MachineBase } from "./generator_machine.ts";
import { Kind } from "./generator_plan.ts";

/** Status and dates of one computer (ms since the epoch). */
export interface Lifecycle {
  /** `Active`, `Quarantined` or `Inactive`. */
  readonly status: string;
  readonly lastScan: number;
  readonly quarantineDate: number | null;
  /** Status `Inactive`: its installs are outside the metric period. */
  readonly inactive: boolean;
  /** Manually excluded from licensing. */
  readonly excluded: boolean;
  readonly clientInstall: number;
  /** Null for virtual machines. */
  readonly purchaseDate: number | null;
  readonly biosDate: number;
  readonly reportingDate: number;
  readonly infoTransferDate: number;
}

/**
 * Draw a computer's status and dates. Hosts are never quarantined or inactive.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { planLifecycle } from "./generator_machine_lifecycle.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit: () => {} });
 * const life = planLifecycle(planMachine(ctx, 0), now);
 * console.log(life.lastScan > life.clientInstall); // true
 * ```
 */
export function planLifecycle(m: MachineBase, now: number): Lifecycle {
  const { random: r, kind, isVirtual } = m;
  let status = "Active";
  let lastScan: number;
  let quarantineDate: number | null = null;
  const roll = r.next();
  if (roll < 0.03 && kind !== Kind.Host) {
    status = "Quarantined";
    lastScan = now - r.int(75, 300) * DAY - r.int(0, DAY);
    quarantineDate = lastScan + (60 + r.int(0, 10)) * DAY + r.int(0, DAY);
  } else if (roll < 0.07 && kind !== Kind.Host) {
    status = "Inactive";
    lastScan = now - r.int(181, 900) * DAY - r.int(0, DAY);
  } else if (roll < 0.12) {
    lastScan = now - r.int(91, 400) * DAY - r.int(0, DAY);
  } else {
    lastScan = now - r.int(HOUR, 6 * DAY);
  }
  const excluded = r.chance(0.015);
  const clientInstall = lastScan - r.int(20, isVirtual ? 1500 : 2000) * DAY - r.int(0, DAY);
  const purchaseDate = isVirtual ? null : clientInstall - r.int(1, 20) * DAY - r.int(0, DAY);
  const biosDate = (purchaseDate ?? clientInstall) - r.int(30, 400) * DAY;
  const reportingDate = Math.min(now, lastScan + r.int(10 * MINUTE, 6 * HOUR));
  const infoTransferDate = Math.min(reportingDate, lastScan + r.int(MINUTE, 10 * MINUTE));
  return {
    status,
    lastScan,
    quarantineDate,
    inactive: status === "Inactive",
    excluded,
    clientInstall,
    purchaseDate,
    biosDate,
    reportingDate,
    infoTransferDate,
  };
}
