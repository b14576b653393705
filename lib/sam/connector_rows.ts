/**
 * The rows of the connector-health report: the connectors (by name, then id; each labelled
 * uniquely, `(unnamed)` when it has no name) with their current status, retrieval figures and
 * month counts, and one row per connector and month of the window (rules:
 * `connector_status.ts`). Data: `connectors.list` (cache key `connectors.list`) and each one's
 * retrieval records (cache key `connectors.retrievals:<id>`); credentials are never read into a
 * row. A 404 from the list is a `ConnectorPathError`: the connector path is samkit's guess
 * (`SAM_CONNECTORS_PREFIX` sets it).
 *
 * @module
 */

import type { ClientSlice } from "../api/client.ts";
import { explainConnectorNotFound } from "../api/connector_path.ts";
import { toArray } from "../query/collect.ts";
import type { QueryContext } from "../query/context.ts";
import { detailsById } from "../query/details.ts";
import { aggregate } from "../query/group_by.ts";
import { uniqueLabels } from "../query/labels.ts";
import { asc, sortBy } from "../query/sort.ts";
import type { Row } from "../report/model.ts";
import { connectorStatus, MONTH_COUNTS, monthResults } from "./connector_status.ts";
import { RECORD_FIGURES } from "./connector_status.ts";

/** What the rows are read with: the client slice, the run's cache and its abort signal. */
export interface ConnectorContext {
  /** The client (the connectors and their retrieval records). */
  readonly client: ClientSlice<{ connectors: "list" | "retrievals" }>;
  /** The run's query context. */
  readonly query: QueryContext;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
}

/** The rows of both sections. */
export interface ConnectorRows {
  /** One row per connector: status, error code, retrieval figures, month counts. */
  readonly connectors: Row[];
  /** One row per connector and month of the window, connector by connector. */
  readonly months: Row[];
}

/**
 * The connector rows and month rows over the calendar months `months` (most recent first).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { connectorRows } from "./connector_rows.ts";
 * import { monthWindow } from "./connector_status.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const rows = await connectorRows(ctx, monthWindow(ctx.now, 12));
 *   console.log(rows.connectors.length, rows.months.length);
 * });
 * ```
 */
export async function connectorRows(
  ctx: ConnectorContext,
  months: readonly string[],
): Promise<ConnectorRows> {
  // A 404 here means the connector API is not at samkit's guessed path: say so, and how to set it.
  const list = await ctx.query.all("connectors.list", () => ctx.client.connectors.list())
    .catch((error) => {
      throw explainConnectorNotFound(error);
    });
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
  return { connectors: connectorRows, months: monthRows.flat() };
}
