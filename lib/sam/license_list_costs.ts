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

import type { LicensesApi } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { detailsById } from "../query/details.ts";
import type { License, LicenseCostSummary as CostSummary } from "../api/types.ts";

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

/** A license's costs summary (`null`: none) and vendor, from its list entry or its own calls. */
export interface LicenseCosts {
  /** The costs summary, `null` when the license has none (404, or a list entry without totals). */
  readonly summary: CostSummary | null;
  /** Who the license was bought from (the list entry's, else the detail's), untrimmed. */
  readonly vendor: string | null | undefined;
}

/**
 * Each license's costs summary and vendor by license id: from the list entry when it carries
 * them ({@link summaryFromList}), else one `costsSummary` and one `get` call per thin entry
 * through the run's fan-out (cache keys `licenses.costsSummary:<id>` and `licenses.get:<id>`,
 * `null` on 404).
 *
 * @example
 * ```ts
 * import { licenseCosts } from "./license_list_costs.ts";
 * import { createQueryContext } from "../query/context.ts";
 * const licenses = { get: () => Promise.reject(new Error("not asked")) } as never;
 * const ctx = { client: { licenses }, query: createQueryContext(), signal: new AbortController().signal };
 * const costs = await licenseCosts(ctx, [{ id: "L1", vendor: "Dell", isSubscription: false }] as never);
 * console.log(costs.get("L1")); // { summary: null, vendor: "Dell" }
 * ```
 */
export async function licenseCosts(
  ctx: {
    readonly client: { readonly licenses: Pick<LicensesApi, "get" | "costsSummary"> };
    readonly query: QueryContext;
    readonly signal: AbortSignal;
  },
  licenses: readonly License[],
): Promise<Map<string, LicenseCosts>> {
  const out = new Map<string, LicenseCosts>();
  const thin = licenses.filter((l) => summaryFromList(l) === undefined);
  for (const l of licenses) {
    const summary = summaryFromList(l);
    if (l.id && summary !== undefined) out.set(l.id, { summary, vendor: l.vendor });
  }
  if (thin.length === 0) return out;
  const { signal } = ctx;
  const summaries = await detailsById(
    ctx,
    thin,
    "licenses.costsSummary",
    (id) => ctx.client.licenses.costsSummary(id, { signal }),
  );
  const details = await detailsById(
    ctx,
    thin,
    "licenses.get",
    (id) => ctx.client.licenses.get(id, { signal }),
  );
  for (const [id, summary] of summaries) out.set(id, { summary, vendor: details.get(id)?.vendor });
  return out;
}

/**
 * The license list, read once per run (cache key `licenses.list`, or `licenses.list?filter=…`
 * with a `--filter`).
 *
 * @example
 * ```ts
 * import { readLicenses } from "./license_list_costs.ts";
 * import { createQueryContext } from "../query/context.ts";
 * const licenses = { list: () => [{ id: "L1" }] } as never;
 * console.log(await readLicenses({ client: { licenses }, query: createQueryContext() })); // [{ id: "L1" }]
 * ```
 */
export function readLicenses(ctx: {
  readonly client: { readonly licenses: Pick<LicensesApi, "list"> };
  readonly query: QueryContext;
  readonly filter?: string;
}): Promise<License[]> {
  const filter = ctx.filter;
  if (!filter) return ctx.query.all("licenses.list", () => ctx.client.licenses.list());
  return ctx.query.all(
    `licenses.list?filter=${filter}`,
    () => ctx.client.licenses.list({ filter }),
  );
}
