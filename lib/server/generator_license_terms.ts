/**
 * The terms of one license purchase: what is bought (product, family, quantity, list price,
 * assignment, organisation, cluster, upgrade base), when (never before the product's release or
 * the base license), at what unit price (a discount of up to a quarter; upgrades at 45%), and
 * how an organisation license's quantity is split over organisations.
 *
 * @module
 */

import {
  END_USER_ORG_WEIGHTS,
  MET,
  type Organization,
  SERVER_ORG_WEIGHTS,
  USD_PER,
} from "./generator_catalogue.ts";
import { APP_INFOS, type AssignmentType, DAY, FAMILIES, HOUR } from "./generator_context.ts";
import type { Random } from "./random.ts";

/** One license to buy. */
export interface LicensePurchase {
  /** Product index. */
  app: number;
  /** License family index. */
  family: number;
  quantity: number;
  /** List price per unit in US dollars. */
  unitUsd: number;
  assignment: AssignmentType;
  /** Organisation index. */
  org: number;
  /** Usable by ordinary coverage (datacenter licenses only cover their cluster). */
  generic: boolean;
  /** Cluster index of a datacenter license, -1 otherwise. */
  cluster: number;
  /** License index this upgrades, -1 otherwise. */
  upgradeOf: number;
  /** Earliest purchase date (ms), 0 for none. */
  notBefore: number;
}

/**
 * Metrics whose licenses are bought for servers (organisations weighted as servers are).
 *
 * @example
 * ```ts
 * import { SERVER_METRICS } from "./generator_license_terms.ts";
 * console.log(SERVER_METRICS.size); // 3
 * ```
 */
export const SERVER_METRICS: ReadonlySet<string> = new Set<string>([
  MET.cores,
  MET.pvu,
  MET.devices,
]);

/**
 * Split `total` into `parts` positive integers with random proportions.
 *
 * @example
 * ```ts
 * import { split } from "./generator_license_terms.ts";
 * import { Random } from "./random.ts";
 * const parts = split(new Random(1), 10, 3);
 * console.log(parts.length, parts.reduce((s, v) => s + v, 0)); // 3 10
 * ```
 */
export function split(r: Random, total: number, parts: number): number[] {
  parts = Math.max(1, Math.min(parts, total));
  const weights = Array.from({ length: parts }, () => r.float(0.5, 1.5));
  const sum = weights.reduce((s, w) => s + w, 0);
  const out = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  let diff = total - out.reduce((s, v) => s + v, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % parts) {
    if (diff > 0) {
      out[i]++;
      diff--;
    } else if (out[i] > 1) {
      out[i]--;
      diff++;
    }
  }
  return out;
}

/**
 * Draw the purchase date (ms): within the last year for a new subscription, else up to six
 * years back; at least two weeks after release and `notBefore`, at most five days before now.
 *
 * @example
 * ```ts
 * import { purchaseDateOf } from "./generator_license_terms.ts";
 * import { Random } from "./random.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const p = {
 *   app: 0, family: 0, quantity: 5, unitUsd: 100, assignment: "Organization" as const,
 *   org: 0, generic: true, cluster: -1, upgradeOf: -1, notBefore: 0,
 * };
 * console.log(purchaseDateOf(new Random(1), p, now) <= now - 5 * 86_400_000); // true
 * ```
 */
export function purchaseDateOf(r: Random, p: LicensePurchase, now: number): number {
  const fam = FAMILIES[p.family];
  const earliest = Math.max(p.notBefore, APP_INFOS[p.app].releaseMs + 14 * DAY);
  const latest = now - 5 * DAY;
  return Math.min(
    latest,
    fam.subscription && p.upgradeOf < 0
      ? Math.max(earliest, now - r.int(10, 360) * DAY - r.int(8, 18) * HOUR)
      : Math.max(earliest, now - r.int(60, 2200) * DAY) + r.int(8, 18) * HOUR,
  );
}

/**
 * Draw the unit price in cents of `currency`: list price less up to 25%, upgrades at 45%.
 *
 * @example
 * ```ts
 * import { unitCentsOf } from "./generator_license_terms.ts";
 * import { Random } from "./random.ts";
 * const p = {
 *   app: 0, family: 0, quantity: 5, unitUsd: 100, assignment: "Organization" as const,
 *   org: 0, generic: true, cluster: -1, upgradeOf: -1, notBefore: 0,
 * };
 * const cents = unitCentsOf(new Random(1), p, "USD");
 * console.log(cents >= 7500 && cents <= 10000); // true
 * ```
 */
export function unitCentsOf(
  r: Random,
  p: LicensePurchase,
  currency: Organization["currency"],
): number {
  let unitCents = Math.round(((p.unitUsd * (1 - r.float(0, 0.25))) / USD_PER[currency]) * 100);
  if (p.upgradeOf >= 0) unitCents = Math.round(unitCents * 0.45);
  return Math.max(1, unitCents);
}

/**
 * Split an organisation license of two or more units over one to three organisations (its own
 * first, largest share first); any other license stays with its organisation.
 *
 * @example
 * ```ts
 * import { splitByOrganisation } from "./generator_license_terms.ts";
 * import { Random } from "./random.ts";
 * const p = {
 *   app: 0, family: 0, quantity: 1, unitUsd: 100, assignment: "Computer" as const,
 *   org: 3, generic: true, cluster: -1, upgradeOf: -1, notBefore: 0,
 * };
 * console.log(splitByOrganisation(new Random(1), p)); // [ [ 3, 1 ] ]
 * ```
 */
export function splitByOrganisation(r: Random, p: LicensePurchase): [number, number][] {
  if (p.assignment !== "Organization" || p.quantity < 2) return [[p.org, p.quantity]];
  const fam = FAMILIES[p.family];
  const orgsWanted = Math.min(p.quantity, r.weighted([[1, 5], [2, 3], [3, 2]]));
  const orgs = [p.org];
  const weights = (SERVER_METRICS.has(fam.metric) ? SERVER_ORG_WEIGHTS : END_USER_ORG_WEIGHTS)
    .slice();
  weights[p.org] = 0;
  while (orgs.length < orgsWanted) {
    const o = r.weightedIndex(weights);
    weights[o] = 0;
    orgs.push(o);
  }
  const parts = split(r, p.quantity, orgs.length).sort((a, b) => b - a);
  return orgs.map((o, k) => [o, parts[k]]);
}
