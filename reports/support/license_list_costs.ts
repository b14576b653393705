/**
 * What a license list entry already says about the license's costs and vendor, so a report asks
 * the per-license calls (`licenses.costsSummary`, `licenses.get`) only for entries that lack it.
 *
 * The real service's license list (and the reference server's, in both dialects) carries the
 * vendor and the cost totals, equal to the costs summary's figures to the cent:
 *
 * | costs summary                | license list            |
 * | ---------------------------- | ----------------------- |
 * | `currency`                   | `purchaseCurrency`      |
 * | `quantity`                   | `quantity`              |
 * | `purchaseCost`               | `purchaseValue`         |
 * | `currentMaintenanceCost`     | `activeMaintenanceCost` |
 * | `accumulatedMaintenanceCost` | `totalMaintenanceCost`  |
 * | `currentSupportCost`         | `activeSupportCost`     |
 * | `accumulatedSupportCost`     | `totalSupportCost`      |
 * | `totalCost`                  | `totalLicenseCost`      |
 *
 * The spec's list is thinner: none of these (but currency, quantity and purchase value) is sent.
 * The normaliser reads an absent field as `null`, so "not sent" and "sent as null" look alike
 * per field; the rule decides per entry instead:
 *
 * - an entry that has a cost total, or any of the flags and dates the real list always fills
 *   ({@link ALWAYS_SENT}: the spec's list has none of them), **carries the list fields**;
 * - such an entry with every cost total `null` is a license **without costs**: the reference
 *   server sends exactly that for a license whose costs summary is missing (404); on the real
 *   service the list is taken at its word (no totals, no costs: its totals are the summary's);
 * - any other entry is **thin** (a spec-only server): its costs summary and detail are asked for.
 *
 * @module
 */

import type { Resource } from "../../lib/api/catalogue.ts";

type License = Resource<"License">;
type CostSummary = Resource<"LicenseCostSummary">;

/** The cost totals of the real license list (the costs summary's figures but the purchase). */
export const COST_TOTALS = [
  "activeMaintenanceCost",
  "totalMaintenanceCost",
  "activeSupportCost",
  "totalSupportCost",
  "totalLicenseCost",
] as const;

/**
 * Fields the real license list always fills (booleans and the creation date) and the spec's list
 * does not have: one of them with a value marks an entry as carrying the list fields.
 */
export const ALWAYS_SENT = [
  "isSubscription",
  "isIncomplete",
  "isCrossEdition",
  "autoAllocateOnce",
  "isAutoAllocated",
  "createdDate",
] as const;

const present = (value: unknown): boolean => value !== null && value !== undefined;

/**
 * Whether a list entry carries the real list's fields (vendor and cost totals), so no
 * per-license call is needed for them.
 *
 * @example
 * ```ts
 * import { carriesListFields } from "./license_list_costs.ts";
 * console.log(carriesListFields({ isSubscription: false, totalLicenseCost: null })); // true
 * console.log(carriesListFields({ isSubscription: null, totalLicenseCost: null })); // false
 * ```
 */
export function carriesListFields(
  license: Partial<Pick<License, typeof COST_TOTALS[number] | typeof ALWAYS_SENT[number]>>,
): boolean {
  return COST_TOTALS.some((f) => present(license[f])) ||
    ALWAYS_SENT.some((f) => present(license[f]));
}

/** Average purchase cost per unit, to the cent, as the costs summary gives it. */
function averagePerUnit(purchase: number | null, quantity: number | null): number | null {
  if (purchase === null || !Number.isFinite(purchase)) return null;
  if (quantity === null || !(quantity > 0)) return null;
  return Math.round(Math.round(purchase * 100) / quantity) / 100;
}

/**
 * The costs summary a list entry stands for: the summary's figures from the list's fields when
 * it carries a cost total, `null` when it carries the list fields and no cost total (a license
 * without costs), `undefined` when the entry is thin (ask `licenses.costsSummary`).
 *
 * @example
 * ```ts
 * import { summaryFromList } from "./license_list_costs.ts";
 * const summary = summaryFromList({
 *   id: "L1",
 *   purchaseCurrency: "EUR",
 *   quantity: 3,
 *   purchaseValue: 100,
 *   activeMaintenanceCost: 20,
 *   totalMaintenanceCost: 40,
 *   activeSupportCost: 0,
 *   totalSupportCost: 0,
 *   totalLicenseCost: 140,
 * });
 * console.log(summary?.totalCost, summary?.averageCostPerLicensePurchase); // 140 33.33
 * ```
 */
export function summaryFromList(
  license: Partial<License>,
): CostSummary | null | undefined {
  if (!carriesListFields(license)) return undefined;
  if (!COST_TOTALS.some((f) => present(license[f]))) return null;
  const quantity = license.quantity ?? null;
  const purchase = license.purchaseValue ?? null;
  return {
    licenseId: license.id ?? null,
    currency: license.purchaseCurrency ?? null,
    quantity,
    purchaseCost: purchase,
    currentMaintenanceCost: license.activeMaintenanceCost ?? null,
    accumulatedMaintenanceCost: license.totalMaintenanceCost ?? null,
    currentSupportCost: license.activeSupportCost ?? null,
    accumulatedSupportCost: license.totalSupportCost ?? null,
    totalCost: license.totalLicenseCost ?? null,
    averageCostPerLicensePurchase: averagePerUnit(purchase, quantity),
  };
}
