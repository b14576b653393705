/**
 * Entitlement state by computer: for every computer, how many of its applications are in each
 * entitlement state (one column per state of the entitlement-states operation, built at run
 * time), computers with an uncovered application first; a detail section with one row per
 * computer, application, metric and state; and the count per state.
 *
 * "Uncovered" states are named by the `uncoveredStates` parameter (state names or ids, default
 * `Unlicensed,Under-licensed`): an application in one of them needs a license it does not have.
 *
 * State columns are keyed `state_<id>` (the id with anything but letters, digits and `_` turned
 * into `_`) and labelled with the state's name, so a name such as `Licensed <via upgrade &
 * downgrade>` is only ever a label (escaped by each renderer), never a CSV/XLSX header key or a
 * JSON key of its own.
 *
 * Organisations are shown by name (the organisation tree, read once per run) and metrics by their
 * registry name (each application's metrics, read once per run for the applications of the
 * detail), each falling back to the id when the service lacks the read.
 *
 * Data: entitlement states (cache key `licenses.entitlementStates`), the registry (cache key
 * `registry.applications`), computers (cache key `estate.computers`, or
 * `estate.computers?filter=…` with a filter) and the computers applications entitlements
 * collection: streamed whole once to count (memory holds one counter array per computer), then
 * read again for the detail rows a batch of computers at a time (`computerId -in (…)`), in the
 * order of the computers section.
 *
 * @module
 */

import type { Resource } from "../lib/api/catalogue.ts";
import type { EstateApi, LicensesApi, OrganizationsApi, RegistryApi } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import type { Column, Fact, ReportContext, ReportData, Row } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import { ParamError } from "../lib/report/errors.ts";
import { and, eq, isIn, printFilter } from "../lib/api/filter.ts";
import {
  applicationLabelOrNone,
  compareText,
  computersById,
  registryById,
} from "./support/lookups.ts";
import { metricLabel, metricNames, organizationLabel, organizationNames } from "./support/names.ts";

type Computer = Resource<"Computer">;
type EntitlementState = Resource<"EntitlementState">;
type ComputerEntitlement = Resource<"ComputerApplicationEntitlement">;

/** The slice of the SAM client this report reads. */
export interface EntitlementStateClient {
  /** Computers. */
  readonly estate: Pick<EstateApi, "computers">;
  /** Entitlement states and the computers applications entitlements. */
  readonly licenses: Pick<LicensesApi, "entitlementStates" | "computerEntitlements">;
  /** The application registry (names) and each application's metrics (names). */
  readonly registry: Pick<RegistryApi, "applications" | "metrics">;
  /** The organisation tree (names). */
  readonly organizations: Pick<OrganizationsApi, "tree">;
}

type Ctx = ReportContext<EntitlementStateClient, QueryContext>;

/** The default of `uncoveredStates`. */
export const DEFAULT_UNCOVERED = "Unlicensed,Under-licensed";

/** The column key of entitlements whose state id the entitlement-states operation does not list. */
export const UNKNOWN_STATE_KEY = "state_unknown";

/** Computers whose entitlements the detail section reads per request (`computerId -in (…)`). */
export const DETAIL_BATCH = 100;

/** A state as the report uses it: its column key and whether it counts as uncovered. */
export interface StateColumn {
  /** The state id (or `null` for the unknown-state column). */
  readonly id: string | null;
  /** The state name (the column label). */
  readonly name: string;
  /** The description from the API. */
  readonly description: string | null;
  /** The row key. */
  readonly key: string;
  /** Counts as uncovered. */
  readonly uncovered: boolean;
}

/**
 * A safe, unique column key for each state: `state_` plus the id with anything but ASCII letters,
 * digits and `_` replaced by `_` (a numeric suffix when two ids map to the same key).
 *
 * @example
 * ```ts
 * import { stateKeys } from "./entitlement_state_by_computer.ts";
 * console.log(stateKeys(["ES01", "a<b", "a>b"])); // ["state_ES01", "state_a_b", "state_a_b_2"]
 * ```
 */
export function stateKeys(ids: readonly string[]): string[] {
  const taken = new Set<string>([UNKNOWN_STATE_KEY]);
  return ids.map((id) => {
    const base = `state_${id.replace(/[^A-Za-z0-9_]/g, "_")}`;
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    taken.add(key);
    return key;
  });
}

/**
 * Splits a comma-separated list of state names or ids and returns the ids of the states it
 * names (names compared case-insensitively). Unknown entries are ignored; none matching is fine.
 *
 * @example
 * ```ts
 * import { matchStates } from "./entitlement_state_by_computer.ts";
 * const states = [{ id: "ES02", name: "Unlicensed", description: null }];
 * console.log([...matchStates("unlicensed, ES09", states)]); // ["ES02"]
 * ```
 */
export function matchStates(
  list: string,
  states: readonly Pick<EntitlementState, "id" | "name" | "description">[],
): Set<string> {
  const wanted = list.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
  const out = new Set<string>();
  for (const s of states) {
    if (!s.id) continue;
    if (wanted.includes(s.id.toLowerCase()) || wanted.includes((s.name ?? "").toLowerCase())) {
      out.add(s.id);
    }
  }
  return out;
}

async function data(ctx: Ctx): Promise<ReportData> {
  const organization = ctx.params.organization as string | undefined;
  const stateParam = (ctx.params.state as string | undefined)?.trim() || undefined;
  const uncoveredParam = (ctx.params.uncoveredStates as string | undefined) ?? DEFAULT_UNCOVERED;

  const [apiStates, registry, computerIndex, orgNames] = await Promise.all([
    ctx.query.all("licenses.entitlementStates", () => ctx.client.licenses.entitlementStates()),
    registryById(ctx),
    computersById(ctx, ctx.filter),
    organizationNames(ctx),
  ]);
  const states = apiStates.filter((s) => s.id)
    .sort((a, b) => compareText(a.id!, b.id!));
  const uncoveredIds = matchStates(uncoveredParam, states);

  let onlyState: string | undefined;
  if (stateParam !== undefined) {
    const hit = matchStates(stateParam, states);
    if (hit.size !== 1) {
      throw new ParamError(
        "state",
        `no entitlement state is named or numbered ${JSON.stringify(stateParam)}; states are ` +
          states.map((s) => `${s.id} (${s.name})`).join(", "),
      );
    }
    onlyState = [...hit][0];
  }

  const keys = stateKeys(states.map((s) => s.id!));
  const columnsOfStates: StateColumn[] = states.map((s, i) => ({
    id: s.id,
    name: s.name?.trim() || s.id!,
    description: s.description,
    key: keys[i],
    uncovered: uncoveredIds.has(s.id!),
  }));
  const slotOf = new Map(states.map((s, i) => [s.id!, i]));
  const unknownSlot = states.length;

  const inScope = new Map<string, Computer>();
  for (const [id, c] of computerIndex) {
    if (!id) continue;
    if (organization !== undefined && c.organizationId !== organization) continue;
    inScope.set(id, c);
  }

  // Pass 1: counts per computer and state.
  const counts = new Map<string, Uint32Array>();
  let unknownSeen = false;
  for await (const e of ctx.client.licenses.computerEntitlements({ signal: ctx.signal })) {
    if (!e.computerId || !inScope.has(e.computerId)) continue;
    const slot = e.entitlementStateId !== null && slotOf.has(e.entitlementStateId)
      ? slotOf.get(e.entitlementStateId)!
      : unknownSlot;
    if (slot === unknownSlot) unknownSeen = true;
    let c = counts.get(e.computerId);
    if (!c) counts.set(e.computerId, c = new Uint32Array(states.length + 1));
    c[slot]++;
  }
  const stateColumns = unknownSeen
    ? [...columnsOfStates, {
      id: null,
      name: "(unknown state)",
      description: "State ids the entitlement-states operation does not list.",
      key: UNKNOWN_STATE_KEY,
      uncovered: false,
    }]
    : columnsOfStates;
  const uncoveredSlots = stateColumns.map((s, i) => s.uncovered ? i : -1).filter((i) => i >= 0);
  const onlySlot = onlyState === undefined ? undefined : slotOf.get(onlyState)!;

  const uncoveredOf = (c: Uint32Array | undefined) =>
    c ? uncoveredSlots.reduce((sum, i) => sum + c[i], 0) : 0;

  // The computers in the report, uncovered first.
  const chosen = [...inScope.values()].filter((c) =>
    onlySlot === undefined || (counts.get(c.id!)?.[onlySlot] ?? 0) > 0
  ).map((c) => ({ c, uncovered: uncoveredOf(counts.get(c.id!)) }));
  chosen.sort((a, b) =>
    Number(b.uncovered > 0) - Number(a.uncovered > 0) ||
    compareText(a.c.hostName ?? "", b.c.hostName ?? "") || compareText(a.c.id!, b.c.id!)
  );
  const chosenIds = new Set(chosen.map((x) => x.c.id!));

  const computerRows: Row[] = chosen.map(({ c, uncovered }) => {
    const n = counts.get(c.id!);
    const row: Row = {
      hostName: c.hostName,
      organization: organizationLabel(orgNames, c.organizationId),
      operatingSystem: c.operatingSystem,
      lastScan: c.lastScanDate,
    };
    let total = 0;
    stateColumns.forEach((s, i) => {
      row[s.key] = n?.[i] ?? 0;
      total += n?.[i] ?? 0;
    });
    row.applications = total;
    row.uncovered = uncovered;
    return row;
  });

  // Per state: installations and computers (over the chosen computers).
  const perState = stateColumns.map(() => ({ installations: 0, computers: 0 }));
  for (const id of chosenIds) {
    const n = counts.get(id);
    if (!n) continue;
    stateColumns.forEach((_, i) => {
      if (onlySlot !== undefined && i !== onlySlot) return;
      perState[i].installations += n[i];
      if (n[i] > 0) perState[i].computers++;
    });
  }
  const stateRows: Row[] = stateColumns.map((s, i) => ({
    state: s.name,
    stateId: s.id,
    description: s.description,
    uncovered: s.uncovered,
    computers: perState[i].computers,
    installations: perState[i].installations,
  })).filter((_, i) => onlySlot === undefined || i === onlySlot);

  // The detail, in the order of the computers section: the entitlements of a batch of computers
  // at a time (an `-in` filter on computerId), each computer's rows sorted, so memory holds one
  // batch and the order needs no sort of the whole collection.
  async function* detailRows(): AsyncGenerator<Row> {
    for (let i = 0; i < chosen.length; i += DETAIL_BATCH) {
      const batch = chosen.slice(i, i + DETAIL_BATCH).map((x) => x.c);
      const ids = new Set(batch.map((c) => c.id!));
      const byComputer = isIn("computerId", [...ids]);
      const filter = printFilter(
        onlyState === undefined ? byComputer : and(byComputer, eq("entitlementStateId", onlyState)),
      );
      const entitlements: ComputerEntitlement[] = [];
      for await (
        const e of ctx.client.licenses.computerEntitlements({ filter, signal: ctx.signal })
      ) {
        if (!e.computerId || !ids.has(e.computerId)) continue;
        if (onlyState !== undefined && e.entitlementStateId !== onlyState) continue;
        entitlements.push(e);
      }
      const metrics = await metricNames(ctx, entitlements.map((e) => e.applicationId ?? ""));
      const rows = new Map<string, Row[]>();
      for (const e of entitlements) {
        const c = inScope.get(e.computerId!)!;
        const slot = e.entitlementStateId === null ? undefined : slotOf.get(e.entitlementStateId);
        const state = slot === undefined ? undefined : stateColumns[slot];
        let list = rows.get(e.computerId!);
        if (!list) rows.set(e.computerId!, list = []);
        list.push({
          hostName: c.hostName ?? c.id,
          application: applicationLabelOrNone(e.applicationId, registry.get(e.applicationId ?? "")),
          metric: metricLabel(metrics, e.applicationId, e.metricId),
          metricId: e.metricId,
          state: state?.name ?? `(unknown state ${e.entitlementStateId ?? "none"})`,
          uncovered: state?.uncovered ?? false,
        });
      }
      for (const c of batch) {
        const list = rows.get(c.id!) ?? [];
        list.sort((a, b) =>
          Number(b.uncovered) - Number(a.uncovered) ||
          compareText(a.application as string, b.application as string) ||
          compareText(a.metric as string, b.metric as string) ||
          compareText(String(a.metricId ?? ""), String(b.metricId ?? "")) ||
          compareText(a.state as string, b.state as string)
        );
        yield* list;
      }
    }
  }

  const bad = (row: Row) => (row.uncovered === true ? "bad" : undefined);
  const countColumns: Column[] = stateColumns.map((s) => ({
    key: s.key,
    label: s.name,
    type: "integer",
    width: 10,
    ...(s.uncovered
      ? { emphasis: (row: Row) => ((row[s.key] as number) > 0 ? "bad" as const : undefined) }
      : {}),
  }));

  const uncoveredNames = stateColumns.filter((s) => s.uncovered).map((s) => s.name);
  const uncoveredText = uncoveredNames.length
    ? uncoveredNames.map((n) => `"${n}"`).join(" and ")
    : "no state (none of the uncoveredStates matched)";

  const sections = [
    {
      id: "computers",
      title: "Applications per entitlement state, by computer",
      description: `How many applications of each computer are in each entitlement state. ` +
        `Computers with an application in an uncovered state (${uncoveredText}) come first.`,
      columns: [
        { key: "hostName", label: "Computer", type: "text", width: 18 },
        { key: "organization", label: "Organization", type: "text", width: 10 },
        { key: "operatingSystem", label: "Operating system", type: "text", width: 30 },
        { key: "lastScan", label: "Last scan", type: "date", width: 11 },
        ...countColumns,
        { key: "applications", label: "Applications", type: "integer", width: 10 },
        {
          key: "uncovered",
          label: "Uncovered",
          type: "integer",
          width: 9,
          emphasis: (row: Row) => ((row.uncovered as number) > 0 ? "bad" as const : undefined),
        },
      ] satisfies Column[],
      rows: computerRows,
      totals: { sum: [...stateColumns.map((s) => s.key), "applications", "uncovered"] },
      emptyText: onlyState === undefined
        ? "No computers match these parameters."
        : "No computer has an application in this entitlement state.",
    },
    {
      id: "states",
      title: "Totals per entitlement state",
      description: "Applications (installations) and computers in each entitlement state.",
      columns: [
        { key: "state", label: "State", type: "text", width: 30 },
        { key: "stateId", label: "Id", type: "text", width: 8 },
        { key: "description", label: "Description", type: "text", width: 50 },
        { key: "uncovered", label: "Uncovered", type: "boolean", width: 9, emphasis: bad },
        { key: "computers", label: "Computers", type: "integer", width: 10 },
        { key: "installations", label: "Applications", type: "integer", width: 10 },
      ] satisfies Column[],
      rows: stateRows,
      totals: { sum: ["installations"] },
      emptyText: "The API lists no entitlement states.",
    },
    {
      id: "detail",
      title: "Entitlement state of each application",
      description: "One row per computer, application and metric, with its entitlement state; " +
        "computers in the order above, uncovered applications first.",
      columns: [
        { key: "hostName", label: "Computer", type: "text", width: 18 },
        { key: "application", label: "Application", type: "text", width: 36 },
        { key: "metric", label: "Metric", type: "text", width: 16 },
        { key: "metricId", label: "Metric id", type: "text", width: 10 },
        { key: "state", label: "Entitlement state", type: "text", width: 30, emphasis: bad },
        { key: "uncovered", label: "Uncovered", type: "boolean", width: 9, emphasis: bad },
      ] satisfies Column[],
      rows: detailRows(),
      emptyText: "No application entitlements for these parameters.",
    },
  ];

  const summary = (): Fact[] => [
    { label: "Computers", value: computerRows.length, type: "integer" },
    {
      label: "Computers with uncovered applications",
      value: chosen.filter((x) => x.uncovered > 0).length,
      type: "integer",
    },
    {
      label: "Uncovered applications",
      value: chosen.reduce((sum, x) => sum + x.uncovered, 0),
      type: "integer",
    },
    {
      label: "Applications (all states)",
      value: stateRows.reduce((sum, r) => sum + (r.installations as number), 0),
      type: "integer",
    },
    ...stateRows.map((r): Fact => ({
      label: `${r.state}`,
      value: r.installations,
      type: "integer",
    })),
  ];

  return { sections, summary };
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
