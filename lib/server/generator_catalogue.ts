/**
 * Reference data of the estate generator: organisations, license metrics, the software registry
 * with the generator's install and licensing rules, hardware models and processors, entitlement
 * states, extended coverage types and license policies. Plain data, no randomness.
 *
 * @module
 */

/** An organisation of the generated estate (no API resource lists them; ids are referenced). */
export interface Organization {
  /** `ORG01` … */
  readonly id: string;
  /** Nested display name, `Contoso EMEA / Finance`. */
  readonly name: string;
  /** The parent organisation's id, or null for the root. */
  readonly parentId: string | null;
  /** The currency purchases of this organisation are made in. */
  readonly currency: "USD" | "EUR" | "GBP";
  /** Short site code used in host names (`US`, `DE`, `UK`, `SG`). */
  readonly site: string;
  /** The Windows domain of its machines. */
  readonly domain: string;
  /** Second octet of its machines' 10.x.y.z addresses. */
  readonly net: number;
}

/**
 * The organisations of every generated estate, root first. Organisation ids in every table point
 * into this list.
 *
 * @example
 * ```ts
 * import { ORGANIZATIONS } from "./generator_catalogue.ts";
 * console.log(ORGANIZATIONS.find((o) => o.id === "ORG06")?.name); // "Contoso EMEA / Finance"
 * ```
 */
export const ORGANIZATIONS: readonly Organization[] = [
  ["ORG01", "Contoso", null, "USD", "HQ", "corp.contoso.com", 10],
  ["ORG02", "Contoso Americas", "ORG01", "USD", "US", "us.contoso.com", 20],
  ["ORG03", "Contoso Americas / Sales", "ORG02", "USD", "US", "us.contoso.com", 21],
  ["ORG04", "Contoso Americas / Engineering", "ORG02", "USD", "US", "us.contoso.com", 22],
  ["ORG05", "Contoso EMEA", "ORG01", "EUR", "DE", "emea.contoso.com", 30],
  ["ORG06", "Contoso EMEA / Finance", "ORG05", "EUR", "DE", "emea.contoso.com", 31],
  ["ORG07", "Contoso EMEA / IT", "ORG05", "EUR", "DE", "emea.contoso.com", 32],
  ["ORG08", "Contoso EMEA / UK Operations", "ORG05", "GBP", "UK", "uk.contoso.com", 33],
  ["ORG09", "Contoso APAC", "ORG01", "USD", "SG", "apac.contoso.com", 40],
  ["ORG10", "Contoso APAC / Engineering", "ORG09", "USD", "SG", "apac.contoso.com", 41],
].map(([id, name, parentId, currency, site, domain, net]) => ({
  id,
  name,
  parentId,
  currency,
  site,
  domain,
  net,
} as Organization));

/** How end-user machines spread over the organisations (same order as ORGANIZATIONS). */
export const END_USER_ORG_WEIGHTS: readonly number[] = [2, 3, 15, 15, 3, 10, 5, 12, 3, 10];
/** How servers spread over the organisations. */
export const SERVER_ORG_WEIGHTS: readonly number[] = [20, 4, 2, 12, 4, 3, 30, 8, 3, 10];

/** USD value of one unit of each currency (fixed rates, so conversions are reproducible). */
export const USD_PER: Readonly<Record<Organization["currency"], number>> = {
  USD: 1,
  EUR: 1.08,
  GBP: 1.27,
};

/** A license metric (no API resource lists them; ids are referenced). */
export interface Metric {
  /** `MET01` … */
  readonly id: string;
  /** Display name. */
  readonly name: string;
}

/**
 * The license metrics. `metricId` in licenses, tracking, entitlements and transfers point here.
 *
 * @example
 * ```ts
 * import { METRICS } from "./generator_catalogue.ts";
 * console.log(METRICS[1].name); // "Processor cores"
 * ```
 */
export const METRICS: readonly Metric[] = [
  { id: "MET01", name: "Installations" },
  { id: "MET02", name: "Processor cores" },
  { id: "MET03", name: "Processors" },
  { id: "MET04", name: "Users" },
  { id: "MET05", name: "Devices" },
  { id: "MET06", name: "Processor value units" },
  { id: "MET07", name: "Custom compare value" },
];

/** Metric ids by role. */
export const MET = {
  installs: "MET01",
  cores: "MET02",
  processors: "MET03",
  users: "MET04",
  devices: "MET05",
  pvu: "MET06",
  custom: "MET07",
} as const;

/** The kind of machine a profile describes; apps and operating systems are chosen by profile. */
export const Profile = {
  /** Windows desktops, laptops and VDI machines. */
  Win: 0,
  /** Apple laptops. */
  Mac: 1,
  /** Windows servers, physical or virtual. */
  WinServer: 2,
  /** Linux servers, physical or virtual. */
  Linux: 3,
  /** IBM Power servers running AIX. */
  Aix: 4,
  /** Virtualisation hosts. */
  Host: 5,
} as const;
/** A profile number (see {@link Profile}). */
export type Profile = typeof Profile[keyof typeof Profile];

/** One product of the software registry, with the generator's rules. */
export interface AppDecl {
  /** Internal key. */
  readonly key: string;
  readonly name: string;
  readonly manufacturer: string;
  readonly version: string;
  readonly edition: string;
  readonly family: string;
  /** Release date, `YYYY-MM-DD`. */
  readonly release: string;
  /** End-of-life date, `YYYY-MM-DD`, or null when none is announced. */
  readonly eol: string | null;
  /** The license family that licenses installs of it; absent for free software. */
  readonly license?: string;
  /** Edition rank within its license family (a higher edition covers a lower one). */
  readonly rank?: number;
  /** The operating system string of a machine running it (OS and hypervisor products). */
  readonly os?: string;
  /** Component products installed with it (their bundleApplicationId is this product). */
  readonly components?: readonly string[];
  /** Always in use when installed (operating systems, agents). */
  readonly alwaysUsed?: boolean;
  /** A developer-network edition (isVendorDN). */
  readonly devNetwork?: boolean;
}

const A = (
  key: string,
  manufacturer: string,
  name: string,
  version: string,
  edition: string,
  family: string,
  release: string,
  eol: string | null,
  extra: Partial<AppDecl> = {},
): AppDecl => ({ key, manufacturer, name, version, edition, family, release, eol, ...extra });

const MS = "Microsoft Corporation";
const ORACLE = "Oracle Corporation";
const ADOBE = "Adobe Inc.";
const AUTODESK = "Autodesk, Inc.";
const VMWARE = "VMware, Inc.";
const RH = "Red Hat, Inc.";
const IBM = "IBM Corporation";

const winServer = (
  year: string,
  edition: "Standard" | "Datacenter",
  release: string,
  eol: string,
) =>
  A(
    `ws${year.replace(" ", "").toLowerCase()}-${edition === "Standard" ? "std" : "dc"}`,
    MS,
    `Microsoft Windows Server ${year} ${edition}`,
    year,
    edition,
    "Windows Server",
    release,
    eol,
    {
      license: "windows-server",
      rank: edition === "Standard" ? 1 : 2,
      os: `Microsoft Windows Server ${year} ${edition}`,
      alwaysUsed: true,
    },
  );

const sql = (year: string, version: string, edition: string, release: string, eol: string) =>
  A(
    `sql${year}-${edition.toLowerCase()}`,
    MS,
    `Microsoft SQL Server ${year} ${edition}`,
    version,
    edition,
    "SQL Server",
    release,
    eol,
    edition === "Express" || edition === "Developer"
      ? { devNetwork: edition === "Developer" }
      : { license: "sql-server", rank: edition === "Enterprise" ? 2 : 1 },
  );

/**
 * Every product of the software registry, in id order (`APP0001` is the first).
 *
 * @example
 * ```ts
 * import { APPS } from "./generator_catalogue.ts";
 * console.log(APPS.some((a) => a.family === "SQL Server")); // true
 * ```
 */
// deno-fmt-ignore
export const APPS: readonly AppDecl[] = [
  // Client operating systems
  A("win10-ent", MS, "Microsoft Windows 10 Enterprise", "10 22H2", "Enterprise", "Windows", "2022-10-18", "2025-10-14", { os: "Microsoft Windows 10 Enterprise", alwaysUsed: true }),
  A("win11-ent-23h2", MS, "Microsoft Windows 11 Enterprise", "11 23H2", "Enterprise", "Windows", "2023-10-31", "2026-11-10", { os: "Microsoft Windows 11 Enterprise", alwaysUsed: true }),
  A("win11-ent-24h2", MS, "Microsoft Windows 11 Enterprise", "11 24H2", "Enterprise", "Windows", "2024-10-01", "2027-10-12", { os: "Microsoft Windows 11 Enterprise", alwaysUsed: true }),
  A("win11-pro", MS, "Microsoft Windows 11 Pro", "11 23H2", "Pro", "Windows", "2023-10-31", "2025-11-11", { os: "Microsoft Windows 11 Pro", alwaysUsed: true }),
  A("macos14", "Apple Inc.", "Apple macOS Sonoma", "14.7", "Standard", "macOS", "2023-09-26", null, { os: "macOS 14 Sonoma", alwaysUsed: true }),
  A("macos15", "Apple Inc.", "Apple macOS Sequoia", "15.1", "Standard", "macOS", "2024-09-16", null, { os: "macOS 15 Sequoia", alwaysUsed: true }),
  // Server operating systems
  winServer("2012 R2", "Standard", "2013-10-18", "2023-10-10"),
  winServer("2012 R2", "Datacenter", "2013-10-18", "2023-10-10"),
  winServer("2016", "Standard", "2016-10-15", "2027-01-12"),
  winServer("2016", "Datacenter", "2016-10-15", "2027-01-12"),
  winServer("2019", "Standard", "2018-11-13", "2029-01-09"),
  winServer("2019", "Datacenter", "2018-11-13", "2029-01-09"),
  winServer("2022", "Standard", "2021-08-18", "2031-10-14"),
  winServer("2022", "Datacenter", "2021-08-18", "2031-10-14"),
  winServer("2025", "Standard", "2024-11-01", "2034-10-10"),
  winServer("2025", "Datacenter", "2024-11-01", "2034-10-10"),
  A("rhel7", RH, "Red Hat Enterprise Linux Server 7", "7.9", "Server", "Red Hat Enterprise Linux", "2014-06-10", "2024-06-30", { license: "rhel", os: "Red Hat Enterprise Linux Server 7.9", alwaysUsed: true }),
  A("rhel8", RH, "Red Hat Enterprise Linux 8", "8.10", "Server", "Red Hat Enterprise Linux", "2019-05-07", "2029-05-31", { license: "rhel", os: "Red Hat Enterprise Linux 8.10", alwaysUsed: true }),
  A("rhel9", RH, "Red Hat Enterprise Linux 9", "9.4", "Server", "Red Hat Enterprise Linux", "2022-05-17", "2032-05-31", { license: "rhel", os: "Red Hat Enterprise Linux 9.4", alwaysUsed: true }),
  A("aix73", IBM, "IBM AIX", "7.3", "Standard", "AIX", "2021-12-10", null, { os: "AIX 7.3", alwaysUsed: true }),
  // Hypervisors and virtualisation
  A("vsphere7", VMWARE, "VMware vSphere 7 Enterprise Plus", "7.0", "Enterprise Plus", "VMware vSphere", "2020-04-02", "2025-10-02", { license: "vsphere", os: "VMware ESXi 7.0.3", alwaysUsed: true }),
  A("vsphere8", VMWARE, "VMware vSphere 8 Enterprise Plus", "8.0", "Enterprise Plus", "VMware vSphere", "2022-10-11", "2027-10-11", { license: "vsphere", os: "VMware ESXi 8.0.2", alwaysUsed: true }),
  A("ahv", "Nutanix, Inc.", "Nutanix AHV", "20230302", "Standard", "Nutanix AHV", "2023-06-01", null, { os: "Nutanix AHV 20230302", alwaysUsed: true }),
  A("vmtools", VMWARE, "VMware Tools", "12.3", "Standard", "VMware Tools", "2023-08-31", null, { alwaysUsed: true }),
  A("vmws17", VMWARE, "VMware Workstation 17 Pro", "17.5", "Pro", "VMware Workstation", "2022-11-17", "2025-11-17", { license: "vmware-workstation" }),
  A("horizon8", VMWARE, "VMware Horizon Client", "8.12", "Standard", "VMware Horizon", "2023-12-07", null),
  // Office
  A("office2016-pp", MS, "Microsoft Office Professional Plus 2016", "16.0", "Professional Plus", "Microsoft Office", "2015-09-22", "2025-10-14", { license: "office", rank: 2 }),
  A("office2019-pp", MS, "Microsoft Office Professional Plus 2019", "16.0 2019", "Professional Plus", "Microsoft Office", "2018-09-24", "2025-10-14", { license: "office", rank: 2, components: ["word2019", "excel2019"] }),
  A("office2021-pp", MS, "Microsoft Office Professional Plus 2021", "16.0 2021", "Professional Plus", "Microsoft Office", "2021-10-05", "2026-10-13", { license: "office", rank: 2, components: ["word2021", "excel2021"] }),
  A("office2024-pp", MS, "Microsoft Office LTSC Professional Plus 2024", "16.0 2024", "Professional Plus", "Microsoft Office", "2024-10-01", "2029-10-09", { license: "office", rank: 2 }),
  A("office2019-std", MS, "Microsoft Office Standard 2019", "16.0 2019", "Standard", "Microsoft Office", "2018-09-24", "2025-10-14", { license: "office", rank: 1, components: ["word2019", "excel2019"] }),
  A("office2021-std", MS, "Microsoft Office Standard 2021", "16.0 2021", "Standard", "Microsoft Office", "2021-10-05", "2026-10-13", { license: "office", rank: 1, components: ["word2021", "excel2021"] }),
  A("m365apps", MS, "Microsoft 365 Apps for enterprise", "16.0 2409", "Enterprise", "Microsoft 365 Apps", "2024-10-08", null, { license: "m365" }),
  A("word2019", MS, "Microsoft Word 2019", "16.0 2019", "Standard", "Microsoft Office", "2018-09-24", "2025-10-14"),
  A("excel2019", MS, "Microsoft Excel 2019", "16.0 2019", "Standard", "Microsoft Office", "2018-09-24", "2025-10-14"),
  A("word2021", MS, "Microsoft Word 2021", "16.0 2021", "Standard", "Microsoft Office", "2021-10-05", "2026-10-13"),
  A("excel2021", MS, "Microsoft Excel 2021", "16.0 2021", "Standard", "Microsoft Office", "2021-10-05", "2026-10-13"),
  A("visio2019-pro", MS, "Microsoft Visio Professional 2019", "16.0 2019", "Professional", "Microsoft Visio", "2018-09-24", "2025-10-14", { license: "visio", rank: 2 }),
  A("visio2021-pro", MS, "Microsoft Visio Professional 2021", "16.0 2021", "Professional", "Microsoft Visio", "2021-10-05", "2026-10-13", { license: "visio", rank: 2 }),
  A("visio2021-std", MS, "Microsoft Visio Standard 2021", "16.0 2021", "Standard", "Microsoft Visio", "2021-10-05", "2026-10-13", { license: "visio", rank: 1 }),
  A("project2019-pro", MS, "Microsoft Project Professional 2019", "16.0 2019", "Professional", "Microsoft Project", "2018-09-24", "2025-10-14", { license: "project", rank: 2 }),
  A("project2021-pro", MS, "Microsoft Project Professional 2021", "16.0 2021", "Professional", "Microsoft Project", "2021-10-05", "2026-10-13", { license: "project", rank: 2 }),
  A("project2021-std", MS, "Microsoft Project Standard 2021", "16.0 2021", "Standard", "Microsoft Project", "2021-10-05", "2026-10-13", { license: "project", rank: 1 }),
  // SQL Server
  sql("2014", "12.0", "Enterprise", "2014-04-01", "2024-07-09"),
  sql("2014", "12.0", "Standard", "2014-04-01", "2024-07-09"),
  sql("2016", "13.0", "Enterprise", "2016-06-01", "2026-07-14"),
  sql("2016", "13.0", "Standard", "2016-06-01", "2026-07-14"),
  sql("2017", "14.0", "Enterprise", "2017-09-29", "2027-10-12"),
  sql("2017", "14.0", "Standard", "2017-09-29", "2027-10-12"),
  sql("2019", "15.0", "Enterprise", "2019-11-04", "2030-01-08"),
  sql("2019", "15.0", "Standard", "2019-11-04", "2030-01-08"),
  sql("2022", "16.0", "Enterprise", "2022-11-16", "2033-01-11"),
  sql("2022", "16.0", "Standard", "2022-11-16", "2033-01-11"),
  sql("2019", "15.0", "Developer", "2019-11-04", "2030-01-08"),
  sql("2019", "15.0", "Express", "2019-11-04", "2030-01-08"),
  // Oracle
  A("oradb12-ee", ORACLE, "Oracle Database 12c Enterprise Edition", "12.2.0.1", "Enterprise Edition", "Oracle Database", "2017-03-01", "2022-03-31", { license: "oracle-db", rank: 2 }),
  A("oradb19-ee", ORACLE, "Oracle Database 19c Enterprise Edition", "19.24", "Enterprise Edition", "Oracle Database", "2019-04-25", "2029-12-31", { license: "oracle-db", rank: 2 }),
  A("oradb19-se2", ORACLE, "Oracle Database 19c Standard Edition 2", "19.24", "Standard Edition 2", "Oracle Database", "2019-04-25", "2029-12-31", { license: "oracle-db", rank: 1 }),
  A("oradb23-ee", ORACLE, "Oracle Database 23ai Enterprise Edition", "23.5", "Enterprise Edition", "Oracle Database", "2024-05-02", "2032-04-30", { license: "oracle-db", rank: 2 }),
  A("jdk8", ORACLE, "Java SE Development Kit 8", "8.0.421", "Standard", "Java SE", "2014-03-18", "2030-12-31", { license: "java" }),
  A("jdk11", ORACLE, "Java SE Development Kit 11", "11.0.24", "Standard", "Java SE", "2018-09-25", "2026-09-30", { license: "java" }),
  A("jdk17", ORACLE, "Java SE Development Kit 17", "17.0.12", "Standard", "Java SE", "2021-09-14", "2029-09-30", { license: "java" }),
  A("jdk21", ORACLE, "Java SE Development Kit 21", "21.0.4", "Standard", "Java SE", "2023-09-19", "2031-09-30", { license: "java" }),
  A("weblogic14", ORACLE, "Oracle WebLogic Server 14c", "14.1.1", "Enterprise Edition", "Oracle WebLogic Server", "2020-03-30", "2026-03-31", { license: "weblogic" }),
  // IBM
  A("db2-115", IBM, "IBM Db2 Advanced Edition", "11.5.9", "Advanced Edition", "IBM Db2", "2019-06-27", "2027-04-30", { license: "db2" }),
  A("spss29", IBM, "IBM SPSS Statistics", "29.0.2", "Base", "IBM SPSS Statistics", "2022-09-13", "2026-09-30", { license: "spss" }),
  // Adobe
  A("acrobat-reader", ADOBE, "Adobe Acrobat Reader", "24.003", "Standard", "Adobe Acrobat", "2024-09-10", null),
  A("acrobat-pro", ADOBE, "Adobe Acrobat Pro", "24.003", "Pro", "Adobe Acrobat", "2024-09-10", null, { license: "acrobat-pro" }),
  A("acrobat2020-std", ADOBE, "Adobe Acrobat Standard 2020", "20.005", "Standard", "Adobe Acrobat", "2020-06-01", "2025-11-30", { license: "acrobat-2020" }),
  A("photoshop2024", ADOBE, "Adobe Photoshop 2024", "25.11", "Creative Cloud", "Adobe Photoshop", "2023-10-10", null, { license: "photoshop" }),
  A("illustrator2024", ADOBE, "Adobe Illustrator 2024", "28.7", "Creative Cloud", "Adobe Illustrator", "2023-10-10", null, { license: "illustrator" }),
  // Autodesk
  A("autocad2022", AUTODESK, "Autodesk AutoCAD 2022", "24.1", "Standard", "Autodesk AutoCAD", "2021-03-23", "2026-03-31", { license: "autocad" }),
  A("autocad2024", AUTODESK, "Autodesk AutoCAD 2024", "24.3", "Standard", "Autodesk AutoCAD", "2023-03-28", "2028-03-31", { license: "autocad" }),
  A("autocad2025", AUTODESK, "Autodesk AutoCAD 2025", "25.0", "Standard", "Autodesk AutoCAD", "2024-03-26", "2029-03-31", { license: "autocad" }),
  A("autocadlt2024", AUTODESK, "Autodesk AutoCAD LT 2024", "24.3", "LT", "Autodesk AutoCAD LT", "2023-03-28", "2028-03-31", { license: "autocad-lt" }),
  A("revit2024", AUTODESK, "Autodesk Revit 2024", "24.2", "Standard", "Autodesk Revit", "2023-04-05", "2028-04-30", { license: "revit" }),
  // Developer tools
  A("vs2019-pro", MS, "Microsoft Visual Studio Professional 2019", "16.11", "Professional", "Microsoft Visual Studio", "2019-04-02", "2029-04-10", { license: "visual-studio", rank: 1 }),
  A("vs2022-pro", MS, "Microsoft Visual Studio Professional 2022", "17.11", "Professional", "Microsoft Visual Studio", "2021-11-08", "2032-01-13", { license: "visual-studio", rank: 1 }),
  A("vs2022-ent", MS, "Microsoft Visual Studio Enterprise 2022", "17.11", "Enterprise", "Microsoft Visual Studio", "2021-11-08", "2032-01-13", { license: "visual-studio", rank: 2 }),
  // Other commercial
  A("tableau2024", "Tableau Software, LLC", "Tableau Desktop", "2024.2", "Creator", "Tableau Desktop", "2024-06-25", null, { license: "tableau" }),
  A("teamviewer15", "TeamViewer Germany GmbH", "TeamViewer", "15.58", "Standard", "TeamViewer", "2024-09-03", null, { license: "teamviewer" }),
  A("winrar6", "win.rar GmbH", "WinRAR", "6.24", "Standard", "WinRAR", "2023-10-03", null, { license: "winrar" }),
  // Free software
  A("chrome", "Google LLC", "Google Chrome", "130.0", "Standard", "Google Chrome", "2024-10-15", null),
  A("firefox", "Mozilla", "Mozilla Firefox ESR", "128.4", "ESR", "Mozilla Firefox", "2024-07-09", null),
  A("7zip", "Igor Pavlov", "7-Zip", "24.08", "Standard", "7-Zip", "2024-08-11", null),
  A("npp", "Notepad++ Team", "Notepad++", "8.7", "Standard", "Notepad++", "2024-09-17", null),
  A("zoom", "Zoom Video Communications, Inc.", "Zoom Workplace", "6.2", "Standard", "Zoom", "2024-09-30", null),
  A("teams", MS, "Microsoft Teams", "24243", "Standard", "Microsoft Teams", "2024-09-20", null),
  A("edge", MS, "Microsoft Edge", "130.0", "Standard", "Microsoft Edge", "2024-10-17", null),
  A("citrix", "Citrix Systems, Inc.", "Citrix Workspace", "24.9", "Standard", "Citrix Workspace", "2024-09-24", null),
  A("cisco", "Cisco Systems, Inc.", "Cisco Secure Client", "5.1", "Standard", "Cisco Secure Client", "2024-02-27", null, { alwaysUsed: true }),
  A("dotnet8", MS, "Microsoft .NET Desktop Runtime 8", "8.0.10", "Standard", "Microsoft .NET", "2024-10-08", "2026-11-10"),
];

/** One install group: at most one of its members is installed on a machine. */
export interface GroupDecl {
  readonly key: string;
  /** Probability a machine of the profile has one of the members. */
  readonly presence: Readonly<Partial<Record<Profile, number>>>;
  /** Member app keys with weights. */
  readonly members: readonly (readonly [string, number])[];
}

const G = (
  key: string,
  presence: Partial<Record<Profile, number>>,
  members: [string, number][],
): GroupDecl => ({ key, presence, members });
const W = Profile.Win, M = Profile.Mac, S = Profile.WinServer, L = Profile.Linux, X = Profile.Aix;

/**
 * Install groups (operating systems are chosen separately).
 *
 * @example
 * ```ts
 * import { GROUPS } from "./generator_catalogue.ts";
 * console.log(GROUPS.some((g) => g.key === "sql")); // true
 * ```
 */
export const GROUPS: readonly GroupDecl[] = [
  G("office", { [W]: 0.93 }, [
    ["m365apps", 6],
    ["office2016-pp", 1],
    ["office2019-pp", 2],
    ["office2021-pp", 3],
    ["office2024-pp", 1],
    ["office2019-std", 1],
    ["office2021-std", 1],
  ]),
  G("office-mac", { [M]: 0.85 }, [["m365apps", 1]]),
  G("visio", { [W]: 0.08 }, [["visio2019-pro", 1], ["visio2021-pro", 2], ["visio2021-std", 1]]),
  G("project", { [W]: 0.05 }, [
    ["project2019-pro", 1],
    ["project2021-pro", 2],
    ["project2021-std", 1],
  ]),
  G("acrobat", { [W]: 0.85, [S]: 0.05 }, [
    ["acrobat-reader", 6],
    ["acrobat-pro", 3],
    ["acrobat2020-std", 1],
  ]),
  G("acrobat-mac", { [M]: 0.6 }, [["acrobat-reader", 2], ["acrobat-pro", 1]]),
  G("chrome", { [W]: 0.75, [M]: 0.7, [S]: 0.3 }, [["chrome", 1]]),
  G("firefox", { [W]: 0.15, [M]: 0.2, [L]: 0.1 }, [["firefox", 1]]),
  G("7zip", { [W]: 0.35, [S]: 0.4 }, [["7zip", 1]]),
  G("npp", { [W]: 0.2, [S]: 0.3 }, [["npp", 1]]),
  G("zoom", { [W]: 0.5, [M]: 0.6 }, [["zoom", 1]]),
  G("teams", { [W]: 0.9, [M]: 0.8 }, [["teams", 1]]),
  G("edge", { [W]: 0.98, [S]: 0.9 }, [["edge", 1]]),
  G("citrix", { [W]: 0.1 }, [["citrix", 1]]),
  G("cisco", { [W]: 0.45, [M]: 0.9 }, [["cisco", 1]]),
  G("dotnet", { [W]: 0.6, [S]: 0.6 }, [["dotnet8", 1]]),
  G("java", { [W]: 0.12, [M]: 0.05, [S]: 0.25, [L]: 0.45, [X]: 0.3 }, [
    ["jdk8", 3],
    ["jdk11", 3],
    ["jdk17", 2],
    ["jdk21", 1],
  ]),
  G("autocad", { [W]: 0.035 }, [
    ["autocad2022", 1],
    ["autocad2024", 2],
    ["autocad2025", 2],
    ["autocadlt2024", 2],
    ["revit2024", 1],
  ]),
  G("creative", { [W]: 0.02, [M]: 0.15 }, [["photoshop2024", 1], ["illustrator2024", 1]]),
  G("visual-studio", { [W]: 0.05 }, [["vs2019-pro", 1], ["vs2022-pro", 2], ["vs2022-ent", 1]]),
  G("sql-dev", { [W]: 0.02 }, [["sql2019-developer", 1]]),
  G("tableau", { [W]: 0.02, [M]: 0.03 }, [["tableau2024", 1]]),
  G("spss", { [W]: 0.015 }, [["spss29", 1]]),
  G("teamviewer", { [W]: 0.04, [S]: 0.05 }, [["teamviewer15", 1]]),
  G("winrar", { [W]: 0.03 }, [["winrar6", 1]]),
  G("vmws", { [W]: 0.015 }, [["vmws17", 1]]),
  G("horizon", { [W]: 0.06, [M]: 0.1 }, [["horizon8", 1]]),
  G("sql", { [S]: 0.35 }, [
    ["sql2014-enterprise", 1],
    ["sql2014-standard", 1],
    ["sql2016-enterprise", 2],
    ["sql2016-standard", 2],
    ["sql2017-enterprise", 1],
    ["sql2017-standard", 2],
    ["sql2019-enterprise", 3],
    ["sql2019-standard", 4],
    ["sql2022-enterprise", 2],
    ["sql2022-standard", 3],
    ["sql2019-express", 3],
  ]),
  G("oracle", { [S]: 0.05, [L]: 0.2, [X]: 0.5 }, [
    ["oradb12-ee", 1],
    ["oradb19-ee", 3],
    ["oradb19-se2", 2],
    ["oradb23-ee", 1],
  ]),
  G("db2", { [L]: 0.05, [X]: 0.6 }, [["db2-115", 1]]),
  G("weblogic", { [S]: 0.02, [L]: 0.1 }, [["weblogic14", 1]]),
];

/** Operating system choices by profile (hosts choose by hypervisor). */
export const OS_CHOICES: Readonly<
  Record<Exclude<Profile, typeof Profile.Host>, [string, number][]>
> = {
  [Profile.Win]: [["win11-ent-23h2", 4], ["win11-ent-24h2", 3], ["win10-ent", 3], [
    "win11-pro",
    1,
  ]],
  [Profile.Mac]: [["macos14", 1], ["macos15", 2]],
  [Profile.WinServer]: [
    ["ws2012r2-std", 1],
    ["ws2016-std", 2],
    ["ws2016-dc", 0.5],
    ["ws2019-std", 4],
    ["ws2019-dc", 1],
    ["ws2022-std", 4],
    ["ws2022-dc", 1],
    ["ws2025-std", 1],
  ],
  [Profile.Linux]: [["rhel7", 1], ["rhel8", 3], ["rhel9", 4]],
  [Profile.Aix]: [["aix73", 1]],
};

/** How an assignment type is chosen for a family's licenses. */
export type AssignmentRule = "organization" | "computer" | "user" | "datacenter";

/** A license family: which products its licenses cover and how they are bought. */
export interface LicenseFamilyDecl {
  readonly key: string;
  readonly metric: string;
  /** Products licenses are bought for: key, weight, list price per unit in USD. */
  readonly buy: readonly (readonly [string, number, number])[];
  /** How licenses are assigned. */
  readonly assignment: AssignmentRule;
  readonly subscription: boolean;
  readonly crossPlatform: boolean;
  /** Downgrade rights (older versions and lower editions are covered). */
  readonly downgrade: boolean;
  /** Coverage range: license quantity ÷ expected requirement. */
  readonly coverage: readonly [number, number];
  /** Quantity of one typical purchase (purchases are split into chunks of about this size). */
  readonly chunk: number;
  /** Resellers or vendors it is bought from. */
  readonly vendors: readonly string[];
  /** Key format: `ms` five groups of five, `generic` four groups of four, `none` no keys. */
  readonly keys: "ms" | "generic" | "none";
  /** Licensable but no license was ever bought. */
  readonly none?: boolean;
  /** Core factor applied to core requirements (Oracle-style). */
  readonly coreFactor?: number;
  /**
   * Licensed per physical core of the host (no sub-capacity): installs on virtual machines move
   * their requirement to the host (Oracle-style).
   */
  readonly hostBased?: boolean;
}

const F = (
  key: string,
  metric: string,
  buy: [string, number, number][],
  extra: Partial<LicenseFamilyDecl>,
): LicenseFamilyDecl => ({
  key,
  metric,
  buy,
  assignment: "organization",
  subscription: false,
  crossPlatform: false,
  downgrade: true,
  coverage: [0.7, 1.2],
  chunk: 150,
  vendors: ["SoftwareONE", "Crayon", "SHI International", "Insight"],
  keys: "ms",
  ...extra,
});

/**
 * License families (keys are the `license` of products).
 *
 * @example
 * ```ts
 * import { LICENSE_FAMILIES } from "./generator_catalogue.ts";
 * console.log(LICENSE_FAMILIES.find((f) => f.key === "sql-server")?.metric); // "MET02"
 * ```
 */
export const LICENSE_FAMILIES: readonly LicenseFamilyDecl[] = [
  F("windows-server", MET.cores, [
    ["ws2019-std", 1, 67],
    ["ws2022-std", 3, 67],
    ["ws2025-std", 1, 72],
    ["ws2022-dc", 1, 385],
  ], { chunk: 256, coverage: [0.8, 1.15] }),
  F("rhel", MET.devices, [["rhel9", 3, 1299], ["rhel8", 1, 1299]], {
    subscription: true,
    chunk: 40,
    vendors: ["Red Hat", "SHI International"],
    keys: "none",
  }),
  F("vsphere", MET.cores, [["vsphere8", 3, 350], ["vsphere7", 1, 350]], {
    subscription: true,
    chunk: 128,
    vendors: ["Broadcom", "Insight"],
    keys: "generic",
    coverage: [0.9, 1.3],
  }),
  F("vmware-workstation", MET.installs, [["vmws17", 1, 199]], { keys: "generic", chunk: 20 }),
  F("office", MET.installs, [
    ["office2021-pp", 3, 439],
    ["office2019-pp", 2, 419],
    ["office2024-pp", 1, 459],
    ["office2021-std", 1, 319],
  ], { coverage: [0.75, 1.1] }),
  F("m365", MET.users, [["m365apps", 1, 144]], {
    assignment: "user",
    subscription: true,
    crossPlatform: true,
    keys: "none",
    chunk: 250,
  }),
  F("visio", MET.installs, [["visio2021-pro", 2, 579], ["visio2021-std", 1, 299]], { chunk: 25 }),
  F("project", MET.installs, [["project2021-pro", 2, 1129], ["project2021-std", 1, 679]], {
    chunk: 20,
  }),
  F("sql-server", MET.cores, [
    ["sql2022-enterprise", 2, 3564],
    ["sql2019-enterprise", 2, 3564],
    ["sql2022-standard", 3, 930],
    ["sql2019-standard", 2, 930],
  ], { assignment: "computer", chunk: 48, coverage: [0.6, 1.1] }),
  F("oracle-db", MET.cores, [
    ["oradb19-ee", 3, 47500],
    ["oradb23-ee", 1, 47500],
    ["oradb19-se2", 1, 17500],
  ], {
    assignment: "computer",
    chunk: 16,
    vendors: ["Oracle"],
    keys: "none",
    coreFactor: 0.5,
    hostBased: true,
    coverage: [0.5, 1.0],
  }),
  F("java", MET.installs, [["jdk21", 2, 25], ["jdk17", 1, 25]], {
    subscription: true,
    crossPlatform: true,
    vendors: ["Oracle"],
    keys: "none",
    chunk: 100,
    coverage: [0.4, 0.9],
  }),
  F("weblogic", MET.cores, [["weblogic14", 1, 25000]], {
    assignment: "computer",
    chunk: 8,
    vendors: ["Oracle"],
    keys: "none",
    coreFactor: 0.5,
    hostBased: true,
  }),
  F("db2", MET.pvu, [["db2-115", 1, 150]], {
    assignment: "computer",
    chunk: 2000,
    vendors: ["IBM", "Kyndryl"],
    keys: "none",
  }),
  F("spss", MET.users, [["spss29", 1, 1190]], {
    assignment: "user",
    subscription: true,
    crossPlatform: true,
    vendors: ["IBM"],
    keys: "generic",
    chunk: 10,
  }),
  F("acrobat-pro", MET.users, [["acrobat-pro", 1, 240]], {
    assignment: "user",
    subscription: true,
    crossPlatform: true,
    vendors: ["Adobe", "SoftwareONE"],
    keys: "none",
    chunk: 60,
  }),
  F("acrobat-2020", MET.installs, [["acrobat2020-std", 1, 299]], {
    vendors: ["Adobe", "Insight"],
    keys: "generic",
    chunk: 30,
  }),
  F("photoshop", MET.users, [["photoshop2024", 1, 264]], {
    assignment: "user",
    subscription: true,
    crossPlatform: true,
    vendors: ["Adobe"],
    keys: "none",
    chunk: 10,
  }),
  F("illustrator", MET.users, [["illustrator2024", 1, 264]], {
    assignment: "user",
    subscription: true,
    crossPlatform: true,
    vendors: ["Adobe"],
    keys: "none",
    chunk: 10,
  }),
  F("autocad", MET.users, [["autocad2025", 2, 2030], ["autocad2024", 1, 2030]], {
    assignment: "user",
    subscription: true,
    vendors: ["Autodesk", "Bechtle"],
    keys: "generic",
    chunk: 10,
  }),
  F("autocad-lt", MET.users, [["autocadlt2024", 1, 550]], {
    assignment: "user",
    subscription: true,
    vendors: ["Autodesk", "Bechtle"],
    keys: "generic",
    chunk: 10,
  }),
  F("revit", MET.users, [["revit2024", 1, 2910]], {
    assignment: "user",
    subscription: true,
    vendors: ["Autodesk"],
    keys: "generic",
    chunk: 5,
  }),
  F("visual-studio", MET.users, [["vs2022-pro", 2, 499], ["vs2022-ent", 1, 2999]], {
    assignment: "user",
    subscription: true,
    chunk: 15,
  }),
  F("tableau", MET.users, [["tableau2024", 1, 900]], {
    assignment: "user",
    subscription: true,
    crossPlatform: true,
    vendors: ["Salesforce"],
    keys: "generic",
    chunk: 10,
  }),
  F("teamviewer", MET.installs, [], { none: true }),
  F("winrar", MET.installs, [], { none: true }),
];

/** A hardware model. */
export interface ModelDecl {
  readonly manufacturer: string;
  readonly model: string;
  /** Processor keys it ships with. */
  readonly cpus: readonly string[];
  readonly weight: number;
}

const HW = (manufacturer: string, model: string, cpus: string[], weight = 1): ModelDecl => ({
  manufacturer,
  model,
  cpus,
  weight,
});

const XEON = ["gold6338", "gold5318y", "silver4314", "gold6430", "silver4210r"];
const EPYC = ["epyc7543", "epyc7763", "epyc7313", "epyc9354"];
const CLIENT_INTEL = ["i5-1345u", "i7-1365u", "ultra7-165u"];
const DESK_INTEL = ["i5-13500", "i7-13700"];

/** Hardware models by machine role. */
export const MODELS = {
  desktop: [
    HW("Dell Inc.", "OptiPlex 7010", DESK_INTEL, 3),
    HW("HP", "HP EliteDesk 800 G9 Desktop Mini PC", DESK_INTEL, 2),
    HW("LENOVO", "ThinkCentre M90q Gen 3", [...DESK_INTEL, "ryzen5-5650g"], 2),
    HW("Dell Inc.", "Precision 3660 Tower", ["i7-13700"], 1),
  ],
  laptop: [
    HW("Dell Inc.", "Latitude 5440", CLIENT_INTEL, 3),
    HW("Dell Inc.", "Latitude 7440", CLIENT_INTEL, 2),
    HW("HP", "HP EliteBook 840 G10", [...CLIENT_INTEL, "ryzen7-7840u"], 2),
    HW("LENOVO", "ThinkPad T14 Gen 4", [...CLIENT_INTEL, "ryzen7-7840u"], 2),
    HW("LENOVO", "ThinkPad X1 Carbon Gen 11", ["i7-1365u"], 1),
    HW("Microsoft Corporation", "Surface Laptop 5", ["i5-1345u"], 1),
  ],
  mac: [
    HW("Apple Inc.", "MacBook Pro", ["m3pro", "m2pro"], 3),
    HW("Apple Inc.", "MacBook Air", ["m3"], 2),
  ],
  server: [
    HW("Dell Inc.", "PowerEdge R750", XEON, 3),
    HW("Dell Inc.", "PowerEdge R650", XEON, 2),
    HW("Dell Inc.", "PowerEdge R7525", EPYC, 1),
    HW("HPE", "ProLiant DL380 Gen10", XEON, 3),
    HW("HPE", "ProLiant DL360 Gen10 Plus", XEON, 1),
    HW("HPE", "ProLiant DL385 Gen10 Plus v2", EPYC, 1),
    HW("Lenovo", "ThinkSystem SR650", XEON, 2),
    HW("Lenovo", "ThinkSystem SR630 V2", XEON, 1),
    HW("Dell Inc.", "PowerEdge T150", ["e2388g"], 1),
  ],
  host: [
    HW("Dell Inc.", "PowerEdge R750", ["gold6338", "platinum8380", "gold6430"], 3),
    HW("HPE", "ProLiant DL380 Gen10", ["gold6338", "platinum8380"], 2),
    HW("Lenovo", "ThinkSystem SR650", ["gold6338", "gold6430"], 2),
    HW("Dell Inc.", "PowerEdge R7525", ["epyc7543", "epyc7763"], 1),
  ],
  power: [HW("IBM", "Power System S922", ["power9"], 2), HW("IBM", "Power S1022", ["power10"], 1)],
} as const satisfies Record<string, readonly ModelDecl[]>;

/** The virtual machine model a hypervisor presents. */
export const VM_MODELS: readonly (readonly [string, string])[] = [
  ["VMware, Inc.", "VMware Virtual Platform"],
  ["Microsoft Corporation", "Virtual Machine"],
  ["Nutanix", "AHV"],
];

/** A processor model. */
export interface CpuDecl {
  readonly type: string;
  readonly manufacturer: "Intel" | "AMD" | "IBM" | "Apple";
  /** Cores per processor. */
  readonly cores: number;
  /** MHz. */
  readonly speed: number;
  readonly hyperthreading: boolean;
  /** IBM processor value units per core. */
  readonly pvu: number;
  /** Largest socket count it is sold in. */
  readonly maxSockets: number;
}

const CPU = (
  type: string,
  manufacturer: CpuDecl["manufacturer"],
  cores: number,
  speed: number,
  maxSockets: number,
  hyperthreading = true,
  pvu = 70,
): CpuDecl => ({ type, manufacturer, cores, speed, hyperthreading, pvu, maxSockets });

/** Processor models by key. */
export const CPUS: Readonly<Record<string, CpuDecl>> = {
  "gold6338": CPU("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", "Intel", 32, 2000, 2),
  "gold5318y": CPU("Intel(R) Xeon(R) Gold 5318Y CPU @ 2.10GHz", "Intel", 24, 2100, 2),
  "silver4314": CPU("Intel(R) Xeon(R) Silver 4314 CPU @ 2.40GHz", "Intel", 16, 2400, 2),
  "silver4210r": CPU("Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz", "Intel", 10, 2400, 2),
  "gold6430": CPU("Intel(R) Xeon(R) Gold 6430", "Intel", 32, 2100, 4),
  "platinum8380": CPU("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", "Intel", 40, 2300, 4),
  "e2388g": CPU("Intel(R) Xeon(R) E-2388G CPU @ 3.20GHz", "Intel", 8, 3200, 1),
  "epyc7543": CPU("AMD EPYC 7543 32-Core Processor", "AMD", 32, 2800, 2),
  "epyc7763": CPU("AMD EPYC 7763 64-Core Processor", "AMD", 64, 2450, 2),
  "epyc7313": CPU("AMD EPYC 7313 16-Core Processor", "AMD", 16, 3000, 2),
  "epyc9354": CPU("AMD EPYC 9354 32-Core Processor", "AMD", 32, 3250, 2),
  "power9": CPU("IBM POWER9", "IBM", 12, 3450, 4, true, 120),
  "power10": CPU("IBM POWER10", "IBM", 10, 3900, 2, true, 120),
  "i5-1345u": CPU("13th Gen Intel(R) Core(TM) i5-1345U", "Intel", 10, 1600, 1, true, 100),
  "i7-1365u": CPU("13th Gen Intel(R) Core(TM) i7-1365U", "Intel", 10, 1800, 1, true, 100),
  "ultra7-165u": CPU("Intel(R) Core(TM) Ultra 7 165U", "Intel", 12, 1700, 1, true, 100),
  "i5-13500": CPU("13th Gen Intel(R) Core(TM) i5-13500", "Intel", 14, 2500, 1, true, 100),
  "i7-13700": CPU("13th Gen Intel(R) Core(TM) i7-13700", "Intel", 16, 2100, 1, true, 100),
  "ryzen7-7840u": CPU(
    "AMD Ryzen 7 PRO 7840U w/ Radeon 780M Graphics",
    "AMD",
    8,
    3300,
    1,
    true,
    100,
  ),
  "ryzen5-5650g": CPU("AMD Ryzen 5 PRO 5650G with Radeon Graphics", "AMD", 6, 3900, 1, true, 100),
  "m3pro": CPU("Apple M3 Pro", "Apple", 12, 4050, 1, false, 100),
  "m2pro": CPU("Apple M2 Pro", "Apple", 12, 3490, 1, false, 100),
  "m3": CPU("Apple M3", "Apple", 8, 4050, 1, false, 100),
};

/** An entitlement state row. */
export interface EntitlementStateDecl {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

/** Entitlement state ids by meaning. */
export const STATE = {
  licensed: "ES01",
  unlicensed: "ES02",
  underLicensed: "ES03",
  extendedCoverage: "ES04",
  excluded: "ES05",
  viaTransfer: "ES06",
} as const;

/**
 * The entitlement states (one name needs HTML escaping on purpose).
 *
 * @example
 * ```ts
 * import { ENTITLEMENT_STATES } from "./generator_catalogue.ts";
 * console.log(ENTITLEMENT_STATES.length >= 5); // true
 * ```
 */
export const ENTITLEMENT_STATES: readonly EntitlementStateDecl[] = [
  { id: "ES01", name: "Licensed", description: "The installation is covered by a license." },
  { id: "ES02", name: "Unlicensed", description: "No license covers the installation." },
  {
    id: "ES03",
    name: "Under-licensed",
    description: "A license covers only part of the installation's requirement.",
  },
  {
    id: "ES04",
    name: "Covered by extended coverage",
    description: "Covered through a host, data center or disaster-recovery coverage.",
  },
  {
    id: "ES05",
    name: "Excluded",
    description: "Excluded from compliance (manual exclusion or outside the metric period).",
  },
  {
    id: "ES06",
    name: "Licensed <via upgrade & downgrade>",
    description: 'Covered by a license for another version or edition ("transfer" rights).',
  },
];

/** Extended coverage type names; `reason` of an extended coverage is one of them. */
export const EXTENDED_COVERAGE_TYPES: readonly string[] = [
  "Host",
  "Datacenter",
  "Disaster recovery",
  "Secondary use rights",
  "Other",
];

/** A license policy field. */
export interface PolicyFieldDecl {
  readonly name: string;
  readonly description: string;
  readonly isRequired: boolean;
  readonly isEditingAllowed: boolean;
  /** Combo box items, or empty for a free-text field. */
  readonly listItems: readonly string[];
}

/** A license policy with its fields. */
export interface PolicyDecl {
  readonly id: string;
  readonly fields: readonly PolicyFieldDecl[];
}

const PF = (
  name: string,
  description: string,
  isRequired: boolean,
  listItems: string[] = [],
  isEditingAllowed = true,
): PolicyFieldDecl => ({ name, description, isRequired, isEditingAllowed, listItems });

/**
 * License policies and their fields.
 *
 * @example
 * ```ts
 * import { POLICIES } from "./generator_catalogue.ts";
 * console.log(POLICIES[0].id); // "POL01"
 * ```
 */
export const POLICIES: readonly PolicyDecl[] = [
  {
    id: "POL01",
    fields: [
      PF("Cost center", "Cost center charged for the license", true),
      PF("Agreement type", "Contract vehicle of the purchase", true, [
        "Enterprise Agreement",
        "Select Plus",
        "CSP",
        "Retail",
        "OEM",
      ]),
      PF("License owner", "Person accountable for the license", false),
      PF("Renewal cycle", "How often the license renews", false, [
        "Monthly",
        "Annual",
        "Three-year",
      ]),
    ],
  },
  {
    id: "POL02",
    fields: [
      PF("Approval status", "Procurement approval state", true, [
        "Draft",
        "Approved",
        "Rejected",
      ], false),
      PF("Approver", "Who approved the purchase", false),
      PF("Business unit", "Unit that requested the license", true, [
        "Finance",
        "IT",
        "R&D <Labs>",
        'Sales "Field"',
      ]),
    ],
  },
  {
    id: "POL03",
    fields: [
      PF("Audit reference", "Reference of the last vendor audit", false),
      PF("Proof of entitlement", "Where the proof of entitlement is kept", true, [
        "Vendor portal",
        "Contract folder",
        "Invoice only",
      ]),
      PF("True-up due", "Month the next true-up is due", false),
    ],
  },
];

/** A cloud connector of the estate. */
export interface ConnectorDecl {
  readonly name: string;
  readonly requestType: "ProviderAStore" | "ProviderBBlob";
  readonly region: string;
  /** Status of its latest retrieval. */
  readonly status: "succeeded" | "failed" | "inProgress" | "notStarted";
  /** Months since it was created. */
  readonly ageMonths: number;
}

/** The provider name a connector of each request type reports as its `type`. */
export const CONNECTOR_PROVIDER_NAMES: Readonly<
  Record<ConnectorDecl["requestType"], string>
> = {
  ProviderAStore: "ProviderA",
  ProviderBBlob: "ProviderB",
};

/**
 * The cloud connectors of every non-empty estate.
 *
 * @example
 * ```ts
 * import { CONNECTORS } from "./generator_catalogue.ts";
 * console.log(CONNECTORS.some((c) => c.status === "inProgress")); // true
 * ```
 */
// deno-fmt-ignore
export const CONNECTORS: readonly ConnectorDecl[] = [
  { name: "Production billing", requestType: "ProviderAStore", region: "us-east-1", status: "succeeded", ageMonths: 20 },
  { name: "EMEA workloads", requestType: "ProviderAStore", region: "eu-central-1", status: "failed", ageMonths: 14 },
  { name: "Data platform", requestType: "ProviderAStore", region: "eu-west-2", status: "inProgress", ageMonths: 9 },
  { name: "Blob billing export", requestType: "ProviderBBlob", region: "westeurope", status: "succeeded", ageMonths: 16 },
  { name: "APAC subscriptions", requestType: "ProviderBBlob", region: "southeastasia", status: "failed", ageMonths: 7 },
  { name: "Sandbox", requestType: "ProviderBBlob", region: "eastus", status: "notStarted", ageMonths: 0 },
];

/**
 * A manufacturer's website (`Dell Inc.` → `https://www.dell.com`), for the real service's
 * `manufacturerWebsite` fields.
 *
 * @example
 * ```ts
 * import { manufacturerWebsite } from "./generator_catalogue.ts";
 * console.log(manufacturerWebsite("Microsoft Corporation")); // "https://www.microsoft.com"
 * ```
 */
export function manufacturerWebsite(manufacturer: string): string {
  const word = manufacturer.split(/[\s,]+/)[0]!.toLowerCase().replace(/[^a-z0-9]/g, "");
  return `https://www.${word}.com`;
}

/**
 * The license assignment types with the ids licenses carry as `assignmentTypeId`.
 *
 * @example
 * ```ts
 * import { ASSIGNMENT_TYPES } from "./generator_catalogue.ts";
 * console.log(ASSIGNMENT_TYPES.find((t) => t.name === "Computer")?.id); // "AST02"
 * ```
 */
export const ASSIGNMENT_TYPES: readonly { readonly id: string; readonly name: string }[] = [
  "Organization",
  "Computer",
  "User",
  "Site",
  "Datacenter",
].map((name, k) => ({ id: `AST0${k + 1}`, name }));

/**
 * The product family ids of the registry (`familyId`): one per distinct `family`, in order of
 * first appearance (`FAM001` is the first product's family).
 *
 * @example
 * ```ts
 * import { FAMILY_IDS } from "./generator_catalogue.ts";
 * console.log(FAMILY_IDS.get("Windows")); // "FAM001"
 * ```
 */
export const FAMILY_IDS: ReadonlyMap<string, string> = new Map(
  [...new Set(APPS.map((a) => a.family))].map((
    f,
    k,
  ) => [f, `FAM${String(k + 1).padStart(3, "0")}`]),
);

const PLATFORM_OF_PROFILE: Readonly<Record<Profile, string>> = {
  [Profile.Win]: "Windows",
  [Profile.Mac]: "MacOSX",
  [Profile.WinServer]: "Windows",
  [Profile.Linux]: "Linux",
  [Profile.Aix]: "Aix",
  [Profile.Host]: "Windows",
};

/** The real service's platform of a product (its enum spells VMware `WMware`). */
function platformOf(decl: AppDecl): string {
  if (decl.os !== undefined) {
    const os = decl.os;
    return os.includes("Windows")
      ? "Windows"
      : os.startsWith("macOS")
      ? "MacOSX"
      : os.startsWith("AIX")
      ? "Aix"
      : os.includes("ESXi")
      ? "WMware"
      : "Linux";
  }
  const platforms = new Set<string>();
  for (const g of GROUPS) {
    if (!g.members.some(([key]) => key === decl.key)) continue;
    for (const p of Object.keys(g.presence)) {
      platforms.add(PLATFORM_OF_PROFILE[Number(p) as Profile]);
    }
  }
  return platforms.size > 1 ? "CrossPlatform" : [...platforms][0] ?? "Windows";
}

/** Vendors whose products have mainstream support ending before extended support. */
const EXTENDED_SUPPORT_VENDORS = new Set([MS, ORACLE, RH, IBM]);
const YEAR_MS = 365 * 86_400_000;

/**
 * The real-only fields of a registry product, coherent with its spec fields: end of extended
 * support is its end of life; mainstream support of vendors that sell extended support ends five
 * years after release (never after the end of life); flags follow the dates and `now`;
 * `isNoLicenseRequired` is true for products no license family covers.
 *
 * @example
 * ```ts
 * import { APPS, registryRealFields } from "./generator_catalogue.ts";
 * const ws2016 = APPS.find((a) => a.key === "ws2016-std")!;
 * const row = registryRealFields(ws2016, {
 *   releaseMs: Date.parse("2016-10-15T00:00:00Z"),
 *   components: 0,
 *   now: Date.parse("2026-11-01T00:00:00Z"),
 * });
 * console.log(row.isEndOfSupport, row.isEndOfExtendedSupport, row.platform); // true false "Windows"
 * ```
 */
export function registryRealFields(
  decl: AppDecl,
  at: { readonly releaseMs: number; readonly components: number; readonly now: number },
): Record<string, string | number | boolean | null> {
  const eol = decl.eol === null ? null : Date.parse(`${decl.eol}T00:00:00.000Z`);
  const mainstream = eol === null || !EXTENDED_SUPPORT_VENDORS.has(decl.manufacturer)
    ? eol
    : Math.min(eol, at.releaseMs + 5 * YEAR_MS);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const version = Number.parseFloat(decl.version);
  return {
    familyId: FAMILY_IDS.get(decl.family) ?? null,
    platform: platformOf(decl),
    description: `${decl.family}, ${decl.edition} edition`,
    manufacturerWebsite: manufacturerWebsite(decl.manufacturer),
    language: "English",
    overridesApplicationId: null,
    editionIndex: (decl.rank ?? 1) * 100,
    versionIndex: Number.isFinite(version) ? Math.round(version * 100) : 0,
    isBundle: at.components > 0,
    isOs: decl.os !== undefined,
    isGroup: false,
    isHidden: false,
    isGloballyGeneratedApplication: false,
    isWebApplication: false,
    isNoLicenseRequired: decl.license === undefined,
    isReleaseDateNotAnnounced: false,
    endOfSupportDate: iso(mainstream),
    endOfExtendedSupportDate: iso(eol),
    isEndOfSupport: mainstream !== null && mainstream <= at.now,
    isEndOfExtendedSupport: eol !== null && eol <= at.now,
    isEndOfSupportDateNotAnnounced: eol === null,
    isEndOfExtendedSupportDateNotAnnounced: eol === null,
    isEndOfLifeDateNotAnnounced: eol === null,
    updatedDate: iso(Math.min(at.now, at.releaseMs + 7 * 86_400_000)),
  };
}
