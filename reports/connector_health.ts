/**
 * Connector health: each cloud connector's status and error code, and for each of the N complete
 * calendar months before the run's month whether a retrieval succeeded, failed or never ran
 * (rules: `support/connector_status.ts`). Credentials are never read into a row. Data:
 * `connectors.list`, and each one's retrieval records (`connectors.retrievals:<id>`).
 *
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import { toArray } from "../lib/query/collect.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { detailsById } from "../lib/query/details.ts";
import { aggregate } from "../lib/query/group_by.ts";
import { uniqueLabels } from "../lib/query/labels.ts";
import { asc, sortBy } from "../lib/query/sort.ts";
import { boolean, date, datetime, integer, text } from "../lib/report/columns.ts";
import { whenPositive, whenTrue } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { connectorStatus, inError, MONTH_COUNTS } from "./support/connector_status.ts";
import { monthResults, monthWindow, RECORD_FIGURES } from "./support/connector_status.ts";
import { statusEmphasis as bad } from "./support/connector_status.ts";

/** The slice of the SAM client this report reads. */
export type ConnectorHealthClient = ClientSlice<{ connectors: "list" | "retrievals" }>;

async function data(ctx: ReportContext<ConnectorHealthClient, QueryContext>): Promise<ReportData> {
  const months = monthWindow(ctx.now, ctx.params.months as number);
  const list = await ctx.query.all("connectors.list", () => ctx.client.connectors.list());
  const connectors = sortBy(list.filter((c) => c.id), asc((c) => c.name ?? ""), asc((c) => c.id));
  const labels = uniqueLabels(connectors, (c) => c.name, (c) => c.id!, "(unnamed)");
  const load = (id: string) =>
    toArray(ctx.client.connectors.retrievals(id, { signal: ctx.signal }));
  const retrievals = await detailsById(ctx, connectors, "connectors.retrievals", load);
  const records = (id: string) => retrievals.get(id) ?? [];
  const monthRows = connectors.map((c) => {
    const connector = labels.get(c.id!)!;
    return monthResults(records(c.id!), months, c.createdAt).map((m) => ({ connector, ...m }));
  });
  const connectorRows = connectors.map((c, i) => ({
    connector: labels.get(c.id!)!,
    type: c.type,
    createdAt: c.createdAt,
    ...connectorStatus(c),
    ...aggregate(records(c.id!), RECORD_FIGURES),
    ...aggregate(monthRows[i], MONTH_COUNTS),
  }));
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
        text("status", "Status"),
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
      rows: connectorRows,
      totals: { sum: ["monthsOk", "monthsFailed", "monthsNeverRan"] },
      emptyText: "No cloud connector is configured.",
      facts: [
        { label: "Connectors", count: true },
        { label: "Connectors in error", count: true, where: inError },
        { label: "Months OK", sum: "monthsOk" },
        { label: "Months failed", sum: "monthsFailed" },
        { label: "Months never ran", sum: "monthsNeverRan" },
      ],
    }, {
      id: "months",
      title: "Retrievals per calendar month",
      description: "One row per connector and month, most recent month first. Failed and " +
        "never-run months are flagged; months before a connector was created are marked " +
        "Not created.",
      columns: [
        text("connector", "Connector", { width: 28 }),
        text("month", "Month", { width: 10 }),
        text("status", "Status", { emphasis: bad }),
        text("errorCode", "Error code", { width: 24, emphasis: bad }),
        datetime("lastSuccess", "Last successful retrieval"),
        datetime("lastAttempt", "Last attempt"),
        boolean("flagged", "Flagged", { emphasis: bad }),
      ],
      rows: monthRows.flat(),
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
    months: {
      type: "integer",
      description: "Calendar months to check, counting back from the current month",
      default: 12,
      min: 1,
      max: 120,
    },
  },
  landscape: true,
  data,
});
