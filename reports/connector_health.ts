/**
 * Connector health: every cloud connector with its status and error code, and for each of the
 * last N calendar months whether a retrieval succeeded, failed or never ran.
 *
 * The window is the N complete calendar months before the month of the run's clock: a month's
 * cost report is retrieved after the month closes, so the current month is not yet due.
 *
 * Month status rules (from the connector's retrieval records of that calendar month; when there
 * are several, the latest decides):
 * - `Failed`: the record carries an error code or has type `failed`;
 * - `In progress`: its type is `inProgress`;
 * - `OK`: its type is `succeeded` (or `success`, `completed`), or it has no type and a last
 *   success time within or after the month;
 * - `Never ran`: no record for the month (or a record with no outcome), while the connector
 *   existed;
 * - `Not created`: no record and the month ended before the connector was created.
 *
 * `Failed` and `Never ran` months are flagged. Credentials (accessKey, secretKey) are never read
 * into a row.
 *
 * @module
 */

import type { Resource } from "../lib/api/catalogue.ts";
import type { ConnectorsApi } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { toArray } from "../lib/query/collect.ts";
import type { Fact, ReportContext, ReportData, Row } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import { compareText, orNull } from "./support/lookups.ts";

type Connector = Resource<"CloudConnector">;
type Retrieval = Resource<"RetrievalInfo">;

/** The slice of the SAM client this report reads. */
export interface ConnectorHealthClient {
  /** Cloud connectors and their retrieval history. */
  readonly connectors: Pick<ConnectorsApi, "list" | "retrievals">;
}

type Ctx = ReportContext<ConnectorHealthClient, QueryContext>;

/** A month's status. */
export type MonthStatus = "OK" | "Failed" | "In progress" | "Never ran" | "Not created";

/** Retrieval types that mean the month was retrieved. */
const SUCCESS_TYPES: ReadonlySet<string> = new Set(["succeeded", "success", "completed", "ok"]);

/**
 * The statuses that are flagged.
 *
 * @example
 * ```ts
 * import { FLAGGED } from "./connector_health.ts";
 * console.log(FLAGGED.has("Failed"), FLAGGED.has("Not created")); // true false
 * ```
 */
export const FLAGGED: ReadonlySet<MonthStatus> = new Set(["Failed", "Never ran"]);

/**
 * The calendar months (`YYYY-MM`) of the window: the `count` months before the month of `now`
 * (UTC), most recent first.
 *
 * @example
 * ```ts
 * import { monthWindow } from "./connector_health.ts";
 * console.log(monthWindow(new Date("2024-02-10T00:00:00Z"), 3)); // ["2024-01","2023-12","2023-11"]
 * ```
 */
export function monthWindow(now: Date, count: number): string[] {
  const out: string[] = [];
  const y = now.getUTCFullYear(), m = now.getUTCMonth();
  for (let i = 1; i <= count; i++) {
    const d = new Date(Date.UTC(y, m - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}

/** The `YYYY-MM` of a retrieval's calendar month (`YYYY-MM-01`), or null when unreadable. */
function monthOf(r: Retrieval): string | null {
  const m = /^(\d{4}-\d{2})/.exec(r.calendarMonth?.trim() ?? "");
  return m ? m[1] : null;
}

const time = (d: Date | null | undefined) => d?.getTime() ?? -Infinity;

/** The latest time of a record (updatedAt, else lastInProgressTime, else lastSuccessTime). */
function latest(r: Retrieval): number {
  return Math.max(time(r.updatedAt), time(r.lastInProgressTime), time(r.lastSuccessTime));
}

/** What one month of a connector came to. */
export interface MonthResult {
  /** The status. */
  readonly status: MonthStatus;
  /** The error code of a failed month. */
  readonly errorCode: string | null;
  /** The last successful retrieval of the month. */
  readonly lastSuccess: Date | null;
  /** The last attempt of the month. */
  readonly lastAttempt: Date | null;
}

/**
 * The status of one month from its retrieval records.
 *
 * @example
 * ```ts
 * import { monthStatus } from "./connector_health.ts";
 * console.log(monthStatus([], "2024-01", null).status); // "Never ran"
 * ```
 */
export function monthStatus(
  records: readonly Retrieval[],
  month: string,
  createdAt: Date | null,
): MonthResult {
  if (records.length === 0) {
    const [y, m] = month.split("-").map(Number);
    const end = Date.UTC(y, m, 1); // first instant after the month
    const status: MonthStatus = createdAt && createdAt.getTime() >= end
      ? "Not created"
      : "Never ran";
    return { status, errorCode: null, lastSuccess: null, lastAttempt: null };
  }
  const last = records.reduce((a, b) => latest(b) > latest(a) ? b : a);
  let lastSuccess: Date | null = null;
  for (const r of records) {
    if (r.lastSuccessTime && time(r.lastSuccessTime) > time(lastSuccess)) {
      lastSuccess = r.lastSuccessTime;
    }
  }
  const attempt = latest(last);
  const lastAttempt = Number.isFinite(attempt) ? new Date(attempt) : null;
  const code = last.errorCode?.trim() || null;
  const type = last.type?.trim().toLowerCase() ?? "";
  const [y, m] = month.split("-").map(Number);
  const start = Date.UTC(y, m - 1, 1);
  let status: MonthStatus;
  if (code || type === "failed") status = "Failed";
  else if (type === "inprogress") status = "In progress";
  else if (SUCCESS_TYPES.has(type)) status = "OK";
  else if (type === "" && lastSuccess && lastSuccess.getTime() >= start) status = "OK";
  else status = "Never ran";
  return { status, errorCode: status === "Failed" ? code : null, lastSuccess, lastAttempt };
}

async function data(ctx: Ctx): Promise<ReportData> {
  const months = monthWindow(ctx.now, ctx.params.months as number);
  const inWindow = new Set(months);
  const connectors = (await ctx.query.all("connectors.list", () => ctx.client.connectors.list()))
    .filter((c) => c.id)
    .sort((a, b) => compareText(a.name ?? "", b.name ?? "") || compareText(a.id!, b.id!));
  const names = new Map<string, number>();
  for (const c of connectors) names.set(c.name ?? "", (names.get(c.name ?? "") ?? 0) + 1);
  const labelOf = (c: Connector) => {
    const name = c.name?.trim() || "(unnamed)";
    return (names.get(c.name ?? "") ?? 0) > 1 || !c.name?.trim() ? `${name} (${c.id})` : name;
  };

  const connectorRows: Row[] = [];
  const monthRows: Row[] = [];
  const counts = { ok: 0, failed: 0, never: 0 };
  const retrievals = ctx.query.fanOut(
    connectors,
    (c) => `connectors.retrievals:${c.id}`,
    async (c) => {
      const records = await orNull(() =>
        toArray(ctx.client.connectors.retrievals(c.id!, { signal: ctx.signal }))
      );
      return records ?? [];
    },
  );
  for await (const [c, records] of retrievals) {
    const byMonth = new Map<string, Retrieval[]>();
    let lastSuccess: Date | null = null;
    for (const r of records) {
      if (r.lastSuccessTime && time(r.lastSuccessTime) > time(lastSuccess)) {
        lastSuccess = r.lastSuccessTime;
      }
      const month = monthOf(r);
      if (!month || !inWindow.has(month)) continue;
      (byMonth.get(month) ?? byMonth.set(month, []).get(month)!).push(r);
    }
    const mine = { ok: 0, failed: 0, never: 0 };
    const label = labelOf(c);
    for (const month of months) {
      const result = monthStatus(byMonth.get(month) ?? [], month, c.createdAt);
      if (result.status === "OK") mine.ok++;
      if (result.status === "Failed") mine.failed++;
      if (result.status === "Never ran") mine.never++;
      monthRows.push({
        connector: label,
        month,
        status: result.status,
        errorCode: result.errorCode,
        lastSuccess: result.lastSuccess,
        lastAttempt: result.lastAttempt,
        flagged: FLAGGED.has(result.status),
      });
    }
    counts.ok += mine.ok;
    counts.failed += mine.failed;
    counts.never += mine.never;
    connectorRows.push({
      connector: label,
      id: c.id,
      type: c.type,
      createdAt: c.createdAt,
      status: c.status?.type ?? null,
      errorCode: c.status?.errorCode?.trim() || null,
      statusUpdatedAt: c.status?.updatedAt ?? null,
      lastSuccess,
      retrievals: records.length,
      monthsOk: mine.ok,
      monthsFailed: mine.failed,
      monthsNeverRan: mine.never,
    });
  }

  const bad = (row: Row) =>
    row.status === "Failed" ? "bad" : row.status === "Never ran" ? "warn" : undefined;
  return {
    sections: [
      {
        id: "connectors",
        title: "Cloud connectors",
        description: `Each connector's current status and error code, its last successful ` +
          `retrieval ever, its number of retrieval records, and how the ${months.length} ` +
          `complete calendar months before the report date went.`,
        columns: [
          { key: "connector", label: "Connector", type: "text", width: 28 },
          { key: "type", label: "Type", type: "text", width: 22 },
          { key: "createdAt", label: "Created", type: "date" },
          { key: "status", label: "Status", type: "text" },
          {
            key: "errorCode",
            label: "Error code",
            type: "text",
            width: 24,
            emphasis: (r) => r.errorCode ? "bad" : undefined,
          },
          { key: "statusUpdatedAt", label: "Status updated", type: "datetime" },
          { key: "lastSuccess", label: "Last successful retrieval", type: "datetime" },
          { key: "retrievals", label: "Retrieval records", type: "integer" },
          { key: "monthsOk", label: "Months OK", type: "integer" },
          {
            key: "monthsFailed",
            label: "Months failed",
            type: "integer",
            emphasis: (r) => (r.monthsFailed as number) > 0 ? "bad" : undefined,
          },
          {
            key: "monthsNeverRan",
            label: "Months never ran",
            type: "integer",
            emphasis: (r) => (r.monthsNeverRan as number) > 0 ? "warn" : undefined,
          },
        ],
        rows: connectorRows,
        totals: { sum: ["monthsOk", "monthsFailed", "monthsNeverRan"] },
        emptyText: "No cloud connector is configured.",
      },
      {
        id: "months",
        title: "Retrievals per calendar month",
        description: "One row per connector and month, most recent month first. Failed and " +
          "never-run months are flagged; months before a connector was created are marked " +
          "Not created.",
        columns: [
          { key: "connector", label: "Connector", type: "text", width: 28 },
          { key: "month", label: "Month", type: "text", width: 10 },
          { key: "status", label: "Status", type: "text", emphasis: bad },
          { key: "errorCode", label: "Error code", type: "text", width: 24, emphasis: bad },
          { key: "lastSuccess", label: "Last successful retrieval", type: "datetime" },
          { key: "lastAttempt", label: "Last attempt", type: "datetime" },
          { key: "flagged", label: "Flagged", type: "boolean", emphasis: bad },
        ],
        rows: monthRows,
        group: { by: "connector", label: "Connector" },
        emptyText: "No cloud connector is configured, so there is no retrieval history.",
      },
    ],
    summary: (): Fact[] => [
      { label: "Connectors", value: connectorRows.length, type: "integer" },
      {
        label: "Connectors in error",
        value: connectorRows.filter((r) => r.errorCode !== null || r.status === "failed").length,
        type: "integer",
      },
      { label: "Months OK", value: counts.ok, type: "integer" },
      { label: "Months failed", value: counts.failed, type: "integer" },
      { label: "Months never ran", value: counts.never, type: "integer" },
    ],
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
