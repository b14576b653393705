/**
 * Entitlement states as report columns: one column per state the entitlement-states operation
 * lists (ordered by id), keyed `state_<id>` (anything but letters, digits and `_` turned into
 * `_`) and labelled with the state's name, so a name such as `Licensed <via upgrade & downgrade>`
 * is only ever a label, never a CSV/XLSX header key or a JSON key of its own; a column for state
 * ids the operation does not list; and which states count as uncovered (named by the
 * `uncoveredStates` parameter: an application in one of them needs a license it does not have).
 *
 * @module
 */

import { aggregate } from "../query/group_by.ts";
import { sum } from "../query/measures.ts";
import { compareText } from "../query/sort.ts";
import { ParamError } from "../report/errors.ts";
import type { ParamSpec } from "../report/model.ts";
import { stringParam } from "../report/param_builders.ts";
import type { EntitlementState } from "../api/types.ts";

/** The default of `uncoveredStates`. */
export const DEFAULT_UNCOVERED = "Unlicensed,Under-licensed";

/**
 * The report parameters {@link statesOfRun} reads: the one state asked for, and which states
 * count as uncovered.
 *
 * @example
 * ```ts
 * import { STATE_PARAMS } from "./entitlement_states.ts";
 * console.log(STATE_PARAMS.uncoveredStates.default); // "Unlicensed,Under-licensed"
 * ```
 */
export const STATE_PARAMS: Readonly<Record<string, ParamSpec>> = {
  state: stringParam(
    "Only applications in this entitlement state (name or id), and the computers that have one",
  ),
  uncoveredStates: stringParam(
    "Comma-separated entitlement state names or ids that count as uncovered",
    { default: DEFAULT_UNCOVERED },
  ),
};

/**
 * Readable names for the service's own state names that read as codes; any other name is shown
 * as the service gives it.
 */
const READABLE_STATE_NAMES: Readonly<Record<string, string>> = {
  "Licensed <via upgrade & downgrade>": "Licensed via upgrade or downgrade",
};

/**
 * A state's name as a reader sees it: {@link READABLE_STATE_NAMES} for the service's coded ones,
 * else the name as given (trimmed), else the id.
 *
 * @example
 * ```ts
 * import { stateLabel } from "./entitlement_states.ts";
 * console.log(stateLabel("Licensed <via upgrade & downgrade>", "ES03")); // "Licensed via upgrade or downgrade"
 * console.log(stateLabel(" Unlicensed ", "ES02")); // "Unlicensed"
 * ```
 */
export function stateLabel(name: string | null | undefined, id: string): string {
  const given = name?.trim() || id;
  return READABLE_STATE_NAMES[given] ?? given;
}

/** The column key of entitlements whose state id the entitlement-states operation does not list. */
export const UNKNOWN_STATE_KEY = "state_unknown";

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

/** The column of entitlements whose state id the operation does not list. */
export const UNKNOWN_STATE: StateColumn = {
  id: null,
  name: "(unknown state)",
  description: "State ids the entitlement-states operation does not list.",
  key: UNKNOWN_STATE_KEY,
  uncovered: false,
};

/**
 * A safe, unique column key for each state: `state_` plus the id with anything but ASCII letters,
 * digits and `_` replaced by `_` (a numeric suffix when two ids map to the same key).
 *
 * @example
 * ```ts
 * import { stateKeys } from "./entitlement_states.ts";
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
 * import { matchStates } from "./entitlement_states.ts";
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

/** The states of a run: their columns, the one state asked for, and lookups by state id. */
export interface EntitlementStates {
  /** One column per listed state, by id. */
  readonly columns: readonly StateColumn[];
  /** The state the `state` parameter names, if given. */
  readonly only: StateColumn | undefined;
  /** The column of a listed state id, `undefined` for any other. */
  stateOf(id: string | null): StateColumn | undefined;
  /** The column key of a state id ({@link UNKNOWN_STATE_KEY} when not listed). */
  keyOf(id: string | null): string;
  /** A detail row's state name (`(unknown state <id>)` when not listed) and whether uncovered. */
  cell(id: string | null): { state: string; uncovered: boolean };
}

/**
 * The states of a run from the API's list, the `uncoveredStates` list and the `state`
 * parameter; a `state` that names no single state is a {@link ParamError} listing the states.
 *
 * @example
 * ```ts
 * import { entitlementStates } from "./entitlement_states.ts";
 * const api = [{ id: "ES02", name: "Unlicensed", description: null }, { id: "ES01", name: "Licensed", description: null }];
 * const states = entitlementStates(api, "Unlicensed", "es01");
 * console.log(states.columns.map((s) => s.key), states.only?.name); // ["state_ES01", "state_ES02"] "Licensed"
 * ```
 */
export function entitlementStates(
  api: readonly EntitlementState[],
  uncoveredList: string,
  stateParam?: string,
): EntitlementStates {
  const states = api.filter((s) => s.id).sort((a, b) => compareText(a.id!, b.id!));
  const uncovered = matchStates(uncoveredList, states);
  const keys = stateKeys(states.map((s) => s.id!));
  const columns = states.map((s, i) => ({
    id: s.id,
    name: stateLabel(s.name, s.id!),
    description: s.description,
    key: keys[i],
    uncovered: uncovered.has(s.id!),
  }));
  const byId = new Map(columns.map((c) => [c.id!, c]));
  const stateOf = (id: string | null) => (id === null ? undefined : byId.get(id));
  const only = stateParam === undefined ? undefined : onlyState(stateParam, states);
  return {
    columns,
    only: only === undefined ? undefined : byId.get(only),
    stateOf,
    keyOf: (id) => stateOf(id)?.key ?? UNKNOWN_STATE_KEY,
    cell: (id) => ({
      state: stateOf(id)?.name ?? `(unknown state ${id ?? "none"})`,
      uncovered: stateOf(id)?.uncovered ?? false,
    }),
  };
}

/**
 * The states of a run from the API's list and the report's `uncoveredStates` (default
 * {@link DEFAULT_UNCOVERED}) and `state` (blank is none) parameters ({@link entitlementStates}).
 *
 * @example
 * ```ts
 * import { statesOfRun } from "./entitlement_states.ts";
 * const api = [{ id: "ES02", name: "Unlicensed", description: null }];
 * const states = statesOfRun(api, { state: " " });
 * console.log(states.only, states.columns[0].uncovered); // undefined true
 * ```
 */
export function statesOfRun(
  api: readonly EntitlementState[],
  params: Readonly<Record<string, unknown>>,
): EntitlementStates {
  return entitlementStates(
    api,
    (params.uncoveredStates as string | undefined) ?? DEFAULT_UNCOVERED,
    (params.state as string | undefined)?.trim() || undefined,
  );
}

function onlyState(param: string, states: readonly EntitlementState[]): string {
  const hit = matchStates(param, states);
  if (hit.size !== 1) {
    throw new ParamError(
      "state",
      `no entitlement state is named or numbered ${JSON.stringify(param)}; states are ` +
        states.map((s) => `${s.id} (${s.name})`).join(", "),
    );
  }
  return [...hit][0];
}

/**
 * A computer's counts as row cells: one per state column, `applications` (all states) and
 * `uncovered` (the states that count as uncovered).
 *
 * @example
 * ```ts
 * import { stateCounts, UNKNOWN_STATE } from "./entitlement_states.ts";
 * const columns = [{ id: "ES02", name: "Unlicensed", description: null, key: "state_ES02", uncovered: true }, UNKNOWN_STATE];
 * console.log(stateCounts(columns, (key) => (key === "state_ES02" ? 2 : 1)));
 * // { state_ES02: 2, state_unknown: 1, applications: 3, uncovered: 2 }
 * ```
 */
export function stateCounts(
  columns: readonly StateColumn[],
  countOf: (key: string) => number,
): Record<string, number> & { applications: number; uncovered: number } {
  return {
    ...Object.fromEntries(columns.map((s) => [s.key, countOf(s.key)])),
    ...aggregate(columns, {
      applications: sum((s) => countOf(s.key)),
      uncovered: sum((s) => (s.uncovered ? countOf(s.key) : 0)),
    }),
  };
}

/**
 * The uncovered states in words, for a section description.
 *
 * @example
 * ```ts
 * import { uncoveredText, UNKNOWN_STATE } from "./entitlement_states.ts";
 * console.log(uncoveredText([{ ...UNKNOWN_STATE, name: "Unlicensed", uncovered: true }])); // "\"Unlicensed\""
 * ```
 */
export function uncoveredText(columns: readonly StateColumn[]): string {
  const names = columns.filter((s) => s.uncovered).map((s) => `"${s.name}"`);
  return names.length ? names.join(" and ") : "no state (none of the uncoveredStates matched)";
}
