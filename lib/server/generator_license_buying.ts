/**
 * What the estate buys: per license family, a quantity in proportion to the requirement the
 * plan expects (the family's coverage range makes it over- or under-licensed), spread over the
 * products the family buys by weight and split into purchases of about the family's chunk size;
 * then upgrades of some older purchases to the next newer product of the same edition; and a
 * Windows Server Datacenter license for each cluster licensed so.
 *
 * @module
 */

import {
  END_USER_ORG_WEIGHTS,
  type LicenseFamilyDecl,
  MET,
  SERVER_ORG_WEIGHTS,
} from "./generator_catalogue.ts";
import { APP_INFOS, appOf, type AssignmentType, DAY, FAMILIES } from "./generator_context.ts";
import type { LicenseLedger } from "./generator_license_ledger.ts";
import { SERVER_METRICS, split } from "./generator_license_terms.ts";
import { hostCoreRequirement, type Plan } from "./generator_plan.ts";
import type { Random } from "./random.ts";

/** The running assignment ordinal shared by every family (every sixth is a site license). */
export interface BuyState {
  orgTypeOrdinal: number;
}

/** Units per product of the family's buy list, by largest remainder. */
function quantities(fam: LicenseFamilyDecl, total: number): number[] {
  const weightSum = fam.buy.reduce((s, b) => s + b[1], 0);
  const exact = fam.buy.map((b) => (total * b[1]) / weightSum);
  const qty = exact.map(Math.floor);
  let rest = total - qty.reduce((s, v) => s + v, 0);
  const order = exact.map((e, k) => [e - qty[k], k]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) qty[order[k][1]]++;
  return qty;
}

/** The assignment of a family's next purchase. */
function assignmentFor(
  fam: LicenseFamilyDecl,
  familyOrdinal: number,
  state: BuyState,
): AssignmentType {
  if (fam.assignment === "computer") return "Computer";
  if (fam.assignment === "user") return familyOrdinal % 2 === 0 ? "User" : "Organization";
  return state.orgTypeOrdinal++ % 6 === 2 ? "Site" : "Organization";
}

/** The next newer product of the same edition the family buys, as a buy index, or -1. */
function nextNewer(fam: LicenseFamilyDecl, b: number): number {
  const older = APP_INFOS[appOf(fam.buy[b][0])];
  let next = -1;
  fam.buy.forEach(([k2], b2) => {
    const other = APP_INFOS[appOf(k2)];
    if (other.rank !== older.rank || other.releaseMs <= older.releaseMs) return;
    if (next < 0 || other.releaseMs < APP_INFOS[appOf(fam.buy[next][0])].releaseMs) next = b2;
  });
  return next;
}

/** Upgrade a third of the purchases of buy index `b` (at least one) to buy index `next`. */
function upgrade(
  r: Random,
  ledger: LicenseLedger,
  emit: (table: string, row: Record<string, unknown>) => void,
  at: { fam: LicenseFamilyDecl; family: number; bases: number[]; next: number },
): void {
  const { fam, family, bases, next } = at;
  const count = Math.max(1, Math.floor(bases.length / 3));
  for (let j = 0; j < count && j < bases.length; j++) {
    const base = ledger.list[bases[j]];
    const q = Math.max(
      1,
      Math.min(ledger.capacity[base.index], Math.round(base.quantity * r.float(0.2, 0.6))),
    );
    if (ledger.capacity[base.index] < q) continue;
    // The upgraded units stay in the base license's quantity, so they keep covering
    // installs: samkit's ELP rules count a license's whole quantity as purchased and move
    // entitlements between products only through transfer rows.
    const baseRow = ledger.rows[base.index];
    baseRow.upgradedLicenseCount = (baseRow.upgradedLicenseCount as number) + q;
    const up = ledger.create({
      app: appOf(fam.buy[next][0]),
      family,
      quantity: q,
      unitUsd: fam.buy[next][2],
      assignment: base.assignment === "Site" ? "Organization" : base.assignment,
      org: base.org,
      generic: true,
      cluster: -1,
      upgradeOf: base.index,
      notBefore: ledger.purchased[base.index] + 30 * DAY,
    });
    emit("license_upgrades", {
      licenseId: ledger.list[up].id,
      upgradedLicenseId: base.id,
      quantity: q,
      upgradedQuantity: q,
    });
  }
}

/** Options of {@link buyFamily}. */
export interface BuyFamilyOptions {
  readonly r: Random;
  readonly ledger: LicenseLedger;
  readonly emit: (table: string, row: Record<string, unknown>) => void;
  readonly state: BuyState;
  /** The family's index. */
  readonly family: number;
  readonly fam: LicenseFamilyDecl;
  /** The requirement the plan expects for the family. */
  readonly expected: number;
}

/**
 * Buy a family's licenses and their upgrades (nothing for a family never bought or barely
 * needed).
 *
 * @example
 * ```ts
 * import { buyFamily } from "./generator_license_buying.ts";
 * import { LicenseLedger } from "./generator_license_ledger.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { FAMILIES } from "./generator_context.ts";
 * import { Random } from "./random.ts";
 * const r = new Random(1);
 * const emit = () => {};
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ledger = new LicenseLedger({ r, plan: buildPlan(1, 40), now, contracts: 4, emit });
 * const family = FAMILIES.findIndex((f) => f.key === "office");
 * const state = { orgTypeOrdinal: 0 };
 * buyFamily({ r, ledger, emit, state, family, fam: FAMILIES[family], expected: 30 });
 * console.log(ledger.list.length > 0); // true
 * ```
 */
export function buyFamily(o: BuyFamilyOptions): void {
  const { r, ledger, fam, family } = o;
  if (fam.none || fam.buy.length === 0 || o.expected < 0.5) return;
  const server = SERVER_METRICS.has(fam.metric) || fam.key === "vsphere";
  const coverage = r.float(fam.coverage[0], fam.coverage[1]);
  let total = Math.max(1, Math.round(o.expected * coverage));
  if (fam.metric === MET.cores) total = Math.max(2, total + (total % 2));
  const qty = quantities(fam, total);
  let familyOrdinal = 0;
  const bought: number[][] = fam.buy.map(() => []);
  fam.buy.forEach(([key, , price], b) => {
    if (qty[b] === 0) return;
    for (const q of split(r, qty[b], Math.min(30, Math.ceil(qty[b] / fam.chunk)))) {
      const assignment = assignmentFor(fam, familyOrdinal, o.state);
      familyOrdinal++;
      bought[b].push(ledger.create({
        app: appOf(key),
        family,
        quantity: q,
        unitUsd: price,
        assignment,
        org: r.weightedIndex(server ? SERVER_ORG_WEIGHTS : END_USER_ORG_WEIGHTS),
        generic: true,
        cluster: -1,
        upgradeOf: -1,
        notBefore: 0,
      }));
    }
  });
  fam.buy.forEach((_, b) => {
    const next = nextNewer(fam, b);
    if (next >= 0) upgrade(r, ledger, o.emit, { fam, family, bases: bought[b], next });
  });
}

/**
 * Buy a Windows Server Datacenter license (per host core) for each cluster licensed so;
 * returns the license index per cluster (-1 for none).
 *
 * @example
 * ```ts
 * import { buyClusterLicenses } from "./generator_license_buying.ts";
 * import { LicenseLedger } from "./generator_license_ledger.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { Random } from "./random.ts";
 * const plan = buildPlan(1, 400);
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ledger = new LicenseLedger({ r: new Random(1), plan, now, contracts: 4, emit: () => {} });
 * const perCluster = buyClusterLicenses(ledger, plan);
 * console.log(perCluster.length === plan.clusters.length); // true
 * ```
 */
export function buyClusterLicenses(ledger: LicenseLedger, plan: Plan): Int32Array {
  const clusterLicense = new Int32Array(plan.clusters.length).fill(-1);
  const wsFamily = FAMILIES.findIndex((f) => f.key === "windows-server");
  for (const cluster of plan.clusters) {
    if (!cluster.dcLicensed || cluster.hosts.length === 0) continue;
    const quantity = cluster.hosts.reduce((s, h) => s + hostCoreRequirement(plan.hosts[h]), 0);
    clusterLicense[cluster.index] = ledger.create({
      app: appOf("ws2022-dc"),
      family: wsFamily,
      quantity,
      unitUsd: 385,
      assignment: "Datacenter",
      org: plan.org[plan.hosts[cluster.hosts[0]].computer],
      generic: false,
      cluster: cluster.index,
      upgradeOf: -1,
      notBefore: 0,
    });
  }
  return clusterLicense;
}
