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
import { inStorageForm } from "./store_values.ts";

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
/** A stored date for a derived row: as stored when in storage form, else parsed. */
const date = (v: unknown): string | Date | null =>
  typeof v !== "string" ? null : inStorageForm(v) ? v : new Date(v);
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
  const installs = store.readColumns(
    "ComputerApplicationDetail",
    ["bundleApplicationId", "applicationId"],
    { present: "bundleApplicationId" },
  );
  for (const [bundleId, applicationId] of installs) {
    const bundle = String(bundleId);
    const child = apps.get(String(applicationId));
    const key = `${bundle}|${child?.id}`;
    if (!child || seen.has(key)) continue;
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

/** A logon as the passes below read it: computer, user, logon count, last logon. */
type Logon = (string | number | null)[];
const LOGON_COLUMNS = ["computerId", "userId", "logonCount", "lastLogon"];
const [L_COMPUTER, L_USER, L_COUNT, L_LAST] = [0, 1, 2, 3];

/** Each user's most used computer that is not a server, by logon count. */
function workstations(logons: readonly Logon[], servers: ReadonlySet<string>) {
  const best = new Map<string, Logon>();
  for (const l of logons) {
    if (servers.has(String(l[L_COMPUTER]))) continue;
    const had = best.get(String(l[L_USER]));
    if (!had || num(l[L_COUNT]) > num(had[L_COUNT])) best.set(String(l[L_USER]), l);
  }
  return best;
}

/** Remote clients of servers: who logged on, from which workstation, when last. */
function remoteClients(store: EstateStore, sink: RowSink): void {
  const names = new Map<string, string | null>();
  const servers = new Set<string>();
  for (
    const [id, hostName, isServer] of store.readColumns("ComputerDetail", [
      "id",
      "hostName",
      "isServer",
    ])
  ) {
    names.set(String(id), str(hostName));
    if (isServer) servers.add(String(id));
  }
  const logons = store.readColumns("LogonHistory", LOGON_COLUMNS);
  const from = workstations(logons, servers);
  let n = 0;
  for (const l of logons) {
    if (!servers.has(String(l[L_COMPUTER]))) continue;
    const client = from.get(String(l[L_USER]));
    sink("remote_clients", {
      id: `RC${pad(++n, 5)}`,
      clientName: client ? names.get(String(client[L_COMPUTER])) ?? null : null,
      userId: l[L_USER],
      lastConnected: date(l[L_LAST]),
      computerId: l[L_COMPUTER],
    });
  }
}

/** A cluster's applications (on its members and their guests) and its members' features. */
function clusters(store: EstateStore, sink: RowSink): void {
  const guests = new Map<string, string[]>();
  for (const [hostId, id] of store.readColumns("VirtualMachine", ["hostComputerId", "id"])) {
    const host = String(hostId);
    const list = guests.get(host);
    if (list) list.push(String(id));
    else guests.set(host, [String(id)]);
  }
  const members = rowsOf(store, "DccMember");
  // The installs of cluster members and their guests, per computer, in rowid order.
  const installs = new Map<string, [string, string | null][]>();
  for (const m of members) {
    for (const computer of [String(m.computerId), ...(guests.get(String(m.computerId)) ?? [])]) {
      installs.set(computer, []);
    }
  }
  const installColumns = ["computerId", "applicationId", "isInstalled", "lastUsed"];
  const onMembers = { in: { column: "computerId", values: [...installs.keys()] } };
  for (
    const [computerId, applicationId, isInstalled, lastUsed] of store.readColumns(
      "ComputerApplicationDetail",
      installColumns,
      onMembers,
    )
  ) {
    if (!isInstalled) continue;
    installs.get(String(computerId))?.push([String(applicationId), str(lastUsed)]);
  }
  const byCluster = new Map(rowsOf(store, "DataCenterCluster").map((c) => [String(c.id), c]));
  const perCluster = new Map<
    string,
    Map<string, { computers: Set<string>; last: string | null }>
  >();
  for (const m of members) {
    const cluster = String(m.clusterId);
    const apps = perCluster.get(cluster) ?? new Map();
    perCluster.set(cluster, apps);
    for (const computer of [String(m.computerId), ...(guests.get(String(m.computerId)) ?? [])]) {
      for (const [applicationId, lastUsed] of installs.get(computer) ?? []) {
        const a = apps.get(applicationId) ?? { computers: new Set(), last: null };
        apps.set(applicationId, a);
        a.computers.add(computer);
        a.last = later(a.last, lastUsed);
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
  for (const [name] of store.readColumns("ComputerDetail", ["hypervisorName"])) add(name);
  names.forEach((name, i) => sink("hypervisor_types", { id: `HYP${pad(i + 1, 2)}`, name }));
  for (const t of ASSIGNMENT_TYPES) sink("assignment_types", { id: t.id, name: t.name });
}

/** Per user: the logons seen, on how many computers, first and last (discovery). */
function discoveries(store: EstateStore, sink: RowSink): void {
  const seen = new Map<
    string,
    { computers: Set<unknown>; logons: number; first: string | null; last: string | null }
  >();
  for (const l of store.readColumns("LogonHistory", LOGON_COLUMNS)) {
    const user = String(l[L_USER]);
    let u = seen.get(user);
    if (!u) seen.set(user, u = { computers: new Set(), logons: 0, first: null, last: null });
    u.first = earlier(u.first, str(l[L_LAST]));
    u.last = later(u.last, str(l[L_LAST]));
    u.computers.add(l[L_COMPUTER]);
    u.logons += num(l[L_COUNT]);
  }
  for (const [id, userName] of store.readColumns("UserAccountDetail", ["id", "userName"])) {
    const u = seen.get(String(id));
    sink("user_discoveries", {
      id,
      userName,
      computerCount: u?.computers.size ?? 0,
      logonCount: u?.logons ?? 0,
      firstDiscovered: date(u?.first ?? null),
      lastDiscovered: date(u?.last ?? null),
    });
  }
}

/** Usage counts and minutes summed per user, then per application (in rowid order). */
function usageTotals(store: EstateStore) {
  const totals = new Map<unknown, Map<unknown, { count: number; minutes: number }>>();
  const columns = ["userId", "applicationId", "usedCount", "usedMinutes"];
  for (const [user, app, count, minutes] of store.readColumns("ApplicationUsage", columns)) {
    let mine = totals.get(user);
    if (!mine) totals.set(user, mine = new Map());
    const t = mine.get(app);
    if (t) {
      t.count += num(count);
      t.minutes += num(minutes);
    } else mine.set(app, { count: 0 + num(count), minutes: 0 + num(minutes) });
  }
  return totals;
}

/** Per user and application: the usage records summed (metering). */
function meterings(store: EstateStore, sink: RowSink): void {
  const totals = usageTotals(store);
  const columns = ["userId", "applicationId", "bundleApplicationId", "lastUsedDate"];
  for (
    const [userId, applicationId, bundleApplicationId, lastUsedDate] of store.readColumns(
      "UserApplicationUsage",
      columns,
    )
  ) {
    const t = totals.get(userId)?.get(applicationId);
    sink("user_meterings", {
      userId,
      applicationId,
      bundleApplicationId,
      usedCount: t?.count ?? 0,
      usedMinutes: t?.minutes ?? 0,
      lastUsedDate: date(lastUsedDate),
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
    discoveries(store, sink);
    meterings(store, sink);
  });
}
