/**
 * One computer of the generated estate and everything recorded about it, in a fixed order (the
 * order of the computer's random draws): plan it (`generator_machine.ts`), then emit its
 * computer row, hardware and display inventory, network adapters, contracts, logons,
 * environment variables and registry entries, its installs with their usage and licensing, the
 * Datacenter row of a cluster host, and its costs.
 *
 * @module
 */

import { emitComputerRow } from "./generator_computer_row.ts";
import type { Ctx } from "./generator_context.ts";
import { planDisks } from "./generator_disks.ts";
import { emitDisplayRows } from "./generator_display_rows.ts";
import { emitHardwareRows } from "./generator_hardware_rows.ts";
import { emitClusterHostRow } from "./generator_host_rows.ts";
import { emitInstalls } from "./generator_installs.ts";
import { planMachine } from "./generator_machine.ts";
import { emitLogonHistory } from "./generator_machine_logons.ts";
import { emitComputerContracts, emitComputerCosts } from "./generator_machine_purchase.ts";
import { emitNetworkAdapters } from "./generator_network_rows.ts";
import { emitEnvironmentVariables, emitRegistryEntries } from "./generator_os_rows.ts";

/**
 * Produce computer `i` and all its rows.
 *
 * @example
 * ```ts
 * import { emitComputer } from "./generator_computers.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const tables = new Set<string>();
 * const emit = (table: string) => void tables.add(table);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * for (let i = 0; i < ctx.n; i++) emitComputer(ctx, i);
 * console.log(tables.has("computers"), tables.has("computer_costs")); // true true
 * ```
 */
export function emitComputer(ctx: Ctx, i: number): void {
  const m = planMachine(ctx, i);
  emitComputerRow(ctx, m);
  // Disks are drawn for every computer, inventoried or not.
  const disks = planDisks(m);
  if (!m.hw.noHardware) {
    emitHardwareRows(ctx, m, disks);
    emitDisplayRows(ctx, m);
  }
  emitNetworkAdapters(ctx, m);
  emitComputerContracts(ctx, m);
  emitLogonHistory(ctx, m);
  emitEnvironmentVariables(ctx, m);
  emitRegistryEntries(ctx, m);
  const appCostCents = emitInstalls(ctx, m);
  if (m.hostPlan) emitClusterHostRow(ctx, ctx.plan.hostOrdinal[i]);
  emitComputerCosts(ctx, m, appCostCents);
}
