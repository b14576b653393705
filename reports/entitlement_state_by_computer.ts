/**
 * Entitlement state by computer: for every computer, how many of its applications are in each
 * entitlement state (one column per state: `support/entitlement_states.ts`), computers with an
 * uncovered application first; the count per state; and the state of each application, read a
 * batch of computers at a time in the order of the computers section. The entitlements are
 * streamed whole once to count (memory per computer and state). Organisations and metrics are
 * shown by name.
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import { chunks } from "../lib/query/chunks.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { crossCount } from "../lib/query/cross_count.ts";
import { aggregate } from "../lib/query/group_by.ts";
import { computersById, registryById } from "../lib/query/lookups.ts";
import { count, sum } from "../lib/query/measures.ts";
import { metricLabel, metricNames } from "../lib/query/names.ts";
import { organizationLabel, organizationNames } from "../lib/query/names.ts";
import { asc, desc, sortBy } from "../lib/query/sort.ts";
import { boolean, date, integer, text, whenPositive, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import type { Row } from "../lib/report/model.ts";
import {
  countColumns,
  DEFAULT_UNCOVERED,
  entitlementStates,
} from "./support/entitlement_states.ts";
import { stateCounts, uncoveredText } from "./support/entitlement_states.ts";
import { UNKNOWN_STATE, UNKNOWN_STATE_KEY } from "./support/entitlement_states.ts";
import { DETAIL_ORDER, type DetailRow, entitlementsOf } from "./support/entitlement_detail.ts";
import { applicationLabelOrNone } from "./support/lookups.ts";

export { DEFAULT_UNCOVERED, UNKNOWN_STATE_KEY };
export { matchStates, type StateColumn, stateKeys } from "./support/entitlement_states.ts";

/** Computers whose entitlements the detail section reads per request (`computerId -in (…)`). */
export const DETAIL_BATCH = 100;

/** The slice of the SAM client this report reads. */
export type EntitlementStateClient = ClientSlice<{
  estate: "computers";
  licenses: "entitlementStates" | "computerEntitlements";
  registry: "applications" | "metrics";
  organizations: "tree";
}>;

type ComputerRow = Row & { id: string; hostName: string | null; uncovered: number };
const hasUncovered = (row: Row) => (row.uncovered as number) > 0;

async function data(ctx: ReportContext<EntitlementStateClient, QueryContext>): Promise<ReportData> {
  const orgId = ctx.params.organization as string | undefined;
  const [apiStates, registry, computers, orgNames] = await Promise.all([
    ctx.query.all("licenses.entitlementStates", () => ctx.client.licenses.entitlementStates()),
    registryById(ctx),
    computersById(ctx, ctx.filter),
    organizationNames(ctx),
  ]);
  const states = entitlementStates(
    apiStates,
    (ctx.params.uncoveredStates as string | undefined) ?? DEFAULT_UNCOVERED,
    (ctx.params.state as string | undefined)?.trim() || undefined,
  );
  const only = states.only;
  const inScope = new Map(
    [...computers].filter(([id, c]) => id && (orgId === undefined || c.organizationId === orgId)),
  );
  const counts = await crossCount(
    ctx.client.licenses.computerEntitlements(),
    (e) => (inScope.has(e.computerId) ? e.computerId! : null),
    (e) => states.keyOf(e.entitlementStateId),
  );
  const unknownSeen = [...counts.values()].some((c) => c.has(UNKNOWN_STATE_KEY));
  const columns = unknownSeen ? [...states.columns, UNKNOWN_STATE] : states.columns;
  const computerRows = sortBy(
    [...inScope.values()].map((c): ComputerRow => ({
      id: c.id!,
      hostName: c.hostName,
      organization: organizationLabel(orgNames, c.organizationId),
      operatingSystem: c.operatingSystem,
      lastScan: c.lastScanDate,
      ...stateCounts(columns, (key) => counts.get(c.id!)?.get(key) ?? 0),
    })).filter((r) => !only || (r[only.key] as number) > 0),
    desc((r) => r.uncovered > 0),
    asc((r) => r.hostName ?? ""),
    asc("id"),
  );
  const stateRows = columns.filter((s) => !only || s.key === only.key).map((s) => ({
    ...{ state: s.name, stateId: s.id, description: s.description, uncovered: s.uncovered },
    ...aggregate(computerRows, {
      computers: count((r) => (r[s.key] as number) > 0),
      installations: sum((r) => r[s.key] as number),
    }),
  }));

  const uncovered = uncoveredText(columns);
  async function* detailRows(): AsyncGenerator<Row> {
    for (const batch of chunks(computerRows, DETAIL_BATCH)) {
      const ids = new Set(batch.map((c) => c.id));
      const found = await entitlementsOf(ctx.client.licenses, ids, only?.id);
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

  return {
    sections: [{
      id: "computers",
      title: "Applications per entitlement state, by computer",
      description: `How many applications of each computer are in each entitlement state. ` +
        `Computers with an application in an uncovered state (${uncovered}) come first.`,
      columns: [
        text("hostName", "Computer", { width: 18 }),
        text("organization", "Organization", { width: 10 }),
        text("operatingSystem", "Operating system", { width: 30 }),
        date("lastScan", "Last scan", { width: 11 }),
        ...countColumns(columns),
        integer("applications", "Applications", { width: 10 }),
        integer("uncovered", "Uncovered", { width: 9, emphasis: whenPositive("uncovered", "bad") }),
      ],
      rows: computerRows,
      totals: { sum: [...columns.map((s) => s.key), "applications", "uncovered"] },
      emptyText: only
        ? "No computer has an application in this entitlement state."
        : "No computers match these parameters.",
      facts: [
        { label: "Computers", count: true },
        { label: "Computers with uncovered applications", count: true, where: hasUncovered },
        { label: "Uncovered applications", sum: "uncovered" },
      ],
    }, {
      id: "states",
      title: "Totals per entitlement state",
      description: "Applications (installations) and computers in each entitlement state.",
      columns: [
        text("state", "State", { width: 30 }),
        text("stateId", "Id", { width: 8 }),
        text("description", "Description", { width: 50 }),
        boolean("uncovered", "Uncovered", { width: 9, emphasis: whenTrue("uncovered", "bad") }),
        integer("computers", "Computers", { width: 10 }),
        integer("installations", "Applications", { width: 10 }),
      ],
      rows: stateRows,
      totals: { sum: ["installations"] },
      emptyText: "The API lists no entitlement states.",
      facts: [
        { label: "Applications (all states)", sum: "installations" },
        ...stateRows.map((s) => ({
          label: s.state,
          sum: "installations",
          where: (r: Row) => r.stateId === s.stateId,
        })),
      ],
    }, {
      id: "detail",
      title: "Entitlement state of each application",
      description: "One row per computer, application and metric, with its entitlement state; " +
        "computers in the order above, uncovered applications first.",
      columns: [
        text("hostName", "Computer", { width: 18 }),
        text("application", "Application", { width: 36 }),
        text("metric", "Metric", { width: 16 }),
        text("metricId", "Metric id", { width: 10 }),
        text("state", "Entitlement state", { width: 30, emphasis: whenTrue("uncovered", "bad") }),
        boolean("uncovered", "Uncovered", { width: 9, emphasis: whenTrue("uncovered", "bad") }),
      ],
      rows: detailRows(),
      emptyText: "No application entitlements for these parameters.",
    }],
  };
}

/**
 * The entitlement state by computer report (`entitlement-state-by-computer`).
 *
 * @example
 * ```ts ignore
 * import { entitlementStateByComputer } from "./entitlement_state_by_computer.ts";
 * console.log(entitlementStateByComputer.id); // "entitlement-state-by-computer"
 * ```
 */
export const entitlementStateByComputer = defineReport<EntitlementStateClient, QueryContext>({
  id: "entitlement-state-by-computer",
  tracked: [{ section: "states", key: "state", value: "computers", label: "Computers in state" }],
  title: "Entitlement state by computer",
  description: "For every computer, how many of its applications are in each entitlement state " +
    "(one column per state the API lists), computers with an uncovered application first, with " +
    "the state of each application and the count per state. Uncovered means one of the states " +
    "named by the uncoveredStates parameter (default Unlicensed and Under-licensed).",
  params: {
    organization: {
      type: "string",
      description: "Organisation id: only computers of this organisation",
    },
    state: {
      type: "string",
      description: "Only applications in this entitlement state (name or id), and the " +
        "computers that have one",
    },
    uncoveredStates: {
      type: "string",
      description: "Comma-separated entitlement state names or ids that count as uncovered",
      default: DEFAULT_UNCOVERED,
    },
  },
  filterResource: "Computer",
  landscape: true,
  data,
});
