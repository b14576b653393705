/**
 * Entitlements per application and state: while the entitlements stream by once, they are
 * counted per computer and state and per application and state, so no request is added; a row
 * per application with its count per state, uncovered first.
 *
 * @module
 */

import type { Source } from "../query/collect.ts";
import { groupReduce } from "../query/collect.ts";
import type { RegistryApplication } from "../query/lookups.ts";
import { asc, desc, sortBy } from "../query/sort.ts";
import type { Row } from "../report/model.ts";
import { type StateColumn, stateCounts } from "./entitlement_states.ts";
import { applicationLabelOrNone } from "./lookups.ts";

/** Counts per row (a computer or an application id) and state column key. */
export type Tally = Map<string, Map<string, number>>;

/** What an entitlement counts for: its computer, application and state column key. */
export interface TallyKeys<T> {
  /** The computer id, `null` to leave the entitlement out (not in scope). */
  readonly computer: (item: T) => string | null;
  /** The application id (`""` when none). */
  readonly application: (item: T) => string;
  /** The state column key. */
  readonly state: (item: T) => string;
}

const bump = (tally: Tally, row: string, key: string) => {
  const line = tally.get(row) ?? tally.set(row, new Map()).get(row)!;
  line.set(key, (line.get(key) ?? 0) + 1);
};

/**
 * Counts `source` once per computer and state and per application and state (memory per pair,
 * never per item; an inconsistent paged read is read again, as `groupReduce` does).
 *
 * @example
 * ```ts
 * import { tallyEntitlements } from "./entitlement_applications.ts";
 * const items = [{ pc: "C1", app: "A", st: "s1" }, { pc: "C2", app: "A", st: "s1" }, { pc: null, app: "B", st: "s1" }];
 * const t = await tallyEntitlements(items, { computer: (i) => i.pc, application: (i) => i.app, state: (i) => i.st });
 * console.log(t.computers.size, t.applications.get("A")?.get("s1")); // 2 2
 * ```
 */
export async function tallyEntitlements<T>(
  source: Source<T>,
  keys: TallyKeys<T>,
): Promise<{ computers: Tally; applications: Tally }> {
  const empty = () => ({ computers: new Map() as Tally, applications: new Map() as Tally });
  const all = await groupReduce(source, () => 0, empty, (acc, item) => {
    const computer = keys.computer(item);
    if (computer === null) return acc;
    const state = keys.state(item);
    bump(acc.computers, computer, state);
    bump(acc.applications, keys.application(item), state);
    return acc;
  });
  return all.get(0) ?? empty();
}

/**
 * A row per application with its count per state column, `applications` (all states) and
 * `uncovered`; only applications with one in the state `only` when given; most uncovered first,
 * then most in all states, then by label.
 *
 * @example
 * ```ts
 * import { applicationStateRows } from "./entitlement_applications.ts";
 * const columns = [{ id: "ES02", name: "Unlicensed", description: null, key: "state_ES02", uncovered: true }];
 * const tally = new Map([["A1", new Map([["state_ES02", 2]])]]);
 * console.log(applicationStateRows(tally, columns, undefined, new Map())[0]);
 * // { application: "(unknown application A1)", state_ES02: 2, applications: 2, uncovered: 2 }
 * ```
 */
export function applicationStateRows(
  tally: Tally,
  columns: readonly StateColumn[],
  only: StateColumn | undefined,
  registry: ReadonlyMap<string, RegistryApplication>,
): Row[] {
  const rows = [...tally].map(([id, counts]) => ({
    application: applicationLabelOrNone(id || null, registry.get(id)),
    ...stateCounts(columns, (key) => counts.get(key) ?? 0),
  })).filter((r) => !only || ((r as Row)[only.key] as number) > 0);
  return sortBy(rows, desc("uncovered"), desc("applications"), asc("application"));
}
