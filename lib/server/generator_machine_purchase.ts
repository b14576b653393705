/**
 * What a computer cost and under which contracts: its purchase (price in the organisation's
 * currency, invoice, reseller; none for virtual machines), its `computer_contracts` rows and its
 * `computer_costs` row, which adds the list price of the licensable products installed on it.
 *
 * @module
 */

import { type Organization, USD_PER } from "./generator_catalogue.ts";
import { contractId, type Ctx, iso, pad } from "./generator_context.ts";
import type { Machine, MachineBase } from "./generator_machine.ts";
import type { HardwareIdentity } from "./generator_machine_hardware.ts";
import type { Lifecycle } from "./generator_machine_lifecycle.ts";
import { Kind } from "./generator_plan.ts";

/** The purchase of one computer. */
export interface Purchase {
  /** The organisation's currency. */
  readonly currency: Organization["currency"];
  /** List price in US dollars (0 for virtual machines). */
  readonly purchaseUsd: number;
  /** The price in cents of `currency`. */
  readonly purchaseCents: number;
  readonly invoiceReference: string | null;
  readonly vendor: string | null;
}

const RESELLERS = ["Dell Technologies", "CDW", "Insight", "Bechtle", "Computacenter", "SHI"];

/** The list price in US dollars of a machine of this kind. */
function priceUsd(m: MachineBase, sockets: number): number {
  const r = m.random;
  const kind = m.kind;
  return m.isVirtual
    ? 0
    : kind === Kind.Desktop
    ? r.int(700, 1600)
    : kind === Kind.Laptop
    ? r.int(900, 2400)
    : kind === Kind.Mac
    ? r.int(1800, 3500)
    : kind === Kind.Host
    ? r.int(15000, 60000)
    : r.int(4000, 15000) * sockets;
}

/**
 * Draw a computer's purchase.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { planPurchase } from "./generator_machine_purchase.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit: () => {} });
 * const m = planMachine(ctx, 0);
 * console.log(planPurchase(m, m.hw, m.life).currency === m.org.currency); // true
 * ```
 */
export function planPurchase(m: MachineBase, hw: HardwareIdentity, life: Lifecycle): Purchase {
  const { random: r, isVirtual } = m;
  const currency = m.org.currency;
  const purchaseUsd = priceUsd(m, hw.sockets);
  const purchaseCents = Math.round((purchaseUsd / USD_PER[currency]) * 100);
  const purchaseYear = life.purchaseDate === null
    ? 0
    : new Date(life.purchaseDate).getUTCFullYear();
  const invoiceReference = isVirtual ? null : `INV-${purchaseYear}-${pad(r.int(1, 99999), 5)}`;
  const vendor = isVirtual
    ? null
    : m.kind === Kind.Mac
    ? "Apple Store for Business"
    : r.pick(RESELLERS);
  return { currency, purchaseUsd, purchaseCents, invoiceReference, vendor };
}

/**
 * Emit the `computer_contracts` rows of a physical machine (about a third have one; some servers
 * a second).
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { emitComputerContracts } from "./generator_machine_purchase.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * let rows = 0;
 * const emit = (table: string) => void (rows += table === "computer_contracts" ? 1 : 0);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * for (let i = 0; i < 40; i++) emitComputerContracts(ctx, planMachine(ctx, i));
 * console.log(rows > 0); // true
 * ```
 */
export function emitComputerContracts(ctx: Ctx, m: Machine): void {
  const r = m.random;
  if (m.isVirtual || !r.chance(0.35)) return;
  const first = r.int(0, ctx.contracts - 1);
  ctx.emit("computer_contracts", { computerId: m.id, contractId: contractId(first) });
  if (m.isServer && ctx.contracts > 1 && r.chance(0.2)) {
    ctx.emit("computer_contracts", {
      computerId: m.id,
      contractId: contractId((first + 1) % ctx.contracts),
    });
  }
}

/**
 * Emit a computer's `computer_costs` row: its purchase plus `appCostCents`, the list price of
 * its licensable installs in cents of its currency.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { emitComputerCosts } from "./generator_machine_purchase.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const rows: Record<string, unknown>[] = [];
 * const emit = (table: string, row: Record<string, unknown>) => void rows.push(row);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * rows.length = 0;
 * emitComputerCosts(ctx, planMachine(ctx, 0), 12_345);
 * console.log(rows[0].totalCostOfInstalledApplications); // 123.45
 * ```
 */
export function emitComputerCosts(ctx: Ctx, m: Machine, appCostCents: number): void {
  const p = m.purchase;
  ctx.emit("computer_costs", {
    computerId: m.id,
    vendor: p.vendor,
    purchaseCurrency: p.currency,
    invoiceReference: p.invoiceReference,
    purchaseDate: iso(m.life.purchaseDate),
    purchaseValueBase: m.isVirtual ? null : p.purchaseUsd,
    purchasePrice: p.purchaseCents / 100,
    totalCostOfInstalledApplications: appCostCents / 100,
    totalCost: (p.purchaseCents + appCostCents) / 100,
  });
}
