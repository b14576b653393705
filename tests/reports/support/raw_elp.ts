/**
 * Test support: the effective license position (ELP) computed independently of samkit, from the
 * reference server's raw JSON read with plain `fetch` (no samkit client, no `lib/query/elp`), by
 * the rules of the ELP contract: per application × metric, purchased + received − given =
 * entitlements against Σ metric-tracking requirement; priced at the average paid in the currency
 * of most units, else the registry list price, else a price file; reconciled with the installs'
 * entitlement states; compared with the service's compliance summary.
 *
 * @module
 */

import { cents, type Expected, LICENSES, rawAll, type RawApi, type RawItem } from "./raw_api.ts";
import { ESTATE, rawFlat, rawJson, REGISTRY } from "./raw_api.ts";

/**
 * Kinds of received transfers, in the order the flags are tested.
 *
 * @example
 * ```ts ignore
 * console.log(RAW_KINDS[0]); // "downgrade"
 * ```
 */
export const RAW_KINDS = [
  "downgrade",
  "upgrade",
  "crossEdition",
  "crossPlatform",
  "other",
] as const;

/** A price as the report shows it. */
export interface RawPrice {
  /** "Average price paid", "Registry list price" or "Price file". */
  readonly source: string;
  /** ISO 4217 code. */
  readonly currency: string;
  /** Cents for `units` units. */
  readonly cents: number;
  /** See {@link RawPrice.cents}. */
  readonly units: number;
}

/** One independently computed ELP line. */
export interface RawElpLine {
  readonly applicationId: string;
  readonly metricId: string;
  purchased: number;
  received: Record<typeof RAW_KINDS[number], number>;
  given: number;
  requirement: number;
  /** Installs per state group (from the service's entitlement states). */
  covered: number;
  uncovered: number;
  /** Paid lines per currency: units and cents. */
  paid: Map<string, { units: number; cents: number }>;
}

/** A price-file entry as the test writes it. */
export interface RawPriceEntry {
  readonly application: string;
  readonly metric: string;
  readonly currency: string;
  readonly unitPrice: number;
}

/** Options of {@link rawElp}. */
export interface RawElpOptions {
  /**
   * Only this organisation and its descendants: licenses allocated to them, their computers'
   * requirement and installs, transfers received by their holders and given from their
   * allocations.
   */
  readonly organization?: string;
  /** A registry filter (the server's filter syntax): only its applications. */
  readonly filter?: string;
  /** Prices of a price file. */
  readonly priceFile?: readonly RawPriceEntry[];
}

/** The independent ELP of an estate. */
export interface RawElp {
  /** Lines by `applicationId|metricId`. */
  readonly lines: Map<string, RawElpLine>;
  /** Registry applications by id (the filtered set when a filter is given). */
  readonly registry: Map<string, RawItem>;
  /** Registry metrics by `applicationId|metricId`. */
  readonly metrics: Map<string, RawItem>;
  /** Transfer details read (deduplicated, in scope). */
  readonly transfers: RawItem[];
  /** Metric-tracking rows in scope. */
  readonly tracking: RawItem[];
  /** Computers by id. */
  readonly computers: Map<string, RawItem>;
  /** Price-file prices matched, by `applicationId|metricId`. */
  readonly filePrices: Map<string, { currency: string; unitPrice: number }>;
}

const num = (v: unknown): number => {
  const n = v === null || v === undefined || v === "" ? 0 : Number(v);
  return Number.isFinite(n) ? n : 0;
};

/** A detail that may be one object or a collection (paged with `page_size`/`page_number`). */
async function rawObjectOrItems(api: RawApi, path: string): Promise<RawItem[]> {
  const { status, body } = await rawJson(api, `${path}?page_size=1000&page_number=1`);
  if (status === 404) return [];
  if (status !== 200) throw new Error(`${path} answered ${status}`);
  if (!Array.isArray(body.items)) return [body];
  return body.items.length < 1000 ? body.items : await rawAll(api, path);
}

function lineOf(lines: Map<string, RawElpLine>, app: unknown, metric: unknown) {
  if (!app || !metric) return undefined;
  const key = `${app}|${metric}`;
  let line = lines.get(key);
  if (!line) {
    const received = Object.fromEntries(RAW_KINDS.map((k) => [k, 0])) as RawElpLine["received"];
    line = {
      applicationId: String(app),
      metricId: String(metric),
      purchased: 0,
      received,
      given: 0,
      requirement: 0,
      covered: 0,
      uncovered: 0,
      paid: new Map(),
    };
    lines.set(key, line);
  }
  return line;
}

/**
 * The kind of a transfer detail: its first flag that holds.
 *
 * @example
 * ```ts ignore
 * console.log(rawKind({ isUpgrade: true, isCrossEdition: true })); // "upgrade"
 * ```
 */
export function rawKind(t: RawItem): typeof RAW_KINDS[number] {
  if (t.isDowngrade === true) return "downgrade";
  if (t.isUpgrade === true) return "upgrade";
  if (t.isCrossEdition === true) return "crossEdition";
  if (t.isCrossPlatform === true) return "crossPlatform";
  return "other";
}

/**
 * Every transfer detail into the given applications (computer and user), deduplicated by id.
 *
 * @example
 * ```ts ignore
 * const transfers = await rawTransfers(api, ["APP0011"]);
 * ```
 */
export async function rawTransfers(api: RawApi, apps: Iterable<string>): Promise<RawItem[]> {
  const out = new Map<string, RawItem>();
  for (const app of apps) {
    const base = `${LICENSES}/licenses/transfers/${app}`;
    for (const [kind, holder] of [["computers", "computerId"], ["users", "userId"]]) {
      const list = await rawAll(api, `${base}/${kind}`);
      const holders = new Set(list.map((t) => t[holder]).filter(Boolean));
      for (const h of holders) {
        for (const t of await rawObjectOrItems(api, `${base}/${kind}/${h}`)) {
          out.set(t.id ?? `${holder}:${h}|${t.licenseId}|${t.fromApplicationId}`, t);
        }
      }
    }
  }
  return [...out.values()];
}

function addLicense(line: RawElpLine, l: RawItem, counts: boolean): void {
  const q = num(l.quantity);
  if (counts) line.purchased += q;
  const currency = typeof l.purchaseCurrency === "string" ? l.purchaseCurrency.trim() : "";
  if (!currency || l.purchaseValue === null || l.purchaseValue === undefined || !(q > 0)) return;
  const paid = line.paid.get(currency) ?? { units: 0, cents: 0 };
  paid.units += q;
  paid.cents += cents(Number(l.purchaseValue));
  line.paid.set(currency, paid);
}

async function readRaw(api: RawApi, filter?: string) {
  const [licenses, tracking, computers, registry, installs, states] = await Promise.all([
    rawAll(api, `${LICENSES}/licenses`),
    rawAll(api, `${ESTATE}/computers-metering`),
    rawAll(api, `${ESTATE}/computers`),
    rawAll(api, `${REGISTRY}/applications`, filter),
    rawAll(api, `${LICENSES}/licenses/entitlements/computers`),
    rawFlat(api, `${LICENSES}/licenses/entitlements/entitlement-states`),
  ]);
  return { licenses, tracking, computers, registry, installs, states };
}

/**
 * Whether an entitlement state's name means the install is not (fully) covered.
 *
 * @example
 * ```ts ignore
 * console.log(rawUncovered("Under-licensed")); // true
 * ```
 */
export function rawUncovered(name: string): boolean {
  return /^(unlicensed|under-?licensed)\b/i.test(name.trim());
}

/**
 * Whether an entitlement state's name means the install is covered.
 *
 * @example
 * ```ts ignore
 * console.log(rawCovered("Covered by extended coverage")); // true
 * ```
 */
export function rawCovered(name: string): boolean {
  return /^(licensed|covered|extended coverage)/i.test(name.trim());
}

/**
 * The ELP of the estate behind `api`, computed from raw JSON.
 *
 * @example
 * ```ts ignore
 * const elp = await rawElp(api, { organization: "ORG06" });
 * console.log(elp.lines.get("APP0011|MET02")?.purchased);
 * ```
 */
export async function rawElp(api: RawApi, options: RawElpOptions = {}): Promise<RawElp> {
  const raw = await readRaw(api, options.filter);
  const registry = new Map(raw.registry.map((a) => [String(a.id), a]));
  const keep = (id: unknown) => !!id && (options.filter === undefined || registry.has(String(id)));
  const computers = new Map(raw.computers.map((c) => [String(c.id), c]));
  const orgs = options.organization === undefined
    ? undefined
    : await rawSubtree(api, options.organization);
  const mine = (computerId: unknown) =>
    orgs === undefined || orgs.has(String(computers.get(String(computerId))?.organizationId));
  const apps = [
    ...new Set([...raw.licenses, ...raw.tracking].map((x) => x.applicationId).filter(keep)),
  ];
  const all = (await rawTransfers(api, apps)).filter((t) =>
    keep(t.toApplicationId) || keep(t.fromApplicationId)
  );
  const tracking = raw.tracking.filter((r) => keep(r.applicationId) && mine(r.computerId));
  const lines = new Map<string, RawElpLine>();
  for (const l of raw.licenses) {
    if (!keep(l.applicationId)) continue;
    const line = lineOf(lines, l.applicationId, l.metricId);
    if (line) addLicense(line, l, orgs === undefined);
  }
  let transfers = all;
  if (orgs === undefined) {
    for (const t of all) {
      const into = keep(t.toApplicationId) ? lineOf(lines, t.toApplicationId, t.metricId) : null;
      if (into) into.received[rawKind(t)] += num(t.quantity);
      const from = keep(t.fromApplicationId)
        ? lineOf(lines, t.fromApplicationId, t.metricId)
        : null;
      if (from) from.given += num(t.quantity);
    }
  } else {
    transfers = await rawScopedCoverage(api, { lines, orgs, licenses: raw.licenses, all, keep });
  }
  for (const r of tracking) {
    const line = lineOf(lines, r.applicationId, r.metricId);
    if (line) line.requirement += num(r.requirement);
  }
  countStates(lines, raw.installs.filter((i) => mine(i.computerId)), raw.states);
  const metrics = await rawRegistryMetrics(api, apps);
  const filePrices = matchFile(options.priceFile ?? [], lines, registry, metrics);
  if (orgs !== undefined) dropEmpty(lines, tracking);
  return { lines, registry, metrics, transfers, tracking, computers, filePrices };
}

/** Lines a scope has nothing of (bought elsewhere only: a price, no units) are not positions. */
function dropEmpty(lines: Map<string, RawElpLine>, tracking: RawItem[]): void {
  const tracked = new Set(tracking.map((r) => `${r.applicationId}|${r.metricId}`));
  for (const [key, l] of lines) {
    const moved = RAW_KINDS.some((k) => l.received[k] !== 0) || l.given !== 0;
    if (l.purchased === 0 && !moved && !tracked.has(key)) lines.delete(key);
  }
}

/** The organisation and its descendants, from the raw tree. */
export async function rawSubtree(api: RawApi, id: string): Promise<Set<string>> {
  const res = await fetch(`${api.url}/api/organizations/v1/tree`, {
    headers: { authorization: `Bearer ${api.token}` },
  });
  const nodes: RawItem[] = (await res.json()).nodes;
  const out = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const n of nodes) {
      if (out.has(n.parentId) && !out.has(n.id)) grew = out.add(n.id) !== undefined;
    }
  }
  return out;
}

/**
 * Purchased, received and given of an organisation scope: allocations (license entitlements by
 * organisation) in scope; transfers received by holders in scope; a transfer's units taken
 * from its licensed product's allocation in the holder's organisation first, then the
 * license's organisation, then the largest other allocations, given where taken.
 */
async function rawScopedCoverage(
  api: RawApi,
  scoped: {
    lines: Map<string, RawElpLine>;
    orgs: Set<string>;
    licenses: RawItem[];
    all: RawItem[];
    keep: (id: unknown) => boolean;
  },
): Promise<RawItem[]> {
  const { lines, orgs, licenses, all, keep } = scoped;
  const left = new Map<string, number>(); // app|metric|org → units
  for (const a of await rawAll(api, `${LICENSES}/licenses-entitlements`)) {
    const k = `${a.applicationId}|${a.metricId}|${a.organizationId}`;
    left.set(k, (left.get(k) ?? 0) + num(a.quantity));
    if (!keep(a.applicationId) || !orgs.has(a.organizationId)) continue;
    lineOf(lines, a.applicationId, a.metricId)!.purchased += num(a.quantity);
  }
  const ownerOf = new Map(licenses.map((l) => [l.id, l.organizationId]));
  const sorted = [...all].sort((a, b) => String(a.id).localeCompare(String(b.id), "en"));
  for (const t of sorted) {
    if (orgs.has(t.organizationId) && keep(t.toApplicationId)) {
      lineOf(lines, t.toApplicationId, t.metricId)!.received[rawKind(t)] += num(t.quantity);
    }
    const prefix = `${t.fromApplicationId}|${t.metricId}|`;
    const others = [...left].filter(([k]) => k.startsWith(prefix))
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([k]) => k.slice(prefix.length));
    let need = num(t.quantity), given = 0;
    for (const org of [t.organizationId, ownerOf.get(t.licenseId), ...others]) {
      const take = Math.min(need, left.get(prefix + org) ?? 0);
      if (take <= 0) continue;
      left.set(prefix + org, left.get(prefix + org)! - take);
      need -= take;
      if (orgs.has(org)) given += take;
    }
    if (need > 0 && orgs.has(ownerOf.get(t.licenseId))) given += need;
    if (given > 0 && keep(t.fromApplicationId)) {
      lineOf(lines, t.fromApplicationId, t.metricId)!.given += given;
    }
  }
  return all.filter((t) => orgs.has(t.organizationId));
}

function countStates(lines: Map<string, RawElpLine>, installs: RawItem[], states: RawItem[]) {
  const names = new Map(states.map((s) => [s.id, String(s.name ?? s.id)]));
  for (const i of installs) {
    const line = lines.get(`${i.applicationId}|${i.metricId}`);
    const name = names.get(i.entitlementStateId) ?? "";
    if (line && rawUncovered(name)) line.uncovered++;
    else if (line && rawCovered(name)) line.covered++;
  }
}

async function rawRegistryMetrics(api: RawApi, apps: Iterable<string>) {
  const out = new Map<string, RawItem>();
  for (const app of apps) {
    for (const m of await rawAll(api, `${REGISTRY}/applications/${app}/metrics`)) {
      out.set(`${app}|${m.id}`, m);
    }
  }
  return out;
}

/**
 * The label a report gives an application: "name version", the name, or the unknown text.
 *
 * @example
 * ```ts ignore
 * console.log(rawAppLabel(elp.registry, "APP0011"));
 * ```
 */
export function rawAppLabel(registry: Map<string, RawItem>, id: string): string {
  const app = registry.get(id);
  if (!app?.name) return `(unknown application ${id})`;
  return rawNameWithVersion(app.name as string, app.version as string | null | undefined);
}

/**
 * An application's name and version as reports label it: the version left out where the name
 * holds it as a word already ("Windows Server 2019 Standard" for version 2019).
 *
 * @example
 * ```ts ignore
 * console.log(rawNameWithVersion("Windows Server 2019 Standard", "2019"));
 * ```
 */
export function rawNameWithVersion(name: string, version: string | null | undefined): string {
  if (!version) return name;
  return ` ${name.toLowerCase()} `.includes(` ${version.toLowerCase()} `)
    ? name
    : `${name} ${version}`;
}

function matchFile(
  entries: readonly RawPriceEntry[],
  lines: Map<string, RawElpLine>,
  registry: Map<string, RawItem>,
  metrics: Map<string, RawItem>,
) {
  const out = new Map<string, { currency: string; unitPrice: number }>();
  for (const [key, line] of lines) {
    const app = registry.get(line.applicationId);
    const appNames = [line.applicationId, app?.name, rawAppLabel(registry, line.applicationId)];
    const metricNames = [line.metricId, metrics.get(key)?.name];
    const same = (names: unknown[], s: string) =>
      names.some((n) => typeof n === "string" && n.toLowerCase() === s.toLowerCase());
    const hit = entries.find((e) => same(appNames, e.application) && same(metricNames, e.metric));
    if (hit) out.set(key, { currency: hit.currency.toUpperCase(), unitPrice: hit.unitPrice });
  }
  return out;
}

/**
 * The price of a line: average paid in the currency of most units (ties: first code), else the
 * registry list price, else the price file, else null.
 *
 * @example
 * ```ts ignore
 * console.log(rawPrice(elp, "APP0011|MET02")?.source); // "Average price paid"
 * ```
 */
export function rawPrice(elp: RawElp, key: string): RawPrice | null {
  const line = elp.lines.get(key)!;
  const paid = [...line.paid].sort(([a, x], [b, y]) => y.units - x.units || (a < b ? -1 : 1))[0];
  if (paid) {
    return { source: "Average price paid", currency: paid[0], ...paid[1] };
  }
  const m = elp.metrics.get(key);
  const listCurrency = typeof m?.licenseCostCurrency === "string" ? m.licenseCostCurrency : "";
  if (listCurrency.trim() && num(m?.licenseCost) > 0) {
    return {
      source: "Registry list price",
      currency: listCurrency.trim(),
      cents: cents(num(m!.licenseCost)),
      units: 1,
    };
  }
  const file = elp.filePrices.get(key);
  if (file) {
    return {
      source: "Price file",
      currency: file.currency,
      cents: cents(file.unitPrice),
      units: 1,
    };
  }
  return null;
}

/**
 * The figures of a line: received in all, entitlements, position, shortfall, surplus.
 *
 * @example
 * ```ts ignore
 * console.log(rawFigures(elp.lines.get("APP0011|MET02")!).shortfall);
 * ```
 */
export function rawFigures(line: RawElpLine) {
  const received = RAW_KINDS.reduce((n, k) => n + line.received[k], 0);
  const entitlements = line.purchased + received - line.given;
  const position = entitlements - line.requirement;
  return {
    received,
    entitlements,
    position,
    shortfall: Math.max(0, -position),
    surplus: Math.max(0, position),
    compliance: line.requirement > 0 ? entitlements / line.requirement : null,
  };
}

/**
 * The value of `units` at a price: the printed unit price (whole cents) × units, in major units.
 *
 * @example
 * ```ts ignore
 * console.log(rawValue(3, { source: "Price file", currency: "EUR", cents: 10_000, units: 3 })); // 100
 * ```
 */
export function rawValue(units: number, price: RawPrice): number {
  return Math.round(units * rawUnitCents(price)) / 100;
}

/**
 * The unit price as printed, in whole cents (an average rounded half up).
 *
 * @example
 * ```ts ignore
 * console.log(rawUnitCents({ source: "Price file", currency: "EUR", cents: 10_000, units: 3 })); // 3333
 * ```
 */
export function rawUnitCents(price: RawPrice): number {
  return Math.round(price.cents / price.units);
}

/**
 * The row key the tests use for a line: `Application|Metric` as the report labels them.
 *
 * @example
 * ```ts ignore
 * console.log(rawRowKey(elp, "APP0011|MET02")); // "<application label>|Processor cores"
 * ```
 */
export function rawRowKey(elp: RawElp, key: string): string {
  const line = elp.lines.get(key)!;
  return `${rawAppLabel(elp.registry, line.applicationId)}|${rawMetricName(elp, key)}`;
}

/**
 * The metric name of a line from the raw registry (the test asserts the registry names all).
 *
 * @example
 * ```ts ignore
 * console.log(rawMetricName(elp, "APP0011|MET02")); // "Processor cores"
 * ```
 */
export function rawMetricName(elp: RawElp, key: string): string {
  const name = elp.metrics.get(key)?.name;
  if (typeof name !== "string" || !name.trim()) {
    throw new Error(`the registry names no metric for ${key}`);
  }
  return name.trim();
}

/**
 * The `positions` section's expected row of one line, by field (see POSITION_FIELDS).
 *
 * @example
 * ```ts ignore
 * console.log(rawPositionRow(elp, "APP0011|MET02").entitlements);
 * ```
 */
export function rawPositionRow(elp: RawElp, key: string): Record<string, Expected> {
  const line = elp.lines.get(key)!;
  const f = rawFigures(line);
  const price = rawPrice(elp, key);
  return {
    purchased: line.purchased,
    received: f.received,
    given: line.given,
    entitlements: f.entitlements,
    requirement: line.requirement,
    position: f.position,
    compliance: f.compliance,
    shortfall: f.shortfall,
    uncovered: line.uncovered,
    priceSource: price ? price.source : f.shortfall > 0 ? "Unpriced" : null,
    unitPrice: price ? rawUnitCents(price) / 100 : null,
    shortfallCost: price && f.shortfall > 0 ? rawValue(f.shortfall, price) : null,
    surplusValue: price && f.surplus > 0 ? rawValue(f.surplus, price) : null,
    currency: price?.currency ?? null,
  };
}

/**
 * Every expected `positions` row by `Application|Metric`.
 *
 * @example
 * ```ts ignore
 * const want = rawPositionRows(await rawElp(api));
 * ```
 */
export function rawPositionRows(elp: RawElp): Map<string, Record<string, Expected>> {
  const out = new Map<string, Record<string, Expected>>();
  for (const key of elp.lines.keys()) {
    const rowKey = rawRowKey(elp, key);
    if (out.has(rowKey)) throw new Error(`two lines are labelled ${rowKey}`);
    out.set(rowKey, rawPositionRow(elp, key));
  }
  return out;
}

/**
 * Why a line disagrees with the entitlement states, or null (shortfall ⇔ an uncovered install).
 *
 * @example
 * ```ts ignore
 * console.log(rawDisagrees(elp.lines.get("APP0011|MET02")!));
 * ```
 */
export function rawDisagrees(line: RawElpLine): boolean {
  const { shortfall } = rawFigures(line);
  return (shortfall > 0 && line.uncovered === 0) || (shortfall === 0 && line.uncovered > 0);
}

/**
 * The compliance-summary figures compared, as the report names them.
 *
 * @example
 * ```ts ignore
 * console.log(RAW_FIGURES.map(([figure]) => figure));
 * ```
 */
export const RAW_FIGURES = [
  ["Purchased", "licensesPurchased"],
  ["Entitlements", "totalCoverage"],
  ["Requirement", "licenseRequirement"],
  ["Position", "compliance"],
] as const;

/**
 * The differences between the independent ELP and the service's compliance summary, as
 * `Application|Metric|Figure` keys with samkit's and the service's values.
 *
 * @example
 * ```ts ignore
 * const differences = await rawDifferences(api, await rawElp(api));
 * ```
 */
export async function rawDifferences(
  api: RawApi,
  elp: RawElp,
): Promise<Map<string, Record<string, Expected>>> {
  const out = new Map<string, Record<string, Expected>>();
  const apps = new Set([...elp.lines.values()].map((l) => l.applicationId));
  for (const app of apps) {
    const rows = await rawSummary(api, app);
    if (!rows) continue;
    const service = new Map(rows.map((s) => [`${s.applicationId}|${s.metricId}`, s]));
    for (const [key, line] of elp.lines) {
      if (line.applicationId !== app) continue;
      const f = rawFigures(line);
      const mine = [line.purchased, f.entitlements, line.requirement, f.position];
      const s = service.get(key);
      RAW_FIGURES.forEach(([figure, field], i) => {
        const theirs = s ? num(s[field]) : null;
        if (theirs === null ? mine[i] === 0 : Math.abs(mine[i] - theirs) < 1e-9) return;
        out.set(`${rawRowKey(elp, key)}|${figure}`, { samkit: mine[i], service: theirs });
      });
    }
  }
  return out;
}

/** The service's compliance summary rows of an application, or null when it offers none. */
async function rawSummary(api: RawApi, app: string): Promise<RawItem[] | null> {
  try {
    return await rawAll(api, `${LICENSES}/compliance/summary/${app}`);
  } catch (error) {
    if (/answered (404|403|405|501)/.test((error as Error).message)) return null;
    throw error;
  }
}
