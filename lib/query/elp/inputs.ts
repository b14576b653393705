/**
 * Reads what the ELP needs from the API, through the run's cache and fan-out (so a pack reads
 * each collection once): licenses, the metric tracking of all computers, every license transfer
 * into each application in use (computer and user transfers, with their details for quantities
 * and kinds), license tracking (which license covers which computer), the entitlement state of
 * every install, the registry's metrics (names, list prices) and, where the service offers it,
 * its own compliance summary per application.
 *
 * @module
 */

import type { Resource } from "../../api/catalogue.ts";
import type { ClientSlice } from "../../api/client.ts";
import type { Paged } from "../../api/paginate.ts";
import type { QueryContext } from "../context.ts";
import { toArray } from "../collect.ts";
import { applicationMetrics, isMissingRead } from "../names.ts";

/** The slice of the SAM client the ELP reads. */
export type ElpClient = ClientSlice<{
  licenses:
    | "list"
    | "computerTransfers"
    | "computerTransfer"
    | "userTransfers"
    | "userTransfer"
    | "computerTracking"
    | "computerEntitlements"
    | "entitlementStates"
    | "complianceSummary"
    | "complianceAllocation"
    | "entitlements";
  estate: "metrics" | "computers" | "hardware";
  registry: "metrics";
}>;

/** What {@link readElpInputs} returns. */
export interface ElpData {
  /** The license list (or a scope's allocations). */
  readonly licenses: Resource<"License">[];
  /** The metric-tracking rows. */
  readonly requirements: Resource<"MetricTracking">[];
  /** The transfer details of the applications in use. */
  readonly transfers: (Resource<"ComputerTransferDetail"> | Resource<"UserTransferDetail">)[];
  /** Computer → application → license ids covering it (from license tracking). */
  readonly coveredBy: Map<string, string[]>;
  /** Every install with its entitlement state. */
  readonly installs: Resource<"ComputerApplicationEntitlement">[];
  /** Entitlement state id → name. */
  readonly stateNames: Map<string, string>;
  /** The registry metrics of each application in use. */
  readonly metrics: Map<string, Resource<"RegistryMetric">[]>;
  /** The service's compliance summary rows per application (`null`: not offered). */
  readonly summaries: Map<string, Resource<"ComplianceSummary">[] | null>;
}

/** Options of {@link readElpInputs}. */
export interface ElpReadOptions {
  /** Only applications for which this holds (a registry filter, say). */
  readonly application?: (applicationId: string) => boolean;
  /**
   * Read the service's compliance summary per application (default true). An organisation's
   * position is cross-checked with the allocation instead, so a scoped run skips these reads.
   */
  readonly summaries?: boolean;
  /**
   * Read license tracking per application, for which licenses cover each computer (default
   * true). Without it `coveredBy` is empty: for a caller that needs the positions, not the
   * devices' evidence.
   */
  readonly coverage?: boolean;
}

type Ctx = { readonly client: ElpClient; readonly query: QueryContext };

/** A collection read whole, or `null` when the service does not offer it (404/403/405/501). */
async function optional<T>(load: () => Paged<T>): Promise<T[] | null> {
  try {
    return await toArray(load());
  } catch (error) {
    if (isMissingRead(error)) return null;
    throw error;
  }
}

/** One read per item through the run's fan-out, results by item. */
async function perItem<T, R>(
  ctx: Ctx,
  items: Iterable<T>,
  key: (item: T) => string,
  load: (item: T) => Promise<R>,
): Promise<Map<T, R>> {
  const out = new Map<T, R>();
  for await (const [item, value] of ctx.query.fanOut([...items], key, load)) out.set(item, value);
  return out;
}

async function transfersInto(ctx: Ctx, apps: readonly string[]): Promise<ElpData["transfers"]> {
  const { licenses } = ctx.client;
  const computerLists = await perItem(
    ctx,
    apps,
    (a) => `licenses.computerTransfers:${a}`,
    (a) => optional(() => licenses.computerTransfers(a)),
  );
  const userLists = await perItem(
    ctx,
    apps,
    (a) => `licenses.userTransfers:${a}`,
    (a) => optional(() => licenses.userTransfers(a)),
  );
  const pairs = (lists: Map<string, { toApplicationId: string | null }[] | null>, id: string) =>
    [
      ...new Set([...lists].flatMap(([app, list]) =>
        (list ?? []).map((t) => `${app}\u0000${(t as Record<string, unknown>)[id] ?? ""}`)
      )),
    ].filter((p) =>
      !p.endsWith("\u0000")
    );
  const computerDetails = await perItem(
    ctx,
    pairs(computerLists, "computerId"),
    (p) => `licenses.computerTransfer:${p}`,
    (p) => toArray(licenses.computerTransfer(...(p.split("\u0000") as [string, string]))),
  );
  const userDetails = await perItem(
    ctx,
    pairs(userLists, "userId"),
    (p) => `licenses.userTransfer:${p}`,
    (p) => toArray(licenses.userTransfer(...(p.split("\u0000") as [string, string]))),
  );
  const seen = new Set<string>();
  const out: ElpData["transfers"] = [];
  for (const t of [...computerDetails.values(), ...userDetails.values()].flat()) {
    const holder = "computerId" in t ? `c:${t.computerId}` : `u:${t.userId}`;
    const key = t.id ?? `${holder}|${t.licenseId}|${t.fromApplicationId}|${t.toApplicationId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

async function coverage(ctx: Ctx, apps: readonly string[]): Promise<Map<string, string[]>> {
  const lists = await perItem(
    ctx,
    apps,
    (a) => `licenses.computerTracking:${a}`,
    (a) => optional(() => ctx.client.licenses.computerTracking(a)),
  );
  const out = new Map<string, string[]>();
  for (const [app, list] of lists) {
    for (const t of list ?? []) {
      if (!t.computerId || !t.licenseId) continue;
      const key = `${t.computerId}\u0000${app}`;
      out.set(key, [...new Set([...(out.get(key) ?? []), t.licenseId])]);
    }
  }
  return out;
}

/**
 * Reads the ELP's inputs; applications are those with a license or a metric-tracking row
 * (narrowed by `options.application`).
 *
 * @example
 * ```ts ignore
 * import { readElpInputs } from "./inputs.ts";
 * const data = await readElpInputs(ctx);
 * console.log(data.licenses.length, data.transfers.length);
 * ```
 */
export async function readElpInputs(ctx: Ctx, options: ElpReadOptions = {}): Promise<ElpData> {
  const keep = options.application ?? (() => true);
  const [allLicenses, allRequirements] = await Promise.all([
    ctx.query.all("licenses.list", () => ctx.client.licenses.list()),
    ctx.query.all("estate.metrics", () => ctx.client.estate.metrics()),
  ]);
  const licenses = allLicenses.filter((l) => l.applicationId && keep(l.applicationId));
  const requirements = allRequirements.filter((r) => r.applicationId && keep(r.applicationId));
  const apps = [
    ...new Set([...licenses, ...requirements].map((x) => x.applicationId!)),
  ].sort();
  const [transfers, coveredBy, installs, states, metrics, summaries] = await Promise.all([
    transfersInto(ctx, apps),
    options.coverage === false ? new Map<string, string[]>() : coverage(ctx, apps),
    ctx.query.all(
      "licenses.computerEntitlements",
      () => ctx.client.licenses.computerEntitlements(),
    ),
    ctx.query.once(
      "licenses.entitlementStates",
      () => optional(() => ctx.client.licenses.entitlementStates()),
    ),
    perItem(ctx, apps, (a) => `registry.metrics:${a}`, (a) => applicationMetrics(ctx, a)),
    options.summaries === false ? new Map<string, null>() : perItem(
      ctx,
      apps,
      (a) => `licenses.complianceSummary:${a}`,
      (a) => optional(() => ctx.client.licenses.complianceSummary(a)),
    ),
  ]);
  return {
    licenses,
    requirements,
    transfers: transfers.filter((t) =>
      (t.toApplicationId && keep(t.toApplicationId)) ||
      (t.fromApplicationId && keep(t.fromApplicationId))
    ),
    coveredBy,
    installs: installs.filter((i) => i.applicationId && keep(i.applicationId)),
    stateNames: new Map((states ?? []).filter((s) => s.id).map((s) => [s.id!, s.name ?? s.id!])),
    metrics,
    summaries,
  };
}
