/**
 * The rows of unused-software: applications with an unused install (most unused first); idle
 * installs per computer; reclaim per application × metric, in the metric's units against the
 * effective license position (`reclaimable.ts`), valued at the ELP's unit price; reclaimable
 * value per currency (never summed across currencies). Unknown figures are blank (`null`) with
 * a reason in `note`; a known zero is 0.
 *
 * @module
 */

import type { ElpPosition } from "../query/elp/elp.ts";
import { valueAt } from "../query/elp/pricing.ts";
import { groupByFields } from "../query/group_fields.ts";
import { type Computer, computersById, type RegistryApplication } from "../query/lookups.ts";
import { registryById } from "../query/lookups.ts";
import { count, sumMoney } from "../query/measures.ts";
import { organizationLabel, type OrganizationNames } from "../query/names.ts";
import { organizationNames } from "../query/names.ts";
import { asc, desc, sortBy } from "../query/sort.ts";
import type { AmountConverter, Row } from "../report/model.ts";
import { convertedKey } from "./reporting_currency.ts";
import type { IdleCounts } from "./idle_installs.ts";
import type { ListedInstall } from "./idle_list.ts";
import { applicationLabel, applicationName } from "./lookups.ts";
import { type IdleUnits, reclaimUnits } from "./reclaimable.ts";

/** What the rows are named with. */
export interface RowLookups {
  /** The registry by id. */
  readonly registry: ReadonlyMap<string, RegistryApplication>;
  /** The computers by id. */
  readonly computers: ReadonlyMap<string | null, Computer>;
  /** Organisation names by id. */
  readonly organizations: OrganizationNames;
}

/** What reading the lookups needs of the run. */
export type RowLookupsContext =
  & Parameters<typeof registryById>[0]
  & Parameters<typeof computersById>[0]
  & Parameters<typeof organizationNames>[0];

/**
 * The registry, computers and organisation names, each read once per run through the query
 * context, at once.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { rowLookups } from "./unused_rows.ts";
 * await withReferenceContext({ computers: 20 }, async (ctx) => {
 *   const { registry, computers, organizations } = await rowLookups(ctx);
 *   console.log(registry.size > 0, computers.size, organizations.size > 0); // true 20 true
 * });
 * ```
 */
export async function rowLookups(ctx: RowLookupsContext): Promise<RowLookups> {
  const [registry, computers, organizations] = await Promise.all([
    registryById(ctx),
    computersById(ctx),
    organizationNames(ctx),
  ]);
  return { registry, computers, organizations };
}

/** An application row: its counts, `unused` (not used recently) and names. */
export type ApplicationRow = IdleCounts & {
  readonly unused: number;
  readonly application: string;
  readonly version: string | null;
  readonly manufacturer: string | null;
};

/**
 * The applications with an install not used recently: most unused installs first, then most
 * harvest candidates, name, id.
 *
 * @example
 * ```ts
 * import { applicationRows } from "./unused_rows.ts";
 * const counts = [{ id: "A1", installations: 3, recent: 1, never: 0, candidates: 2 }];
 * const [row] = applicationRows(counts as never, { registry: new Map() });
 * console.log(row.unused, row.application); // 2 "(unknown application A1)"
 * ```
 */
export function applicationRows(
  counts: readonly IdleCounts[],
  { registry }: Pick<RowLookups, "registry">,
): ApplicationRow[] {
  const rows = counts.filter((c) => c.installations > c.recent).map((c) => ({
    ...c,
    unused: c.installations - c.recent,
    application: applicationName(c.id, registry.get(c.id)),
    version: registry.get(c.id)?.version ?? null,
    manufacturer: registry.get(c.id)?.manufacturer ?? null,
  }));
  return sortBy(rows, desc("unused"), desc("candidates"), asc("application"), asc("id"));
}

/**
 * The organisation label a computer's rows are grouped under (its organisation's name, or
 * `NO_ORGANIZATION`), as {@link installationRows} shows it.
 *
 * @example
 * ```ts
 * import { organizationOf } from "./unused_rows.ts";
 * const computers = new Map([["C1", { id: "C1", organizationId: "ORG1" }]]);
 * const of = organizationOf({ computers: computers as never, organizations: new Map([["ORG1", "Sales"]]) });
 * console.log(of("C1"), of("C2")); // "Sales" "(no organization)"
 * ```
 */
export function organizationOf(
  { computers, organizations }: Pick<RowLookups, "computers" | "organizations">,
): (computerId: string | null) => string {
  return (computerId) =>
    organizationLabel(organizations, computers.get(computerId)?.organizationId);
}

/**
 * One row per idle install: organisation, computer, application, dates, idle days, bucket,
 * license state and whether it is a harvest candidate, in the order the installs come.
 *
 * @example
 * ```ts
 * import { installationRows } from "./unused_rows.ts";
 * const installs = [{ computerId: "C1", applicationId: "A1", idleDays: null, bucketLabel: "Never used" }];
 * const lookups = { registry: new Map(), computers: new Map(), organizations: new Map() };
 * for await (const row of installationRows(installs as never, lookups)) console.log(row.computer); // "C1"
 * ```
 */
export async function* installationRows(
  installs: AsyncIterable<ListedInstall> | Iterable<ListedInstall>,
  lookups: RowLookups,
): AsyncGenerator<Row> {
  const { registry, computers } = lookups;
  const organization = organizationOf(lookups);
  for await (const i of installs) {
    const computer = computers.get(i.computerId);
    const app = registry.get(i.applicationId!);
    yield {
      organization: organization(i.computerId),
      computer: computer?.hostName ?? i.computerId,
      application: applicationName(i.applicationId!, app),
      version: app?.version ?? null,
      lastUsed: i.lastUsed,
      firstDiscovered: i.firstDiscovered,
      idleDays: i.idleDays,
      bucket: i.bucketLabel,
      licensed: i.licensed,
      candidate: i.candidate,
    };
  }
}

/** Why a reclaim figure is blank. */
export const NO_LICENSE = "No license";
/** See {@link NO_LICENSE}. */
export const UNPRICED = "Unpriced";

/** What harvesting one application's idle installs gives back in one metric. */
export type ReclaimRow = IdleUnits & {
  readonly application: string;
  readonly metric: string;
  /** `application (metric)`, for the chart. */
  readonly label: string;
  readonly entitlements: number;
  readonly requirement: number;
  readonly shortfall: number;
  /** Idle units that go to cover the shortfall first. */
  readonly shortfallFirst: number;
  /** Idle units beyond the shortfall; `null` without a license. */
  readonly reclaimable: number | null;
  readonly currency: string | null;
  /** The ELP's unit price, as printed (to the cent). */
  readonly unitPrice: number | null;
  /** Reclaimable units × the printed unit price; `null` when unpriced or without a license. */
  readonly reclaimValue: number | null;
  /** Why a figure is blank: {@link NO_LICENSE}, {@link UNPRICED}; else `null`. */
  readonly note: string | null;
};

/** Units × a printed unit price, in whole cents (units may be fractional with core factors). */
const costOf = (units: number, unitPrice: number) =>
  Math.round(units * Math.round(unitPrice * 100)) / 100;

/**
 * The reclaim per application × metric of the harvest candidates: units beyond the position's
 * shortfall, valued at the position's unit price (the ELP's, printed to the cent). Valued rows
 * first (by currency, largest value first), then most units to reclaim, name, metric.
 *
 * @example
 * ```ts
 * import { reclaimRows } from "./unused_rows.ts";
 * const price = { source: "paid", currency: "USD", unitCents: 5000, basisCents: 5000, basisUnits: 1 };
 * const position = { applicationId: "ORA", metricId: "CORES", metricName: "Processor cores",
 *   purchased: 16, receivedTotal: 0, entitlements: 16, requirement: 20, shortfall: 4, price };
 * const idle = [{ applicationId: "ORA", metricId: "CORES", installs: 2, units: 12 }];
 * const [row] = reclaimRows(idle, [position as never], new Map());
 * console.log(row.shortfallFirst, row.reclaimable, row.reclaimValue); // 4 8 400
 * ```
 */
export function reclaimRows(
  idle: readonly IdleUnits[],
  positions: readonly ElpPosition[],
  registry: ReadonlyMap<string, RegistryApplication>,
): ReclaimRow[] {
  const byKey = new Map(positions.map((p) => [`${p.applicationId}\u0000${p.metricId}`, p]));
  const rows = idle.map((line) => {
    const p = byKey.get(`${line.applicationId}\u0000${line.metricId}`);
    const application = applicationLabel(line.applicationId, registry.get(line.applicationId));
    const metric = p?.metricName ?? line.metricId;
    const held = p !== undefined && p.purchased + p.receivedTotal > 0;
    const { shortfallFirst, reclaimable } = reclaimUnits(line.units, p?.shortfall ?? line.units);
    const price = held ? p.price : undefined;
    const unitPrice = price ? valueAt(1, price) : null;
    return {
      ...line,
      application,
      metric,
      label: `${application} (${metric})`,
      entitlements: p?.entitlements ?? 0,
      requirement: p?.requirement ?? line.units,
      shortfall: p?.shortfall ?? line.units,
      shortfallFirst,
      reclaimable: held ? reclaimable : null,
      currency: price?.currency ?? null,
      unitPrice,
      reclaimValue: unitPrice === null ? null : costOf(reclaimable, unitPrice),
      note: !held ? NO_LICENSE : price ? null : UNPRICED,
    };
  });
  return sortBy(
    rows,
    asc((r) => !(r.reclaimValue! > 0)),
    asc((r) => r.reclaimValue! > 0 ? r.currency : null),
    desc((r) => r.reclaimValue ?? 0),
    desc((r) => r.reclaimable ?? -1),
    desc("units"),
    asc("application"),
    asc("metric"),
  );
}

/**
 * Per currency of the priced positions with harvest candidates, those with units to reclaim
 * and their value (summed in cents, within the currency; 0 where every one is short); positions
 * with units to reclaim but no price in one row without a currency, its value blank
 * ({@link UNPRICED}). Positions without a license are left out (nothing to reclaim). With a
 * reporting currency `fx`, each currency's converted value is the sum of its positions'
 * converted values (the rows converted once, by `withConverted`).
 *
 * @example
 * ```ts
 * import { reclaimValueRows } from "./unused_rows.ts";
 * const rows = [
 *   { currency: "EUR", reclaimable: 2, reclaimValue: 5 },
 *   { currency: "USD", reclaimable: 0, reclaimValue: 0 },
 *   { currency: null, reclaimable: 3, reclaimValue: null },
 * ];
 * console.log(reclaimValueRows(rows as never));
 * // [{ currency: "EUR", positions: 1, value: 5, note: null },
 * //  { currency: "USD", positions: 0, value: 0, note: null },
 * //  { currency: null, positions: 1, value: null, note: "Unpriced" }]
 * ```
 */
export function reclaimValueRows(rows: readonly ReclaimRow[], fx?: AmountConverter): Row[] {
  const known = rows.filter((r) => r.reclaimable !== null);
  const value = fx ? convertedKey("reclaimValue", fx.code) : "";
  const priced = sortBy(
    groupByFields(known.filter((r) => r.currency !== null), ["currency"], {
      positions: count((r: ReclaimRow) => r.reclaimable! > 0),
      value: sumMoney((r: ReclaimRow) => r.reclaimValue),
      // With a reporting currency: the positions' converted values, summed (never converted sums).
      ...(fx
        ? {
          [convertedKey("value", fx.code)]: sumMoney((r: ReclaimRow) =>
            (r as unknown as Row)[value] as number | null
          ),
        }
        : {}),
    }),
    asc("currency"),
  ).map((r) => ({ ...r, note: null }));
  const unpriced = known.filter((r) => r.currency === null && r.reclaimable! > 0).length;
  return unpriced === 0
    ? priced
    : [...priced, { currency: null, positions: unpriced, value: null, note: UNPRICED }];
}
