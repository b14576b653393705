/**
 * The effective license position of an estate, as one composable query: reads the inputs
 * (`inputs.ts`), computes the position per application × metric (`position.ts`), prices
 * shortfalls and surpluses (`pricing.ts`, `price_file.ts`), reconciles with the service's
 * entitlement states (`reconcile.ts`) and cross-checks with its compliance summary
 * (`cross_check.ts`) or, scoped to an organisation, with its compliance allocation to the
 * scope's organisations (`allocation_check.ts`). Usable from the library as well as by the
 * `license-position` report.
 *
 * Metric names come from the registry's metrics of each application, else from
 * `metric_names.json` (the reference server's metric ids; extend it for your tenant's ids), else
 * the id is shown with a note.
 *
 * Scoped to an organisation, the position is that organisation's and its descendants'
 * (`org_scope.ts`); prices stay the estate's, so a product costs the same in every scope. Each
 * position says how many of its requiring computers have no hardware data (`understated.ts`).
 *
 * @module
 */

import { entitlementAllocations } from "./entitlement_allocations.ts";
import type { Resource } from "../../api/catalogue.ts";
import type { QueryContext } from "../context.ts";
import { computersById } from "../lookups.ts";
import { allocationCheck } from "./allocation_check.ts";
import { readAllocations } from "./allocation_read.ts";
import { crossCheck, type CrossCheckDifference } from "./cross_check.ts";
import { type ElpClient, type ElpData, readElpInputs } from "./inputs.ts";
import { scopeElpInputs } from "./org_scope.ts";
import {
  computeElp,
  type ElpInputs,
  type ElpLicense,
  type ElpLine,
  type ElpTransfer,
} from "./position.ts";
import { computersWithoutHardware, understatedBy } from "./understated.ts";
import {
  choosePrice,
  paidPrices,
  priceKey,
  type PriceSources,
  type UnitPrice,
  valueAt,
} from "./pricing.ts";
import { matchPriceFile, type PriceFileEntry } from "./price_file.ts";
import { reconcile, type StateCounts } from "./reconcile.ts";
import METRIC_NAMES from "./metric_names.json" with { type: "json" };

/** One ELP line with its names, price, values and reconciliation. */
export interface ElpPosition extends ElpLine {
  /** The metric's name (registry, else the mapping file, else the id). */
  readonly metricName: string;
  /** Where the name came from; `id` when it is the bare id. */
  readonly metricNameSource: "registry" | "mapping" | "id";
  /** The unit price used for values, if any. */
  readonly price: UnitPrice | undefined;
  /** What the shortfall would cost (null: no shortfall or unpriced). */
  readonly shortfallCost: number | null;
  /** What the surplus is worth (null: no surplus or unpriced). */
  readonly surplusValue: number | null;
  /** Installs per state group as the service reports them. */
  readonly states: StateCounts;
  /** Why the ELP and the service's entitlement states disagree, or null. */
  readonly disagreement: string | null;
  /** Requiring computers without hardware data (their requirement is the minimum, understated). */
  readonly understatedHosts: number;
}

/** A metric-tracking row with a requirement, and what covers it. */
export interface ElpDeviceRequirement {
  /** The metric-tracking row. */
  readonly row: Resource<"MetricTracking">;
  /** The computer of the row, when known. */
  readonly computer: Resource<"Computer"> | undefined;
  /** License ids covering this computer's install (from license tracking). */
  readonly licenseIds: readonly string[];
}

/**
 * What the positions were computed from, line by line, so one position can be explained from the
 * very lines that made it (`lib/sam/explain_position.ts`): each figure of a position is the sum
 * of its lines here, by `computeElp`'s rules.
 */
export interface ElpBasis {
  /**
   * The license lines summed into `purchased`: the licenses, or for an organisation scope its
   * allocations (one line per organisation of the scope, with its `organizationId`).
   */
  readonly licenses: readonly (ElpLicense & { readonly organizationId?: string | null })[];
  /** The transfers summed into `received` and `given` (an organisation scope's share of each). */
  readonly transfers: readonly ElpTransfer[];
  /** The metric-tracking rows summed into `requirement` (the scope's computers', when scoped). */
  readonly requirements: readonly Resource<"MetricTracking">[];
  /** The entitlement state of each install as the service reports it (the scope's). */
  readonly installs: readonly Resource<"ComputerApplicationEntitlement">[];
  /** Entitlement state names by id. */
  readonly stateNames: ReadonlyMap<string, string>;
  /** The estate's licenses: what an average price paid is computed from. */
  readonly pricedLicenses: readonly Resource<"License">[];
  /** The sources positions were priced from (paid, registry list price, price file). */
  readonly prices: PriceSources;
}

/** What {@link effectiveLicensePosition} returns. */
export interface ElpResult {
  /** One position per application and metric. */
  readonly positions: ElpPosition[];
  /**
   * Differences with the service's compliance summary, or for an organisation's scope with its
   * compliance allocation to the scope's organisations.
   */
  readonly differences: CrossCheckDifference[];
  /** Applications the service offers no compliance summary (scoped: allocation) for. */
  readonly notOffered: string[];
  /** What the cross-check compared with: the estate's summary, or a scope's allocation. */
  readonly crossCheckedWith: "summary" | "allocation";
  /**
   * Rows of metric tracking with a requirement or whose requirement moved to a host: built when
   * first read (a report that shows no device, such as unused-software, never holds them).
   */
  readonly devices: ElpDeviceRequirement[];
  /** Price-file entries that matched no application and metric in use. */
  readonly unmatchedPrices: PriceFileEntry[];
  /** Computers whose requirement rests on missing hardware data (see `understated.ts`). */
  readonly withoutHardware: ReadonlySet<string>;
  /** The organisations the position covers (the organisation and its descendants), if scoped. */
  readonly organizations?: ReadonlySet<string>;
  /** The lines every position was summed from ({@link ElpBasis}). */
  readonly basis: ElpBasis;
}

/** Options of {@link effectiveLicensePosition}. */
export interface ElpOptions {
  /** Only this organisation's (and its descendants') allocations, computers and transfers. */
  readonly organization?: string;
  /**
   * The organisation ids of that scope: `organization` and its descendants
   * (`organizationSubtree`); default `organization` alone.
   */
  readonly organizations?: ReadonlySet<string>;
  /** Only applications for which this holds (a registry filter, say). */
  readonly application?: (applicationId: string) => boolean;
  /** Application names for price-file matching. */
  readonly applicationNames?: (applicationId: string) => readonly string[];
  /** Prices from a user's price file. */
  readonly priceFile?: readonly PriceFileEntry[];
  /**
   * Read license tracking for the licenses covering each device (default true). Without it,
   * `devices` carry no license ids: for a caller that needs the positions only.
   */
  readonly coverage?: boolean;
}

type Ctx = { readonly client: ElpClient; readonly query: QueryContext };

/** The license ids of a device no license tracking covers (one list for all). */
const NONE: readonly string[] = Object.freeze([]);

/**
 * The metric name of an application's metric and where it came from.
 *
 * @example
 * ```ts
 * import { metricName } from "./elp.ts";
 * console.log(metricName(new Map(), "APP1", "MET02")); // { name: "Processor cores", source: "mapping" }
 * ```
 */
export function metricName(
  metrics: ReadonlyMap<string, readonly Resource<"RegistryMetric">[]>,
  applicationId: string,
  metricId: string,
): { name: string; source: ElpPosition["metricNameSource"] } {
  const registry = metrics.get(applicationId)?.find((m) => m.id === metricId)?.name?.trim();
  if (registry) return { name: registry, source: "registry" };
  const mapped = (METRIC_NAMES as Record<string, string>)[metricId];
  return mapped ? { name: mapped, source: "mapping" } : { name: metricId, source: "id" };
}

/** The inputs of the position: the estate's, or those of an organisation scope. */
async function positionInputs(
  ctx: Ctx,
  data: ElpData,
  scope: ReadonlySet<string> | undefined,
  orgOf: (id: string | null | undefined) => string | null | undefined,
): Promise<{ inputs: ElpInputs; data: ElpData }> {
  if (scope === undefined) return { inputs: data, data };
  const mine = (computerId: string | null) => scope.has(orgOf(computerId) ?? "\u0000");
  const inputs = scopeElpInputs(
    {
      licenses: data.licenses,
      allocations: await entitlementAllocations(ctx),
      transfers: data.transfers.map((t) => ({
        ...t,
        organizationId: t.organizationId ?? ("computerId" in t ? orgOf(t.computerId) : null),
      })),
      requirements: data.requirements,
    },
    scope,
    orgOf,
  );
  return {
    inputs,
    data: {
      ...data,
      requirements: data.requirements.filter((r) => mine(r.computerId)),
      installs: data.installs.filter((i) => mine(i.computerId)),
    },
  };
}

function listPrices(data: ElpData): Map<string, { currency: string; unitPrice: number }> {
  const out = new Map<string, { currency: string; unitPrice: number }>();
  for (const [app, metrics] of data.metrics) {
    for (const m of metrics) {
      const currency = m.licenseCostCurrency?.trim();
      if (m.id && currency && typeof m.licenseCost === "number" && m.licenseCost > 0) {
        out.set(priceKey(app, m.id), { currency, unitPrice: m.licenseCost });
      }
    }
  }
  return out;
}

type ServiceCheck = Pick<ElpResult, "differences" | "notOffered" | "crossCheckedWith">;

/** The estate's lines beside the service's summary; a scope's beside its allocation. */
async function serviceCheck(
  ctx: Ctx,
  lines: readonly ElpLine[],
  data: ElpData,
  scope: ReadonlySet<string> | undefined,
): Promise<ServiceCheck> {
  const missing = <T>(read: Map<string, T[] | null>) =>
    [...read].filter(([, rows]) => rows === null).map(([app]) => app);
  const rows = <T>(read: Map<string, T[] | null>) => [...read.values()].flatMap((r) => r ?? []);
  if (scope === undefined) {
    const { summaries } = data;
    return {
      differences: crossCheck(lines, rows(summaries)),
      notOffered: missing(summaries),
      crossCheckedWith: "summary",
    };
  }
  const read = await readAllocations(ctx, lines.map((l) => l.applicationId));
  return {
    differences: allocationCheck(lines, rows(read), scope),
    notOffered: missing(read),
    crossCheckedWith: "allocation",
  };
}

/**
 * The effective license position per application × metric, priced, reconciled and
 * cross-checked.
 *
 * @example
 * ```ts ignore
 * import { effectiveLicensePosition } from "./elp.ts";
 * const { positions } = await effectiveLicensePosition(ctx);
 * for (const p of positions.filter((p) => p.shortfall > 0)) console.log(p.applicationId, p.shortfall);
 * ```
 */
export async function effectiveLicensePosition(
  ctx: Ctx,
  options: ElpOptions = {},
): Promise<ElpResult> {
  const scoped = options.organizations !== undefined || options.organization !== undefined;
  const estate = await readElpInputs(ctx, {
    application: options.application,
    summaries: !scoped,
    coverage: options.coverage,
  });
  const computers = await computersById(ctx);
  const scope = options.organizations ??
    (options.organization === undefined ? undefined : new Set([options.organization]));
  const orgOf = (id: string | null | undefined) => computers.get(id ?? "")?.organizationId;
  const { inputs, data } = await positionInputs(ctx, estate, scope, orgOf);
  const lines = computeElp(inputs).filter((l) => options.application?.(l.applicationId) ?? true);
  const withoutHardware = await computersWithoutHardware(ctx, data.requirements);
  const understated = understatedBy(data.requirements, withoutHardware);
  const names = (app: string, metric: string) => metricName(data.metrics, app, metric);
  const { prices: file, unmatched } = matchPriceFile(
    options.priceFile ?? [],
    lines.map((l) => [l.applicationId, l.metricId] as const),
    {
      applications: lines.map((l) =>
        [l.applicationId, options.applicationNames?.(l.applicationId) ?? []] as const
      ),
      metricName: (a, m) => names(a, m).name,
    },
  );
  const sources = { paid: paidPrices(data.licenses), list: listPrices(data), file };
  const positions = reconcile(lines, data.installs, data.stateNames).map(
    ({ line, states, disagreement }) => {
      const price = choosePrice(line.applicationId, line.metricId, sources);
      const name = names(line.applicationId, line.metricId);
      return {
        ...line,
        metricName: name.name,
        metricNameSource: name.source,
        price,
        shortfallCost: price && line.shortfall > 0 ? valueAt(line.shortfall, price) : null,
        surplusValue: price && line.surplus > 0 ? valueAt(line.surplus, price) : null,
        states,
        disagreement,
        understatedHosts: understated.get(`${line.applicationId}\u0000${line.metricId}`)?.size ?? 0,
      };
    },
  );
  const devices = () =>
    data.requirements
      .filter((r) => (r.requirement ?? 0) > 0 || (r.requirementMoved ?? 0) > 0)
      .map((row) => ({
        row,
        computer: computers.get(row.computerId),
        licenseIds: data.coveredBy.get(`${row.computerId}\u0000${row.applicationId}`) ?? NONE,
      }));
  let built: ElpDeviceRequirement[] | undefined;
  return {
    positions,
    ...await serviceCheck(ctx, lines, data, scope),
    get devices() {
      return built ??= devices();
    },
    unmatchedPrices: unmatched,
    withoutHardware,
    ...(scope ? { organizations: scope } : {}),
    basis: {
      licenses: [...inputs.licenses],
      transfers: [...inputs.transfers],
      requirements: data.requirements,
      installs: data.installs,
      stateNames: data.stateNames,
      pricedLicenses: data.licenses,
      prices: sources,
    },
  };
}
