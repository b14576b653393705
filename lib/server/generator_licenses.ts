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

import { CPUS, GROUPS, MET, OS_CHOICES, Profile } from "./generator_catalogue.ts";
import {
  APP_INFOS,
  appOf,
  ASSIGNED,
  canCover,
  type Ctx,
  FAMILIES,
  type LicenseBook,
  orgId,
  pad,
  PAIR,
  type Row,
  streamFor,
  userId,
} from "./generator_context.ts";
import { buyClusterLicenses, buyFamily } from "./generator_license_buying.ts";
import { LicenseLedger } from "./generator_license_ledger.ts";
import { hostCoreRequirement, Hypervisor, Kind, type Plan } from "./generator_plan.ts";

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

/**
 * Buy the estate's licenses and emit every table that follows from the purchases alone: the
 * families in catalogue order, then the clusters' Datacenter licenses, then the license and
 * entitlement rows.
 *
 * @example
 * ```ts
 * import { planLicenses } from "./generator_licenses.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * const plan = buildPlan(1, 400);
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const book = planLicenses({ seed: 1, now, n: 400, plan, contracts: 4, emit: () => {} });
 * console.log(book.list.length > 0, book.clusterLicense.length === plan.clusters.length); // true true
 * ```
 */
export function planLicenses(ctx: Omit<Ctx, "book" | "agg" | "ids">): LicenseBook {
  const { plan, seed, now, emit } = ctx;
  const r = streamFor(seed, "licenses", plan.n);
  const ledger = new LicenseLedger({ r, plan, now, contracts: ctx.contracts, emit });
  if (plan.n === 0) return ledger.book(new Int32Array(plan.clusters.length).fill(-1));
  const expected = expectedRequirement(plan);
  const state = { orgTypeOrdinal: 0 };
  FAMILIES.forEach((fam, family) => {
    buyFamily({ r, ledger, emit, state, family, fam, expected: expected[family] });
  });
  const clusterLicense = buyClusterLicenses(ledger, plan);
  ledger.emitRows();
  return ledger.book(clusterLicense);
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
