/**
 * Entitlement state by computer: for every computer, how many of its applications are in each
 * entitlement state (one column per state: `lib/sam/entitlement_states.ts`), computers with an
 * uncovered application first, and the count per state (`lib/sam/entitlement_counts.ts`,
 * `entitlement_state_by_computer_sections.ts`); per application and state, counted in the same read
 * (`lib/sam/entitlement_applications.ts`); and the state of each application, a batch of
 * computers at a time (`lib/sam/entitlement_detail.ts`).
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { boolean, date, integer, text, whenPositive, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { ORGANIZATION_PARAM } from "../lib/sam/computers_in_scope.ts";
import { computerCounts, hasUncovered } from "../lib/sam/entitlement_counts.ts";
import { applicationStateRows } from "../lib/sam/entitlement_applications.ts";
import { detailRows } from "../lib/sam/entitlement_detail.ts";
import { entitlementInputs } from "../lib/sam/entitlement_inputs.ts";
import { STATE_PARAMS, uncoveredText } from "../lib/sam/entitlement_states.ts";
import {
  applicationSection,
  countColumns,
  ENTITLEMENTS,
  statesSection,
  UNCOVERED_ENTITLEMENTS,
} from "./entitlement_state_by_computer_sections.ts";

export { matchStates, stateKeys } from "../lib/sam/entitlement_states.ts";

/** The slice of the SAM client this report reads. */
export type EntitlementStateClient = ClientSlice<{
  estate: "computers";
  licenses: "entitlementStates" | "computerEntitlements";
  registry: "applications" | "metrics";
  organizations: "tree";
}>;

type Ctx = ReportContext<EntitlementStateClient, QueryContext>;
const computer = text("hostName", "Computer", { width: 18 });
const flag = whenTrue("uncovered", "bad");
const uncoveredFlag = boolean("uncovered", "Uncovered", { width: 9, emphasis: flag });

async function data(ctx: Ctx): Promise<ReportData> {
  const { states, registry, computers, orgNames } = await entitlementInputs(ctx);
  const counted = await computerCounts(ctx.client.licenses, computers, states, orgNames);
  const { columns, rows } = counted, uncovered = uncoveredText(columns);
  const perApp = applicationStateRows(counted.applications, columns, states.only, registry);
  return {
    sections: [
      {
        id: "computers",
        title: `${ENTITLEMENTS} per entitlement state, by computer`,
        description: `How many application entitlements of each computer (one per application ` +
          `and metric, as the detail lists them) are in each entitlement state. Computers ` +
          `with an application in an uncovered state (${uncovered}) come first.`,
        columns: [
          computer,
          text("organization", "Organization", { width: 10 }),
          text("operatingSystem", "Operating system", { width: 30 }),
          date("lastScan", "Last scan", { width: 11 }),
          ...countColumns(columns),
          integer("applications", ENTITLEMENTS, { width: 12 }),
          integer("uncovered", UNCOVERED_ENTITLEMENTS, {
            width: 12,
            emphasis: whenPositive("uncovered", "bad"),
          }),
        ],
        rows,
        totals: { sum: [...columns.map((s) => s.key), "applications", "uncovered"] },
        emptyText: states.only
          ? "No computer has an application in this entitlement state."
          : "No computers match these parameters.",
        // The cover leads with what is uncovered; what was counted follows.
        facts: [
          {
            label: "Computers with uncovered applications",
            count: true,
            where: hasUncovered,
            cover: true,
          },
          { label: UNCOVERED_ENTITLEMENTS, sum: "uncovered", cover: true },
          { label: "Computers", count: true, cover: true },
        ],
      },
      statesSection(columns, rows, states.only),
      applicationSection(perApp, columns),
      {
        id: "detail",
        title: "Entitlement state of each application",
        description: "One row per computer, application and metric, with its entitlement state; " +
          "computers in the order above, uncovered applications first.",
        columns: [
          computer,
          text("application", "Application", { width: 36 }),
          text("metric", "Metric", { width: 16 }),
          text("metricId", "Metric id", { width: 10 }),
          text("state", "Entitlement state", { width: 30, emphasis: flag }),
          uncoveredFlag,
        ],
        rows: detailRows(ctx, rows, states, registry),
        emptyText: "No application entitlements for these parameters.",
      },
    ],
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
  params: { organization: ORGANIZATION_PARAM, ...STATE_PARAMS },
  filterResource: "Computer",
  landscape: true,
  data,
});
