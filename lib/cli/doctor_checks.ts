/**
 * `samkit doctor`'s checks, in order: the token (taken from the first read), one read per API
 * area, then the service rows; and from them which reports can run.
 *
 * @module
 */

import type { SamClient } from "../api/client.ts";
import { AuthError, NetworkError } from "../api/errors.ts";
import { TOKEN_PATH } from "../api/operations.ts";
import { type AreaId, DOCTOR_AREAS, REPORT_AREAS } from "./doctor_areas.ts";
import type { ResponseObserver } from "./doctor_observer.ts";
import { areaRow, probeArea, type ProbeContext, type ProbeOutcome } from "./doctor_probe.ts";
import { type DoctorRow, errorLine, genericFix, statusAt } from "./doctor_row.ts";
import {
  clockRow,
  dialectRow,
  pageSizeRow,
  rateLimitRow,
  registryPathRow,
} from "./doctor_service_rows.ts";

/** Whether each report can run, and which failed checks stop it. */
export interface ReportReadiness {
  /** The report id. */
  readonly id: string;
  /** Whether every check it needs passed. */
  readonly runs: boolean;
  /** The failed checks that stop it (empty when it runs). */
  readonly blockedBy: readonly string[];
}

/** The doctor's findings. */
export interface DoctorResult {
  /** Every report can run: no row is `FAIL`. */
  readonly ready: boolean;
  /** The rows, in the table's order. */
  readonly rows: readonly DoctorRow[];
  /** Each report that reads the SAM API, and whether it can run. */
  readonly reports: readonly ReportReadiness[];
}

/** The token row, from the first read (a 403 still means the token was accepted). */
function tokenRow(observer: ResponseObserver, first: ProbeOutcome): DoctorRow {
  const issued = observer.tokenResponses.some((r) => r.status >= 200 && r.status < 300);
  const how = observer.tokenResponses.length ? "client credentials" : "bearer token (SAM_TOKEN)";
  if (first.ok || !(first.error instanceof AuthError || first.error instanceof NetworkError)) {
    const detail = issued
      ? `client credentials: token issued by POST ${TOKEN_PATH} and accepted`
      : `${how} accepted`;
    return { check: "token", status: "ok", detail };
  }
  const error = first.error;
  const fix = error instanceof NetworkError
    ? genericFix(error)
    : observer.tokenResponses.length && !issued
    ? "check SAM_CLIENT_ID and SAM_CLIENT_SECRET: they must be the tenant's API client " +
      "(client credentials grant); the token endpoint refused them"
    : "the service refused the token (expired or revoked?): get a fresh one, or set " +
      "SAM_CLIENT_ID and SAM_CLIENT_SECRET so samkit fetches and renews tokens itself";
  return {
    check: "token",
    status: "FAIL",
    detail: `${how}: ${statusAt(error)}: ${errorLine(error)}`,
    fix,
  };
}

/** Which reports can run given the rows: a report needs the token, its areas and page size. */
function readiness(rows: readonly DoctorRow[]): ReportReadiness[] {
  const failed = new Set(rows.filter((r) => r.status === "FAIL").map((r) => r.check));
  const unchecked = new Set(rows.filter((r) => r.status === "skip").map((r) => r.check));
  const global = ["token", "page size"].filter((c) => failed.has(c));
  return Object.entries(REPORT_AREAS).map(([id, areas]) => {
    const blockedBy = global.length
      ? global
      : areas.needs.filter((a) => failed.has(a) || unchecked.has(a));
    return { id, runs: blockedBy.length === 0, blockedBy };
  });
}

/** The area rows; all `skip` when the token failed. */
async function areaRows(client: SamClient, first: ProbeOutcome, tokenOk: boolean) {
  const outcomes = new Map<AreaId, ProbeOutcome>();
  const rows: DoctorRow[] = [];
  const ctx: ProbeContext = {};
  for (const area of DOCTOR_AREAS) {
    if (!tokenOk) {
      rows.push({ check: area.id, status: "skip", detail: "needs a token" });
      continue;
    }
    if (area.id === "compliance" && ctx.applicationId === undefined) {
      rows.push({ check: area.id, status: "skip", detail: "no application to ask about" });
      continue;
    }
    // The first area's read was made already: it told whether the token is accepted.
    const outcome = area === DOCTOR_AREAS[0] ? first : await probeArea(client, area, ctx);
    outcomes.set(area.id, outcome);
    rows.push(areaRow(area, outcome));
  }
  return { rows, answered: (id: AreaId) => outcomes.get(id)?.ok === true };
}

/**
 * Runs every check against `client`, whose fetch `observer` wraps.
 *
 * @example
 * ```ts ignore
 * import { openSource } from "./source.ts";
 * import { ResponseObserver } from "./doctor_observer.ts";
 * import { runDoctor } from "./doctor_checks.ts";
 * const observer = new ResponseObserver();
 * const api = await openSource({ wrapFetch: (f) => observer.wrap(f) });
 * const result = await runDoctor(api.client, observer);
 * console.log(result.ready);
 * await api.close();
 * ```
 */
export async function runDoctor(
  client: SamClient,
  observer: ResponseObserver,
): Promise<DoctorResult> {
  const first = await probeArea(client, DOCTOR_AREAS[0]!, {});
  const token = tokenRow(observer, first);
  const tokenOk = token.status === "ok";
  const areas = await areaRows(client, first, tokenOk);
  const service: DoctorRow[] = tokenOk
    ? [
      registryPathRow(client, areas.answered("registry")),
      await dialectRow(client, areas.answered("licenses")),
      await pageSizeRow(client, areas.answered("licenses")),
      rateLimitRow(observer),
      clockRow(observer),
    ]
    : ["registry path", "dialect", "page size", "rate-limit headers", "clock skew"].map((
      check,
    ) => ({
      check,
      status: "skip" as const,
      detail: "needs a token",
    }));
  const rows = [token, ...areas.rows, ...service];
  return { ready: !rows.some((r) => r.status === "FAIL"), rows, reports: readiness(rows) };
}
