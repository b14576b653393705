/**
 * The rows of the stale-computers report: each computer with its scan age and flags
 * (`scan_age.ts`) and its organisation by name (else the id); the counts per organisation; and
 * the flagged computers, longest unscanned first per organisation, with the quarantine date of
 * the quarantined ones (one detail call each, through the run's fan-out, cache key
 * `estate.computer:<id>`).
 *
 * @module
 */

import type { ClientSlice } from "../api/client.ts";
import { toArray } from "../query/collect.ts";
import type { QueryContext } from "../query/context.ts";
import { detailsById } from "../query/details.ts";
import { groupBy } from "../query/group_by.ts";
import { count, min } from "../query/measures.ts";
import { organizationLabel, organizationNames } from "../query/names.ts";
import { asc, desc, sortBy } from "../query/sort.ts";
import { type ScanAge, scanAge } from "./scan_age.ts";

/** What the rows are read with: the client slice, the run's cache, filter and clock. */
export interface StaleContext {
  /** The client (computers, a computer's detail, the organisation tree). */
  readonly client: ClientSlice<{ estate: "computers" | "computer"; organizations: "tree" }>;
  /** The run's query context. */
  readonly query: QueryContext;
  /** The user's computer filter. */
  readonly filter?: string;
  /** The run's clock. */
  readonly now: Date;
}

/** A computer with its scan age, flags and organisation. */
export type StaleComputer = ScanAge & {
  readonly id: string;
  readonly hostName: string | null;
  readonly status: string | null;
  /** The organisation id (trimmed), `null` when none. */
  readonly organizationId: string | null;
  /** The organisation's name, else its id, else `(no organization)`. */
  readonly organization: string;
};

/**
 * Every computer (with an id) of the user's filter, stale from `days` days.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { staleComputerRows } from "./stale_computer_rows.ts";
 * await withReferenceContext({ computers: 60 }, async (ctx) => {
 *   const computers = await staleComputerRows(ctx, 30);
 *   console.log(computers.length, computers.filter((c) => c.flagged).length); // 60 and those flagged
 * });
 * ```
 */
export async function staleComputerRows(ctx: StaleContext, days: number): Promise<StaleComputer[]> {
  const names = await organizationNames(ctx);
  const computers = await toArray(ctx.client.estate.computers({ filter: ctx.filter }));
  return computers.filter((c) => c.id).map((c) => ({
    ...scanAge(c, ctx.now, days),
    ...{ id: c.id!, hostName: c.hostName, status: c.status },
    organizationId: c.organizationId?.trim() || null,
    organization: organizationLabel(names, c.organizationId?.trim() ?? ""),
  }));
}

/** One organisation's stale-computer counts: what {@link perOrganization} returns. */
export type StaleOrganizationRow = {
  /** The organisation's name. */
  organization: string;
  /** Its id, or null for computers of no organisation. */
  organizationId: string | null;
  /** Computers. */
  computers: number;
  /** Computers not scanned within the threshold. */
  stale: number;
  /** Computers never scanned. */
  neverScanned: number;
  /** Computers quarantined. */
  quarantined: number;
  /** Computers flagged (stale, never scanned or quarantined). */
  flagged: number;
  /** The oldest last scan, or null. */
  oldestScan: Date | null;
  /** The share flagged (0 to 1). */
  share: number;
};

/**
 * Per organisation (by name, then id): computers, stale, never scanned, quarantined and flagged
 * counts, the share flagged and the oldest scan.
 *
 * @example
 * ```ts
 * import { perOrganization } from "./stale_computer_rows.ts";
 * const c = { organization: "Sales", organizationId: "O1", stale: true, quarantined: false };
 * const row = { ...c, flagged: true, daysSinceScan: null, lastScan: null };
 * console.log(perOrganization([row, { ...row, flagged: false }])[0].share); // 0.5
 * ```
 */
export function perOrganization(
  computers: readonly Pick<
    StaleComputer,
    | "organization"
    | "organizationId"
    | "stale"
    | "daysSinceScan"
    | "quarantined"
    | "flagged"
    | "lastScan"
  >[],
): StaleOrganizationRow[] {
  const organizations = groupBy(computers, (c) => ({
    organization: c.organization,
    organizationId: c.organizationId,
  }), {
    computers: count(),
    stale: count((c) => c.stale),
    neverScanned: count((c) => c.daysSinceScan === null),
    quarantined: count((c) => c.quarantined),
    flagged: count((c) => c.flagged),
    oldestScan: min((c) => c.lastScan),
  });
  return sortBy(organizations, asc((o) => o.organization), asc((o) => o.organizationId ?? ""))
    .map((o) => ({ ...o, share: o.computers ? o.flagged / o.computers : 0 }));
}

/**
 * The flagged computers by organisation, longest unscanned first (never scanned first), then by
 * host name and id, each with its quarantine date (`null` unless quarantined and known).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { flaggedComputers, staleComputerRows } from "./stale_computer_rows.ts";
 * await withReferenceContext({ computers: 60 }, async (ctx) => {
 *   const flagged = await flaggedComputers(ctx, await staleComputerRows(ctx, 30));
 *   console.log(flagged[0]?.hostName, flagged[0]?.quarantineDate);
 * });
 * ```
 */
export async function flaggedComputers(
  ctx: StaleContext,
  computers: readonly StaleComputer[],
): Promise<(StaleComputer & { readonly quarantineDate: Date | null })[]> {
  const flagged = computers.filter((c) => c.flagged);
  const quarantined = flagged.filter((c) => c.quarantined);
  const details = await detailsById(
    ctx,
    quarantined,
    "estate.computer",
    ctx.client.estate.computer,
  );
  return sortBy(
    flagged,
    asc((c) => c.organization),
    asc((c) => c.organizationId ?? ""),
    desc((c) => c.daysSinceScan),
    asc((c) => c.hostName ?? ""),
    asc((c) => c.id),
  ).map((c) => ({ ...c, quarantineDate: details.get(c.id!)?.quarantineDate ?? null }));
}
