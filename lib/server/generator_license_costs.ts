/**
 * The costs of one license: maintenance (most perpetual downgradable licenses) and support
 * rates, one `license_costs` row per organisation share (purchase, current and accumulated
 * maintenance and support, total) and the `license_cost_summaries` row that sums them to the
 * cent. Every tenth-or-so license (index ≡ 7 mod 20) has no costs at all.
 *
 * @module
 */

import type { Organization } from "./generator_catalogue.ts";
import { DAY, orgId, type Row } from "./generator_context.ts";
import type { Random } from "./random.ts";

/** What a license's costs came to. */
export interface LicenseCosts {
  /**
   * Cents summed over the organisation shares: purchase, current maintenance, accumulated
   * maintenance, current support, accumulated support, total.
   */
  readonly sums: readonly number[];
  /** The yearly maintenance rate (0 for none). */
  readonly maintenanceRate: number;
}

/** Options of {@link emitLicenseCosts}. */
export interface LicenseCostOptions {
  readonly r: Random;
  readonly emit: (table: string, row: Row) => void;
  readonly id: string;
  readonly currency: Organization["currency"];
  readonly quantity: number;
  readonly unitCents: number;
  /** Organisation index and quantity of each share. */
  readonly splits: readonly (readonly [number, number])[];
  /** Whole years from the purchase to now (accumulated costs). */
  readonly years: number;
  /** Perpetual licenses of downgradable families may carry maintenance. */
  readonly maintainable: boolean;
  /** Draw the rates but emit no cost rows. */
  readonly noCosts: boolean;
}

/**
 * Draw a license's maintenance and support rates and emit its cost rows (unless `noCosts`).
 *
 * @example
 * ```ts
 * import { emitLicenseCosts } from "./generator_license_costs.ts";
 * import { Random } from "./random.ts";
 * const tables: string[] = [];
 * const costs = emitLicenseCosts({
 *   r: new Random(1), emit: (t) => void tables.push(t), id: "LIC00001", currency: "USD",
 *   quantity: 10, unitCents: 10_000, splits: [[0, 6], [1, 4]], years: 2,
 *   maintainable: true, noCosts: false,
 * });
 * console.log(costs.sums[0], tables.length); // 100000 3
 * ```
 */
export function emitLicenseCosts(o: LicenseCostOptions): LicenseCosts {
  const { r, emit, id, currency, unitCents, years } = o;
  const maintenanceRate = o.maintainable && r.chance(0.7) ? r.float(0.18, 0.25) : 0;
  const supportRate = r.chance(0.3) ? r.float(0.03, 0.08) : 0;
  const sums = [0, 0, 0, 0, 0, 0];
  if (o.noCosts) return { sums, maintenanceRate };
  for (const [org, q] of o.splits) {
    const purchase = unitCents * q;
    const maintenance = Math.round(purchase * maintenanceRate);
    const support = Math.round(purchase * supportRate);
    const accMaintenance = maintenance * years;
    const accSupport = support * years;
    const total = purchase + accMaintenance + accSupport;
    [purchase, maintenance, accMaintenance, support, accSupport, total].forEach((v, k) =>
      sums[k] += v
    );
    emit("license_costs", {
      licenseId: id,
      organizationId: orgId(org),
      currency,
      licenseQuantity: q,
      licensePurchaseCost: purchase / 100,
      currentMaintenanceCost: maintenance / 100,
      accumulatedMaintenanceCost: accMaintenance / 100,
      currentSupportCost: support / 100,
      accumulatedSupportCost: accSupport / 100,
      totalCost: total / 100,
    });
  }
  emit("license_cost_summaries", {
    licenseId: id,
    currency,
    quantity: o.quantity,
    purchaseCost: sums[0] / 100,
    currentMaintenanceCost: sums[1] / 100,
    accumulatedMaintenanceCost: sums[2] / 100,
    currentSupportCost: sums[3] / 100,
    accumulatedSupportCost: sums[4] / 100,
    totalCost: sums[5] / 100,
    averageCostPerLicensePurchase: Math.round(sums[0] / o.quantity) / 100,
  });
  return { sums, maintenanceRate };
}

/**
 * Whole years from a purchase to now.
 *
 * @example
 * ```ts
 * import { yearsSince } from "./generator_license_costs.ts";
 * console.log(yearsSince(0, 800 * 86_400_000)); // 2
 * ```
 */
export function yearsSince(purchaseDate: number, now: number): number {
  return Math.max(0, Math.floor((now - purchaseDate) / (365 * DAY)));
}

/**
 * The real-only cost totals of a license from its cost sums (null for a license without costs):
 * equal to its summary's figures to the cent.
 *
 * @example
 * ```ts
 * import { costFields } from "./generator_license_costs.ts";
 * console.log(costFields([100, 20, 40, 5, 10, 150]).totalLicenseCost); // 1.5
 * console.log(costFields(null).totalLicenseCost); // null
 * ```
 */
export function costFields(sums: readonly number[] | null): Row {
  if (sums === null) {
    return {
      activeMaintenanceCost: null,
      totalMaintenanceCost: null,
      activeSupportCost: null,
      totalSupportCost: null,
      totalLicenseCost: null,
    };
  }
  return {
    activeMaintenanceCost: sums[1] / 100,
    totalMaintenanceCost: sums[2] / 100,
    activeSupportCost: sums[3] / 100,
    totalSupportCost: sums[4] / 100,
    totalLicenseCost: sums[5] / 100,
  };
}
