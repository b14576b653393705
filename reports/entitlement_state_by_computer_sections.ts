/**
 * The entitlement-state report's totals per state: for each state (only the one asked for, if
 * one is), the computers with an application in it and the applications in it, with a headline
 * per state.
 *
 * @module
 */

import { boolean, integer, text, whenTrue } from "../../lib/report/columns.ts";
import type { Section } from "../../lib/report/model.ts";
import { type ComputerRow, stateFacts, stateTotals } from "./entitlement_counts.ts";
import type { StateColumn } from "./entitlement_states.ts";

/**
 * The "Totals per entitlement state" section of the computer rows `rows`.
 *
 * @example
 * ```ts
 * import { statesSection } from "./entitlement_state_section.ts";
 * console.log(statesSection([], [], undefined).id); // "states"
 * ```
 */
export function statesSection(
  columns: readonly StateColumn[],
  rows: readonly ComputerRow[],
  only: StateColumn | undefined,
): Section {
  const byState = stateTotals(columns, rows, only);
  return {
    id: "states",
    title: "Totals per entitlement state",
    description: "Installations (a computer × application each) and computers in each " +
      "entitlement state.",
    columns: [
      text("state", "State", { width: 30 }),
      text("stateId", "Id", { width: 8 }),
      text("description", "Description", { width: 50 }),
      boolean("uncovered", "Uncovered", { width: 9, emphasis: whenTrue("uncovered", "bad") }),
      integer("computers", "Computers", { width: 10 }),
      integer("installations", "Installations", { width: 12 }),
    ],
    rows: byState,
    totals: { sum: ["installations"] },
    emptyText: "The API lists no entitlement states.",
    facts: [{ label: "Installations (all states)", sum: "installations" }, ...stateFacts(byState)],
  };
}
