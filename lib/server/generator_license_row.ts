/**
 * The `licenses` row of one purchase: ids, keys, media and proof locations, invoice, reseller,
 * notes, description, incompleteness, and the real service's fields that follow from the
 * purchase (agreement, assignment type, subscription period, SKU, virtualisation rights, cost
 * totals). `upgradedLicenseCount` starts at 0 and is raised when the license is upgraded.
 *
 * @module
 */

import { ASSIGNMENT_TYPES, MET, type Organization } from "./generator_catalogue.ts";
import {
  APP_INFOS,
  canCover,
  contractId,
  DAY,
  FAMILIES,
  iso,
  orgId,
  pad,
  type Row,
} from "./generator_context.ts";
import { costFields, type LicenseCosts } from "./generator_license_costs.ts";
import type { LicensePurchase } from "./generator_license_terms.ts";
import type { Random } from "./random.ts";

/** Options of {@link licenseRow}. */
export interface LicenseRowOptions {
  readonly r: Random;
  readonly id: string;
  /** License index. */
  readonly index: number;
  readonly p: LicensePurchase;
  readonly purchaseDate: number;
  readonly now: number;
  readonly currency: Organization["currency"];
  /** Number of contracts to draw an agreement from. */
  readonly contracts: number;
  readonly noCosts: boolean;
  readonly costs: LicenseCosts;
  /** Name of the cluster a datacenter license covers, or null. */
  readonly clusterName: string | null;
  /** Id of the license this upgrades, or null. */
  readonly upgradeOfId: string | null;
}

const KEY_ALPHABET = "BCDFGHJKMPQRTVWXY2346789";
const GENERIC_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";

function licenseKeys(r: Random, kind: "ms" | "generic" | "none"): string | null {
  if (kind === "none") return null;
  const one = () =>
    kind === "ms"
      ? Array.from({ length: 5 }, () => r.chars(5, KEY_ALPHABET)).join("-")
      : Array.from({ length: 4 }, () => r.chars(4, GENERIC_ALPHABET)).join("-");
  return r.chance(0.1) ? `${one()}; ${one()}` : one();
}

/** How the license's metric reads in its description. */
function unitText(metric: string): string {
  return metric === MET.cores
    ? "per core"
    : metric === MET.users
    ? "per user"
    : metric === MET.pvu
    ? "per PVU"
    : metric === MET.devices
    ? "per system"
    : "per installation";
}

/**
 * The real-only fields of a license that follow from its purchase (no random draws): agreement,
 * assignment type, subscription period (a year from the purchase, as the notes' renewal month
 * says), edition transfers, dates, status.
 */
function realLicenseFields(o: LicenseRowOptions, contract: string | null): Row {
  const { p, index, purchaseDate, now } = o;
  const fam = FAMILIES[p.family];
  const app = APP_INFOS[p.app];
  const created = Math.min(now, purchaseDate + DAY);
  const vmRights = fam.key === "windows-server";
  return {
    agreementId: contract,
    assignmentTypeId: ASSIGNMENT_TYPES.find((t) => t.name === p.assignment)?.id ?? null,
    initialQuantity: p.quantity,
    isCrossEdition: APP_INFOS.some((a) =>
      a.family === p.family && a.decl.edition !== app.decl.edition && canCover(p.app, a.index)
    ),
    createdDate: iso(created),
    updatedDate: iso(Math.min(now, created + (index % 30) * DAY)),
    subscriptionValidFrom: fam.subscription ? iso(purchaseDate) : null,
    subscriptionValidTo: fam.subscription ? iso(purchaseDate + 365 * DAY) : null,
    upgradedLicenseCount: 0,
    autoAllocateOnce: false,
    isAutoAllocated: false,
    skuId: `SKU${pad(app.index + 1, 4)}`,
    sku: `${app.id}-${fam.subscription ? "SUB" : "PERP"}`,
    hasVmUseRights: vmRights,
    numberOfSupportedVirtualMachines: vmRights && app.rank === 1 ? 2 : null,
    status: "Active",
    archivedDate: null,
  };
}

/** The license's notes: cluster, upgrade, renewal month, or a purchase reason. */
function notesOf(o: LicenseRowOptions): string {
  const fam = FAMILIES[o.p.family];
  return o.clusterName !== null
    ? `Licenses every host of cluster ${o.clusterName}`
    : o.upgradeOfId !== null
    ? `Upgrade of ${o.upgradeOfId}`
    : fam.subscription
    ? `Renews ${new Date(o.purchaseDate + 365 * DAY).toISOString().slice(0, 7)}`
    : o.r.pick(["Volume purchase", "True-up", "Project purchase", "Replacement order"]);
}

/**
 * Draw and build the `licenses` row of a purchase.
 *
 * @example
 * ```ts
 * import { licenseRow } from "./generator_license_row.ts";
 * import { Random } from "./random.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const row = licenseRow({
 *   r: new Random(1), id: "LIC00001", index: 0, now, purchaseDate: now - 400 * 86_400_000,
 *   currency: "USD", contracts: 4, noCosts: false,
 *   costs: { sums: [100_000, 0, 0, 0, 0, 100_000], maintenanceRate: 0 },
 *   clusterName: null, upgradeOfId: null,
 *   p: {
 *     app: 0, family: 0, quantity: 10, unitUsd: 100, assignment: "Organization",
 *     org: 0, generic: true, cluster: -1, upgradeOf: -1, notBefore: 0,
 *   },
 * });
 * console.log(row.id, row.purchaseValue); // "LIC00001" 1000
 * ```
 */
export function licenseRow(o: LicenseRowOptions): Row {
  const { r, id, p, purchaseDate, noCosts } = o;
  const fam = FAMILIES[p.family];
  const app = APP_INFOS[p.app];
  const { sums, maintenanceRate } = o.costs;
  const year = new Date(purchaseDate).getUTCFullYear();
  const missingProof = !noCosts && r.chance(0.08);
  const invoiceReference = noCosts ? null : `INV-${year}-${pad(r.int(1, 99999), 5)}`;
  const contract = r.chance(0.7) ? contractId(r.int(0, o.contracts - 1)) : null;
  const row: Row = {
    id,
    organizationId: orgId(p.org),
    applicationId: app.id,
    contractId: contract,
    metricId: fam.metric,
    purchaseCurrency: o.currency,
    licenseKeys: licenseKeys(r, fam.keys),
    mediaStorage: fam.subscription ? "Vendor download portal" : r.pick([
      "Vendor download portal",
      `\\\\fs01.corp.contoso.com\\media\\${fam.key}`,
      "ISO in software library",
    ]),
    licenseProofLocation: missingProof
      ? null
      : r.chance(0.5)
      ? `\\\\fs01.corp.contoso.com\\sam\\proofs\\${id}.pdf`
      : "Vendor licensing portal",
    invoiceReference,
    vendor: r.pick(fam.vendors),
    notes: notesOf(o),
    externalId: `PO-${year}-${pad(r.int(1, 999999), 6)}`,
    productDescription: `${app.decl.name}, ${fam.subscription ? "subscription" : "perpetual"} ${
      unitText(fam.metric)
    }${maintenanceRate > 0 ? ", with maintenance" : ""}`,
    purchaseDate: iso(purchaseDate),
    purchaseValue: noCosts ? null : sums[0] / 100,
    quantity: p.quantity,
    incompleteReasons: (noCosts ? 2 : 0) + (missingProof ? 1 : 0),
    isSubscription: fam.subscription,
    isCrossPlatform: fam.crossPlatform,
    isUpgrade: p.upgradeOf >= 0,
    isDowngrade: fam.downgrade,
  };
  return Object.assign(row, realLicenseFields(o, contract), {
    // The real service's vendor is the publisher. The reseller drawn above stays drawn, so
    // the random stream (and every other generated value) is what it was.
    vendor: app.decl.manufacturer,
    ...costFields(noCosts ? null : sums),
    maintenanceAccordingToAgreement: contract !== null && maintenanceRate > 0,
    isIncomplete: row.incompleteReasons !== 0,
  });
}
