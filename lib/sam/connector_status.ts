/**
 * How a cloud connector's health is judged: its current status (in error or not), the window of
 * complete calendar months before the run's month, and how each month's retrieval went.
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
 * @module
 */

import { count, max, type Measure } from "../query/measures.ts";
import type { HeatMapStatus } from "../report/model.ts";
import type { RetrievalInfo as Retrieval } from "../api/types.ts";

/** A month's status. */
export type MonthStatus = "OK" | "Failed" | "In progress" | "Never ran" | "Not created";

/** Retrieval types that mean the month was retrieved. */
const SUCCESS_TYPES: ReadonlySet<string> = new Set(["succeeded", "success", "completed", "ok"]);

/**
 * The statuses that are flagged.
 *
 * @example
 * ```ts
 * import { FLAGGED } from "./connector_status.ts";
 * console.log(FLAGGED.has("Failed"), FLAGGED.has("Not created")); // true false
 * ```
 */
export const FLAGGED: ReadonlySet<MonthStatus> = new Set(["Failed", "Never ran"]);

/**
 * The month statuses as a heat map shows them, in legend order: each in words, with its tone.
 *
 * @example
 * ```ts
 * import { MONTH_STATUSES } from "./connector_status.ts";
 * console.log(MONTH_STATUSES.map((s) => s.value).join(", "));
 * // "OK, In progress, Failed, Never ran, Not created"
 * ```
 */
export const MONTH_STATUSES: readonly (HeatMapStatus & { readonly value: MonthStatus })[] = [
  { value: "OK", tone: "good" },
  { value: "In progress", tone: "neutral" },
  { value: "Failed", tone: "bad" },
  { value: "Never ran", tone: "warn" },
  { value: "Not created", tone: "none" },
];

/**
 * The emphasis of a month row by its `status`: `bad` when failed, `warn` when it never ran.
 *
 * @example
 * ```ts
 * import { statusEmphasis } from "./connector_status.ts";
 * console.log(statusEmphasis({ status: "Never ran" })); // "warn"
 * ```
 */
export function statusEmphasis(row: { readonly status?: unknown }): "bad" | "warn" | undefined {
  return row.status === "Failed" ? "bad" : row.status === "Never ran" ? "warn" : undefined;
}

/**
 * The calendar months (`YYYY-MM`) of the window: the `count` months before the month of `now`
 * (UTC), most recent first.
 *
 * @example
 * ```ts
 * import { monthWindow } from "./connector_status.ts";
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

function noRecord(month: string, createdAt: Date | null): MonthResult {
  const [y, m] = month.split("-").map(Number);
  const end = Date.UTC(y, m, 1); // first instant after the month
  const status: MonthStatus = createdAt && createdAt.getTime() >= end ? "Not created" : "Never ran";
  return { status, errorCode: null, lastSuccess: null, lastAttempt: null };
}

/**
 * The status of one month from its retrieval records.
 *
 * @example
 * ```ts
 * import { monthStatus } from "./connector_status.ts";
 * console.log(monthStatus([], "2024-01", null).status); // "Never ran"
 * ```
 */
export function monthStatus(
  records: readonly Retrieval[],
  month: string,
  createdAt: Date | null,
): MonthResult {
  if (records.length === 0) return noRecord(month, createdAt);
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

/**
 * Each month of the window with its result and whether it is {@link FLAGGED}, in window order,
 * from a connector's records (those of other months are ignored).
 *
 * @example
 * ```ts
 * import { monthResults } from "./connector_status.ts";
 * const records = [{ calendarMonth: "2024-01-01", type: "succeeded" }];
 * console.log(monthResults(records, ["2024-01", "2023-12"], null).map((m) => m.status));
 * // ["OK", "Never ran"]
 * ```
 */
export function monthResults(
  records: readonly Partial<Retrieval>[],
  months: readonly string[],
  createdAt: Date | null,
): ({ readonly month: string; readonly flagged: boolean } & MonthResult)[] {
  const byMonth = Map.groupBy(records as readonly Retrieval[], monthOf);
  return months.map((month) => {
    const result = monthStatus(byMonth.get(month) ?? [], month, createdAt);
    return { month, ...result, flagged: FLAGGED.has(result.status) };
  });
}

/** The words of the connectors' status types (the API's codes). */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  succeeded: "OK",
  success: "OK",
  completed: "OK",
  ok: "OK",
  failed: "Failed",
  inprogress: "In progress",
  notstarted: "Not started",
};

/**
 * A connector status type in words, the vocabulary of the month statuses where they share a
 * meaning (`succeeded` → `OK`, `failed` → `Failed`, `inProgress` → `In progress`, `notStarted`
 * → `Not started`); another code is spelled out from its camel case; none is `null`.
 *
 * @example
 * ```ts
 * import { statusInWords } from "./connector_status.ts";
 * console.log(statusInWords("notStarted"), statusInWords("pausedByUser")); // "Not started" "Paused by user"
 * ```
 */
export function statusInWords(type: string | null | undefined): string | null {
  const code = type?.trim();
  if (!code) return null;
  const known = STATUS_WORDS[code.toLowerCase()];
  if (known) return known;
  const words = code.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A connector's current status: its type in words ({@link statusInWords}), its error code
 * (trimmed; `null` when blank) and when it was updated.
 *
 * @example
 * ```ts
 * import { connectorStatus } from "./connector_status.ts";
 * console.log(connectorStatus({ status: { type: "failed", errorCode: " E1 " } }));
 * // { status: "Failed", errorCode: "E1", statusUpdatedAt: null }
 * ```
 */
export function connectorStatus(connector: {
  readonly status?: {
    readonly type?: string | null;
    readonly errorCode?: string | null;
    readonly updatedAt?: Date | null;
  } | null;
}): {
  status: string | null;
  errorCode: string | null;
  statusUpdatedAt: Date | null;
} {
  const status = connector.status;
  return {
    status: statusInWords(status?.type),
    errorCode: status?.errorCode?.trim() || null,
    statusUpdatedAt: status?.updatedAt ?? null,
  };
}

/**
 * Whether a connector is in error: its status carries an error code or is `Failed` (in words, as
 * {@link connectorStatus} gives it).
 *
 * @example
 * ```ts
 * import { inError } from "./connector_status.ts";
 * console.log(inError({ errorCode: null, status: "Failed" })); // true
 * ```
 */
export function inError(row: { readonly errorCode?: unknown; readonly status?: unknown }): boolean {
  return (row.errorCode !== null && row.errorCode !== undefined) || row.status === "Failed";
}

/**
 * The measures counting months by outcome (for `aggregate`/`groupBy` over month results):
 * months OK, failed and never run.
 *
 * @example
 * ```ts
 * import { MONTH_COUNTS } from "./connector_status.ts";
 * import { aggregate } from "../query/group_by.ts";
 * console.log(aggregate([{ status: "OK" as const }], MONTH_COUNTS));
 * // { monthsOk: 1, monthsFailed: 0, monthsNeverRan: 0 }
 * ```
 */
export const MONTH_COUNTS: {
  readonly monthsOk: Measure<{ readonly status: MonthStatus }, number>;
  readonly monthsFailed: Measure<{ readonly status: MonthStatus }, number>;
  readonly monthsNeverRan: Measure<{ readonly status: MonthStatus }, number>;
} = {
  monthsOk: count<{ readonly status: MonthStatus }>((m) => m.status === "OK"),
  monthsFailed: count<{ readonly status: MonthStatus }>((m) => m.status === "Failed"),
  monthsNeverRan: count<{ readonly status: MonthStatus }>((m) => m.status === "Never ran"),
};

/**
 * The measures of a connector's retrieval records: how many there are and the last successful
 * retrieval ever.
 *
 * @example
 * ```ts
 * import { RECORD_FIGURES } from "./connector_status.ts";
 * import { aggregate } from "../query/group_by.ts";
 * console.log(aggregate([{ lastSuccessTime: null }], RECORD_FIGURES));
 * // { retrievals: 1, lastSuccess: null }
 * ```
 */
export const RECORD_FIGURES: {
  readonly retrievals: Measure<Pick<Retrieval, "lastSuccessTime">, number>;
  readonly lastSuccess: Measure<Pick<Retrieval, "lastSuccessTime">, Date | null>;
} = {
  retrievals: count<Pick<Retrieval, "lastSuccessTime">>(),
  lastSuccess: max<Pick<Retrieval, "lastSuccessTime">, Date>((r) => r.lastSuccessTime),
};
