/**
 * One cheap read per API area (a page of one item; the organisation tree, which is not paged,
 * whole) and the readiness row it gives: the scope granted, or what a 403 or 404 means and
 * which reports it blocks.
 *
 * @module
 */

import type { Page, SamClient } from "../api/client.ts";
import { NotFoundError, PermissionError } from "../api/errors.ts";
import { areaScope, type DoctorArea, reportsAffectedBy } from "./doctor_areas.ts";
import { type DoctorRow, errorLine, genericFix, statusAt } from "./doctor_row.ts";

/** What a probe read: the first page, or the error it met. */
export type ProbeOutcome =
  | { readonly ok: true; readonly page: Page<Record<string, unknown>> }
  | { readonly ok: false; readonly error: unknown };

/** Ids the probes pass on (the compliance probe needs an application). */
export interface ProbeContext {
  /** An application id, from the registry or a license, once one was read. */
  applicationId?: string;
}

async function firstPage(paged: {
  pages(): AsyncIterableIterator<Page<unknown>>;
}): Promise<Page<Record<string, unknown>>> {
  const pages = paged.pages();
  try {
    const first = await pages.next();
    return (first.done ? { items: [], pageNumber: 1 } : first.value) as Page<
      Record<string, unknown>
    >;
  } finally {
    await pages.return?.();
  }
}

/** The read each area's probe makes; `undefined` when it has nothing to ask about. */
const READS: Readonly<
  Record<string, (c: SamClient, ctx: ProbeContext) => Promise<Page<Record<string, unknown>>>>
> = {
  computers: (c) => firstPage(c.estate.computers({ pageSize: 1 })),
  clusters: (c) => firstPage(c.estate.dataCenterClusters({ pageSize: 1 })),
  users: (c) => firstPage(c.estate.userAccounts({ pageSize: 1 })),
  licenses: (c) => firstPage(c.licenses.list({ pageSize: 1 })),
  registry: (c) => firstPage(c.registry.applications({ pageSize: 1 })),
  compliance: (c, ctx) =>
    firstPage(c.licenses.complianceSummary(ctx.applicationId!, { pageSize: 1 })),
  organizations: (c) => firstPage(c.organizations.tree()),
  connectors: (c) => firstPage(c.connectors.list({ pageSize: 1 })),
};

/**
 * Reads one page of the area; records in `ctx` an application id it saw.
 *
 * @example
 * ```ts ignore
 * import { DOCTOR_AREAS } from "./doctor_areas.ts";
 * import { probeArea } from "./doctor_probe.ts";
 * const outcome = await probeArea(client, DOCTOR_AREAS[0]!, {});
 * console.log(outcome.ok);
 * ```
 */
export async function probeArea(
  client: SamClient,
  area: DoctorArea,
  ctx: ProbeContext,
): Promise<ProbeOutcome> {
  try {
    const page = await READS[area.id]!(client, ctx);
    const item = page.items[0];
    const appId = area.id === "registry"
      ? item?.id
      : area.id === "licenses"
      ? item?.applicationId
      : undefined;
    if (typeof appId === "string" && ctx.applicationId === undefined) ctx.applicationId = appId;
    return { ok: true, page };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The scope of an area in words, and its name when the public service names one. */
function scopeText(area: DoctorArea): { text: string; name?: string } {
  const scope = areaScope(area);
  return scope ? { text: `scope ${scope}`, name: scope } : { text: "its scope" };
}

/** What to do about a refused read of an area. */
function refusalFix(area: DoctorArea, error: unknown): string {
  const scope = scopeText(area);
  if (error instanceof PermissionError) {
    return scope.name
      ? `grant the API client the scope ${scope.name} (tenant administrator), then run doctor again`
      : `ask the tenant administrator for read access to the ${area.label} (the public ` +
        "service's documents name no scope for it)";
  }
  if (area.id === "connectors") {
    return "samkit's connector path is its own guess (no public document gives it): set " +
      "SAM_CONNECTORS_PREFIX to the tenant's connector API path, or leave connector-health out";
  }
  if (area.id === "registry") {
    return "set --registry-prefix (or SAM_REGISTRY_PREFIX) to the registry path the tenant uses";
  }
  return "check that the base URL points at the SAM API";
}

/**
 * The readiness row of an area's probe: `ok` with the scope granted, else `FAIL` when a report
 * needs the area (naming them), `warn` when reports only run with less or none reads it.
 *
 * @example
 * ```ts
 * import { DOCTOR_AREAS } from "./doctor_areas.ts";
 * import { areaRow } from "./doctor_probe.ts";
 * const row = areaRow(DOCTOR_AREAS[0]!, { ok: true, page: { items: [], pageNumber: 1, totalItems: 412 } });
 * console.log(row.status, row.detail); // "ok" "scope sam.computer.r granted: 412 computers"
 * ```
 */
export function areaRow(area: DoctorArea, outcome: ProbeOutcome): DoctorRow {
  const scope = scopeText(area);
  const named = scope.name ? { scope: scope.name } : {};
  if (outcome.ok) {
    // The tree is not paged: its one page is every node.
    const total = area.id === "organizations" ? outcome.page.items.length : outcome.page.totalItems;
    const noun = total === 1 ? area.noun.replace(/s$/, "") : area.noun;
    const what = total === undefined ? `the ${area.label} answered` : `${total} ${noun}`;
    const granted = scope.name ? `scope ${scope.name} granted: ` : "";
    return { check: area.id, status: "ok", detail: `${granted}${what}`, ...named };
  }
  const { blocks, thins } = reportsAffectedBy(area.id);
  const error = outcome.error;
  const reason = error instanceof PermissionError
    ? `the API client lacks ${scope.text}`
    : error instanceof NotFoundError
    ? "the service does not answer there"
    : errorLine(error);
  const effect = blocks.length
    ? `; blocks ${blocks.join(", ")}`
    : thins.length
    ? `; ${thins.join(", ")} run with ${area.withoutIt ?? "less"}`
    : "; no report reads it";
  const fix = error instanceof PermissionError || error instanceof NotFoundError
    ? refusalFix(area, error)
    : genericFix(error);
  return {
    check: area.id,
    status: blocks.length ? "FAIL" : "warn",
    detail: `${statusAt(error)}: ${reason}${effect}`,
    fix,
    ...named,
    ...(blocks.length ? { blocks } : {}),
    ...(thins.length ? { thins } : {}),
  };
}
