/**
 * The entitlement-state report's sections besides its computers and detail tables: the totals
 * per state (for each state, or only the one asked for, the computers with an application in
 * it and the applications in it, with a headline per state) and the installations per
 * application and state, drawn as stacked bars. Declarations only: the rows come from
 * `lib/sam/entitlement_counts.ts` and `lib/sam/entitlement_applications.ts`.
 *
 * @module
 */

import { boolean, integer, text, whenPositive, whenTrue } from "../lib/report/columns.ts";
import type { Column, Row, Section } from "../lib/report/model.ts";
import {
  type ComputerRow,
  ENTITLEMENTS,
  stateFacts,
  stateTotals,
  UNCOVERED_ENTITLEMENTS,
} from "../lib/sam/entitlement_counts.ts";
import type { StateColumn } from "../lib/sam/entitlement_states.ts";

// The figure's names are the domain's (the pack summary and trends name it too).
export { ENTITLEMENTS, UNCOVERED_ENTITLEMENTS } from "../lib/sam/entitlement_counts.ts";
/**
 * The "Totals per entitlement state" section of the computer rows `rows`.
 *
 * @example
 * ```ts
 * import { statesSection } from "./entitlement_state_by_computer_sections.ts";
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
    description: "Application entitlements (one per computer, application and metric, as the " +
      "detail lists them) and computers in each entitlement state.",
    columns: [
      text("state", "State", { width: 30 }),
      text("stateId", "Id", { width: 8 }),
      text("description", "Description", { width: 50 }),
      boolean("uncovered", "Uncovered", { width: 9, emphasis: whenTrue("uncovered", "bad") }),
      integer("computers", "Computers", { width: 10 }),
      integer("installations", ENTITLEMENTS, { width: 12 }),
    ],
    rows: byState,
    totals: { sum: ["installations"] },
    emptyText: "The API lists no entitlement states.",
    facts: [
      { label: `${ENTITLEMENTS} (all states)`, sum: "installations" },
      ...stateFacts(byState),
    ],
  };
}

/**
 * The per-application section: installations (application entitlements on the computers in
 * scope) per state, with a stacked bar per application, first 15.
 *
 * @example
 * ```ts
 * import { applicationSection } from "./entitlement_state_by_computer_sections.ts";
 * console.log(applicationSection([], []).chart?.type); // "stackedBar"
 * ```
 */
export function applicationSection(rows: readonly Row[], columns: readonly StateColumn[]): Section {
  return {
    id: "applications",
    title: `${ENTITLEMENTS} per entitlement state, by application`,
    description: "How many entitlements of each application (one per computer and metric) " +
      "are in each entitlement state, on the computers in scope; applications with the most " +
      "uncovered entitlements first.",
    columns: [
      text("application", "Application", { width: 40 }),
      ...countColumns(columns),
      integer("applications", ENTITLEMENTS, { width: 12 }),
      integer("uncovered", UNCOVERED_ENTITLEMENTS, {
        width: 12,
        emphasis: whenPositive("uncovered", "bad"),
      }),
    ],
    rows,
    totals: { sum: [...columns.map((s) => s.key), "applications", "uncovered"] },
    chart: {
      type: "stackedBar",
      title: `${ENTITLEMENTS} per entitlement state, by application`,
      label: "application",
      segments: columns.map((s) => ({ key: s.key, label: s.name })),
    },
    emptyText: "No application entitlements for these parameters.",
  };
}

/**
 * The count columns of the states, labelled with their names; an uncovered state's count is
 * emphasised (`bad`) when above zero.
 *
 * @example
 * ```ts
 * import { countColumns } from "./entitlement_state_by_computer_sections.ts";
 * import { UNKNOWN_STATE } from "../lib/sam/entitlement_states.ts";
 * console.log(countColumns([UNKNOWN_STATE]).map((c) => c.label)); // ["(unknown state)"]
 * ```
 */
export function countColumns(columns: readonly StateColumn[]): Column[] {
  return columns.map((s) =>
    integer(s.key, s.name, {
      width: 10,
      ...(s.uncovered ? { emphasis: whenPositive(s.key, "bad") } : {}),
    })
  );
}
