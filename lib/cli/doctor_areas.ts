/**
 * The API areas `samkit doctor` probes, one cheap read each, and which reports need each area:
 * a report is blocked when an area it needs fails, and runs with less when an optional one does
 * (the organisation tree gives names, the compliance summary a cross-check). The map is pinned
 * to what the reports really read by `tests/cli/doctor_test.ts`, which runs every report against
 * a reference server whose one area answers 403.
 *
 * @module
 */

import { operation } from "../api/operations.ts";

/** An area of the API the doctor probes. */
export type AreaId =
  | "computers"
  | "clusters"
  | "users"
  | "licenses"
  | "registry"
  | "compliance"
  | "organizations"
  | "connectors";

/** One area: what it is called and the operation its probe reads. */
export interface DoctorArea {
  /** The area's id, also the row's name. */
  readonly id: AreaId;
  /** What the area holds, in words. */
  readonly label: string;
  /** What its items are called, for a count (`412 computers`). */
  readonly noun: string;
  /** The operation the probe reads (one page of one item, or the unpaged tree). */
  readonly operation: string;
  /** What a report loses when this area is optional to it and fails. */
  readonly withoutIt?: string;
}

/**
 * The areas, in the order the doctor probes them (the registry before compliance, whose probe
 * needs an application id).
 *
 * @example
 * ```ts
 * import { DOCTOR_AREAS } from "./doctor_areas.ts";
 * console.log(DOCTOR_AREAS.map((a) => a.id).join(" "));
 * // "computers clusters users licenses registry compliance organizations connectors"
 * ```
 */
export const DOCTOR_AREAS: readonly DoctorArea[] = [
  {
    id: "computers",
    label: "computers and installations",
    noun: "computers",
    operation: "estate.computers",
  },
  {
    id: "clusters",
    label: "data center clusters",
    noun: "clusters",
    operation: "estate.dataCenterClusters",
  },
  {
    id: "users",
    label: "user accounts",
    noun: "user accounts",
    operation: "estate.userAccounts",
  },
  {
    id: "licenses",
    label: "licenses and entitlements",
    noun: "licenses",
    operation: "licenses.list",
  },
  {
    id: "registry",
    label: "software registry",
    noun: "applications",
    operation: "registry.applications",
  },
  {
    id: "compliance",
    label: "compliance summary",
    noun: "summaries",
    operation: "licenses.complianceSummary",
    withoutIt: "no cross-check against the service's own compliance summary",
  },
  {
    id: "organizations",
    label: "organisation tree",
    noun: "organisations",
    operation: "organizations.tree",
    withoutIt: "organisations shown by id instead of name",
  },
  {
    id: "connectors",
    label: "cloud cost connectors",
    noun: "connectors",
    operation: "connectors.list",
  },
];

/** The areas a report reads: `needs` block it when they fail, `optional` only thin it. */
export interface ReportAreas {
  /** Areas without which the report fails. */
  readonly needs: readonly AreaId[];
  /** Areas the report reads but runs without (a 403, 404 or 405 there is tolerated). */
  readonly optional: readonly AreaId[];
}

/**
 * Which areas each report that reads the SAM API reads, by report id (default parameters).
 *
 * @example
 * ```ts
 * import { REPORT_AREAS } from "./doctor_areas.ts";
 * console.log(REPORT_AREAS["stale-computers"]);
 * // { needs: ["computers"], optional: ["organizations"] }
 * ```
 */
export const REPORT_AREAS: Readonly<Record<string, ReportAreas>> = {
  "license-cost-summary": { needs: ["licenses", "registry"], optional: [] },
  "entitlement-state-by-computer": {
    needs: ["computers", "licenses", "registry"],
    optional: ["organizations"],
  },
  "hardware-socket-map": { needs: ["computers", "clusters", "licenses"], optional: [] },
  "license-position": {
    needs: ["computers", "licenses", "registry"],
    optional: ["compliance", "organizations"],
  },
  "explain-position": {
    needs: ["computers", "licenses", "registry"],
    optional: ["compliance", "organizations"],
  },
  "unused-software": {
    needs: ["computers", "licenses", "registry"],
    optional: ["compliance", "organizations"],
  },
  "license-optimization": {
    needs: ["computers", "licenses", "registry"],
    optional: ["compliance", "organizations"],
  },
  "end-of-life-software": { needs: ["computers", "registry"], optional: ["organizations"] },
  "connector-health": { needs: ["connectors"], optional: [] },
  "stale-computers": { needs: ["computers"], optional: ["organizations"] },
  "applications-per-organization": {
    needs: ["computers", "registry"],
    optional: ["organizations"],
  },
  renewals: { needs: ["licenses", "registry"], optional: ["computers", "organizations"] },
};

/**
 * The reports a failed area blocks, and those it only thins, in the map's order.
 *
 * @example
 * ```ts
 * import { reportsAffectedBy } from "./doctor_areas.ts";
 * const { blocks, thins } = reportsAffectedBy("clusters");
 * console.log(blocks, thins); // ["hardware-socket-map"] []
 * ```
 */
export function reportsAffectedBy(area: AreaId): { blocks: string[]; thins: string[] } {
  const entries = Object.entries(REPORT_AREAS);
  return {
    blocks: entries.filter(([, a]) => a.needs.includes(area)).map(([id]) => id),
    thins: entries.filter(([, a]) => a.optional.includes(area)).map(([id]) => id),
  };
}

/**
 * The OAuth2 scope an area's reads need on the public service, from the operation table
 * (`tokenScope` in `lib/api/operations.ts`), or `null` where no public document names one (user
 * accounts, the organisation tree, connectors).
 *
 * @example
 * ```ts
 * import { areaScope, DOCTOR_AREAS } from "./doctor_areas.ts";
 * console.log(areaScope(DOCTOR_AREAS[0])); // sam.computer.r
 * ```
 */
export function areaScope(area: DoctorArea): string | null {
  const scope = operation(area.operation).tokenScope;
  return scope.kind === "named" ? scope.name : null;
}
