/**
 * The coverage of each organisation, per application and metric, as the vendor's compliance
 * allocation (`/compliance/summary/{applicationId}/allocation`) reports it, derived from the
 * rows the estate generator emits by the rules SAM tools use to scope a license position:
 *
 * - each organisation holds the units its license entitlements (`entitlements`, served as
 *   `/licenses-entitlements`) allocate to it;
 * - a transfer (`computer_transfers`, `user_transfers`) adds its quantity to the installed
 *   product for the holder's organisation (the transfer row's `organizationId`);
 * - and takes it from the licensed product's allocations, transfers in id order: from the
 *   holder's organisation while its allocation has units left, then the license's own
 *   organisation, then the other organisations' allocations, largest left first (ties by
 *   organisation id); units no allocation has left are charged to the license's organisation.
 *
 * So no organisation gives more than it was allocated (no negative coverage where the licenses
 * cover every transfer), and the organisations' coverage adds up to the summary's
 * `totalCoverage`.
 *
 * @module
 */

import type { Row } from "./generator_context.ts";

/** A transfer as the allocation reads it. */
interface Move {
  readonly id: string;
  readonly licenseId: string;
  readonly holder: string | null;
  readonly from: string;
  readonly to: string;
  readonly quantity: number;
}

const units = (v: unknown): number => {
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) && n > 0 ? n : 0;
};
const text = (v: unknown): string | null =>
  v === null || v === undefined || v === "" ? null : String(v);
const key = (app: unknown, metric: unknown) => `${app}|${metric}`;

/**
 * Collects license entitlements, license owners and transfers; {@link OrgCoverage.coverage}
 * returns each organisation's coverage per `applicationId|metricId`.
 *
 * @example
 * ```ts
 * import { OrgCoverage } from "./generator_org_coverage.ts";
 * const c = new OrgCoverage();
 * c.license({ id: "L1", organizationId: "HQ" });
 * c.allocation({ applicationId: "DB19", metricId: "CORE", organizationId: "HQ", quantity: 6 });
 * c.allocation({ applicationId: "DB19", metricId: "CORE", organizationId: "IT", quantity: 4 });
 * c.transfer({
 *   id: "T1", licenseId: "L1", organizationId: "IT", fromApplicationId: "DB19",
 *   toApplicationId: "DB12", metricId: "CORE", quantity: 2,
 * });
 * const coverage = c.coverage();
 * console.log(Object.fromEntries(coverage.get("DB19|CORE")!)); // { HQ: 6, IT: 2 }
 * console.log(Object.fromEntries(coverage.get("DB12|CORE")!)); // { IT: 2 }
 * ```
 */
export class OrgCoverage {
  /** `applicationId|metricId` → organisation → units allocated. */
  #allocated = new Map<string, Map<string, number>>();
  /** License id → its organisation. */
  #owner = new Map<string, string | null>();
  #moves: Move[] = [];

  /** A `licenses` row: its organisation is where units no allocation has left are charged. */
  license(row: Row): void {
    this.#owner.set(String(row.id), text(row.organizationId));
  }

  /** An `entitlements` row: units of a product and metric allocated to an organisation. */
  allocation(row: Row): void {
    const org = text(row.organizationId);
    if (!text(row.applicationId) || !text(row.metricId) || org === null) return;
    const k = key(row.applicationId, row.metricId);
    let orgs = this.#allocated.get(k);
    if (!orgs) this.#allocated.set(k, orgs = new Map());
    orgs.set(org, (orgs.get(org) ?? 0) + units(row.quantity));
  }

  /** A `computer_transfers` or `user_transfers` row. */
  transfer(row: Row): void {
    this.#moves.push({
      id: String(row.id ?? ""),
      licenseId: String(row.licenseId ?? ""),
      holder: text(row.organizationId),
      from: key(row.fromApplicationId, row.metricId),
      to: key(row.toApplicationId, row.metricId),
      quantity: units(row.quantity),
    });
  }

  /** Each organisation's coverage, per `applicationId|metricId` (see the module doc). */
  coverage(): Map<string, Map<string, number>> {
    const out = new Map<string, Map<string, number>>();
    const add = (k: string, org: string | null, q: number) => {
      if (org === null || q === 0) return;
      let orgs = out.get(k);
      if (!orgs) out.set(k, orgs = new Map());
      orgs.set(org, (orgs.get(org) ?? 0) + q);
    };
    const left = new Map<string, Map<string, number>>();
    for (const [k, orgs] of this.#allocated) {
      left.set(k, new Map(orgs));
      for (const [org, q] of orgs) add(k, org, q);
    }
    const moves = [...this.#moves].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    for (const m of moves) {
      add(m.to, m.holder, m.quantity);
      for (const [org, q] of this.#charge(m, left.get(m.from) ?? new Map())) add(m.from, org, -q);
    }
    return out;
  }

  /** The organisations `m` takes its units from, and how many from each. */
  #charge(m: Move, left: Map<string, number>): [string | null, number][] {
    const own = this.#owner.get(m.licenseId) ?? null;
    const largest = [...left].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    const charges: [string | null, number][] = [];
    let need = m.quantity;
    for (const org of [m.holder, own, ...largest.map(([org]) => org)]) {
      if (need <= 0) break;
      const take = org === null ? 0 : Math.min(need, left.get(org) ?? 0);
      if (take <= 0) continue;
      left.set(org!, left.get(org!)! - take);
      charges.push([org, take]);
      need -= take;
    }
    if (need > 0) charges.push([own ?? m.holder, need]);
    return charges;
  }
}
