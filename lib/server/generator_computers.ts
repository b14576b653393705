/**
 * One computer of the generated estate and everything recorded about it: the computer row,
 * hardware (processors, socket map, disks, adapters, monitors), contracts, logons, environment
 * variables, registry entries, installed applications with usage, license metric tracking,
 * entitlement states, coverage, tracking, transfers, assignments and costs.
 *
 * @module
 */

import {
  APPS,
  type CpuDecl,
  CPUS,
  EXTENDED_COVERAGE_TYPES,
  GROUPS,
  manufacturerWebsite,
  MET,
  type ModelDecl,
  MODELS,
  ORGANIZATIONS,
  OS_CHOICES,
  Profile,
  STATE,
  USD_PER,
  VM_MODELS,
} from "./generator_catalogue.ts";
import {
  APP_INFOS,
  appOf,
  canCover,
  computerId,
  contractId,
  type Ctx,
  DAY,
  FAMILIES,
  HOUR,
  iso,
  MINUTE,
  pad,
  streamFor,
  userId,
} from "./generator_context.ts";
import { cover } from "./generator_coverage.ts";
import { emitClusterHostRow, hostBasedState } from "./generator_host_rows.ts";
import { Hypervisor, HYPERVISOR_NAME, Kind } from "./generator_plan.ts";
import type { Random } from "./random.ts";

const GROUP_MEMBERS = GROUPS.map((g) => ({
  key: g.key,
  presence: g.presence as Readonly<Record<number, number | undefined>>,
  apps: g.members.map(([k]) => appOf(k)),
  weights: g.members.map(([, w]) => w),
}));
const OS_APPS = Object.fromEntries(
  Object.entries(OS_CHOICES).map(([p, list]) => [
    p,
    { apps: list.map(([k]) => appOf(k)), weights: list.map(([, w]) => w) },
  ]),
) as Record<number, { apps: number[]; weights: number[] }>;
const VMTOOLS = appOf("vmtools");
const FAMILY = Object.fromEntries(FAMILIES.map((f, i) => [f.key, i])) as Record<string, number>;
const DB_FAMILIES = new Set([FAMILY["sql-server"], FAMILY["oracle-db"], FAMILY["db2"]]);
const REASON_OTHER = EXTENDED_COVERAGE_TYPES[4];

const WINDOWS_BUILD: Record<string, string> = {
  "win10-ent": "19045",
  "win11-ent-23h2": "22631",
  "win11-ent-24h2": "26100",
  "win11-pro": "22631",
  "ws2012r2-std": "9600",
  "ws2012r2-dc": "9600",
  "ws2016-std": "14393",
  "ws2016-dc": "14393",
  "ws2019-std": "17763",
  "ws2019-dc": "17763",
  "ws2022-std": "20348",
  "ws2022-dc": "20348",
  "ws2025-std": "26100",
  "ws2025-dc": "26100",
};

const OUI: Record<string, string> = {
  "Dell Inc.": "F4:8E:38",
  "HP": "3C:52:82",
  "HPE": "94:40:C9",
  "LENOVO": "98:FA:9B",
  "Lenovo": "98:FA:9B",
  "Microsoft Corporation": "C4:9D:ED",
  "Apple Inc.": "A4:83:E7",
  "IBM": "40:F2:E9",
  "VMware, Inc.": "00:50:56",
  "Nutanix": "50:6B:8D",
};

const RESELLERS = ["Dell Technologies", "CDW", "Insight", "Bechtle", "Computacenter", "SHI"];
const NOTES = [
  "Standard build",
  "Replaced system board under warranty",
  "Loaner pool",
  "Kiosk build",
  "Reimaged after malware incident",
  "Owned by project team",
];

const hex2 = (v: number) => (v & 255).toString(16).toUpperCase().padStart(2, "0");

function pickModel(r: Random, models: readonly ModelDecl[]): ModelDecl {
  return models[r.weightedIndex(models.map((m) => m.weight))];
}

function biosSerial(r: Random, manufacturer: string, kind: Kind): string {
  if (kind === Kind.Vm || kind === Kind.Vdi) {
    if (manufacturer.startsWith("VMware")) {
      const h = () => r.hex(2);
      return `VMware-42 ${h()} ${h()} ${h()} ${h()} ${h()} ${h()} ${h()}-${h()} ${h()} ${h()} ${h()} ${h()} ${h()} ${h()} ${h()}`;
    }
    if (manufacturer === "Nutanix") return r.guid().toUpperCase();
    return `${r.chars(4, "0123456789")}-${r.chars(4, "0123456789")}-${r.chars(4, "0123456789")}-${
      r.chars(4, "0123456789")
    }-${r.chars(4, "0123456789")}-${r.chars(4, "0123456789")}-${r.chars(2, "0123456789")}`;
  }
  const up = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
  switch (manufacturer) {
    case "Dell Inc.":
      return r.chars(7, up);
    case "HPE":
      return `CZ${r.chars(8, up)}`;
    case "HP":
      return `5CG${r.chars(7, up)}`;
    case "Apple Inc.":
      return `C02${r.chars(9, up)}`;
    case "Microsoft Corporation":
      return r.chars(12, "0123456789");
    case "IBM":
      return `78${r.chars(5, "0123456789ABCDEF")}`;
    default:
      return `J${r.chars(7, up)}`;
  }
}

function biosVersion(r: Random, manufacturer: string, kind: Kind): string {
  if (manufacturer.startsWith("VMware")) return "VMW71.00V.21100432.B64.2301110304";
  if (manufacturer === "Nutanix") return "1.16.0-1.el8";
  if (kind === Kind.Vm || kind === Kind.Vdi) return "Hyper-V UEFI Release v4.1";
  switch (manufacturer) {
    case "Dell Inc.":
      return `${r.int(1, 2)}.${r.int(1, 24)}.${r.int(0, 3)}`;
    case "HPE":
      return `U${r.int(30, 46)} v${r.int(1, 2)}.${r.int(10, 90)}`;
    case "HP":
      return `U21 Ver. 02.${r.int(10, 19)}.00`;
    case "Apple Inc.":
      return `${r.int(10151, 11881)}.${r.int(1, 61)}.${r.int(1, 7)}`;
    case "IBM":
      return `FW${r.int(950, 1060)}.${r.int(10, 50)}`;
    default:
      return `${r.chars(4, "ABCDEFGHJKMN0123456789")}${r.int(10, 99)}W (1.${r.int(10, 60)})`;
  }
}

interface Logon {
  user: number;
  last: number;
  count: number;
}

interface Usage {
  firstUsed: number;
  lastUsed: number;
  usedDays: number;
  usedCount: number;
  usedMinutes: number;
}

const BUCKETS: readonly (readonly [number, number])[] = [[0, 29], [30, 89], [90, 179], [180, 720]];

/** Usage of one install by one user, or null when it was never used. */
function makeUsage(
  r: Random,
  floor: number,
  lastScan: number,
  now: number,
  alwaysUsed: boolean,
): Usage | null {
  let bucket: number;
  if (alwaysUsed) bucket = 0;
  else {
    const b = r.weightedIndex([0.14, 0.56, 0.12, 0.08, 0.1]);
    if (b === 0) return null;
    bucket = b - 1;
  }
  const [lo, hi] = BUCKETS[bucket];
  let lastUsed = Math.min(
    lastScan - r.int(0, 3 * HOUR),
    now - r.int(lo, hi) * DAY - r.int(0, 10 * HOUR),
  );
  if (lastUsed <= floor + HOUR) lastUsed = Math.min(lastScan, floor + HOUR + r.int(0, 2 * HOUR));
  const spanDays = Math.min(r.int(0, 400), Math.floor((lastUsed - floor) / DAY));
  const firstUsed = Math.max(floor, lastUsed - spanDays * DAY - r.int(0, 6 * HOUR));
  const days = Math.floor((lastUsed - firstUsed) / DAY) + 1;
  const usedDays = Math.max(
    1,
    Math.min(days, Math.round(days * r.float(alwaysUsed ? 0.6 : 0.05, alwaysUsed ? 1 : 0.8))),
  );
  const usedCount = usedDays * r.int(1, 5);
  const usedMinutes = usedCount * (alwaysUsed ? r.int(60, 480) : r.int(3, 90));
  return { firstUsed, lastUsed, usedDays, usedCount, usedMinutes };
}

function duration(minutes: number): string {
  const total = Math.round(minutes * 60);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`;
}

/** Disk layout of one machine: logical disks, each on its own drive unless `oneDrive`. */
interface Disk {
  name: string;
  volume: string;
  size: number;
  free: number;
}

function disksFor(r: Random, kind: Kind, profile: number, hv: Hypervisor | -1): Disk[] {
  const d = (name: string, volume: string, size: number, usedShare: [number, number]): Disk => {
    const free = Math.round(size * (1 - r.float(usedShare[0], usedShare[1])));
    return { name, volume, size, free };
  };
  if (kind === Kind.Host && hv !== Hypervisor.HyperV) {
    return [
      d("/", "BOOTBANK", 32768, [0.2, 0.5]),
      d("/vmfs/volumes/local-datastore", "local-datastore", r.pick([1907729, 3815458]), [0.3, 0.8]),
    ];
  }
  if (profile === Profile.Mac) {
    return [d("/", "Macintosh HD", r.pick([494384, 994662]), [0.2, 0.8])];
  }
  if (profile === Profile.Linux) {
    const list = [
      d("/", "root", r.pick([51200, 102400]), [0.2, 0.6]),
      d("/var", "var", r.pick([20480, 51200, 204800]), [0.1, 0.7]),
    ];
    if (r.chance(0.6)) list.push(d("/opt", "opt", r.pick([102400, 262144, 524288]), [0.1, 0.8]));
    return list;
  }
  if (profile === Profile.Aix) {
    return [
      d("/", "hd4", 20480, [0.3, 0.6]),
      d("/usr", "hd2", 40960, [0.4, 0.7]),
      d("/data", "datalv", r.pick([1048576, 2097152]), [0.2, 0.8]),
    ];
  }
  if (profile === Profile.Win) {
    const list = [d("C:", r.pick(["Windows", "OS"]), r.pick([237568, 475136, 951296]), [0.3, 0.9])];
    if (kind === Kind.Desktop && r.chance(0.2)) {
      list.push(d("D:", "Data", r.pick([953869, 1907729]), [0.05, 0.7]));
    }
    return list;
  }
  // Windows servers, Hyper-V hosts.
  const list = [
    d("C:", "System", r.pick([102400, 153600, 204800]), [0.3, 0.8]),
  ];
  if (kind !== Kind.Vm || r.chance(0.5)) {
    list.push(d("D:", "Data", r.pick([512000, 1048576, 2097152, 4194304]), [0.1, 0.8]));
  }
  return list;
}

/**
 * Produce one computer and all its rows.
 *
 * @example
 * ```ts ignore
 * for (let i = 0; i < ctx.n; i++) emitComputer(ctx, i); // ctx from generator.ts
 * ```
 */
export function emitComputer(ctx: Ctx, i: number): void {
  const { plan, now, seed, emit, book, agg, ids } = ctx;
  const r = streamFor(seed, "computer", i);
  const appR = streamFor(seed, "apps", plan.appSource[i]);
  const kind = plan.kind[i] as Kind;
  const profile = plan.profile[i];
  const orgIndex = plan.org[i];
  const org = ORGANIZATIONS[orgIndex];
  const id = computerId(i);
  const hostPlan = kind === Kind.Host ? plan.hosts[plan.hostOrdinal[i]] : null;
  const myHost = plan.hostOf[i] >= 0 ? plan.hosts[plan.hostOf[i]] : null;
  const isVirtual = kind === Kind.Vm || kind === Kind.Vdi;
  const isServer = kind === Kind.Server || kind === Kind.Host || kind === Kind.Vm;
  const endUser = plan.user[i] >= 0;

  // Status and the dates that follow from it.
  let status = "Active";
  let lastScan: number;
  let quarantineDate: number | null = null;
  const roll = r.next();
  if (roll < 0.03 && kind !== Kind.Host) {
    status = "Quarantined";
    lastScan = now - r.int(75, 300) * DAY - r.int(0, DAY);
    quarantineDate = lastScan + (60 + r.int(0, 10)) * DAY + r.int(0, DAY);
  } else if (roll < 0.07 && kind !== Kind.Host) {
    status = "Inactive";
    lastScan = now - r.int(181, 900) * DAY - r.int(0, DAY);
  } else if (roll < 0.12) {
    lastScan = now - r.int(91, 400) * DAY - r.int(0, DAY);
  } else {
    lastScan = now - r.int(HOUR, 6 * DAY);
  }
  const inactive = status === "Inactive";
  const excluded = r.chance(0.015);
  const clientInstall = lastScan - r.int(20, isVirtual ? 1500 : 2000) * DAY - r.int(0, DAY);
  const purchaseDate = isVirtual ? null : clientInstall - r.int(1, 20) * DAY - r.int(0, DAY);
  const biosDate = (purchaseDate ?? clientInstall) - r.int(30, 400) * DAY;
  const reportingDate = Math.min(now, lastScan + r.int(10 * MINUTE, 6 * HOUR));
  const infoTransferDate = Math.min(reportingDate, lastScan + r.int(MINUTE, 10 * MINUTE));

  // Hardware identity.
  let manufacturer: string, model: string, cpu: CpuDecl, sockets: number, coresPer: number;
  let hyperthreading: boolean;
  if (hostPlan) {
    manufacturer = hostPlan.model.manufacturer;
    model = hostPlan.model.model;
    cpu = CPUS[hostPlan.cpu];
    sockets = hostPlan.sockets;
    coresPer = cpu.cores;
    hyperthreading = true;
  } else if (myHost) {
    [manufacturer, model] = VM_MODELS[myHost.hypervisor];
    cpu = CPUS[myHost.cpu];
    sockets = kind === Kind.Vdi ? r.int(1, 2) : r.weighted([[1, 4], [2, 4], [4, 1]]);
    coresPer = kind === Kind.Vdi ? r.pick([2, 4]) : r.pick([1, 2, 4, 8]);
    hyperthreading = false;
  } else {
    const models = kind === Kind.Desktop
      ? MODELS.desktop
      : kind === Kind.Laptop
      ? MODELS.laptop
      : kind === Kind.Mac
      ? MODELS.mac
      : profile === Profile.Aix
      ? MODELS.power
      : MODELS.server;
    const m = pickModel(r, models);
    manufacturer = m.manufacturer;
    model = m.model;
    cpu = CPUS[r.pick(m.cpus)];
    sockets = kind === Kind.Server
      ? cpu.maxSockets === 1 ? 1 : r.weighted([[1, 15], [2, 75], [4, cpu.maxSockets >= 4 ? 10 : 0]])
      : 1;
    coresPer = cpu.cores;
    hyperthreading = cpu.hyperthreading;
  }
  const coreCount = sockets * coresPer;
  const logical = hyperthreading ? coreCount * 2 : coreCount;
  const noHardware = hostPlan ? hostPlan.noHardware : r.chance(isVirtual ? 0.008 : 0.012);
  const override = (kind === Kind.Server || kind === Kind.Vm || kind === Kind.Host) &&
    (r.chance(0.03) || i === plan.firstVm);
  const socketCount = override && sockets > 1 ? sockets >> 1 : sockets;

  // Operating system and installed products (replicas repeat their primary's choices).
  const osApp = hostPlan
    ? appOf(hostPlan.osApp)
    : OS_APPS[profile].apps[appR.weightedIndex(OS_APPS[profile].weights)];
  const installs: number[] = [osApp];
  const bundleOf: number[] = [-1];
  const forced = plan.forced.get(plan.appSource[i]);
  const forcedApps = new Set<number>();
  if (myHost && myHost.hypervisor === Hypervisor.Esxi && kind === Kind.Vm) {
    installs.push(VMTOOLS);
    bundleOf.push(-1);
  }
  if (!hostPlan) {
    for (const g of GROUP_MEMBERS) {
      const presence = g.presence[profile] ?? 0;
      const rollIn = appR.next(), rollPick = appR.next();
      const forcedApp = forced?.get(g.key);
      if (forcedApp === undefined && (presence === 0 || rollIn >= presence)) continue;
      let app: number;
      if (forcedApp) app = appOf(forcedApp);
      else {
        let x = rollPick * g.weights.reduce((s, w) => s + w, 0);
        let k = 0;
        while (k < g.apps.length - 1 && (x -= g.weights[k]) >= 0) k++;
        app = g.apps[k];
      }
      if (forcedApp !== undefined) forcedApps.add(app);
      installs.push(app);
      bundleOf.push(-1);
      for (const c of APP_INFOS[app].components) {
        installs.push(c);
        bundleOf.push(app);
      }
    }
  }
  const hasFamily = (key: string) => installs.some((a) => APP_INFOS[a].family === FAMILY[key]);
  const hasApp = (key: string) => installs.includes(appOf(key));

  // Host name and identity strings.
  const num = pad(i + 1, 5);
  const role = hasFamily("sql-server") || hasApp("sql2019-express")
    ? "SQL"
    : hasFamily("oracle-db") || hasFamily("db2")
    ? "DB"
    : hasFamily("weblogic")
    ? "WLS"
    : profile === Profile.Linux
    ? "LNX"
    : profile === Profile.Aix
    ? "AIX"
    : "APP";
  const hostName = kind === Kind.Desktop
    ? `${org.site}-WS-${num}`
    : kind === Kind.Laptop
    ? `${org.site}-LT-${num}`
    : kind === Kind.Mac
    ? `${model.replaceAll(" ", "-")}-${num}`
    : kind === Kind.Vdi
    ? `${org.site}-VDI-${num}`
    : kind === Kind.Host
    ? `${org.site}-${["ESX", "HV", "AHV"][hostPlan!.hypervisor]}-${num}`
    : kind === Kind.Vm
    ? `${org.site}-VM-${role}-${num}`
    : `${org.site}-SRV-${role}-${num}`;
  const ipAddress = `10.${org.net}.${Math.floor(i / 253) % 256}.${1 + (i % 253)}`;
  const windows = profile === Profile.Win || profile === Profile.WinServer ||
    hostPlan?.hypervisor === Hypervisor.HyperV;
  const serverOs = profile === Profile.WinServer || hostPlan?.hypervisor === Hypervisor.HyperV;

  // Logons: end users log on to their own machine; administrators to servers.
  const logons: Logon[] = [];
  const pickAdmin = () => r.int(0, plan.adminCount - 1);
  if (endUser) {
    logons.push({
      user: plan.user[i],
      last: lastScan - r.int(0, 2 * DAY),
      count: r.int(40, 900),
    });
    if (r.chance(0.08)) {
      logons.push({ user: pickAdmin(), last: lastScan - r.int(0, 20 * DAY), count: r.int(1, 12) });
    }
  } else if (!(hostPlan && hostPlan.hypervisor !== Hypervisor.HyperV)) {
    const wanted = Math.min(plan.adminCount, r.int(1, 3));
    while (logons.length < wanted) {
      const u = pickAdmin();
      if (logons.some((l) => l.user === u)) continue;
      logons.push({ user: u, last: lastScan - r.int(0, 30 * DAY), count: r.int(3, 400) });
    }
  }
  for (const l of logons) l.last = Math.max(l.last, clientInstall + HOUR);
  let mostFrequent: Logon | null = null, mostRecent: Logon | null = null;
  for (const l of logons) {
    if (!mostFrequent || l.count > mostFrequent.count) mostFrequent = l;
    if (!mostRecent || l.last > mostRecent.last) mostRecent = l;
  }

  // Money.
  const currency = org.currency;
  const purchaseUsd = isVirtual
    ? 0
    : kind === Kind.Desktop
    ? r.int(700, 1600)
    : kind === Kind.Laptop
    ? r.int(900, 2400)
    : kind === Kind.Mac
    ? r.int(1800, 3500)
    : kind === Kind.Host
    ? r.int(15000, 60000)
    : r.int(4000, 15000) * sockets;
  const purchaseCents = Math.round((purchaseUsd / USD_PER[currency]) * 100);
  const purchaseYear = purchaseDate === null ? 0 : new Date(purchaseDate).getUTCFullYear();
  const invoiceReference = isVirtual ? null : `INV-${purchaseYear}-${pad(r.int(1, 99999), 5)}`;
  const vendor = isVirtual
    ? null
    : kind === Kind.Mac
    ? "Apple Store for Business"
    : r.pick(RESELLERS);
  const hypervisorName = hostPlan ? HYPERVISOR_NAME[hostPlan.hypervisor] : null;
  const osDecl = APPS[osApp];

  emit("computers", {
    id,
    scanIdentifier: r.guid(),
    hostName,
    domain: org.domain,
    biosSerialNumber: biosSerial(r, manufacturer, kind),
    biosVersion: biosVersion(r, manufacturer, kind),
    manufacturer,
    model,
    clientVersion: profile === Profile.Mac ? "7.2.0" : windows ? "7.4.1" : "7.3.2",
    clientSiteName: `CONTOSO-${org.site}`,
    clientConfigurationName: endUser
      ? (profile === Profile.Mac ? "Mac clients" : "Workstations")
      : windows
      ? "Windows servers"
      : "Unix servers",
    scannerVersion: profile === Profile.Mac ? "7.2.0.4410" : windows ? "7.4.1.9102" : "7.3.2.512",
    operatingSystem: osDecl.os ?? osDecl.name,
    operatingSystemServicePack: windows && profile === Profile.Win
      ? osDecl.version.split(" ")[1] ?? null
      : null,
    operatingSystemSerialNumber: windows
      ? `${r.chars(5, "0123456789")}-${r.chars(5, "0123456789")}-${r.chars(5, "0123456789")}-AA${
        r.chars(3, "0123456789")
      }`
      : null,
    ipAddress,
    manufacturerWebsite: manufacturerWebsite(manufacturer),
    operatingSystemId: APP_INFOS[osApp].id,
    hostComputerId: myHost ? computerId(myHost.computer) : null,
    siblingComputerId: plan.sibling[i] >= 0 ? computerId(plan.sibling[i]) : null,
    hypervisorName,
    architecture: cpu.manufacturer === "Apple"
      ? "ARM64"
      : cpu.manufacturer === "IBM"
      ? "ppc64"
      : "x64",
    organizationId: org.id,
    status,
    purchaseCurrency: currency,
    invoiceReference,
    notes: isVirtual
      ? `Provisioned on ${myHost ? computerId(myHost.computer) : "unknown host"}`
      : `${r.pick(NOTES)}; asset tag AT-${pad(i + 1, 6)}`,
    securityCode: r.chars(12, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"),
    mostRecentUser: mostRecent ? userId(mostRecent.user) : null,
    mostFrequentUser: mostFrequent ? userId(mostFrequent.user) : null,
    vendor,
    lastScanDate: iso(lastScan),
    biosDate: iso(biosDate),
    infoTransferDate: iso(infoTransferDate),
    clientInstallDate: iso(clientInstall),
    quarantineDate: iso(quarantineDate),
    reportingDate: iso(reportingDate),
    purchaseDate: iso(purchaseDate),
    updatedDate: iso(reportingDate),
    isPortable: kind === Kind.Laptop || kind === Kind.Mac,
    isQuarantineManagementDisabled: isServer ? r.chance(0.6) : r.chance(0.02),
    isVirtual,
    isUpdated: !inactive && r.chance(0.95),
    is64bit: true,
    isServer,
    isVdi: kind === Kind.Vdi,
    isAutoEditingDisabled: r.chance(0.05),
    isIncludedInServerOsRequirement: serverOs,
    processorValueUnit: noHardware ? null : cpu.pvu,
    purchaseValue: isVirtual ? null : purchaseCents / 100,
    purchaseValueBase: isVirtual ? null : purchaseUsd,
    // As the hardware row and the processor rows add up (none without hardware inventory).
    processorCount: noHardware ? null : sockets,
    coreCount: noHardware ? null : coreCount,
  });

  // Hardware inventory.
  const disks = disksFor(r, kind, profile, hostPlan ? hostPlan.hypervisor : -1);
  if (!noHardware) {
    let memory: number, slots: number, used: number;
    if (kind === Kind.Desktop) {
      memory = r.pick([8192, 16384, 16384, 32768]);
      slots = r.pick([2, 4]);
      used = Math.min(slots, Math.max(1, memory / 16384));
    } else if (kind === Kind.Laptop) {
      memory = r.pick([16384, 32768]);
      slots = 2;
      used = r.int(1, 2);
    } else if (kind === Kind.Mac) {
      memory = cpu.cores >= 12 ? r.pick([18432, 36864]) : r.pick([8192, 16384, 24576]);
      slots = 0;
      used = 0;
    } else if (kind === Kind.Host) {
      memory = r.pick([524288, 1048576, 2097152]);
      slots = 16 * sockets;
      used = Math.min(slots, memory / 65536);
    } else if (kind === Kind.Server) {
      memory = r.pick([65536, 131072, 262144, 524288]) * (sockets >= 4 ? 2 : 1);
      slots = 16 * sockets;
      used = Math.min(slots, Math.max(1, memory / 32768));
    } else {
      memory = kind === Kind.Vdi
        ? r.pick([8192, 16384])
        : r.pick([4096, 8192, 16384, 32768, 65536]);
      slots = 1;
      used = 1;
    }
    const system = disks[0];
    const totalSize = disks.reduce((s, d) => s + d.size, 0);
    const totalFree = disks.reduce((s, d) => s + d.free, 0);
    emit("hardware", {
      computerId: id,
      processorType: cpu.type,
      processorManufacturer: cpu.manufacturer,
      processorCount: sockets,
      coreCount,
      processorSpeed: cpu.speed,
      memorySlots: slots,
      memorySlotsAvailable: slots - used,
      physicalMemory: memory,
      systemDiskSpace: system.size,
      systemDiskSpaceAvailable: system.free,
      totalDiskSpace: totalSize,
      totalDiskSpaceAvailable: totalFree,
      totalDiskSpaceUsed: totalSize - totalFree,
      socketCount,
      chipModulesPerProcessor: cpu.type.startsWith("AMD EPYC") ? 4 : 1,
      logicalProcessorCount: logical,
      isSocketCountManualOverrideEnabled: override,
    });
    for (let s = 0; s < sockets; s++) {
      emit("processors", {
        computerId: id,
        processorType: cpu.type,
        processorManufacturer: cpu.manufacturer,
        processorCount: 1,
        coreCount: coresPer,
        processorSpeed: cpu.speed,
      });
    }
    emit("socket_maps", { computerId: id, manufacturer, model, socketCount });
    for (const d of disks) {
      emit("logical_disks", {
        computerId: id,
        name: d.name,
        volumeName: d.volume,
        isSystemDisk: d === system,
        isUpdated: r.chance(0.95),
        diskSizeMB: d.size,
        freeSpaceMB: d.free,
      });
    }
    const driveName = isVirtual
      ? ["VMware Virtual disk SCSI Disk Device", "Microsoft Virtual Disk", "NUTANIX VDISK"][
        myHost!.hypervisor
      ]
      : kind === Kind.Mac
      ? "APPLE SSD AP0512Z"
      : kind === Kind.Desktop || kind === Kind.Laptop
      ? r.pick([
        "Samsung SSD 980 PRO 1TB",
        "KXG80ZNV512G NVMe KIOXIA 512GB",
        "PC SN740 NVMe WD 512GB",
      ])
      : manufacturer === "HPE"
      ? "HPE LOGICAL VOLUME SCSI Disk Device"
      : manufacturer === "IBM"
      ? "IBM MPIO FC 2145"
      : manufacturer === "Lenovo"
      ? "Lenovo RAID 940-8i SCSI Disk Device"
      : "DELL PERC H755 Front SCSI Disk Device";
    const oneDrive = profile === Profile.Linux || profile === Profile.Aix || kind === Kind.Mac;
    const drives = oneDrive ? [disks.reduce((s, d) => s + d.size, 0)] : disks.map((d) => d.size);
    for (const size of drives) {
      emit("drives", {
        computerId: id,
        name: driveName,
        diskSizeMB: size + r.int(500, 2048),
        isUpdated: true,
        kind: "hard",
      });
    }
    const opticalChance = kind === Kind.Desktop
      ? 0.3
      : kind === Kind.Server
      ? 0.3
      : kind === Kind.Vm
      ? 0.5
      : 0;
    if (r.chance(opticalChance)) {
      emit("drives", {
        computerId: id,
        name: kind === Kind.Vm
          ? (myHost!.hypervisor === Hypervisor.Esxi
            ? "NECVMWar VMware SATA CD00"
            : "Msft Virtual CD/ROM")
          : kind === Kind.Desktop
          ? "HL-DT-ST DVD+-RW GUD1N"
          : "TEAC DV-28SW",
        diskSizeMB: 0,
        isUpdated: true,
        kind: "optical",
      });
    }
    const [adapter, current, max] = isVirtual
      ? [
        ["VMware SVGA 3D", "Microsoft Hyper-V Video", "Red Hat QXL controller"][myHost!.hypervisor],
        "1024 x 768",
        "2560 x 1600",
      ]
      : kind === Kind.Mac
      ? [cpu.type, "3024 x 1964", "3024 x 1964"]
      : kind === Kind.Laptop
      ? [
        cpu.manufacturer === "AMD" ? "AMD Radeon 780M Graphics" : "Intel(R) Iris(R) Xe Graphics",
        "1920 x 1200",
        "3840 x 2400",
      ]
      : kind === Kind.Desktop
      ? [
        model.startsWith("Precision")
          ? "NVIDIA RTX A2000 12GB"
          : cpu.manufacturer === "AMD"
          ? "AMD Radeon(TM) Graphics"
          : "Intel(R) UHD Graphics 770",
        r.pick(["1920 x 1080", "2560 x 1440"]),
        "7680 x 4320",
      ]
      : manufacturer === "Lenovo"
      ? ["ASPEED Graphics Family(WDDM)", "1024 x 768", "1920 x 1200"]
      : manufacturer === "HPE"
      ? ["Matrox G200eH3 (HPE) WDDM 2.0", "1024 x 768", "1920 x 1200"]
      : ["Matrox G200eW3 (Nuvoton) WDDM 2.0", "1024 x 768", "1920 x 1200"];
    emit("display_adapters", {
      computerId: id,
      name: adapter,
      currentResolution: current,
      maxResolution: max,
      isUpdated: true,
    });
    const monitors: [string, string][] = [];
    if (kind === Kind.Desktop) {
      const n = r.int(1, 2);
      for (let m = 0; m < n; m++) {
        monitors.push(
          r.pick(
            [["DELL P2422H", "1920 x 1080"], ["DELL U2723QE", "3840 x 2160"], [
              "HP E24 G5",
              "1920 x 1080",
            ], ["LEN T24i-30", "1920 x 1080"]] as [string, string][],
          ),
        );
      }
    } else if (kind === Kind.Laptop) {
      monitors.push(["Generic PnP Monitor", "1920 x 1200"]);
      if (r.chance(0.5)) {
        monitors.push(
          r.pick(
            [["DELL P2422H", "1920 x 1080"], ["DELL U2723QE", "3840 x 2160"]] as [string, string][],
          ),
        );
      }
    } else if (kind === Kind.Mac) {
      monitors.push(["Built-in Liquid Retina XDR Display", "3024 x 1964"]);
      if (r.chance(0.4)) monitors.push(["LG UltraFine", "5120 x 2880"]);
    } else if (kind === Kind.Vdi) monitors.push(["Generic Non-PnP Monitor", "2560 x 1600"]);
    for (const [name, res] of monitors) {
      emit("monitors", { computerId: id, name, maxResolution: res, isUpdated: r.chance(0.97) });
    }
  }

  // Network adapters.
  const oui = isVirtual
    ? ["00:50:56", "00:15:5D", "50:6B:8D"][myHost!.hypervisor]
    : OUI[manufacturer] ?? "00:1B:21";
  const adapters: [string, string][] = [];
  const linuxLike = profile === Profile.Linux || profile === Profile.Aix;
  if (isVirtual) {
    adapters.push([
      linuxLike ? "ens192" : [
        "vmxnet3 Ethernet Adapter",
        "Microsoft Hyper-V Network Adapter",
        "Red Hat VirtIO Ethernet Adapter",
      ][myHost!.hypervisor],
      ipAddress,
    ]);
  } else if (kind === Kind.Mac) adapters.push(["Wi-Fi", ipAddress]);
  else if (kind === Kind.Laptop) {
    adapters.push(["Intel(R) Wi-Fi 6E AX211 160MHz", ipAddress]);
    if (r.chance(0.5)) {
      adapters.push(["Realtek USB GbE Family Controller", `172.16.${org.net}.${1 + (i % 253)}`]);
    }
  } else if (kind === Kind.Desktop) {
    adapters.push(["Intel(R) Ethernet Connection (17) I219-LM", ipAddress]);
  } else if (kind === Kind.Host) {
    const nics = r.int(2, 4);
    for (let a = 0; a < nics; a++) {
      adapters.push([
        hostPlan!.hypervisor === Hypervisor.HyperV
          ? `Mellanox ConnectX-5 Adapter #${a + 1}`
          : `vmnic${a}`,
        a === 0 ? ipAddress : `192.168.${10 + a}.${1 + (i % 253)}`,
      ]);
    }
  } else {
    adapters.push([linuxLike ? "eno1" : "Broadcom NetXtreme Gigabit Ethernet", ipAddress]);
    if (r.chance(0.6)) {
      adapters.push([
        linuxLike ? "ens1f0" : "Intel(R) Ethernet Controller X710 for 10GbE SFP+",
        `192.168.${org.net}.${1 + (i % 253)}`,
      ]);
    }
  }
  adapters.forEach(([name, ip], a) =>
    emit("network_adapters", {
      computerId: id,
      name,
      ipAddress: ip,
      macAddress: `${oui}:${hex2(((i >> 16) & 0x0f) | (a << 4))}:${hex2(i >> 8)}:${hex2(i)}`,
    })
  );

  // Contracts of physical machines.
  if (!isVirtual && r.chance(0.35)) {
    const first = r.int(0, ctx.contracts - 1);
    emit("computer_contracts", { computerId: id, contractId: contractId(first) });
    if (isServer && ctx.contracts > 1 && r.chance(0.2)) {
      emit("computer_contracts", {
        computerId: id,
        contractId: contractId((first + 1) % ctx.contracts),
      });
    }
  }

  for (const l of logons) {
    emit("logon_history", {
      computerId: id,
      userId: userId(l.user),
      lastLogon: iso(l.last),
      logonCount: l.count,
    });
  }

  // Environment variables.
  const javaApp = installs.find((a) => APP_INFOS[a].decl.family === "Java SE");
  const javaMajor = javaApp === undefined
    ? ""
    : APPS[javaApp].version.split(".")[0] === "8"
    ? "1.8"
    : APPS[javaApp].version.split(".")[0];
  const env: [string, string][] = [];
  if (windows) {
    env.push(
      ["COMPUTERNAME", hostName],
      ["NUMBER_OF_PROCESSORS", String(logical)],
      ["OS", "Windows_NT"],
      ["PROCESSOR_ARCHITECTURE", "AMD64"],
      ["TEMP", "C:\\Windows\\TEMP"],
      ["USERDOMAIN", org.domain.split(".")[0].toUpperCase()],
    );
    if (javaApp !== undefined) env.push(["JAVA_HOME", `C:\\Program Files\\Java\\jdk-${javaMajor}`]);
  } else if (profile === Profile.Linux) {
    env.push(
      ["HOSTNAME", hostName.toLowerCase()],
      ["LANG", "en_US.UTF-8"],
      ["SHELL", "/bin/bash"],
      [
        "PATH",
        "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin",
      ],
    );
    if (javaApp !== undefined) env.push(["JAVA_HOME", `/usr/lib/jvm/jdk-${javaMajor}`]);
  } else if (profile === Profile.Aix) {
    env.push(["HOSTNAME", hostName.toLowerCase()], ["LANG", "en_US"], ["SHELL", "/usr/bin/ksh"], [
      "ODMDIR",
      "/etc/objrepos",
    ]);
  } else if (profile === Profile.Mac) {
    env.push(["SHELL", "/bin/zsh"], ["LANG", "en_US.UTF-8"], [
      "TMPDIR",
      `/var/folders/${r.hex(2)}/${r.hex(8)}/T/`,
    ]);
  }
  for (const [name, value] of env) {
    emit("environment_variables", {
      computerId: id,
      environmentVariableName: name,
      environmentVariableValue: value,
    });
  }

  // Registry entries (Windows).
  if (windows) {
    const cv = "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
    const reg: [string, string, string][] = [
      [cv, "ProductName", (osDecl.os ?? osDecl.name).replace("Microsoft ", "")],
      [cv, "CurrentBuild", WINDOWS_BUILD[osDecl.key] ?? "20348"],
      ["HKEY_LOCAL_MACHINE\\SOFTWARE\\Contoso\\Inventory", "AssetTag", `AT-${pad(i + 1, 6)}`],
    ];
    if (profile === Profile.Win) {
      reg.push([cv, "DisplayVersion", osDecl.version.split(" ")[1] ?? ""]);
    }
    for (const a of installs) {
      const decl = APPS[a];
      if (decl.family === "SQL Server") {
        const major = decl.version.split(".")[0];
        reg.push([
          `HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Microsoft SQL Server\\MSSQL${major}.MSSQLSERVER\\Setup`,
          "Edition",
          decl.edition === "Enterprise"
            ? "Enterprise Edition: Core-based Licensing (64-bit)"
            : `${decl.edition} Edition (64-bit)`,
        ]);
      } else if (decl.key === "m365apps") {
        reg.push([
          "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Office\\ClickToRun\\Configuration",
          "ProductReleaseIds",
          "O365ProPlusRetail",
        ]);
      }
    }
    for (const [key, name, data] of reg) {
      emit("registry_entries", {
        computerId: id,
        registryKeyName: key,
        registryValueName: name,
        registryValueData: data,
      });
    }
  }

  // Installed products, usage and licensing.
  const usageUsers = endUser
    ? [plan.user[i]]
    : logons.slice(0, r.chance(0.2) ? 2 : 1).map((l) => l.user);
  const floor = clientInstall + HOUR;
  const installed = new Uint8Array(installs.length);
  let appCostCents = 0;
  const familyCount = new Map<number, number>();
  for (const a of installs) {
    const f = APP_INFOS[a].family;
    if (f >= 0) familyCount.set(f, (familyCount.get(f) ?? 0) + 1);
  }
  for (let k = 0; k < installs.length; k++) {
    const a = installs[k];
    const info = APP_INFOS[a];
    const bundle = bundleOf[k];
    const core = k === 0 || info.decl.alwaysUsed === true;
    const isInstalled = bundle >= 0
      ? installed[installs.indexOf(bundle)] === 1
      : core || forcedApps.has(a) || !r.chance(0.03);
    installed[k] = isInstalled ? 1 : 0;
    const alwaysUsed = info.decl.alwaysUsed === true;
    const perUser: [number, Usage][] = [];
    let discovered: number;
    if (usageUsers.length === 0) {
      const u = makeUsage(r, floor, lastScan, now, alwaysUsed);
      discovered = u ? u.firstUsed : floor + r.int(0, Math.max(0, lastScan - floor));
      if (u) perUser.push([-1, u]);
    } else {
      const first = makeUsage(r, floor, lastScan, now, alwaysUsed);
      if (first) {
        perUser.push([usageUsers[0], first]);
        if (usageUsers.length > 1 && r.chance(0.6)) {
          const lastUsed = Math.max(first.firstUsed, first.lastUsed - r.int(0, 60) * DAY);
          const firstUsed = Math.min(lastUsed, first.firstUsed + r.int(0, 30) * DAY);
          const days = Math.max(
            1,
            Math.min(first.usedDays, Math.floor((lastUsed - firstUsed) / DAY) + 1),
          );
          const count = days * r.int(1, 3);
          perUser.push([usageUsers[1], {
            firstUsed,
            lastUsed,
            usedDays: days,
            usedCount: count,
            usedMinutes: count * r.int(2, 30),
          }]);
        }
        discovered = first.firstUsed;
      } else discovered = floor + r.int(0, Math.max(0, lastScan - floor));
    }
    const firstDiscovered = Math.max(
      clientInstall,
      discovered - r.int(0, 14) * DAY - r.int(0, DAY),
    );
    let firstUsed: number | null = null, lastUsed: number | null = null;
    let usedCount = 0, usedMinutes = 0, usedDays = 0;
    for (const [, u] of perUser) {
      firstUsed = firstUsed === null ? u.firstUsed : Math.min(firstUsed, u.firstUsed);
      lastUsed = lastUsed === null ? u.lastUsed : Math.max(lastUsed, u.lastUsed);
      usedCount += u.usedCount;
      usedMinutes += u.usedMinutes;
      usedDays = Math.max(usedDays, u.usedDays);
    }
    const averageUsedTime = duration(usedCount === 0 ? 0 : usedMinutes / usedCount);
    const bundleId = bundle >= 0 ? APP_INFOS[bundle].id : null;
    const usersWithUsage = perUser.filter(([u]) => u >= 0);
    emit("computer_applications", {
      computerId: id,
      applicationId: info.id,
      bundleApplicationId: bundleId,
      packageGUID: info.packageGUID,
      averageUsedTime,
      firstDiscovered: iso(firstDiscovered),
      firstUsed: iso(firstUsed),
      lastUsed: iso(lastUsed),
      usedCount,
      usedUser: usersWithUsage.length,
      usedMinutes,
      usedDays,
      isInstalled,
      isOEM: k === 0 && profile === Profile.Win && !isVirtual,
      isVendorDN: info.decl.devNetwork === true,
      isVirtual: kind === Kind.Vdi && !core && r.chance(0.1),
      isOverridden: r.chance(0.01),
      isRecognized: r.chance(0.98),
      isRegistry: windows && r.chance(0.85),
      unbundled: false,
      bundleUsagePercentage: bundleId === null ? null : 100,
    });
    agg.appComputers[a]++;
    if (isInstalled) agg.appInstalls[a]++;
    for (const [u, use] of usersWithUsage) {
      emit("application_usage", {
        computerId: id,
        userId: userId(u),
        bundleApplicationId: bundleId,
        applicationId: info.id,
        firstUsed: iso(use.firstUsed),
        lastUsedDate: iso(use.lastUsed),
        usedCount: use.usedCount,
        usedMinutes: use.usedMinutes,
        usedDays: use.usedDays,
        isInstalled,
      });
      if (endUser) {
        agg.appEndUsers[a]++;
        emit("user_application_usage", {
          userId: userId(u),
          applicationId: info.id,
          bundleApplicationId: bundleId,
          lastUsedDate: iso(use.lastUsed),
        });
      } else {
        agg.appAdmins[a].add(u);
        const key = u * APP_INFOS.length + a;
        const prev = agg.adminUsage.get(key);
        if (prev === undefined || use.lastUsed > prev) agg.adminUsage.set(key, use.lastUsed);
      }
    }

    // Licensing of installed licensable products.
    if (!isInstalled || info.family < 0) continue;
    const family = info.family;
    const fam = FAMILIES[family];
    const metric = fam.metric;
    let initial = 1, minimum = 0, coreFactor = 1;
    if (metric === MET.cores || metric === MET.pvu) {
      coreFactor = metric === MET.cores
        ? (cpu.manufacturer === "IBM" ? 1 : fam.coreFactor ?? 1)
        : 1;
      initial = noHardware ? 0 : metric === MET.pvu ? coreCount * cpu.pvu : coreCount;
      if (fam.key === "windows-server") minimum = isVirtual ? 8 : Math.max(16, 8 * sockets);
      else if (fam.key === "vsphere") minimum = 16 * sockets;
      else if (fam.key === "sql-server") minimum = isVirtual ? 4 : 4 * sockets;
      if (noHardware) minimum = Math.max(minimum, metric === MET.pvu ? 1200 : 16);
    }
    const baseRequirement = Math.max(Math.ceil(initial * coreFactor), minimum);
    appCostCents += Math.round(
      ((fam.buy[0]?.[2] ?? 50) * baseRequirement / USD_PER[currency]) * 100,
    );
    let requirement = baseRequirement;
    let state: string = STATE.unlicensed;
    let outsideMetricPeriod = 0, manually = 0, moved = 0, dcc = 0, hostCoverage = 0, secondary = 0;
    const primary = plan.user[i];
    if (excluded) {
      manually = 1;
      requirement = 0;
      state = STATE.excluded;
    } else if (inactive) {
      outsideMetricPeriod = 1;
      requirement = 0;
      state = STATE.excluded;
    } else {
      // Extended coverage through the host, the cluster or the DR primary.
      const hostBased = kind === Kind.Vm && myHost !== null && fam.hostBased === true;
      let parent: string | null = null, parentApp = -1, reason = "", description = "";
      let datacenter = false;
      if (kind === Kind.Vm && myHost && fam.key === "windows-server") {
        const cluster = myHost.cluster >= 0 ? plan.clusters[myHost.cluster] : null;
        const clusterLicense = cluster ? book.clusterLicense[cluster.index] : -1;
        if (clusterLicense >= 0 && canCover(book.list[clusterLicense].app, a)) {
          parent = cluster!.id;
          parentApp = book.list[clusterLicense].app;
          datacenter = true;
          reason = "Datacenter";
          description = `Windows Server Datacenter licensed for cluster ${cluster!.name}`;
          dcc = 1;
        } else if (
          !cluster && myHost.hypervisor === Hypervisor.HyperV &&
          canCover(appOf(myHost.osApp), a)
        ) {
          parent = computerId(myHost.computer);
          parentApp = appOf(myHost.osApp);
          reason = "Host";
          description = "Unlimited virtualisation rights of the host's Datacenter edition";
          hostCoverage = 1;
        }
      } else if (!hostBased && plan.replicaPair[i] >= 0 && DB_FAMILIES.has(family)) {
        parent = computerId(plan.sibling[i]);
        parentApp = a;
        reason = plan.replicaPair[i] % 3 === 0 ? REASON_OTHER : "Disaster recovery";
        description = reason === REASON_OTHER
          ? "Passive failover instance covered by Software Assurance"
          : "Disaster-recovery replica of a licensed primary";
      }
      if (parent !== null) {
        moved = 1;
        requirement = 0;
        state = STATE.extendedCoverage;
        emit("extended_coverages", {
          id: `EC${pad(++ids.extendedCoverage, 6)}`,
          parentComputerId: parent,
          extendedComputerId: id,
          applicationId: APP_INFOS[parentApp].id,
          coveredApplicationId: info.id,
          reason,
          reasonDescription: description,
          isParentComputerDatacenter: datacenter,
        });
      } else if (hostBased) {
        // Licensed per physical core of the host: the host row carries the requirement.
        moved = 1;
        requirement = 0;
        state = hostBasedState(ctx, plan.hostOf[i], a);
      } else if (
        kind === Kind.Laptop && fam.key === "office" && r.chance(0.04)
      ) {
        secondary = 1;
        requirement = 0;
        state = STATE.licensed;
      } else {
        // Ordinary coverage from every license that can cover the install.
        const clusterLicense = hostPlan && hostPlan.cluster >= 0 && fam.key === "windows-server"
          ? book.clusterLicense[hostPlan.cluster]
          : -1;
        state = cover(ctx, {
          computerId: id,
          organizationId: org.id,
          app: a,
          family,
          metric,
          requirement,
          user: primary,
          first: clusterLicense,
          crossPlatform: fam.crossPlatform && profile === Profile.Mac,
          assignment: {
            // InactiveComputer (8) of the real service's reason flags.
            invalidAssignmentReasons: inactive ? 8 : 0,
            hasVmUseRights: kind === Kind.Host,
            numberOfSupportedVirtualMachines: hostPlan ? plan.vmCount[plan.hostOrdinal[i]] : 0,
          },
        });
      }
    }
    emit("metric_tracking", {
      computerId: id,
      metricId: metric,
      applicationId: info.id,
      initialRequirement: initial,
      includedInBundle: 0,
      outsideMetricPeriod,
      secondaryUseRightsDesktopLaptop: secondary,
      secondaryUseRightsDevice: 0,
      extendedCoverageForDcc: dcc,
      extendedCoverageForHost: hostCoverage,
      multipleVersionEdition: (familyCount.get(family) ?? 0) > 1 ? 1 : 0,
      virtualDesktopInfrastructure: kind === Kind.Vdi ? 1 : 0,
      minimumRequirement: minimum,
      coreFactor,
      physicalHost: kind === Kind.Host ? 1 : 0,
      requirement,
      computerAppExclusions: manually,
      serverOs: serverOs ? 1 : 0,
      virtualMachine: isVirtual ? 1 : 0,
      unknownPhysicalHost: myHost?.noHardware ? 1 : 0,
      manuallyExcluded: manually,
      requirementMoved: moved,
      serverOsFlag: serverOs ? 1 : 0,
      databaseServer: DB_FAMILIES.has(family) ? 1 : 0,
    });
    emit("computer_application_entitlements", {
      computerId: id,
      applicationId: info.id,
      metricId: metric,
      entitlementStateId: state,
    });
  }

  if (hostPlan) emitClusterHostRow(ctx, plan.hostOrdinal[i]);

  emit("computer_costs", {
    computerId: id,
    vendor,
    purchaseCurrency: currency,
    invoiceReference,
    purchaseDate: iso(purchaseDate),
    purchaseValueBase: isVirtual ? null : purchaseUsd,
    purchasePrice: purchaseCents / 100,
    totalCostOfInstalledApplications: appCostCents / 100,
    totalCost: (purchaseCents + appCostCents) / 100,
  });
}
