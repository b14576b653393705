/**
 * The ledger of the licenses bought for an estate: {@link LicenseLedger.create} buys one
 * license (purchase date, price, organisation split, costs, row, assignments, entitlement
 * tally) and records it; once everything is bought, the license and entitlement rows are
 * emitted and the ledger becomes the generation's {@link LicenseBook}.
 *
 * @module
 */

import { ORGANIZATIONS } from "./generator_catalogue.ts";
import {
  APP_INFOS,
  ASSIGNED,
  FAMILIES,
  type LicenseBook,
  type LicenseInfo,
  orgId,
  pad,
  type Row,
} from "./generator_context.ts";
import { emitLicenseCosts, yearsSince } from "./generator_license_costs.ts";
import { licenseRow } from "./generator_license_row.ts";
import {
  type LicensePurchase,
  purchaseDateOf,
  splitByOrganisation,
  unitCentsOf,
} from "./generator_license_terms.ts";
import type { Plan } from "./generator_plan.ts";
import type { Random } from "./random.ts";

/** Options of {@link LicenseLedger}. */
export interface LedgerOptions {
  /** The license stream: every purchase draws from it in order. */
  readonly r: Random;
  readonly plan: Plan;
  readonly now: number;
  readonly contracts: number;
  readonly emit: (table: string, row: Row) => void;
}

/**
 * The licenses bought so far, with their capacities, purchase dates and assignment flags.
 *
 * @example
 * ```ts
 * import { LicenseLedger } from "./generator_license_ledger.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { Random } from "./random.ts";
 * const tables: string[] = [];
 * const ledger = new LicenseLedger({
 *   r: new Random(1), plan: buildPlan(1, 40), now: Date.parse("2026-11-01T00:00:00Z"),
 *   contracts: 4, emit: (t) => void tables.push(t),
 * });
 * ledger.create({
 *   app: 0, family: 0, quantity: 5, unitUsd: 100, assignment: "Computer",
 *   org: 0, generic: true, cluster: -1, upgradeOf: -1, notBefore: 0,
 * });
 * ledger.emitRows();
 * console.log(ledger.list.length, tables.includes("licenses")); // 1 true
 * ```
 */
export class LicenseLedger {
  /** The licenses, by index. */
  readonly list: LicenseInfo[] = [];
  /** Quantity of each license (upgrades leave it whole). */
  readonly capacity: number[] = [];
  /** Purchase date (ms) of each license. */
  readonly purchased: number[] = [];
  /** The `licenses` rows, emitted by {@link emitRows} once upgrades have counted. */
  readonly rows: Row[] = [];
  #o: LedgerOptions;
  #byFamily: number[][] = FAMILIES.map(() => []);
  #allByFamily: number[][] = FAMILIES.map(() => []);
  #assigned: number[] = [];
  #entitlements = new Map<string, number>();
  #orgAssignments = 0;

  /** @param options The stream, plan, now, contracts and sink. */
  constructor(options: LedgerOptions) {
    this.#o = options;
  }

  /**
   * Buy one license: emit its costs and assignments, keep its row, return its index.
   *
   * @example
   * ```ts
   * import { LicenseLedger } from "./generator_license_ledger.ts";
   * import { buildPlan } from "./generator_plan.ts";
   * import { Random } from "./random.ts";
   * const ledger = new LicenseLedger({
   *   r: new Random(1), plan: buildPlan(1, 40), now: Date.parse("2026-11-01T00:00:00Z"),
   *   contracts: 4, emit: () => {},
   * });
   * const index = ledger.create({
   *   app: 0, family: 0, quantity: 5, unitUsd: 100, assignment: "Computer",
   *   org: 0, generic: true, cluster: -1, upgradeOf: -1, notBefore: 0,
   * });
   * console.log(index, ledger.rows[0].id); // 0 "LIC00001"
   * ```
   */
  create(p: LicensePurchase): number {
    const { r, now, emit, plan } = this.#o;
    const index = this.list.length;
    const id = `LIC${pad(index + 1, 5)}`;
    const fam = FAMILIES[p.family];
    const currency = ORGANIZATIONS[p.org].currency;
    const purchaseDate = purchaseDateOf(r, p, now);
    const noCosts = index % 20 === 7;
    const unitCents = unitCentsOf(r, p, currency);
    const splits = splitByOrganisation(r, p);
    const costs = emitLicenseCosts({
      r,
      emit,
      id,
      currency,
      quantity: p.quantity,
      unitCents,
      splits,
      years: yearsSince(purchaseDate, now),
      maintainable: !fam.subscription && fam.downgrade,
      noCosts,
    });
    this.rows.push(licenseRow({
      r,
      id,
      index,
      p,
      purchaseDate,
      now,
      currency,
      contracts: this.#o.contracts,
      noCosts,
      costs,
      clusterName: p.cluster >= 0 ? plan.clusters[p.cluster].name : null,
      upgradeOfId: p.upgradeOf >= 0 ? this.list[p.upgradeOf].id : null,
    }));
    const flags = this.#assign(p, id, index, splits);
    this.#record(p, id, index, purchaseDate, flags);
    return index;
  }

  /** Emit the organisation, site and datacenter assignments; tally entitlements; flags. */
  #assign(p: LicensePurchase, id: string, index: number, splits: [number, number][]): number {
    const { emit, plan } = this.#o;
    const app = APP_INFOS[p.app];
    let flags = 0;
    if (p.assignment === "Organization" || p.assignment === "Site") {
      const kind = p.assignment === "Site" ? "site" : "organization";
      flags |= p.assignment === "Site" ? ASSIGNED.site : ASSIGNED.organization;
      splits.forEach(([o, q]) =>
        emit("organization_assignments", {
          id: `AO${pad(++this.#orgAssignments, 6)}`,
          licenseId: id,
          applicationId: app.id,
          organizationId: orgId(o),
          quantity: q,
          isAutoAllocated: false,
          kind,
        })
      );
    }
    if (p.assignment === "Datacenter") {
      const cluster = plan.clusters[p.cluster];
      emit("datacenter_assignments", {
        id: `AD${pad(index + 1, 5)}`,
        licenseId: id,
        applicationId: app.id,
        datacenterId: cluster.id,
        quantity: p.quantity,
        invalidAssignmentReasons: 0,
        hasVmUseRights: true,
        numberOfSupportedVirtualMachines: cluster.hosts.reduce((s, h) => s + plan.vmCount[h], 0),
      });
    }
    const metric = FAMILIES[p.family].metric;
    for (const [o, q] of p.assignment === "Organization" ? splits : [[p.org, p.quantity]]) {
      const key = `${p.app}|${o}|${metric}|${p.assignment}`;
      this.#entitlements.set(key, (this.#entitlements.get(key) ?? 0) + q);
    }
    return flags;
  }

  /** Record a bought license. */
  #record(p: LicensePurchase, id: string, index: number, purchaseDate: number, flags: number) {
    this.list.push({
      index,
      id,
      app: p.app,
      family: p.family,
      org: p.org,
      metric: FAMILIES[p.family].metric,
      assignment: p.assignment,
      generic: p.generic,
      cluster: p.cluster,
      quantity: p.quantity,
    });
    this.capacity.push(p.quantity);
    this.purchased.push(purchaseDate);
    this.#assigned.push(flags);
    if (p.generic) this.#byFamily[p.family].push(index);
    this.#allByFamily[p.family].push(index);
  }

  /**
   * Emit the `licenses` rows, then one `entitlements` row per product, organisation, metric
   * and assignment type.
   *
   * @example
   * ```ts
   * import { LicenseLedger } from "./generator_license_ledger.ts";
   * import { buildPlan } from "./generator_plan.ts";
   * import { Random } from "./random.ts";
   * const tables: string[] = [];
   * const ledger = new LicenseLedger({
   *   r: new Random(1), plan: buildPlan(1, 40), now: Date.parse("2026-11-01T00:00:00Z"),
   *   contracts: 4, emit: (t) => void tables.push(t),
   * });
   * ledger.emitRows();
   * console.log(tables.length); // 0
   * ```
   */
  emitRows(): void {
    const { emit } = this.#o;
    for (const row of this.rows) emit("licenses", row);
    for (const [key, quantity] of this.#entitlements) {
      const [app, o, metricId, assignmentType] = key.split("|");
      emit("entitlements", {
        applicationId: APP_INFOS[Number(app)].id,
        organizationId: orgId(Number(o)),
        metricId,
        assignmentType,
        quantity,
      });
    }
  }

  /**
   * The license book the computers are covered from, with the datacenter license per cluster.
   *
   * @example
   * ```ts
   * import { LicenseLedger } from "./generator_license_ledger.ts";
   * import { buildPlan } from "./generator_plan.ts";
   * import { Random } from "./random.ts";
   * const plan = buildPlan(1, 40);
   * const ledger = new LicenseLedger({
   *   r: new Random(1), plan, now: Date.parse("2026-11-01T00:00:00Z"), contracts: 4,
   *   emit: () => {},
   * });
   * console.log(ledger.book(new Int32Array(0)).list.length); // 0
   * ```
   */
  book(clusterLicense: Int32Array): LicenseBook {
    return {
      list: this.list,
      remaining: Float64Array.from(this.capacity),
      byFamily: this.#byFamily,
      allByFamily: this.#allByFamily,
      hostStates: new Map(),
      transferHolders: new Set(),
      clusterLicense,
      assigned: Uint8Array.from(this.#assigned),
      transferPairs: new Map(),
      trackingPairs: new Map(),
    };
  }
}
