/**
 * What the license cost summary lists and sums: the licenses in scope (organisation, purchase
 * range — its parameters —, the user's filter) as cost lines in listing order (vendor, application, purchase date,
 * license), their subtotals by fields, and the most expensive applications of one currency.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { LicensesApi } from "../api/client.ts";
import type { MeasureResults } from "../query/group_by.ts";
import { groupByFields } from "../query/group_fields.ts";
import { distinctNames } from "../fs/safe_name.ts";
import { registryById } from "../query/lookups.ts";
import { count, first, type Measure, sum, sumMoney } from "../query/measures.ts";
import { rank } from "../query/rank.ts";
import { asc, desc, orderBy, sortBy } from "../query/sort.ts";
import type { AmountConverter, CellValue, ParamSpec, Row } from "../report/model.ts";
import { convertedSums } from "./reporting_currency.ts";
import { convertedCostSubtotals } from "./license_cost_converted.ts";
import { dateParam, stringParam } from "../report/param_builders.ts";
import {
  type CostLine,
  costLine,
  type CostSubtotals,
  costSubtotals,
} from "./license_cost_lines.ts";
import { type LicenseCosts, licenseCosts, readLicenses } from "./license_list_costs.ts";
import { inPurchaseRange } from "./purchase_range.ts";
import { checkOrganization, type OrganizationCheckContext } from "./organization_check.ts";

/** Which licenses are in scope (every one when nothing is given). */
export interface CostScope {
  /** Only licenses of this organisation id. */
  readonly organization?: string;
  /** Only licenses purchased on or after this date. */
  readonly purchasedFrom?: Date;
  /** Only licenses purchased on or before this date (a date: that whole day). */
  readonly purchasedTo?: Date;
}

/**
 * The parameters that fill a {@link CostScope}.
 *
 * @example
 * ```ts
 * import { SCOPE_PARAMS } from "./license_cost_query.ts";
 * console.log(Object.keys(SCOPE_PARAMS)); // ["organization", "purchasedFrom", "purchasedTo"]
 * ```
 */
export const SCOPE_PARAMS: Readonly<Record<keyof CostScope, ParamSpec>> = {
  organization: stringParam("Organisation id: only licenses of this organisation"),
  purchasedFrom: dateParam("Only licenses purchased on or after this date (YYYY-MM-DD)"),
  purchasedTo: dateParam("Only licenses purchased on or before this date (inclusive, YYYY-MM-DD)"),
};

/** What reading the cost lines needs of the run. */
export type CostLinesContext =
  & Parameters<typeof readLicenses>[0]
  & Parameters<typeof registryById>[0]
  & { readonly client: { readonly licenses: Pick<LicensesApi, "get" | "costsSummary"> } }
  & OrganizationCheckContext
  & Omit<Parameters<typeof licenseCosts>[0], "client">;

/** The licenses in a scope with their costs (see `license_list_costs.ts`). */
export interface LicensesInScope {
  /** The licenses in scope (licenses without an id left out), in listing order. */
  readonly licenses: readonly Resource<"License">[];
  /** Each license's costs summary and vendor, by license id. */
  readonly costs: ReadonlyMap<string, LicenseCosts>;
}

/**
 * The licenses in `scope` (organisation, purchase range, the run's filter) and their costs; an
 * organisation the service's tree lacks is a ParamError ({@link checkOrganization}).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { licensesInScope } from "./license_cost_query.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { licenses, costs } = await licensesInScope(ctx, {});
 *   console.log(licenses.length > 0, costs.size > 0); // true true
 * });
 * ```
 */
export async function licensesInScope(
  ctx: CostLinesContext,
  { organization, purchasedFrom, purchasedTo }: CostScope,
): Promise<LicensesInScope> {
  await checkOrganization(ctx, organization);
  const all = await readLicenses(ctx);
  const licenses = all.filter((l) =>
    l.id && (organization === undefined || l.organizationId === organization) &&
    inPurchaseRange(l.purchaseDate, purchasedFrom, purchasedTo)
  );
  return { licenses, costs: await licenseCosts(ctx, licenses) };
}

/**
 * The cost lines of licenses in scope (see {@link licensesInScope}), by vendor, application,
 * purchase date and license id.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { costLinesOf, licensesInScope } from "./license_cost_query.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const lines = await costLinesOf(ctx, await licensesInScope(ctx, {}));
 *   console.log(lines[0]?.application, lines[0]?.costToDate);
 * });
 * ```
 */
export async function costLinesOf(
  ctx: CostLinesContext,
  { licenses, costs }: LicensesInScope,
): Promise<CostLine[]> {
  const registry = await registryById(ctx);
  return sortBy(
    licenses.map((l) => costLine(l, costs.get(l.id!)!, registry.get(l.applicationId ?? ""))),
    asc((l) => l.vendor),
    asc((l) => l.application),
    asc((l) => l.purchaseDate),
    asc((l) => l.licenseId),
  );
}

/**
 * The cost lines of the licenses in `scope` (licenses without an id left out), by vendor,
 * application, purchase date and license id.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { costLinesInScope } from "./license_cost_query.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const lines = await costLinesInScope(ctx, {});
 *   console.log(lines[0]?.vendor);
 * });
 * ```
 */
export async function costLinesInScope(
  ctx: CostLinesContext,
  scope: CostScope,
): Promise<CostLine[]> {
  return await costLinesOf(ctx, await licensesInScope(ctx, scope));
}

/** The measures of a subtotal: the publisher of the group's first line and the sums. */
export type SubtotalMeasures = CostSubtotals & {
  /** The publisher of the group's first line. */
  readonly publisher: Measure<CostLine, string | null>;
};

const subtotals = (): SubtotalMeasures => ({
  publisher: first((l: CostLine) => l.publisher),
  ...costSubtotals(),
});

/** A subtotal row: the key fields, the publisher (of the group's first line) and the sums. */
export type Subtotal<K extends keyof CostLine> =
  & Pick<CostLine, K>
  & MeasureResults<SubtotalMeasures>;

/**
 * The subtotals of `lines` by the fields `keys` (see `costSubtotals`), with the publisher of
 * each group's first line, sorted by the key fields; with a reporting currency `fx`, the sums of
 * the lines' converted figures beside them (lines from `convertedCostLines`).
 *
 * @example
 * ```ts
 * import { subtotalsBy } from "./license_cost_query.ts";
 * import { costLine } from "./license_cost_lines.ts";
 * const line = costLine({ id: "L1", quantity: 2, purchaseCurrency: "EUR" } as never, { summary: null, vendor: "Dell" }, undefined);
 * console.log(subtotalsBy([line], ["vendor", "currency"])[0].licenses); // 1
 * ```
 */
export function subtotalsBy<K extends keyof CostLine & string>(
  lines: readonly CostLine[],
  keys: readonly K[],
  fx?: AmountConverter,
): Subtotal<K>[] {
  const measures = { ...subtotals(), ...convertedCostSubtotals(fx) } as SubtotalMeasures;
  return groupByFields(lines, keys, measures) as Subtotal<K>[];
}

/**
 * The `top` applications of currency `code` by cost to date (then by name), ranked from 1;
 * applications without a cost to date are not ranked.
 *
 * @example
 * ```ts
 * import { topApplications } from "./license_cost_query.ts";
 * const apps = [{ application: "A", currency: "EUR", costToDate: 5 }, { application: "B", currency: "EUR", costToDate: 9 }];
 * console.log(topApplications(apps, "EUR", 1)); // [{ rank: 1, application: "B", currency: "EUR", costToDate: 9 }]
 * ```
 */
export function topApplications<
  T extends { application: string; currency: string; costToDate: number | null },
>(apps: readonly T[], code: string | undefined, top: number): ({ rank: number } & T)[] {
  return rank(
    apps.filter((r) => r.currency === code && r.costToDate !== null),
    orderBy(desc((r) => r.costToDate), asc((r) => r.application)),
    { top },
  );
}

/**
 * The id of the ranking section of currency `code` (`top-applications` without one), distinct
 * from the id of every other code among `codes` (the report's currencies), case included: the
 * code's part is made by `distinctNames`.
 *
 * @example
 * ```ts
 * import { topSectionId } from "./license_cost_query.ts";
 * console.log(topSectionId("EUR"), topSectionId()); // "top-applications-eur" "top-applications"
 * console.log(topSectionId("eur", ["EUR", "eur"]) !== topSectionId("EUR", ["EUR", "eur"])); // true
 * ```
 */
export function topSectionId(code?: string, codes: Iterable<string> = []): string {
  if (!code) return "top-applications";
  return `top-applications-${distinctNames([code, ...codes]).get(code)}`;
}

/** The publisher label of licenses whose application has no manufacturer in the registry. */
export const NO_PUBLISHER = "(no publisher)";

/**
 * Per publisher, the licenses of currency `code` with a cost to date: their count, quantity and
 * cost to date (summed to the cent; with a reporting currency `fx`, the lines' converted costs
 * summed too), largest total first (then by publisher).
 *
 * @example
 * ```ts
 * import { publisherRows } from "./license_cost_query.ts";
 * const lines = [
 *   { publisher: "Acme", currency: "EUR", costToDate: 5, quantity: 1 },
 *   { publisher: "Acme", currency: "USD", costToDate: 9, quantity: 1 },
 *   { publisher: null, currency: "EUR", costToDate: 7, quantity: 2 },
 * ];
 * console.log(publisherRows(lines as never, "EUR").map((r) => [r.publisher, r.costToDate]));
 * // [["(no publisher)", 7], ["Acme", 5]]
 * ```
 */
export function publisherRows(
  lines: readonly CostLine[],
  code: string | undefined,
  fx?: AmountConverter,
): Row[] {
  const priced = lines.filter((l) => l.currency === code && l.costed && l.costToDate !== null)
    .map((l) => ({ ...l, publisher: l.publisher?.trim() || NO_PUBLISHER }));
  const rows = groupByFields(priced, ["publisher", "currency"], {
    licenses: count(),
    quantity: sum((l: CostLine) => l.quantity),
    costToDate: sumMoney((l: CostLine) => l.costToDate),
    ...convertedSums(fx, ["costToDate"]),
  } as Record<string, Measure<CostLine, CellValue>>);
  return sortBy(rows, desc((r) => r.costToDate as number), asc((r) => r.publisher as string));
}
