/**
 * The entitlements of a batch of computers, for a detail read in the order of a computers
 * section: asked of the service with `computerId -in (…)` (and the one state asked for), and
 * checked here too, so a service that ignores part of the filter changes nothing; the order
 * of one computer's detail rows (uncovered first, then application, metric and state); and the
 * detail rows themselves, read {@link DETAIL_BATCH} computers at a time.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { LicensesApi, RegistryApi } from "../api/client.ts";
import { and, eq, isIn, printFilter } from "../api/filter.ts";
import { chunks } from "../query/chunks.ts";
import type { QueryContext } from "../query/context.ts";
import { filterMap } from "../query/filter_map.ts";
import type { RegistryApplication } from "../query/lookups.ts";
import { metricLabel, metricNames } from "../query/names.ts";
import { asc, type Comparator, desc, orderBy } from "../query/sort.ts";
import type { Row } from "../report/model.ts";
import type { EntitlementStates } from "./entitlement_states.ts";
import { applicationLabelOrNone } from "./lookups.ts";

/** Computers whose entitlements the detail section reads per request (`computerId -in (…)`). */
export const DETAIL_BATCH = 100;

/** An entitlement of an application on a computer. */
export type ComputerEntitlement = Resource<"ComputerApplicationEntitlement">;

/**
 * The entitlements of the computers `ids`, only those in state `onlyState` when given.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { entitlementsOf } from "./entitlement_detail.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const found = await entitlementsOf(ctx.client.licenses, new Set(["C0001", "C0002"]), "ES02");
 *   console.log(found.every((e) => e.entitlementStateId === "ES02")); // true
 * });
 * ```
 */
export function entitlementsOf(
  licenses: Pick<LicensesApi, "computerEntitlements">,
  ids: ReadonlySet<string>,
  onlyState?: string | null,
): Promise<ComputerEntitlement[]> {
  const byComputer = isIn("computerId", [...ids]);
  const filter = onlyState ? and(byComputer, eq("entitlementStateId", onlyState)) : byComputer;
  return filterMap(licenses.computerEntitlements({ filter: printFilter(filter) }), (e) => {
    const wanted = ids.has(e.computerId ?? "") &&
      (!onlyState || e.entitlementStateId === onlyState);
    return wanted ? e : null;
  });
}

/** A detail row: one application and metric of a computer with its entitlement state. */
export type DetailRow = {
  /** The computer's host name (its id when it has none). */
  readonly hostName: string | null;
  /** The application label. */
  readonly application: string;
  /** The metric label. */
  readonly metric: string;
  /** The metric id. */
  readonly metricId: string | null;
  /** The state name. */
  readonly state: string;
  /** In an uncovered state. */
  readonly uncovered: boolean;
};

/**
 * The order of a computer's detail rows: uncovered first, then by application, metric label,
 * metric id (none first) and state name.
 *
 * @example
 * ```ts
 * import { DETAIL_ORDER } from "./entitlement_detail.ts";
 * const row = { hostName: "PC1", application: "Visio", metric: "Installations", metricId: "MET01", state: "Licensed", uncovered: false };
 * console.log([row, { ...row, uncovered: true }].sort(DETAIL_ORDER)[0].uncovered); // true
 * ```
 */
export const DETAIL_ORDER: Comparator<DetailRow> = orderBy(
  desc((r) => r.uncovered),
  asc((r) => r.application),
  asc((r) => r.metric),
  asc((r) => r.metricId ?? ""),
  asc((r) => r.state),
);

/**
 * The detail rows of `computers`, in their order, {@link DETAIL_BATCH} computers per request
 * (only the state asked for, if one is); applications labelled from `registry`, metrics by name
 * (each application's metrics read once per run); each computer's rows in {@link DETAIL_ORDER}.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { detailRows } from "./entitlement_detail.ts";
 * import { entitlementInputs } from "./entitlement_inputs.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { states, computers, registry } = await entitlementInputs(ctx);
 *   const two = computers.slice(0, 2).map((c) => ({ id: c.id!, hostName: c.hostName }));
 *   for await (const row of detailRows(ctx, two, states, registry)) {
 *     console.log(row.hostName, row.application, row.state);
 *   }
 * });
 * ```
 */
export async function* detailRows(
  ctx: {
    readonly client: {
      readonly licenses: Pick<LicensesApi, "computerEntitlements">;
      readonly registry: Pick<RegistryApi, "metrics">;
    };
    readonly query: QueryContext;
  },
  computers: readonly { readonly id: string; readonly hostName: string | null }[],
  states: Pick<EntitlementStates, "only" | "cell">,
  registry: ReadonlyMap<string, RegistryApplication>,
): AsyncGenerator<Row> {
  for (const batch of chunks(computers, DETAIL_BATCH)) {
    const ids = new Set(batch.map((c) => c.id));
    const found = await entitlementsOf(ctx.client.licenses, ids, states.only?.id);
    const metrics = await metricNames(ctx, found.map((e) => e.applicationId ?? ""));
    const perComputer = Map.groupBy(found, (e) => e.computerId!);
    for (const c of batch) {
      const rows = (perComputer.get(c.id) ?? []).map((e): DetailRow => ({
        hostName: c.hostName ?? c.id,
        application: applicationLabelOrNone(e.applicationId, registry.get(e.applicationId ?? "")),
        metric: metricLabel(metrics, e.applicationId, e.metricId),
        metricId: e.metricId,
        ...states.cell(e.entitlementStateId),
      }));
      yield* rows.sort(DETAIL_ORDER);
    }
  }
}
