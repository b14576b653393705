/**
 * What the renewals are read from, and what the service lets them see: the licenses (with the
 * run's filter), every maintenance and support period (`null` when the service does not serve
 * them, as the spec's service does not), and installations per application (to tell an expired
 * subscription still in use; `null` when the service refuses them).
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { EstateApi, LicensesApi } from "../api/client.ts";
import { eq } from "../api/filter_builder.ts";
import type { QueryContext } from "../query/context.ts";
import { isMissingRead } from "../query/names.ts";

/** The slice of the run the sources read. */
export interface RenewalSourcesContext {
  /** The SAM client. */
  readonly client: {
    readonly licenses: Pick<LicensesApi, "list" | "maintenancePeriods">;
    readonly estate: Pick<EstateApi, "applications">;
  };
  /** The run's query context. */
  readonly query: QueryContext;
  /** The run's filter on licenses. */
  readonly filter?: string;
  /** The run's clock. */
  readonly now: Date;
}

/** What the renewals read, and what the service showed. */
export interface RenewalSources {
  /** The licenses in scope. */
  readonly licenses: readonly Resource<"License">[];
  /** Every maintenance and support period, or null when the service does not serve them. */
  readonly periods: readonly Resource<"MaintenancePeriod">[] | null;
  /** Installations per application id, or null when the service refused to list them. */
  readonly installs: ReadonlyMap<string, number> | null;
  /** Whether any license carries a subscription term (the service sends the fields). */
  readonly subscriptionTermsSeen: boolean;
  /** Licenses marked as subscriptions without a readable term end. */
  readonly subscriptionsWithoutTerm: number;
}

const valid = (d: unknown): d is Date => d instanceof Date && !isNaN(d.getTime());

async function readPeriods(ctx: RenewalSourcesContext) {
  try {
    return await ctx.query.all(
      "licenses.maintenancePeriods",
      () => ctx.client.licenses.maintenancePeriods(),
    );
  } catch (error) {
    if (isMissingRead(error)) return null;
    throw error;
  }
}

async function installsPerApplication(ctx: RenewalSourcesContext) {
  const counts = new Map<string, number>();
  try {
    for await (const i of ctx.client.estate.applications({ filter: eq("isInstalled", true) })) {
      if (i.applicationId) counts.set(i.applicationId, (counts.get(i.applicationId) ?? 0) + 1);
    }
  } catch (error) {
    if (isMissingRead(error)) return null;
    throw error;
  }
  return counts;
}

/**
 * Reads what the renewals need (see the module doc).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { readRenewalSources } from "./renewal_sources.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const sources = await readRenewalSources(ctx);
 *   console.log(sources.periods === null ? "periods not served" : sources.periods.length);
 * });
 * ```
 */
export async function readRenewalSources(ctx: RenewalSourcesContext): Promise<RenewalSources> {
  const filter = ctx.filter;
  const [licenses, periods, installs] = await Promise.all([
    ctx.query.all(
      filter ? `licenses.list?filter=${filter}` : "licenses.list",
      () => ctx.client.licenses.list(filter ? { filter } : {}),
    ),
    readPeriods(ctx),
    installsPerApplication(ctx),
  ]);
  return {
    licenses,
    periods,
    installs,
    subscriptionTermsSeen: licenses.some((l) =>
      valid(l.subscriptionValidTo) || valid(l.subscriptionValidFrom)
    ),
    subscriptionsWithoutTerm:
      licenses.filter((l) => l.isSubscription === true && !valid(l.subscriptionValidTo)).length,
  };
}

/**
 * What the renewals cannot see on this service, one sentence each (empty when it sees all).
 *
 * @example
 * ```ts
 * import { renewalBlindSpots } from "./renewal_sources.ts";
 * console.log(renewalBlindSpots({
 *   periods: null, subscriptionTermsSeen: true, subscriptionsWithoutTerm: 0, installs: new Map(),
 * }));
 * // ["The service does not serve maintenance and support periods (GET /licenses/maintenance-periods): maintenance and support renewals cannot be seen."]
 * ```
 */
export function renewalBlindSpots(
  sources: Pick<
    RenewalSources,
    "periods" | "subscriptionTermsSeen" | "subscriptionsWithoutTerm" | "installs"
  >,
): string[] {
  const n = sources.subscriptionsWithoutTerm;
  return [
    sources.installs === null
      ? "Installations could not be read: subscriptions that ended are not listed, in use or not."
      : "",
    sources.periods === null
      ? "The service does not serve maintenance and support periods " +
        "(GET /licenses/maintenance-periods): maintenance and support renewals cannot be seen."
      : "",
    sources.subscriptionTermsSeen ? "" : "The service sends no subscription terms " +
      "(subscriptionValidFrom/subscriptionValidTo on licenses): subscription renewals and " +
      "expired subscriptions cannot be seen.",
    sources.subscriptionTermsSeen && n
      ? `${n} ${n === 1 ? "subscription has" : "subscriptions have"} no term end: not listed.`
      : "",
  ].filter(Boolean);
}
