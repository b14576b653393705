/**
 * Connector health: each cloud connector's status and error code, and for each of the N complete
 * calendar months before the run's month whether a retrieval succeeded, failed or never ran
 * (rows: `lib/sam/connector_rows.ts`; rules: `lib/sam/connector_status.ts`). Credentials are
 * never read into a row. Data: `connectors.list`, and each one's retrieval records
 * (`connectors.retrievals:<id>`).
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { boolean, date, datetime, integer, text } from "../lib/report/columns.ts";
import { whenPositive, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { integerParam } from "../lib/report/param_builders.ts";
import { connectorRows } from "../lib/sam/connector_rows.ts";
import { inError, monthWindow, statusEmphasis as bad } from "../lib/sam/connector_status.ts";
import { MONTH_STATUSES } from "../lib/sam/connector_status.ts";

/** The slice of the SAM client this report reads. */
export type ConnectorHealthClient = ClientSlice<{ connectors: "list" | "retrievals" }>;

async function data(ctx: ReportContext<ConnectorHealthClient, QueryContext>): Promise<ReportData> {
  const months = monthWindow(ctx.now, ctx.params.months as number);
  const rows = await connectorRows(ctx, months);
  return {
    sections: [{
      id: "connectors",
      title: "Cloud connectors",
      description: `Each connector's current status and error code, its last successful ` +
        `retrieval ever, its number of retrieval records, and how the ${months.length} ` +
        `complete calendar months before the report date went.`,
      columns: [
        text("connector", "Connector", { width: 28 }),
        text("type", "Type", { width: 22 }),
        date("createdAt", "Created"),
        text("status", "Status", { emphasis: bad }),
        text("errorCode", "Error code", { width: 24, emphasis: whenTrue("errorCode", "bad") }),
        datetime("statusUpdatedAt", "Status updated"),
        datetime("lastSuccess", "Last successful retrieval"),
        integer("retrievals", "Retrieval records"),
        integer("monthsOk", "Months OK"),
        integer("monthsFailed", "Months failed", { emphasis: whenPositive("monthsFailed", "bad") }),
        integer("monthsNeverRan", "Months never ran", {
          emphasis: whenPositive("monthsNeverRan", "warn"),
        }),
      ],
      rows: rows.connectors,
      totals: { sum: ["monthsOk", "monthsFailed", "monthsNeverRan"] },
      emptyText: "No cloud connector is configured.",
      // The cover leads with what needs fixing.
      facts: [
        { label: "Connectors in error", count: true, where: inError, cover: true },
        { label: "Months failed", sum: "monthsFailed", cover: true },
        { label: "Months never ran", sum: "monthsNeverRan", cover: true },
        { label: "Connectors", count: true, cover: true },
        { label: "Months OK", sum: "monthsOk" },
      ],
    }, {
      id: "months",
      title: "Retrievals per calendar month",
      description: "One row per connector and month, most recent month first. Failed and " +
        "never-run months are flagged; months before a connector was created are marked " +
        "Not created. Statuses are in words: OK, In progress, Failed, Never ran, Not created.",
      columns: [
        text("connector", "Connector", { width: 28 }),
        text("month", "Month", { width: 10 }),
        text("status", "Status", { emphasis: bad }),
        text("errorCode", "Error code", { width: 24, emphasis: bad }),
        datetime("lastSuccess", "Last successful retrieval"),
        datetime("lastAttempt", "Last attempt"),
        boolean("flagged", "Flagged", { emphasis: bad }),
      ],
      rows: rows.months,
      chart: {
        type: "heatMap",
        title: "Retrieval status per connector and month",
        ...{ row: "connector", column: "month", value: "status", statuses: MONTH_STATUSES },
        ...{ rows: 60, columns: Math.min(months.length, 36) },
      },
      group: { by: "connector", label: "Connector" },
      emptyText: "No cloud connector is configured, so there is no retrieval history.",
    }],
  };
}

/**
 * The connector health report.
 *
 * @example
 * ```ts ignore
 * import { connectorHealth } from "./connector_health.ts";
 * const data = await connectorHealth.data(ctx);
 * console.log(data.sections.map((s) => s.id)); // ["connectors", "months"]
 * ```
 */
export const connectorHealth = defineReport<ConnectorHealthClient, QueryContext>({
  id: "connector-health",
  title: "Cloud connector health",
  description: "Every cloud connector, its status and error code, and per calendar month " +
    "whether a retrieval succeeded, failed or never ran.",
  params: {
    months: integerParam("Calendar months to check, counting back from the current month", {
      default: 12,
      min: 1,
      max: 120,
    }),
  },
  landscape: true,
  data,
});
