/**
 * License side of the estate generator. Before any computer is produced, {@link planLicenses}
 * buys licenses for each license family in proportion to the installs the plan expects (some
 * families over-, some under-licensed, some never bought), and emits licenses, their costs and
 * cost summaries, upgrades, organisation/site/datacenter assignments and entitlements. After the
 * computers, {@link emitLicenseSummaries} emits the tables that summarise what the computers
 * produced (transfer, tracking and assignment summaries) plus custom-value transfers and the
 * assignments of users who left.
 *
 * @module
 */

import {
  ASSIGNMENT_TYPES,
  CPUS,
  END_USER_ORG_WEIGHTS,
  GROUPS,
  MET,
  ORGANIZATIONS,
  OS_CHOICES,
  Profile,
  SERVER_ORG_WEIGHTS,
  USD_PER,
} from "./generator_catalogue.ts";
import {
  APP_INFOS,
  appOf,
  ASSIGNED,
  type AssignmentType,
  canCover,
  contractId,
  type Ctx,
  DAY,
  FAMILIES,
  HOUR,
  iso,
  type LicenseBook,
  type LicenseInfo,
  orgId,
  pad,
  PAIR,
  type Row,
  streamFor,
  userId,
} from "./generator_context.ts";
import { hostCoreRequirement, Hypervisor, Kind, type Plan } from "./generator_plan.ts";
import type { Random } from "./random.ts";

/** Average core requirement of one server install, by profile. */
function averageCores(plan: Plan, p: number): number {
  if (p === Profile.Aix) return 24;
  const phys = plan.winServerPhysical, virt = plan.winServerVirtual;
  return phys + virt === 0 ? 8 : (phys * 40 + virt * 8) / (phys + virt);
}

/** Expected requirement units per license family for the plan. */
function expectedRequirement(plan: Plan): Float64Array {
  const req = new Float64Array(FAMILIES.length);
  const unit = (family: number, p: number) => {
    const f = FAMILIES[family];
    // IBM POWER (AIX) takes its own core factor 1, not the x86 factor of the family.
    const factor = p === Profile.Aix ? 1 : f.coreFactor ?? 1;
    if (f.metric === MET.cores) return Math.ceil(averageCores(plan, p) * factor);
    if (f.metric === MET.pvu) return averageCores(plan, p) * (p === Profile.Aix ? 120 : 70);
    return 1;
  };
  const add = (app: number, count: number, p: number) => {
    const family = APP_INFOS[app].family;
    if (family >= 0) req[family] += count * unit(family, p);
  };
  const vms = vmProfileCount(plan);
  for (const g of GROUPS) {
    const total = g.members.reduce((s, m) => s + m[1], 0);
    for (const [pText, presence] of Object.entries(g.presence)) {
      const p = Number(pText);
      for (const [key, w] of g.members) {
        const app = appOf(key);
        const share = ((presence ?? 0) * w) / total;
        const hostBased = FAMILIES[APP_INFOS[app].family]?.hostBased === true;
        add(app, (plan.profileCount[p] - (hostBased ? vms[p] : 0)) * share, p);
      }
    }
    addHostRows(plan, g, req);
  }
  // Windows VMs covered through their host or cluster need no license of their own.
  let coveredVms = 0;
  for (let i = 0; i < plan.n; i++) {
    if (plan.kind[i] !== Kind.Vm || plan.profile[i] !== Profile.WinServer) continue;
    const h = plan.hosts[plan.hostOf[i]];
    const covered = h.cluster >= 0
      ? plan.clusters[h.cluster].dcLicensed
      : h.hypervisor === Hypervisor.HyperV;
    if (covered) coveredVms++;
  }
  for (const [pText, choices] of Object.entries(OS_CHOICES)) {
    const p = Number(pText);
    let count = plan.profileCount[p];
    if (p === Profile.WinServer) count -= coveredVms * 0.8;
    const total = choices.reduce((s, c) => s + c[1], 0);
    for (const [key, w] of choices) add(appOf(key), (count * w) / total, p);
  }
  for (const h of plan.hosts) {
    const family = APP_INFOS[appOf(h.osApp)].family;
    if (family < 0) continue;
    if (h.hypervisor === Hypervisor.HyperV && h.cluster >= 0) continue; // cluster license
    req[family] += hostCoreRequirement(h);
  }
  for (const groups of plan.forced.values()) {
    for (const app of groups.values()) if (app !== "") add(appOf(app), 1, Profile.Win);
  }
  return req;
}

/** Virtual machines per profile. */
function vmProfileCount(plan: Plan): number[] {
  const out = plan.profileCount.map(() => 0);
  for (let i = 0; i < plan.n; i++) if (plan.kind[i] === Kind.Vm) out[plan.profile[i]]++;
  return out;
}

/**
 * Expected host-row requirement of a group's host-based products: per host and product, the
 * chance that one of its virtual machines installs it times the host's cores × core factor.
 */
function addHostRows(plan: Plan, g: (typeof GROUPS)[number], req: Float64Array): void {
  const total = g.members.reduce((s, m) => s + m[1], 0);
  for (const [key, w] of g.members) {
    const app = APP_INFOS[appOf(key)];
    const fam = FAMILIES[app.family];
    if (fam?.hostBased !== true) continue;
    const none = new Float64Array(plan.hosts.length).fill(1);
    for (let i = 0; i < plan.n; i++) {
      if (plan.kind[i] !== Kind.Vm || plan.hostOf[i] < 0) continue;
      const presence = (g.presence as Record<number, number | undefined>)[plan.profile[i]] ?? 0;
      none[plan.hostOf[i]] *= 1 - (presence * w) / total;
    }
    plan.hosts.forEach((h, k) => {
      const cores = h.noHardware
        ? 16
        : Math.ceil(h.sockets * CPUS[h.cpu].cores * (fam.coreFactor ?? 1));
      req[app.family] += (1 - none[k]) * cores;
    });
  }
}

/** Split `total` into `parts` positive integers with random proportions. */
function split(r: Random, total: number, parts: number): number[] {
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

const SERVER_METRICS = new Set<string>([MET.cores, MET.pvu, MET.devices]);

/** The real-only cost totals of a license without costs. */
const NO_COSTS: Row = {
  activeMaintenanceCost: null,
  totalMaintenanceCost: null,
  activeSupportCost: null,
  totalSupportCost: null,
  totalLicenseCost: null,
};

/**
 * The real-only cost totals of a license from the cents its cost summary was built from
 * (purchase, current and accumulated maintenance, current and accumulated support, total): equal
 * to the summary's figures to the cent.
 */
function costFields(sums: readonly number[]): Row {
  return {
    activeMaintenanceCost: sums[1] / 100,
    totalMaintenanceCost: sums[2] / 100,
    activeSupportCost: sums[3] / 100,
    totalSupportCost: sums[4] / 100,
    totalLicenseCost: sums[5] / 100,
  };
}

/**
 * The real-only fields of a license that follow from its purchase (no random draws, so the
 * estate's other values are unchanged): agreement, assignment type, subscription period (a year
 * from the purchase, as the notes' renewal month says), edition transfers, dates, status.
 */
function realLicenseFields(
  at: { p: Purchase; index: number; purchaseDate: number; now: number; contract: string | null },
): Row {
  const { p, index, purchaseDate, now } = at;
  const fam = FAMILIES[p.family];
  const app = APP_INFOS[p.app];
  const created = Math.min(now, purchaseDate + DAY);
  const vmRights = fam.key === "windows-server";
  return {
    agreementId: at.contract,
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

interface Purchase {
  app: number;
  family: number;
  quantity: number;
  unitUsd: number;
  assignment: AssignmentType;
  org: number;
  generic: boolean;
  cluster: number;
  upgradeOf: number;
  notBefore: number;
}

/**
 * Buy the estate's licenses and emit every table that follows from the purchases alone.
 *
 * @example
 * ```ts ignore
 * const book = planLicenses(ctx); // ctx from generator.ts
 * ```
 */
export function planLicenses(ctx: Omit<Ctx, "book" | "agg" | "ids">): LicenseBook {
  const { plan, seed, now, emit } = ctx;
  const r = streamFor(seed, "licenses", plan.n);
  const list: LicenseInfo[] = [];
  const capacity: number[] = [];
  const purchased: number[] = [];
  const byFamily: number[][] = FAMILIES.map(() => []);
  const allByFamily: number[][] = FAMILIES.map(() => []);
  const clusterLicense = new Int32Array(plan.clusters.length).fill(-1);
  const assignedFlags: number[] = [];
  const entitlements = new Map<string, number>();
  let orgTypeOrdinal = 0;
  let orgAssignments = 0;
  /** License rows, emitted once upgrades have set `upgradedLicenseCount`. */
  const licenseRows: Row[] = [];
  if (plan.n === 0) {
    return {
      list,
      remaining: new Float64Array(0),
      byFamily,
      allByFamily,
      hostStates: new Map(),
      transferHolders: new Set(),
      clusterLicense,
      assigned: new Uint8Array(0),
      transferPairs: new Map(),
      trackingPairs: new Map(),
    };
  }

  const expected = expectedRequirement(plan);

  const create = (p: Purchase): number => {
    const index = list.length;
    const id = `LIC${pad(index + 1, 5)}`;
    const fam = FAMILIES[p.family];
    const app = APP_INFOS[p.app];
    const org = ORGANIZATIONS[p.org];
    const currency = org.currency;
    const earliest = Math.max(p.notBefore, app.releaseMs + 14 * DAY);
    const latest = now - 5 * DAY;
    const purchaseDate = Math.min(
      latest,
      fam.subscription && p.upgradeOf < 0
        ? Math.max(earliest, now - r.int(10, 360) * DAY - r.int(8, 18) * HOUR)
        : Math.max(earliest, now - r.int(60, 2200) * DAY) + r.int(8, 18) * HOUR,
    );
    const noCosts = index % 20 === 7;
    let unitCents = Math.round(((p.unitUsd * (1 - r.float(0, 0.25))) / USD_PER[currency]) * 100);
    if (p.upgradeOf >= 0) unitCents = Math.round(unitCents * 0.45);
    unitCents = Math.max(1, unitCents);

    // Organisation split of the quantity (costs, and assignments of organisation licenses).
    const splits: [number, number][] = [];
    if (p.assignment === "Organization" && p.quantity >= 2) {
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
      orgs.forEach((o, k) => splits.push([o, parts[k]]));
    } else splits.push([p.org, p.quantity]);

    const years = Math.max(0, Math.floor((now - purchaseDate) / (365 * DAY)));
    const maintenanceRate = !fam.subscription && fam.downgrade && r.chance(0.7)
      ? r.float(0.18, 0.25)
      : 0;
    const supportRate = r.chance(0.3) ? r.float(0.03, 0.08) : 0;
    const sums = [0, 0, 0, 0, 0, 0];
    if (!noCosts) {
      for (const [o, q] of splits) {
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
          organizationId: orgId(o),
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
        quantity: p.quantity,
        purchaseCost: sums[0] / 100,
        currentMaintenanceCost: sums[1] / 100,
        accumulatedMaintenanceCost: sums[2] / 100,
        currentSupportCost: sums[3] / 100,
        accumulatedSupportCost: sums[4] / 100,
        totalCost: sums[5] / 100,
        averageCostPerLicensePurchase: Math.round(sums[0] / p.quantity) / 100,
      });
    }

    const year = new Date(purchaseDate).getUTCFullYear();
    const missingProof = !noCosts && r.chance(0.08);
    const invoiceReference = noCosts ? null : `INV-${year}-${pad(r.int(1, 99999), 5)}`;
    const unitText = fam.metric === MET.cores
      ? "per core"
      : fam.metric === MET.users
      ? "per user"
      : fam.metric === MET.pvu
      ? "per PVU"
      : fam.metric === MET.devices
      ? "per system"
      : "per installation";
    const contract = r.chance(0.7) ? contractId(r.int(0, ctx.contracts - 1)) : null;
    const row: Row = {
      id,
      organizationId: orgId(p.org),
      applicationId: app.id,
      contractId: contract,
      metricId: fam.metric,
      purchaseCurrency: currency,
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
      notes: p.cluster >= 0
        ? `Licenses every host of cluster ${plan.clusters[p.cluster].name}`
        : p.upgradeOf >= 0
        ? `Upgrade of ${list[p.upgradeOf].id}`
        : fam.subscription
        ? `Renews ${new Date(purchaseDate + 365 * DAY).toISOString().slice(0, 7)}`
        : r.pick(["Volume purchase", "True-up", "Project purchase", "Replacement order"]),
      externalId: `PO-${year}-${pad(r.int(1, 999999), 6)}`,
      productDescription: `${app.decl.name}, ${
        fam.subscription ? "subscription" : "perpetual"
      } ${unitText}${maintenanceRate > 0 ? ", with maintenance" : ""}`,
      purchaseDate: iso(purchaseDate),
      purchaseValue: noCosts ? null : sums[0] / 100,
      quantity: p.quantity,
      incompleteReasons: (noCosts ? 2 : 0) + (missingProof ? 1 : 0),
      isSubscription: fam.subscription,
      isCrossPlatform: fam.crossPlatform,
      isUpgrade: p.upgradeOf >= 0,
      isDowngrade: fam.downgrade,
    };
    Object.assign(row, realLicenseFields({ p, index, purchaseDate, now, contract }), {
      // The real service's vendor is the publisher. The reseller drawn above stays drawn, so
      // the random stream (and every other generated value) is what it was.
      vendor: app.decl.manufacturer,
      ...(noCosts ? NO_COSTS : costFields(sums)),
      maintenanceAccordingToAgreement: contract !== null && maintenanceRate > 0,
      isIncomplete: row.incompleteReasons !== 0,
    });
    licenseRows.push(row);

    let flags = 0;
    if (p.assignment === "Organization" || p.assignment === "Site") {
      const kind = p.assignment === "Site" ? "site" : "organization";
      flags |= p.assignment === "Site" ? ASSIGNED.site : ASSIGNED.organization;
      splits.forEach(([o, q]) =>
        emit("organization_assignments", {
          id: `AO${pad(++orgAssignments, 6)}`,
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
      emit("datacenter_assignments", {
        id: `AD${pad(index + 1, 5)}`,
        licenseId: id,
        applicationId: app.id,
        datacenterId: plan.clusters[p.cluster].id,
        quantity: p.quantity,
        invalidAssignmentReasons: 0,
        hasVmUseRights: true,
        numberOfSupportedVirtualMachines: plan.clusters[p.cluster].hosts
          .reduce((s, h) => s + plan.vmCount[h], 0),
      });
    }
    for (const [o, q] of p.assignment === "Organization" ? splits : [[p.org, p.quantity]]) {
      const key = `${p.app}|${o}|${fam.metric}|${p.assignment}`;
      entitlements.set(key, (entitlements.get(key) ?? 0) + q);
    }
    list.push({
      index,
      id,
      app: p.app,
      family: p.family,
      org: p.org,
      metric: fam.metric,
      assignment: p.assignment,
      generic: p.generic,
      cluster: p.cluster,
      quantity: p.quantity,
    });
    capacity.push(p.quantity);
    purchased.push(purchaseDate);
    assignedFlags.push(flags);
    if (p.generic) byFamily[p.family].push(index);
    allByFamily[p.family].push(index);
    return index;
  };

  FAMILIES.forEach((fam, family) => {
    if (fam.none || fam.buy.length === 0 || expected[family] < 0.5) return;
    const server = SERVER_METRICS.has(fam.metric) || fam.key === "vsphere";
    const coverage = r.float(fam.coverage[0], fam.coverage[1]);
    let total = Math.max(1, Math.round(expected[family] * coverage));
    if (fam.metric === MET.cores) total = Math.max(2, total + (total % 2));
    // Quantity per bought product, largest remainder.
    const weightSum = fam.buy.reduce((s, b) => s + b[1], 0);
    const exact = fam.buy.map((b) => (total * b[1]) / weightSum);
    const qty = exact.map(Math.floor);
    let rest = total - qty.reduce((s, v) => s + v, 0);
    const order = exact.map((e, k) => [e - qty[k], k]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) qty[order[k][1]]++;
    let familyOrdinal = 0;
    const bought: number[][] = fam.buy.map(() => []);
    fam.buy.forEach(([key, , price], b) => {
      if (qty[b] === 0) return;
      const parts = split(r, qty[b], Math.min(30, Math.ceil(qty[b] / fam.chunk)));
      for (const q of parts) {
        let assignment: AssignmentType;
        if (fam.assignment === "computer") assignment = "Computer";
        else if (fam.assignment === "user") {
          assignment = familyOrdinal % 2 === 0 ? "User" : "Organization";
        } else assignment = orgTypeOrdinal++ % 6 === 2 ? "Site" : "Organization";
        familyOrdinal++;
        bought[b].push(create({
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
    // Upgrades: some licenses of an older product are upgraded to the next newer product of the
    // same edition that the family buys.
    fam.buy.forEach(([key], b) => {
      const older = APP_INFOS[appOf(key)];
      let next = -1;
      fam.buy.forEach(([k2], b2) => {
        const other = APP_INFOS[appOf(k2)];
        if (other.rank !== older.rank || other.releaseMs <= older.releaseMs) return;
        if (next < 0 || other.releaseMs < APP_INFOS[appOf(fam.buy[next][0])].releaseMs) next = b2;
      });
      if (next < 0) return;
      const bases = bought[b];
      const count = Math.max(1, Math.floor(bases.length / 3));
      for (let j = 0; j < count && j < bases.length; j++) {
        const base = list[bases[j]];
        const q = Math.max(
          1,
          Math.min(capacity[base.index], Math.round(base.quantity * r.float(0.2, 0.6))),
        );
        if (capacity[base.index] < q) continue;
        // The upgraded units stay in the base license's quantity, so they keep covering
        // installs: samkit's ELP rules count a license's whole quantity as purchased and move
        // entitlements between products only through transfer rows.
        const baseRow = licenseRows[base.index];
        baseRow.upgradedLicenseCount = (baseRow.upgradedLicenseCount as number) + q;
        const up = create({
          app: appOf(fam.buy[next][0]),
          family,
          quantity: q,
          unitUsd: fam.buy[next][2],
          assignment: base.assignment === "Site" ? "Organization" : base.assignment,
          org: base.org,
          generic: true,
          cluster: -1,
          upgradeOf: base.index,
          notBefore: purchased[base.index] + 30 * DAY,
        });
        emit("license_upgrades", {
          licenseId: list[up].id,
          upgradedLicenseId: base.id,
          quantity: q,
          upgradedQuantity: q,
        });
      }
    });
  });

  // Windows Server Datacenter licensed per cluster.
  const wsFamily = FAMILIES.findIndex((f) => f.key === "windows-server");
  for (const cluster of plan.clusters) {
    if (!cluster.dcLicensed || cluster.hosts.length === 0) continue;
    const quantity = cluster.hosts.reduce((s, h) => s + hostCoreRequirement(plan.hosts[h]), 0);
    clusterLicense[cluster.index] = create({
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

  for (const row of licenseRows) emit("licenses", row);
  for (const [key, quantity] of entitlements) {
    const [app, o, metricId, assignmentType] = key.split("|");
    emit("entitlements", {
      applicationId: APP_INFOS[Number(app)].id,
      organizationId: orgId(Number(o)),
      metricId,
      assignmentType,
      quantity,
    });
  }

  return {
    list,
    remaining: Float64Array.from(capacity),
    byFamily,
    allByFamily,
    hostStates: new Map(),
    transferHolders: new Set(),
    clusterLicense,
    assigned: Uint8Array.from(assignedFlags),
    transferPairs: new Map(),
    trackingPairs: new Map(),
  };
}

/**
 * Emit the tables that summarise licensing after every computer was produced.
 *
 * @example
 * ```ts ignore
 * emitLicenseSummaries(ctx); // ctx from generator.ts, after the computers
 * ```
 */
export function emitLicenseSummaries(ctx: Ctx): void {
  const { book, emit, plan, seed } = ctx;
  const r = streamFor(seed, "license-summaries", plan.n);

  // Users who left keep a user assignment (shelfware).
  const userLicenses = book.list.filter((l) => l.assignment === "User");
  for (let k = 0; k < plan.leaverCount && userLicenses.length > 0; k++) {
    const l = userLicenses[k % userLicenses.length];
    if (book.remaining[l.index] < 1) continue;
    book.remaining[l.index] -= 1;
    book.assigned[l.index] |= ASSIGNED.user;
    emit("user_assignments", {
      id: `AU${pad(++ctx.ids.userAssignment, 6)}`,
      licenseId: l.id,
      applicationId: APP_INFOS[l.app].id,
      userId: userId(plan.adminCount + plan.endUserCount + k),
      quantity: 1,
      invalidAssignmentReasons: 16, // UserMissing: the user has left.
    });
  }

  // Custom compare value transfers between products of one family.
  const multi = book.list.filter((l) =>
    l.generic &&
    APP_INFOS.some((a) => a.index !== l.app && a.family === l.family && canCover(l.app, a.index))
  );
  const customN = multi.length === 0 ? 0 : Math.max(3, Math.round(book.list.length / 15));
  for (let k = 0; k < customN; k++) {
    const l = multi[r.int(0, multi.length - 1)];
    const targets = APP_INFOS.filter((a) =>
      a.index !== l.app && a.family === l.family && canCover(l.app, a.index)
    );
    const to = r.pick(targets);
    const from = APP_INFOS[l.app];
    const quantity = r.int(1, 20);
    emit("custom_value_transfers", {
      id: `VT${pad(k + 1, 5)}`,
      metricId: MET.custom,
      licenseId: l.id,
      organizationId: orgId(l.org),
      customCompareValueId: `CV${pad(Math.floor(k / 2) + 1, 4)}`,
      fromApplicationId: from.id,
      toApplicationId: to.id,
      isUpgrade: false,
      isDowngrade: from.releaseMs > to.releaseMs || from.rank > to.rank,
      isCrossEdition: from.decl.edition !== to.decl.edition,
      isCrossPlatform: false,
      quantity,
      useRights: quantity * r.int(1, 2),
    });
    const key = `${to.index}|${l.index}`;
    book.transferPairs.set(key, (book.transferPairs.get(key) ?? 0) | PAIR.custom);
  }

  // Transfer and tracking summaries: every (product, license) pair with a transfer or tracking,
  // plus every license under its own product.
  const summarise = (
    pairs: Map<string, number>,
    table: string,
    row: (flags: number) => Row,
  ) => {
    const all = new Map(pairs);
    for (const l of book.list) {
      const own = `${l.app}|${l.index}`;
      if (!all.has(own)) all.set(own, 0);
    }
    const keys = [...all.keys()].sort((a, b) => {
      const [a1, a2] = a.split("|").map(Number), [b1, b2] = b.split("|").map(Number);
      return a1 - b1 || a2 - b2;
    });
    for (const key of keys) {
      const [app, lic] = key.split("|").map(Number);
      emit(table, {
        licenseId: book.list[lic].id,
        applicationId: APP_INFOS[app].id,
        ...row(all.get(key) ?? 0),
      });
    }
  };
  summarise(book.transferPairs, "application_transfer_summaries", (f) => ({
    hasComputerTransfer: (f & PAIR.computer) !== 0,
    hasUserTransfer: (f & PAIR.user) !== 0,
    hasCustomCompareValueTransfer: (f & PAIR.custom) !== 0,
  }));
  summarise(book.trackingPairs, "application_tracking_summaries", (f) => ({
    hasComputerTracking: (f & PAIR.computer) !== 0,
    hasUserTracking: (f & PAIR.user) !== 0,
  }));

  for (const l of book.list) {
    const f = book.assigned[l.index];
    emit("assignment_summaries", {
      licenseId: l.id,
      hasOrganizationAssignment: (f & ASSIGNED.organization) !== 0,
      hasComputerAssignment: (f & ASSIGNED.computer) !== 0,
      hasUserAssignment: (f & ASSIGNED.user) !== 0,
      hasSiteAssignment: (f & ASSIGNED.site) !== 0,
    });
  }
}
