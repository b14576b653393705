/**
 * The rows of the license-position (ELP) report, from {@link ElpResult}: one per application ×
 * metric, per publisher × metric, per publisher × currency, per disagreement, per difference with
 * the service and per device requirement. Names, not ids, wherever a person reads.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { ClientSlice } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
import { effectiveLicensePosition, type ElpPosition, type ElpResult } from "../query/elp/elp.ts";
import { type ElpClient, readElpInputs } from "../query/elp/inputs.ts";
import {
  type EstatePosition,
  estatePositions,
  reconciliationReason,
} from "./reconciliation_reasons.ts";
import { organizationSubtree } from "../query/elp/org_scope.ts";
import { readPriceFile } from "../query/elp/price_file.ts";
import { printedUnitCents } from "../query/elp/pricing.ts";
import { registryById } from "../query/lookups.ts";
import { isMissingRead } from "../query/names.ts";
import { organizationNames, organizationScope } from "../query/names.ts";
import { unknownOrganization } from "./organization_check.ts";
import type { AmountConverter, ReportContext, Row } from "../report/model.ts";
import { applicationLabel } from "./lookups.ts";
import { groupBy } from "../query/group_by.ts";
import { count, type Measure, sum, sumMoney } from "../query/measures.ts";
import { convertedSums, withConverted } from "./reporting_currency.ts";
import { asc, desc, sortBy } from "../query/sort.ts";

/** How the report names applications. */
export interface ElpNames {
  /** An application's label (name and version). */
  readonly label: (applicationId: string) => string;
  /** An application's publisher. */
  readonly publisher: (applicationId: string) => string | null;
}

/** Where a price came from, in words. */
export const PRICE_SOURCES = {
  paid: "Average price paid",
  list: "Registry list price",
  file: "Price file",
} as const;

/** The price-source label of an unpriced position. */
export const UNPRICED = "Unpriced";

/** The publisher label of applications the registry names no publisher for. */
export const NO_PUBLISHER = "(no publisher)";

/**
 * The note of a position whose requirement rests on missing hardware data, or null.
 *
 * @example
 * ```ts
 * import { understatedNote } from "./elp_rows.ts";
 * console.log(understatedNote(2)); // "Understated: 2 hosts without hardware data"
 * console.log(understatedNote(0)); // null
 * ```
 */
export function understatedNote(hosts: number): string | null {
  if (hosts <= 0) return null;
  return `Understated: ${hosts} host${hosts === 1 ? "" : "s"} without hardware data`;
}

function status(p: ElpPosition): string {
  if (p.requirement === 0 && p.entitlements === 0) return "Nothing required";
  return p.shortfall > 0 ? "Short" : p.surplus > 0 ? "Surplus" : "Balanced";
}

/**
 * One row per application × metric, publishers together, shortfalls first (largest first).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { positionRows, reportElp } from "./elp_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const [first] = positionRows(elp, names);
 *   console.log(first.publisher, first.application, first.status);
 * });
 * ```
 */
export function positionRows(
  elp: ElpResult,
  names: ElpNames,
  scoped?: { readonly estate: ReadonlyMap<string, EstatePosition>; readonly name: string },
): PositionRow[] {
  const onHosts = hostRequirements(elp, scoped !== undefined);
  const rows = elp.positions.map((p) => ({
    application: names.label(p.applicationId),
    applicationId: p.applicationId,
    publisher: names.publisher(p.applicationId) ?? NO_PUBLISHER,
    metric: p.metricNameSource === "id" ? `${p.metricName} (no name known)` : p.metricName,
    purchased: p.purchased,
    received: p.receivedTotal,
    downgrades: p.received.downgrade,
    given: p.given,
    entitlements: p.entitlements,
    requirement: p.requirement,
    position: p.position,
    compliance: p.compliance,
    shortfall: p.shortfall,
    coveredInstalls: p.states.covered,
    uncoveredInstalls: p.states.uncovered,
    status: status(p),
    priceSource: p.price ? PRICE_SOURCES[p.price.source] : p.shortfall > 0 ? UNPRICED : null,
    unitPrice: p.price ? printedUnitCents(p.price) / 100 : null,
    currency: p.price?.currency ?? null,
    shortfallCost: p.shortfallCost,
    surplusValue: p.surplusValue,
    unpricedShortfall: p.shortfall > 0 && !p.price,
    disagreement: p.disagreement,
    ...reasonOf(p, scoped, onHosts),
    understatedHosts: p.understatedHosts,
    understated: understatedNote(p.understatedHosts),
  }));
  return sortBy(rows, asc("publisher"), desc("shortfall"), asc("application"), asc("metric"));
}

/** The application × metric keys whose requirement in a scope rests on a physical host. */
function hostRequirements(elp: ElpResult, scoped: boolean): Set<string> {
  if (!scoped) return new Set();
  const short = new Set(
    elp.positions.filter((p) => p.shortfall > 0 && p.states.covered + p.states.uncovered === 0)
      .map((p) => `${p.applicationId}\u0000${p.metricId}`),
  );
  if (short.size === 0) return short;
  return new Set(
    elp.devices.filter((d) => (d.row.physicalHost ?? 0) > 0)
      .map((d) => `${d.row.applicationId}\u0000${d.row.metricId}`)
      .filter((key) => short.has(key)),
  );
}

/** A position's reason and, scoped, the estate's figures that explain it. */
function reasonOf(
  p: ElpPosition,
  scoped:
    | { readonly estate: ReadonlyMap<string, EstatePosition>; readonly name: string }
    | undefined,
  onHosts: ReadonlySet<string>,
): Pick<PositionRow, "reason" | "estatePosition" | "estateUncoveredInstalls"> {
  const key = `${p.applicationId}\u0000${p.metricId}`;
  const estate = scoped?.estate.get(key);
  const scope = scoped && { name: scoped.name, onHosts: onHosts.has(key) };
  return {
    reason: reconciliationReason(p, estate, scope),
    estatePosition: estate?.position ?? null,
    estateUncoveredInstalls: estate?.uncovered ?? null,
  };
}

/**
 * The position rows with their money converted to the reporting currency, each amount once
 * (unit price, shortfall cost, surplus value), so every sum of them adds up; as they are without
 * one.
 *
 * @example
 * ```ts
 * import { convertedPositionRows } from "./elp_rows.ts";
 * console.log(convertedPositionRows([], undefined)); // []
 * ```
 */
export function convertedPositionRows(
  rows: readonly PositionRow[],
  fx: AmountConverter | undefined,
): PositionRow[] {
  return withConverted(rows, fx, {
    amounts: ["unitPrice", "shortfallCost", "surplusValue"],
    currency: (r) => r.currency,
  });
}

/** A position row: one application × metric. */
export type PositionRow = {
  /** The application's label (name and version). */
  application: string;
  /** The application's id. */
  applicationId: string;
  /** Its publisher, or {@link NO_PUBLISHER}. */
  publisher: string;
  /** The metric's name (marked when only its id is known). */
  metric: string;
  /** Units purchased. */
  purchased: number;
  /** Units received from other licenses (upgrades, downgrades, allocations). */
  received: number;
  /** Units received by downgrade. */
  downgrades: number;
  /** Units given to other licenses. */
  given: number;
  /** Units entitled. */
  entitlements: number;
  /** Units required by the installs. */
  requirement: number;
  /** Entitlements less requirement. */
  position: number;
  /** Entitlements over requirement, or null when nothing is required. */
  compliance: number | null;
  /** Units short. */
  shortfall: number;
  /** Installs covered. */
  coveredInstalls: number;
  /** Installs not covered. */
  uncoveredInstalls: number;
  /** Short, Surplus, Balanced or Nothing required. */
  status: string;
  /** Where the unit price came from ({@link PRICE_SOURCES}), {@link UNPRICED}, or null. */
  priceSource: string | null;
  /** The unit price, or null. */
  unitPrice: number | null;
  /** The price's currency, or null. */
  currency: string | null;
  /** What the shortfall would cost, or null. */
  shortfallCost: number | null;
  /** What the surplus is worth, or null. */
  surplusValue: number | null;
  /** Short with no price known. */
  unpricedShortfall: boolean;
  /** Where samkit and the service disagree, in words, or null. */
  disagreement: string | null;
  /** Why they differ, checkable against the figures printed beside it, or null. */
  reason: string | null;
  /** Scoped to an organisation: the whole estate's position of the application and metric. */
  estatePosition: number | null;
  /** Scoped to an organisation: the whole estate's installs Unlicensed or Under-licensed. */
  estateUncoveredInstalls: number | null;
  /** Hosts counted without hardware data. */
  understatedHosts: number;
  /** The note of an understated requirement ({@link understatedNote}), or null. */
  understated: string | null;
};

/** Per publisher × metric: what {@link publisherRows} returns. */
export type PublisherPositionRow = {
  /** The publisher. */
  publisher: string;
  /** The metric. */
  metric: string;
  /** Applications of the publisher in the metric. */
  applications: number;
  /** How many of them are short. */
  short: number;
  /** Units required. */
  requirement: number;
  /** Units entitled. */
  entitlements: number;
  /** Units short: the sum of the short applications' shortfalls (not netted). */
  shortfall: number;
  /** Units in surplus: the sum of the other applications' surpluses (not netted). */
  surplus: number;
  /** Entitlements − requirement: surplus − shortfall. */
  position: number;
  /** Entitlements over requirement (net of surplus), or null when nothing is required. */
  compliance: number | null;
};

/**
 * Per publisher × metric: applications, how many are short, units entitled and required, their
 * net position, and the shortfall and surplus apart (units of one metric only, never added
 * across metrics). Every row obeys entitlements − requirement = position = surplus − shortfall:
 * one application's surplus does not cover another's shortfall, so a publisher entitled to more
 * than it requires in all (over 100%) may still have applications short.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { positionRows, publisherRows, reportElp } from "./elp_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const [first] = publisherRows(positionRows(elp, names));
 *   console.log(first.publisher, first.metric, first.shortfall);
 * });
 * ```
 */
export function publisherRows(rows: readonly PositionRow[]): PublisherPositionRow[] {
  const groups = groupBy(rows, (r) => ({ publisher: r.publisher, metric: r.metric }), {
    applications: count(),
    short: count((r) => r.shortfall > 0),
    requirement: sum((r) => r.requirement),
    entitlements: sum((r) => r.entitlements),
    shortfall: sum((r) => r.shortfall),
    surplus: sum((r) => Math.max(0, r.position)),
  });
  return sortBy(
    groups.map((g) => ({
      ...g,
      position: g.entitlements - g.requirement,
      compliance: g.requirement > 0 ? g.entitlements / g.requirement : null,
    })),
    desc("shortfall"),
    asc("publisher"),
    asc("metric"),
  );
}

/**
 * Per publisher and currency: what the shortfalls would cost and what the surpluses are worth,
 * largest cost first; one list per currency. With a reporting currency `fx`, the sums of the
 * positions' converted amounts ({@link convertedPositionRows}) beside them.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { exposureRows, positionRows, reportElp } from "./elp_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   for (const [currency, rows] of exposureRows(positionRows(elp, names))) {
 *     console.log(currency, rows.length);
 *   }
 * });
 * ```
 */
export function exposureRows(
  rows: readonly PositionRow[],
  fx?: AmountConverter,
): Map<string, ExposureRow[]> {
  const groups = groupBy(rows.filter((r) => r.currency), (r) => ({
    publisher: r.publisher,
    currency: r.currency!,
  }), {
    short: count((r) => r.shortfall > 0),
    shortfallCost: sumMoney((r) => r.shortfallCost),
    surplusValue: sumMoney((r) => r.surplusValue),
    // With a reporting currency: the positions' converted amounts, summed.
    ...convertedSums(fx, ["shortfallCost", "surplusValue"]) as Record<
      string,
      Measure<PositionRow, number | null>
    >,
  });
  const out = new Map<string, ExposureRow[]>();
  for (const g of sortBy(groups, asc("currency"), desc("shortfallCost"), asc("publisher"))) {
    if (g.shortfallCost === null && g.surplusValue === null) continue;
    out.set(g.currency, [...(out.get(g.currency) ?? []), g]);
  }
  return out;
}

/** A publisher's exposure in one currency. */
export type ExposureRow = {
  readonly publisher: string;
  readonly currency: string;
  readonly short: number;
  readonly shortfallCost: number | null;
  readonly surplusValue: number | null;
};

/**
 * The differences with the service's compliance summary, named.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { differenceRows, reportElp } from "./elp_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   console.log(differenceRows(elp, names).length); // figures where samkit and the service differ
 * });
 * ```
 */
export function differenceRows(elp: ElpResult, names: ElpNames): DifferenceRow[] {
  const metricOf = new Map(
    elp.positions.map((p) => [`${p.applicationId}\u0000${p.metricId}`, p.metricName]),
  );
  return elp.differences.map((d) => ({
    application: names.label(d.applicationId),
    metric: metricOf.get(`${d.applicationId}\u0000${d.metricId}`) ?? d.metricId,
    figure: d.figure,
    samkit: d.samkit,
    service: d.service,
    explanation: d.explanation,
  }));
}

/** A difference with the service's compliance summary: what {@link differenceRows} returns. */
export type DifferenceRow = {
  /** The application's label. */
  application: string;
  /** The metric's name (its id when no name is known). */
  metric: string;
  /** The figure that differs. */
  figure: string;
  /** samkit's value. */
  samkit: number | null;
  /** The service's value. */
  service: number | null;
  /** Why they may differ. */
  explanation: string;
};

function basis(row: Resource<"MetricTracking">, withoutHardware: ReadonlySet<string>): string {
  const on = (n: number | null) => (n ?? 0) > 0;
  if (
    withoutHardware.has(row.computerId ?? "") && on(row.requirement) &&
    (row.initialRequirement === 0 || on(row.unknownPhysicalHost))
  ) return "No hardware data: minimum counted (understated)";
  const extended = on(row.extendedCoverageForDcc) || on(row.extendedCoverageForHost);
  if (on(row.virtualMachine) && on(row.requirementMoved) && !extended) {
    return "Virtual machine: licensed on its host";
  }
  if (on(row.requirementMoved)) return "Covered by extended coverage";
  if (on(row.physicalHost)) return "Physical host: all its cores";
  if (on(row.minimumRequirement) && (row.requirement ?? 0) <= (row.minimumRequirement ?? 0)) {
    return "Minimum applies";
  }
  return "Installed";
}

/**
 * One row per device requirement: computer, host, application, metric, cores or units counted,
 * core factor, minimum, requirement, why, and the licenses covering it; by application, metric,
 * requirement (largest first) and computer. The devices are put in that order by small sort
 * keys, and each row is made only as it is read, so a large estate's rows flow to the spool.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { deviceRows, reportElp } from "./elp_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const [first] = deviceRows(elp, names);
 *   console.log(first.computer, first.application, first.requirement, first.basis);
 * });
 * ```
 */
export function* deviceRows(elp: ElpResult, names: ElpNames): Generator<Row> {
  const metricOf = new Map(
    elp.positions.map((p) => [`${p.applicationId}\u0000${p.metricId}`, p.metricName]),
  );
  const devices = elp.devices;
  const hosts = new Set(devices.map((d) => d.computer?.hostComputerId).filter((id) => id));
  const hostName = new Map<string | null | undefined, string | null | undefined>();
  for (const d of devices) {
    if (hosts.has(d.computer?.id)) hostName.set(d.computer?.id, d.computer?.hostName);
  }
  const keys = devices.map(({ row, computer }, at) => ({
    at,
    application: names.label(row.applicationId ?? ""),
    metric: metricOf.get(`${row.applicationId}\u0000${row.metricId}`) ?? row.metricId,
    requirement: row.requirement,
    computer: computer?.hostName ?? row.computerId,
  }));
  const order = sortBy(
    keys,
    asc("application"),
    asc("metric"),
    desc("requirement"),
    asc((k) => k.computer ?? ""),
  );
  for (const key of order) {
    const { row, computer, licenseIds } = devices[key.at];
    yield {
      computer: key.computer,
      host: computer?.hostComputerId
        ? hostName.get(computer.hostComputerId) ?? computer.hostComputerId
        : null,
      application: key.application,
      metric: key.metric,
      counted: row.initialRequirement,
      coreFactor: row.coreFactor,
      minimum: row.minimumRequirement,
      requirement: row.requirement,
      basis: basis(row, elp.withoutHardware),
      licenses: licenseIds.join(", ") || null,
    };
  }
}

/** The slice of the SAM client the license-position report reads. */
export type LicensePositionClient =
  & ElpClient
  & ClientSlice<{ registry: "applications" | "metrics"; organizations: "tree" }>;

/** What {@link reportElp} returns. */
export interface ReportElp {
  /** The effective license position. */
  readonly elp: ElpResult;
  /** How applications are named. */
  readonly names: ElpNames;
  /** The scope's title suffix. */
  readonly scope: string;
  /** The organisation statement of the cover, when scoped to one. */
  readonly organization: string | undefined;
  /**
   * Scoped to an organisation: the whole estate's position and uncovered installs per
   * application and metric (key `applicationId\u0000metricId`), which explain where the scope's
   * position and the service's entitlement states differ (`reconciliation_reasons.ts`).
   */
  readonly estate?: ReadonlyMap<string, EstatePosition>;
}

/**
 * The ELP of a report run: its parameters (`organization`, `priceFile`) and `--filter` (a
 * registry filter) applied, applications named from the registry, and the scope's title suffix.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { reportElp } from "./elp_rows.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, scope } = await reportElp(ctx);
 *   console.log(elp.positions.length > 0, JSON.stringify(scope)); // true ""
 * });
 * ```
 */
export async function reportElp(
  ctx: ReportContext<LicensePositionClient, QueryContext>,
): Promise<ReportElp> {
  const organization = ctx.params.organization as string | undefined;
  const priceFile = ctx.params.priceFile as string | undefined;
  const organizations = organization === undefined
    ? undefined
    : await organizationScopeOf(ctx, organization);
  const registry = await registryById(ctx, ctx.filter);
  const label = (id: string) => applicationLabel(id, registry.get(id));
  const names = { label, publisher: (id: string) => registry.get(id)?.manufacturer ?? null };
  const elp = await effectiveLicensePosition(ctx, {
    organization,
    organizations,
    application: ctx.filter ? (id) => registry.has(id) : undefined,
    applicationNames: (id) => [registry.get(id)?.name ?? "", label(id)],
    priceFile: priceFile ? await readPriceFile(priceFile) : [],
  });
  const orgNames = await organizationNames(ctx);
  const scope = organizationScope(orgNames, organization);
  const estate = organization === undefined ? undefined : await estateOf(ctx, registry);
  return {
    elp,
    names,
    scope,
    organization: organizationStatement(orgNames, organizations),
    ...(estate ? { estate } : {}),
  };
}

/** The estate's positions beside a scoped run (its reads are the run's, cached: no request). */
async function estateOf(
  ctx: ReportContext<LicensePositionClient, QueryContext>,
  registry: ReadonlyMap<string, unknown>,
): Promise<Map<string, EstatePosition>> {
  const application = ctx.filter ? (id: string) => registry.has(id) : undefined;
  const data = await readElpInputs(ctx, { application, summaries: false, coverage: false });
  return estatePositions(data, data);
}

/** The organisation and its descendants from the tree; a ParamError when the tree lacks it. */
async function organizationScopeOf(
  ctx: ReportContext<LicensePositionClient, QueryContext>,
  organization: string,
): Promise<Set<string>> {
  const nodes = await ctx.query.once("organizations.tree", async () => {
    try {
      return await ctx.client.organizations.tree().toArray();
    } catch (error) {
      if (isMissingRead(error)) return [];
      throw error;
    }
  });
  const subtree = organizationSubtree(nodes, organization);
  if (!subtree) {
    throw unknownOrganization(organization, nodes.flatMap((n) => n.id ? [n.id] : []));
  }
  return subtree;
}

/**
 * The cover's statement of an organisation scope: the organisation by name and id, and its
 * sub-organisations counted; undefined for the whole estate.
 *
 * @example
 * ```ts
 * import { organizationStatement } from "./elp_rows.ts";
 * const names = new Map([["ORG05", "Contoso EMEA"], ["ORG06", "Contoso EMEA / Finance"]]);
 * console.log(organizationStatement(names, new Set(["ORG05", "ORG06"])));
 * // "Contoso EMEA (ORG05) and 1 sub-organization"
 * ```
 */
export function organizationStatement(
  names: ReadonlyMap<string, string>,
  organizations: ReadonlySet<string> | undefined,
): string | undefined {
  if (!organizations) return undefined;
  const [id, ...below] = organizations;
  const name = names.get(id);
  const head = name === undefined ? id : `${name} (${id})`;
  const n = below.length;
  return n === 0 ? head : `${head} and ${n} sub-organization${n === 1 ? "" : "s"}`;
}
