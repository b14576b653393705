/**
 * Stale computers: computers not scanned for N days (or never scanned) and quarantined computers,
 * by organisation, with days since the last scan, status and quarantine date.
 *
 * Organisations are shown by name (the organisation tree, read once per run; the id when the
 * service has no tree), their ids in a column of their own in the per-organisation section.
 *
 * The computer list has everything but the quarantine date, so only quarantined computers get a
 * detail call (one per computer, through the run's fan-out, cache key `estate.computer:<id>`).
 *
 * @module
 */

import type { Resource } from "../lib/api/catalogue.ts";
import type { EstateApi, OrganizationsApi } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import type { Fact, ReportContext, ReportData, Row } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import { compareText, detailsById } from "./support/lookups.ts";
import { organizationLabel, organizationNames } from "./support/names.ts";

type Computer = Resource<"Computer">;

/** The slice of the SAM client this report reads. */
export interface StaleComputersClient {
  /** Computers and one computer's detail. */
  readonly estate: Pick<EstateApi, "computers" | "computer">;
  /** The organisation tree (names). */
  readonly organizations: Pick<OrganizationsApi, "tree">;
}

type Ctx = ReportContext<StaleComputersClient, QueryContext>;

const DAY = 86_400_000;

/**
 * Whole days from `then` to `now` (0 when `then` is later), or null when `then` is missing.
 *
 * @example
 * ```ts
 * import { daysSince } from "./stale_computers.ts";
 * console.log(daysSince(new Date("2024-01-01T00:00:00Z"), new Date("2024-01-31T12:00:00Z"))); // 30
 * ```
 */
export function daysSince(then: Date | null, now: Date): number | null {
  if (!then || Number.isNaN(then.getTime())) return null;
  return Math.max(0, Math.floor((now.getTime() - then.getTime()) / DAY));
}

interface Flagged {
  id: string;
  /** The organisation id, `""` for none. */
  organization: string;
  hostName: string | null;
  status: string | null;
  lastScan: Date | null;
  days: number | null;
  stale: boolean;
  quarantined: boolean;
}

interface OrgCount {
  computers: number;
  stale: number;
  never: number;
  quarantined: number;
  flagged: number;
  oldest: Date | null;
}

async function data(ctx: Ctx): Promise<ReportData> {
  const days = ctx.params.days as number;
  const orgs = new Map<string, OrgCount>();
  const flagged: Flagged[] = [];
  const source = ctx.client.estate.computers({ filter: ctx.filter, signal: ctx.signal });
  for await (const c of source) {
    if (!c.id) continue;
    const organization = c.organizationId?.trim() ?? "";
    let org = orgs.get(organization);
    if (!org) {
      orgs.set(
        organization,
        org = { computers: 0, stale: 0, never: 0, quarantined: 0, flagged: 0, oldest: null },
      );
    }
    org.computers++;
    const since = daysSince(c.lastScanDate, ctx.now);
    const stale = since === null || since >= days;
    const quarantined = c.status?.trim().toLowerCase() === "quarantined";
    if (since === null) org.never++;
    else if (!org.oldest || c.lastScanDate! < org.oldest) org.oldest = c.lastScanDate;
    if (stale) org.stale++;
    if (quarantined) org.quarantined++;
    if (!stale && !quarantined) continue;
    org.flagged++;
    flagged.push({
      id: c.id,
      organization,
      hostName: c.hostName,
      status: c.status,
      lastScan: c.lastScanDate,
      days: since,
      stale,
      quarantined,
    });
  }

  const names = await organizationNames(ctx);
  const label = (id: string) => organizationLabel(names, id);
  const details = await detailsById(
    ctx,
    flagged.filter((f) => f.quarantined),
    "estate.computer",
    (id) => ctx.client.estate.computer(id, { signal: ctx.signal }),
  );

  flagged.sort((a, b) =>
    compareText(label(a.organization), label(b.organization)) ||
    compareText(a.organization, b.organization) ||
    (b.days ?? Infinity) - (a.days ?? Infinity) ||
    compareText(a.hostName ?? "", b.hostName ?? "") ||
    compareText(a.id, b.id)
  );
  const detailRows: Row[] = flagged.map((f) => ({
    organization: label(f.organization),
    hostName: f.hostName,
    computerId: f.id,
    status: f.status,
    lastScan: f.lastScan,
    daysSinceScan: f.days,
    stale: f.stale,
    quarantined: f.quarantined,
    quarantineDate: details.get(f.id)?.quarantineDate ?? null,
    reason: [
      f.stale ? (f.days === null ? "Never scanned" : `Not scanned for ${f.days} days`) : null,
      f.quarantined ? "Quarantined" : null,
    ].filter(Boolean).join("; "),
  }));

  const orgRows: Row[] = [...orgs.entries()].sort(([a], [b]) =>
    compareText(label(a), label(b)) || compareText(a, b)
  ).map(([o, c]) => ({
    organization: label(o),
    organizationId: o || null,
    computers: c.computers,
    stale: c.stale,
    neverScanned: c.never,
    quarantined: c.quarantined,
    flagged: c.flagged,
    share: c.computers ? c.flagged / c.computers : 0,
    oldestScan: c.oldest,
  }));

  const total = (key: keyof OrgCount) =>
    [...orgs.values()].reduce((n, c) => n + (c[key] as number), 0);
  return {
    sections: [
      {
        id: "organizations",
        title: "Stale and quarantined computers per organization",
        description: `Computers not scanned for ${days} days or more (never-scanned computers ` +
          `included) and quarantined computers, counted per organization.`,
        columns: [
          { key: "organization", label: "Organization", type: "text", width: 20 },
          { key: "organizationId", label: "Organization id", type: "text", width: 10 },
          { key: "computers", label: "Computers", type: "integer" },
          {
            key: "stale",
            label: `Not scanned ${days}+ days`,
            type: "integer",
            emphasis: (r) => (r.stale as number) > 0 ? "warn" : undefined,
          },
          { key: "neverScanned", label: "Never scanned", type: "integer" },
          {
            key: "quarantined",
            label: "Quarantined",
            type: "integer",
            emphasis: (r) => (r.quarantined as number) > 0 ? "bad" : undefined,
          },
          { key: "flagged", label: "Stale or quarantined", type: "integer" },
          { key: "share", label: "Share flagged", type: "percent" },
          { key: "oldestScan", label: "Oldest scan", type: "date" },
        ],
        rows: orgRows,
        totals: { sum: ["computers", "stale", "neverScanned", "quarantined", "flagged"] },
        emptyText: "No computers match these parameters.",
      },
      {
        id: "computers",
        title: "Stale and quarantined computers",
        description: "Each flagged computer, grouped by organization, longest unscanned first.",
        columns: [
          { key: "organization", label: "Organization", type: "text", width: 20 },
          { key: "hostName", label: "Computer", type: "text", width: 24 },
          { key: "status", label: "Status", type: "text" },
          { key: "lastScan", label: "Last scan", type: "datetime" },
          {
            key: "daysSinceScan",
            label: "Days since scan",
            type: "integer",
            emphasis: (r) => r.stale ? "warn" : undefined,
          },
          { key: "stale", label: "Stale", type: "boolean" },
          {
            key: "quarantined",
            label: "Quarantined",
            type: "boolean",
            emphasis: (r) => r.quarantined ? "bad" : undefined,
          },
          { key: "quarantineDate", label: "Quarantine date", type: "date" },
          { key: "reason", label: "Reason", type: "text", width: 28 },
        ],
        rows: detailRows,
        group: { by: "organization", label: "Organization" },
        totals: { sum: [] },
        emptyText: `Every computer was scanned in the last ${days} days and none is quarantined.`,
      },
    ],
    summary: (): Fact[] => [
      { label: "Computers checked", value: total("computers"), type: "integer" },
      { label: `Not scanned for ${days}+ days`, value: total("stale"), type: "integer" },
      { label: "Never scanned", value: total("never"), type: "integer" },
      { label: "Quarantined", value: total("quarantined"), type: "integer" },
      {
        label: "Organizations affected",
        value: [...orgs.values()].filter((c) => c.flagged > 0).length,
        type: "integer",
      },
    ],
  };
}

/**
 * The stale computers report.
 *
 * @example
 * ```ts ignore
 * import { staleComputers } from "./stale_computers.ts";
 * const data = await staleComputers.data(ctx);
 * console.log(data.sections.map((s) => s.id)); // ["organizations", "computers"]
 * ```
 */
export const staleComputers = defineReport<StaleComputersClient, QueryContext>({
  id: "stale-computers",
  title: "Stale and quarantined computers",
  description: "Computers not scanned for N days and quarantined computers, by organization, " +
    "with days since the last scan, status and quarantine date.",
  params: {
    days: {
      type: "integer",
      description: "A computer is stale when its last scan is this many days old or older",
      default: 30,
      min: 1,
      max: 3650,
    },
  },
  filterResource: "Computer",
  landscape: true,
  data,
});
