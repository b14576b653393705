/**
 * Shared state of one estate generation: the sink wrapper that counts rows, the resolved software
 * registry, id formats, date helpers and the running aggregates that summary tables are built
 * from once every computer has been produced.
 *
 * @module
 */

import {
  type AppDecl,
  APPS,
  LICENSE_FAMILIES,
  type LicenseFamilyDecl,
  ORGANIZATIONS,
} from "./generator_catalogue.ts";
import type { Plan } from "./generator_plan.ts";
import { hashSeed, Random } from "./random.ts";

/** A row handed to the sink: storage column → value. */
export type Row = Record<string, unknown>;

/** Receives every generated row with the storage table it belongs to. */
export type RowSink = (table: string, row: Record<string, unknown>) => void;

/** One millisecond-based unit. */
export const MINUTE = 60_000;
/** One hour in milliseconds. */
export const HOUR = 3_600_000;
/** One day in milliseconds. */
export const DAY = 86_400_000;

/** `00` … `99`. */
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0"));
/** `000` … `999`. */
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));
/** The first instant of year 10000: later dates take six year digits and a sign. */
const YEAR_10000 = 253_402_300_800_000;
/** `YYYY-MM-DDT` of each day number (days since 1970) formatted so far. */
const DAY_PREFIXES = new Map<number, string>();
/** Day prefixes kept at most (an estate spans a few decades: about 10,000 days). */
const DAY_PREFIXES_KEPT = 100_000;

/**
 * A date in storage form (`toISOString`), or null. Byte for byte `new Date(ms).toISOString()`:
 * the day part is formatted once per day and kept, the time of day from lookup tables (a few
 * times faster; an estate formats tens of millions of dates).
 *
 * @example
 * ```ts
 * import { iso } from "./generator_context.ts";
 * console.log(iso(Date.UTC(2025, 5, 30, 12, 3, 4, 5))); // "2025-06-30T12:03:04.005Z"
 * ```
 */
export function iso(ms: number | null): string | null {
  if (ms === null) return null;
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000) return new Date(ms).toISOString();
  const dayNumber = Math.floor(ms / DAY);
  let prefix = DAY_PREFIXES.get(dayNumber);
  if (prefix === undefined) {
    if (DAY_PREFIXES.size >= DAY_PREFIXES_KEPT) DAY_PREFIXES.clear();
    prefix = new Date(dayNumber * DAY).toISOString().slice(0, 11);
    DAY_PREFIXES.set(dayNumber, prefix);
  }
  let rest = ms - dayNumber * DAY;
  const hours = Math.floor(rest / HOUR);
  rest -= hours * HOUR;
  const minutes = Math.floor(rest / MINUTE);
  rest -= minutes * MINUTE;
  const seconds = Math.floor(rest / 1000);
  return `${prefix}${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[rest - seconds * 1000]}Z`;
}

/** Zero-padded decimal. */
export const pad = (value: number, width: number): string => String(value).padStart(width, "0");

/** Computer id of an index: `C000001` for index 0. */
export const computerId = (i: number): string => `C${pad(i + 1, 6)}`;
/** User id of a user index: `U00001` for index 0. */
export const userId = (u: number): string => `U${pad(u + 1, 5)}`;
/** Organisation id of an organisation index. */
export const orgId = (o: number): string => ORGANIZATIONS[o].id;
/** Contract id of a contract index: `AGR0001` for index 0. */
export const contractId = (c: number): string => `AGR${pad(c + 1, 4)}`;

/** Parse `YYYY-MM-DD` as UTC midnight. */
export const day = (text: string): number => Date.parse(`${text}T00:00:00.000Z`);

/** A registry product with what the generator derived from it. */
export interface AppInfo {
  readonly index: number;
  /** `APP0001` … */
  readonly id: string;
  readonly decl: AppDecl;
  /** License family index, or -1 for free software. */
  readonly family: number;
  readonly releaseMs: number;
  /** Edition rank (1 unless declared). */
  readonly rank: number;
  /** Component product indexes (bundle members). */
  readonly components: readonly number[];
  /** The product's installer GUID. */
  readonly packageGUID: string;
}

/** The registry products, resolved once. */
export const APP_INFOS: readonly AppInfo[] = (() => {
  const byKey = new Map(APPS.map((a, i) => [a.key, i]));
  const familyIndex = new Map(LICENSE_FAMILIES.map((f, i) => [f.key, i]));
  const r = new Random("package-guids");
  return APPS.map((decl, index) => {
    const family = decl.license === undefined ? -1 : familyIndex.get(decl.license) ?? -1;
    if (decl.license !== undefined && family < 0) {
      throw new Error(`Unknown license family ${decl.license}`);
    }
    return {
      index,
      id: `APP${pad(index + 1, 4)}`,
      decl,
      family,
      releaseMs: day(decl.release),
      rank: decl.rank ?? 1,
      components: (decl.components ?? []).map((k) => {
        const c = byKey.get(k);
        if (c === undefined) throw new Error(`Unknown component ${k}`);
        return c;
      }),
      packageGUID: `{${r.guid().toUpperCase()}}`,
    };
  });
})();

/** Product index by key. */
export const APP_INDEX: ReadonlyMap<string, number> = new Map(APPS.map((a, i) => [a.key, i]));

/** The product index of a key (throws for an unknown key). */
export function appOf(key: string): number {
  const i = APP_INDEX.get(key);
  if (i === undefined) throw new Error(`Unknown application key ${key}`);
  return i;
}

/** The license family declarations, by index. */
export const FAMILIES: readonly LicenseFamilyDecl[] = LICENSE_FAMILIES;

/** Whether a license for product `licensed` covers an install of product `installed`. */
export function canCover(licensed: number, installed: number): boolean {
  if (licensed === installed) return true;
  const a = APP_INFOS[licensed], b = APP_INFOS[installed];
  if (a.family !== b.family || a.family < 0) return false;
  if (!FAMILIES[a.family].downgrade) return false;
  return a.rank >= b.rank && a.releaseMs >= b.releaseMs;
}

/** How a license is assigned. */
export type AssignmentType = "Organization" | "Site" | "Computer" | "User" | "Datacenter";

/** A license as the generator tracks it while computers are produced. */
export interface LicenseInfo {
  readonly index: number;
  readonly id: string;
  /** Product index. */
  readonly app: number;
  /** Family index. */
  readonly family: number;
  /** Organisation index. */
  readonly org: number;
  readonly metric: string;
  readonly assignment: AssignmentType;
  /** Usable by ordinary coverage (datacenter licenses only cover their cluster). */
  readonly generic: boolean;
  /** Cluster index of a datacenter license, -1 otherwise. */
  readonly cluster: number;
  readonly quantity: number;
}

/** Assignment flag bits of {@link LicenseBook.assigned}. */
export const ASSIGNED = { organization: 1, computer: 2, user: 4, site: 8 } as const;
/** Pair flag bits of {@link LicenseBook.transferPairs} and {@link LicenseBook.trackingPairs}. */
export const PAIR = { computer: 1, user: 2, custom: 4 } as const;

/** All licenses with their remaining coverage capacity and flags. */
export interface LicenseBook {
  readonly list: LicenseInfo[];
  /** Units still free to cover installs, per license. */
  readonly remaining: Float64Array;
  /** Generic licenses per family index. */
  readonly byFamily: number[][];
  /** Every license (generic and datacenter) per family index, in purchase order. */
  readonly allByFamily: number[][];
  /** `${hostOrdinal}|${appIndex}` → entitlement state of a host-based product's host row. */
  readonly hostStates: Map<string, string>;
  /**
   * Who already received a transfer into an application (`<app>|c:<computer>` or
   * `<app>|u:<user>`): the spec's transfer detail for an application and a computer (or user)
   * is one object, so each holder receives from at most one other application's license.
   */
  readonly transferHolders: Set<string>;
  /** Datacenter license per cluster index (-1 when none). */
  readonly clusterLicense: Int32Array;
  /** Assignment flags per license (see {@link ASSIGNED}). */
  readonly assigned: Uint8Array;
  /** `${appIndex}|${licenseIndex}` → transfer kinds (see {@link PAIR}). */
  readonly transferPairs: Map<string, number>;
  /** `${appIndex}|${licenseIndex}` → tracking kinds (see {@link PAIR}). */
  readonly trackingPairs: Map<string, number>;
}

/** Running totals that summary tables are built from. */
export interface Aggregates {
  /** Computers with a row for the product. */
  readonly appComputers: Int32Array;
  /** Rows with isInstalled true. */
  readonly appInstalls: Int32Array;
  /** Distinct end users with usage (each end user has one machine). */
  readonly appEndUsers: Int32Array;
  /** Distinct administrators with usage, per product. */
  readonly appAdmins: Set<number>[];
  /** `admin * APPS + app` → latest use (ms), for user_application_usage of administrators. */
  readonly adminUsage: Map<number, number>;
}

/** Sequential id counters. */
export interface Counters {
  computerTransfer: number;
  userTransfer: number;
  computerTracking: number;
  userTracking: number;
  computerAssignment: number;
  userAssignment: number;
  extendedCoverage: number;
}

/** Everything one generation shares. */
export interface Ctx {
  readonly seed: number;
  readonly now: number;
  readonly n: number;
  readonly emit: (table: string, row: Row) => void;
  readonly plan: Plan;
  readonly book: LicenseBook;
  readonly agg: Aggregates;
  readonly ids: Counters;
  /** Number of contracts (`AGR0001` …). */
  readonly contracts: number;
}

/** A deterministic random stream for a named part of the estate. */
export const streamFor = (seed: number, ...parts: (string | number)[]): Random =>
  new Random(hashSeed(seed, ...parts));
