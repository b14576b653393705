/**
 * When a computer counts as stale or quarantined: its last scan is `days` old or older (or it
 * was never scanned), or its status is Quarantined; with the reason in words.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import { daysSince } from "../query/dates.ts";

/** A computer's scan age and flags. */
export type ScanAge = {
  /** Whole days since the last scan, `null` when never scanned. */
  readonly daysSinceScan: number | null;
  /** The last scan, `null` when never scanned (or not a valid date). */
  readonly lastScan: Date | null;
  /** Not scanned for `days` or more, or never. */
  readonly stale: boolean;
  /** Status Quarantined. */
  readonly quarantined: boolean;
  /** Stale or quarantined. */
  readonly flagged: boolean;
  /** Why it is flagged ("Not scanned for 40 days; Quarantined"), `""` when not. */
  readonly reason: string;
};

/**
 * The scan age and flags of a computer at `now`, stale from `days` days.
 *
 * @example
 * ```ts
 * import { scanAge } from "./scan_age.ts";
 * const now = new Date("2024-02-10T00:00:00Z");
 * const age = scanAge({ lastScanDate: new Date("2024-01-01T00:00:00Z"), status: "Quarantined" }, now, 30);
 * console.log(age.reason); // "Not scanned for 40 days; Quarantined"
 * ```
 */
export function scanAge(
  computer: Pick<Resource<"Computer">, "lastScanDate" | "status">,
  now: Date,
  days: number,
): ScanAge {
  const since = daysSince(computer.lastScanDate, now);
  const stale = since === null || since >= days;
  const quarantined = computer.status?.trim().toLowerCase() === "quarantined";
  const reason = [
    stale ? (since === null ? "Never scanned" : `Not scanned for ${since} days`) : null,
    quarantined ? "Quarantined" : null,
  ];
  return {
    daysSinceScan: since,
    lastScan: since === null ? null : computer.lastScanDate,
    stale,
    quarantined,
    flagged: stale || quarantined,
    reason: reason.filter(Boolean).join("; "),
  };
}
