/**
 * The rows of unused-software and what they are named and priced with: applications with an
 * unused install (largest reclaimable value first, per currency), priced at their average license
 * unit price (amount paid ÷ units, in the currency of most units bought), reclaimable counted
 * only for applications with a license; idle installs per computer; reclaimable value per
 * currency (never summed across currencies).
 *
 * @module
 */

import { groupByFields } from "../../lib/query/group_fields.ts";
import { type Computer, computersById, type RegistryApplication } from "../../lib/query/lookups.ts";
import { registryById } from "../../lib/query/lookups.ts";
import { count, sum, sumMoney } from "../../lib/query/measures.ts";
import { organizationLabel, type OrganizationNames } from "../../lib/query/names.ts";
import { organizationNames } from "../../lib/query/names.ts";
import { asc, desc, sortBy } from "../../lib/query/sort.ts";
import type { Row } from "../../lib/report/model.ts";
import type { IdleCounts, IdleInstall } from "./idle_installs.ts";
import { applicationLabel, applicationName, costAt, licensePrices } from "./lookups.ts";
import { type PriceLine, pricingLine, unitCents } from "./lookups.ts";

/** What the rows are named and priced with. */
export interface RowLookups {
  /** The registry by id. */
  readonly registry: ReadonlyMap<string, RegistryApplication>;
  /** The computers by id. */
  readonly computers: ReadonlyMap<string | null, Computer>;
  /** Organisation names by id. */
  readonly organizations: OrganizationNames;
  /** What was paid per application and currency (see `licensePrices`). */
  readonly prices: ReadonlyMap<string, ReadonlyMap<string, PriceLine>>;
  /** The applications with at least one license (priced or not). */
  readonly licensed: ReadonlySet<string>;
}

/** What reading the lookups needs of the run. */
export type RowLookupsContext =
  & Parameters<typeof registryById>[0]
  & Parameters<typeof computersById>[0]
  & Parameters<typeof organizationNames>[0]
  & Parameters<typeof licensePrices>[0];

/**
 * The registry, computers, organisation names, license prices and licensed applications, each
 * read once per run through the query context, at once.
 *
 * @example
 * ```ts ignore
 * import { rowLookups } from "./unused_rows.ts";
 * const { registry, prices } = await rowLookups(ctx);
 * ```
 */
export async function rowLookups(ctx: RowLookupsContext): Promise<RowLookups> {
  const [registry, computers, organizations, { prices, quantity }] = await Promise.all([
    registryById(ctx),
    computersById(ctx),
    organizationNames(ctx),
    licensePrices(ctx),
  ]);
  return { registry, computers, organizations, prices, licensed: new Set(quantity.keys()) };
}

/**
 * An application row: its counts, `unused` (not used recently), names and price; `reclaimable`
 * is `null` when the application has no license (nothing can be reclaimed).
 */
export type ApplicationRow = Omit<IdleCounts, "reclaimable"> & {
  readonly reclaimable: number | null;
  readonly unused: number;
  readonly application: string;
  readonly version: string | null;
  readonly manufacturer: string | null;
  readonly currency: string | null;
  readonly unitPrice: number | null;
  readonly reclaimValue: number | null;
};

/**
 * The applications with an install not used recently, with the average unit price of their
 * licenses (in the currency of most units bought) and the value of their reclaimable licenses at
 * that price (`reclaimable` and its value `null` without a license). Ordered by reclaimable
 * value: valued rows first, by currency, largest value first; then most unused installs, name, id.
 *
 * @example
 * ```ts
 * import { applicationRows } from "./unused_rows.ts";
 * const counts = [{ id: "A1", installations: 3, recent: 1, never: 0, reclaimable: 2 }];
 * const prices = new Map([["A1", new Map([["EUR", { currency: "EUR", licenses: 1, units: 4, cents: 1000 }]])]]);
 * const [row] = applicationRows(counts as never, { registry: new Map(), prices, licensed: new Set(["A1"]) });
 * console.log(row.unused, row.unitPrice, row.reclaimValue); // 2 2.5 5
 * ```
 */
export function applicationRows(
  counts: readonly IdleCounts[],
  lookups: Pick<RowLookups, "registry" | "prices" | "licensed">,
): ApplicationRow[] {
  return sortBy(
    counts.filter((c) => c.installations > c.recent).map((c) => applicationRow(c, lookups)),
    asc((r) => r.reclaimValue === null),
    asc((r) => r.reclaimValue === null ? null : r.currency),
    desc((r) => r.reclaimValue),
    desc((r) => r.unused),
    asc((r) => applicationLabel(r.id, lookups.registry.get(r.id))),
    asc((r) => r.id),
  );
}

/** One application's row: names, price and reclaimable licenses with their value. */
function applicationRow(
  c: IdleCounts,
  { registry, prices, licensed }: Pick<RowLookups, "registry" | "prices" | "licensed">,
): ApplicationRow {
  const line = pricingLine(prices.get(c.id));
  const reclaimable = licensed.has(c.id) ? c.reclaimable : null;
  return {
    ...c,
    unused: c.installations - c.recent,
    reclaimable,
    application: applicationName(c.id, registry.get(c.id)),
    version: registry.get(c.id)?.version ?? null,
    manufacturer: registry.get(c.id)?.manufacturer ?? null,
    currency: line?.currency ?? null,
    unitPrice: line ? Math.round(unitCents(line)) / 100 : null,
    reclaimValue: reclaimable && line ? costAt(reclaimable, line) : null,
  };
}

/**
 * One row per idle install: organisation, computer, application, dates, idle days, bucket and
 * license state, in the order the installs come.
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
  installs: AsyncIterable<IdleInstall> | Iterable<IdleInstall>,
  { registry, computers, organizations }: Pick<
    RowLookups,
    "registry" | "computers" | "organizations"
  >,
): AsyncGenerator<Row> {
  for await (const i of installs) {
    const computer = computers.get(i.computerId);
    yield {
      organization: organizationLabel(organizations, computer?.organizationId),
      computer: computer?.hostName ?? i.computerId,
      application: applicationName(i.applicationId!, registry.get(i.applicationId!)),
      version: registry.get(i.applicationId!)?.version ?? null,
      ...{ lastUsed: i.lastUsed, firstDiscovered: i.firstDiscovered, idleDays: i.idleDays },
      ...{ bucket: i.bucketLabel, licensed: i.licensed, reclaimable: i.reclaimable },
    };
  }
}

/**
 * Per currency (`null`: unpriced), the applications with reclaimable licenses, those licenses
 * and their value (summed in cents, within the currency).
 *
 * @example
 * ```ts
 * import { reclaimValueRows } from "./unused_rows.ts";
 * const apps = [{ currency: "EUR", reclaimable: 2, reclaimValue: 5 }, { currency: "EUR", reclaimable: 0, reclaimValue: null }];
 * console.log(reclaimValueRows(apps as never)); // [{ currency: "EUR", applications: 1, licenses: 2, value: 5 }]
 * ```
 */
export function reclaimValueRows(apps: readonly ApplicationRow[]): Row[] {
  return groupByFields(apps.filter((r) => (r.reclaimable ?? 0) > 0), ["currency"], {
    applications: count(),
    licenses: sum((r: ApplicationRow) => r.reclaimable ?? 0),
    value: sumMoney((r: ApplicationRow) => r.reclaimValue),
  });
}
