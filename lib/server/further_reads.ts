/**
 * The data of the public service's further reads, derived from an estate already in the store
 * (the generated one, or one kept in a database file): the registry's families, platforms, types,
 * article numbers, compatibility, groups, stores and bundles; computers' remote clients; a
 * cluster's applications and its members' features; hypervisor types; license assignment types;
 * user discovery and metering. Nothing is drawn at random, so an estate derives the same rows
 * every time, and every row is consistent with the rows it comes from:
 * - families and platforms are the registry's `familyId`/`family` and `platform` values;
 * - an application's types follow its flags (operating system, web application, bundle, …);
 * - article numbers are the licenses' SKUs (`skuId`, `sku`, `productDescription`);
 * - an application is compatible with the other applications of its family, as a downgrade
 *   (a lower version), an upgrade (a higher one) or a cross-edition (same version, other edition);
 * - an application's group is its family; a bundle's components are the applications installed
 *   as part of it (`bundleApplicationId`);
 * - remote clients of a server are the users who logged on to it, each from their most used
 *   workstation; a cluster's applications are those installed on its members and their guests;
 * - user discovery counts each user's logons and computers; user metering is the usage records.
 *
 * @module
 */

import type { ResourceName } from "../api/catalogue.ts";
import { ASSIGNMENT_TYPES } from "./generator_catalogue.ts";
import type { EstateStore, RowSink, StoredRow } from "./store.ts";

/** The tables this module fills (it fills them only while all are empty). */
export const FURTHER_READ_TABLES: readonly string[] = [
  "article_numbers",
  "registry_compatibility",
  "registry_families",
  "registry_groups",
  "registry_stores",
  "application_types",
  "registry_application_types",
  "registry_bundles",
  "registry_platforms",
  "remote_clients",
  "dcc_applications",
  "dcc_member_features",
  "hypervisor_types",
  "assignment_types",
  "user_discoveries",
  "user_meterings",
];

/** Every row of a resource's table, in storage form. */
const rowsOf = (store: EstateStore, resource: ResourceName): StoredRow[] =>
  store.query({ resource, limit: Number.MAX_SAFE_INTEGER, noTotal: true }).rows;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const date = (v: unknown): Date | null => (typeof v === "string" ? new Date(v) : null);
const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const later = (a: string | null, b: string | null) => (a === null || (b !== null && b > a) ? b : a);
const earlier = (a: string | null, b: string | null) => a === null || (b !== null && b < a) ? b : a;
const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The application type names, in id order (`ATY01` is the first). */
const TYPE_NAMES = ["Application", "Operating system", "Web application", "Bundle", "Group"];
const typeId = (name: string) => `ATY${pad(TYPE_NAMES.indexOf(name) + 1, 2)}`;

/** The types of one registry application, from its flags. */
function typesOf(app: StoredRow): string[] {
  const names: string[] = [];
  if (app.isOs) names.push("Operating system");
  if (app.isWebApplication) names.push("Web application");
  if (app.isBundle) names.push("Bundle");
  if (app.isGroup) names.push("Group");
  return names.length ? names : ["Application"];
}

/** Families, platforms, types and each application's types and group. */
function registryLists(apps: readonly StoredRow[], sink: RowSink): void {
  const families = new Map<string, StoredRow>();
  const platforms: string[] = [];
  for (const app of apps) {
    const fam = str(app.familyId);
    if (fam && !families.has(fam)) families.set(fam, app);
    const platform = str(app.platform);
    if (platform && !platforms.includes(platform)) platforms.push(platform);
  }
  for (const [id, app] of families) {
    sink("registry_families", { id, name: app.family ?? app.name, manufacturer: app.manufacturer });
  }
  platforms.forEach((name, i) => sink("registry_platforms", { id: `PLT${pad(i + 1, 2)}`, name }));
  for (const name of TYPE_NAMES) sink("application_types", { id: typeId(name), name });
  for (const app of apps) {
    for (const name of typesOf(app)) {
      sink("registry_application_types", { id: typeId(name), name, applicationId: app.id });
    }
    const fam = str(app.familyId);
    if (fam) {
      const name = `${families.get(fam)?.family ?? app.name} (all versions and editions)`;
      sink("registry_groups", { id: `GRP${fam.replace(/^\D+/, "")}`, name, applicationId: app.id });
    }
    if (app.isWebApplication || app.platform === "CrossPlatform") {
      const url = `https://store.example.com/apps/${String(app.id).toLowerCase()}`;
      sink("registry_stores", {
        id: `STO${String(app.id).replace(/^\D+/, "")}`,
        name: "Web store",
        url,
        applicationId: app.id,
      });
    }
  }
}

/** The relation of `other` to `app` within a family, or none (the same application). */
function compatibilityType(app: StoredRow, other: StoredRow): string | null {
  const v = num(app.versionIndex) - num(other.versionIndex);
  if (v > 0) return "Downgrade";
  if (v < 0) return "Upgrade";
  return num(app.editionIndex) === num(other.editionIndex) ? null : "CrossEdition";
}

/** Each application's compatible applications: the others of its family. */
function compatibility(apps: readonly StoredRow[], sink: RowSink): void {
  const byFamily = new Map<string, StoredRow[]>();
  for (const app of apps) {
    const fam = str(app.familyId);
    if (fam) byFamily.set(fam, [...(byFamily.get(fam) ?? []), app]);
  }
  for (const app of apps) {
    for (const other of byFamily.get(str(app.familyId) ?? "") ?? []) {
      const type = other.id === app.id ? null : compatibilityType(app, other);
      if (type === null) continue;
      sink("registry_compatibility", {
        id: other.id,
        name: other.name,
        manufacturer: other.manufacturer,
        compatibilityType: type,
        applicationId: app.id,
      });
    }
  }
}

/** A bundle's components (installed as part of it), and the licenses' SKUs as article numbers. */
function bundlesAndArticles(store: EstateStore, apps: Map<string, StoredRow>, sink: RowSink): void {
  const seen = new Set<string>();
  for (const install of rowsOf(store, "ComputerApplicationDetail")) {
    const bundle = str(install.bundleApplicationId);
    const child = apps.get(String(install.applicationId));
    const key = `${bundle}|${child?.id}`;
    if (!bundle || !child || seen.has(key)) continue;
    seen.add(key);
    sink("registry_bundles", {
      id: child.id,
      name: child.name,
      manufacturer: child.manufacturer,
      applicationId: bundle,
    });
  }
  const skus = new Set<string>();
  for (const license of rowsOf(store, "LicenseDetail")) {
    const id = str(license.skuId);
    if (!id || skus.has(id)) continue;
    skus.add(id);
    sink("article_numbers", {
      id,
      articleNumber: license.sku,
      applicationId: license.applicationId,
      description: license.productDescription,
      manufacturer: apps.get(String(license.applicationId))?.manufacturer ?? null,
    });
  }
}

/** Each user's most used computer that is not a server, by logon count. */
function workstations(logons: readonly StoredRow[], servers: ReadonlySet<string>) {
  const best = new Map<string, StoredRow>();
  for (const l of logons) {
    if (servers.has(String(l.computerId))) continue;
    const had = best.get(String(l.userId));
    if (!had || num(l.logonCount) > num(had.logonCount)) best.set(String(l.userId), l);
  }
  return best;
}

/** Remote clients of servers: who logged on, from which workstation, when last. */
function remoteClients(store: EstateStore, sink: RowSink): void {
  const computers = rowsOf(store, "ComputerDetail");
  const names = new Map(computers.map((c) => [String(c.id), str(c.hostName)]));
  const servers = new Set(computers.filter((c) => c.isServer).map((c) => String(c.id)));
  const logons = rowsOf(store, "LogonHistory");
  const from = workstations(logons, servers);
  let n = 0;
  for (const l of logons) {
    if (!servers.has(String(l.computerId))) continue;
    const client = from.get(String(l.userId));
    sink("remote_clients", {
      id: `RC${pad(++n, 5)}`,
      clientName: client ? names.get(String(client.computerId)) ?? null : null,
      userId: l.userId,
      lastConnected: date(l.lastLogon),
      computerId: l.computerId,
    });
  }
}

/** A cluster's applications (on its members and their guests) and its members' features. */
function clusters(store: EstateStore, sink: RowSink): void {
  const installs = new Map<string, StoredRow[]>();
  for (const i of rowsOf(store, "ComputerApplicationDetail")) {
    if (!i.isInstalled) continue;
    installs.set(String(i.computerId), [...(installs.get(String(i.computerId)) ?? []), i]);
  }
  const guests = new Map<string, string[]>();
  for (const vm of rowsOf(store, "VirtualMachine")) {
    const host = String(vm.hostComputerId);
    guests.set(host, [...(guests.get(host) ?? []), String(vm.id)]);
  }
  const byCluster = new Map(rowsOf(store, "DataCenterCluster").map((c) => [String(c.id), c]));
  const perCluster = new Map<
    string,
    Map<string, { computers: Set<string>; last: string | null }>
  >();
  for (const m of rowsOf(store, "DccMember")) {
    const cluster = String(m.clusterId);
    const apps = perCluster.get(cluster) ?? new Map();
    perCluster.set(cluster, apps);
    for (const computer of [String(m.computerId), ...(guests.get(String(m.computerId)) ?? [])]) {
      for (const i of installs.get(computer) ?? []) {
        const a = apps.get(String(i.applicationId)) ?? { computers: new Set(), last: null };
        apps.set(String(i.applicationId), a);
        a.computers.add(computer);
        a.last = later(a.last, str(i.lastUsed));
      }
    }
    memberFeatures(byCluster.get(cluster), m, sink);
  }
  for (const [clusterId, apps] of perCluster) {
    for (const [applicationId, a] of [...apps].sort(([x], [y]) => x.localeCompare(y))) {
      sink("dcc_applications", {
        applicationId,
        computerCount: a.computers.size,
        lastUsed: date(a.last),
        clusterId,
      });
    }
  }
}

/** The features of one cluster member: its cluster's high availability and load balancing. */
function memberFeatures(cluster: StoredRow | undefined, member: StoredRow, sink: RowSink): void {
  const features: [string, unknown][] = [
    ["High availability", cluster?.isHighAvailability],
    ["Distributed resource scheduling", cluster?.isVendorDRS],
    ["Hypervisor recognised by scan", cluster?.isHypervisorFromSIM],
  ];
  features.forEach(([name, on], i) =>
    sink("dcc_member_features", {
      id: `FEA${pad(i + 1, 2)}`,
      name,
      isEnabled: on === 1 || on === true,
      clusterId: member.clusterId,
      memberId: member.id,
    })
  );
}

/** Hypervisor types (of clusters and virtual hosts) and license assignment types. */
function typeLists(store: EstateStore, sink: RowSink): void {
  const names: string[] = [];
  const add = (v: unknown) => {
    const name = str(v);
    if (name && !names.includes(name)) names.push(name);
  };
  for (const c of rowsOf(store, "DataCenterCluster")) add(c.hypervisor);
  for (const c of rowsOf(store, "ComputerDetail")) add(c.hypervisorName);
  names.forEach((name, i) => sink("hypervisor_types", { id: `HYP${pad(i + 1, 2)}`, name }));
  for (const t of ASSIGNMENT_TYPES) sink("assignment_types", { id: t.id, name: t.name });
}

/** Per user: logons and computers seen (discovery); per user and application: usage (metering). */
function users(store: EstateStore, sink: RowSink): void {
  const logons = new Map<string, StoredRow[]>();
  for (const l of rowsOf(store, "LogonHistory")) {
    logons.set(String(l.userId), [...(logons.get(String(l.userId)) ?? []), l]);
  }
  for (const u of rowsOf(store, "UserAccountDetail")) {
    const mine = logons.get(String(u.id)) ?? [];
    let first: string | null = null;
    let last: string | null = null;
    for (const l of mine) {
      first = earlier(first, str(l.lastLogon));
      last = later(last, str(l.lastLogon));
    }
    sink("user_discoveries", {
      id: u.id,
      userName: u.userName,
      computerCount: new Set(mine.map((l) => l.computerId)).size,
      logonCount: mine.reduce((t, l) => t + num(l.logonCount), 0),
      firstDiscovered: date(first),
      lastDiscovered: date(last),
    });
  }
  const totals = new Map<string, { count: number; minutes: number }>();
  for (const a of rowsOf(store, "ApplicationUsage")) {
    const key = `${a.userId}|${a.applicationId}`;
    const t = totals.get(key) ?? { count: 0, minutes: 0 };
    totals.set(key, { count: t.count + num(a.usedCount), minutes: t.minutes + num(a.usedMinutes) });
  }
  for (const u of rowsOf(store, "UserApplicationUsage")) {
    const t = totals.get(`${u.userId}|${u.applicationId}`);
    sink("user_meterings", {
      userId: u.userId,
      applicationId: u.applicationId,
      bundleApplicationId: u.bundleApplicationId,
      usedCount: t?.count ?? 0,
      usedMinutes: t?.minutes ?? 0,
      lastUsedDate: date(u.lastUsedDate),
    });
  }
}

/**
 * Fills the further reads' tables from the estate in the store, once: when every one of them is
 * empty (a database file that already holds them is left as it is). Returns the rows added.
 *
 * @example
 * ```ts
 * import { EstateStore } from "./store.ts";
 * import { generateEstate } from "./generator.ts";
 * import { deriveFurtherReads } from "./further_reads.ts";
 * const store = new EstateStore();
 * await store.bulkInsert((sink) => {
 *   generateEstate({ seed: 1, computers: 20 }, sink);
 * });
 * console.log((await deriveFurtherReads(store)) > 0, store.count("registry_families") > 0);
 * // true true
 * console.log(await deriveFurtherReads(store)); // 0
 * ```
 */
export async function deriveFurtherReads(store: EstateStore): Promise<number> {
  if (FURTHER_READ_TABLES.some((t) => store.count(t) > 0)) return 0;
  const apps = rowsOf(store, "RegistryApplication");
  const byId = new Map(apps.map((a) => [String(a.id), a]));
  return await store.bulkInsert((sink) => {
    registryLists(apps, sink);
    compatibility(apps, sink);
    bundlesAndArticles(store, byId, sink);
    remoteClients(store, sink);
    clusters(store, sink);
    typeLists(store, sink);
    users(store, sink);
  });
}
