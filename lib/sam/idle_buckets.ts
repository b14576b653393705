/**
 * How long an install has gone unused, and which idle bucket that puts it in: idle days are whole
 * days from the last use to the run's clock; a never-used install counts from when it was first
 * discovered (unknown discovery: idle past every threshold). Installs used within the first
 * threshold are recent; the others fall in one bucket per threshold interval, or "never used"
 * (labelled with how long ago it was discovered).
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import { daysSince } from "../query/dates.ts";
import { ParamError } from "../report/errors.ts";
import { jsonParam } from "../report/param_builders.ts";
import type { ParamSpec } from "../report/model.ts";

/**
 * The default thresholds in days.
 *
 * @example
 * ```ts
 * import { DEFAULT_THRESHOLDS } from "./idle_buckets.ts";
 * console.log(DEFAULT_THRESHOLDS); // [30, 90, 180]
 * ```
 */
export const DEFAULT_THRESHOLDS: readonly number[] = [30, 90, 180];

/**
 * The `thresholds` parameter (read with {@link readThresholds}).
 *
 * @example
 * ```ts
 * import { THRESHOLDS_PARAM } from "./idle_buckets.ts";
 * console.log(THRESHOLDS_PARAM.type, THRESHOLDS_PARAM.default); // "json" [30, 90, 180]
 * ```
 */
export const THRESHOLDS_PARAM: ParamSpec = jsonParam(
  "Idle-day thresholds, ascending (JSON list, e.g. [30,90,180]): installs are bucketed by " +
    "them, listed per computer past the first, reclaimable past the last",
  { default: DEFAULT_THRESHOLDS },
);

/**
 * Reads the `thresholds` parameter: a non-empty list of up to 6 strictly ascending whole numbers
 * of days, each at least 1.
 *
 * @example
 * ```ts
 * import { readThresholds } from "./idle_buckets.ts";
 * console.log(readThresholds([30, 90])); // [30, 90]
 * ```
 */
export function readThresholds(value: unknown): number[] {
  const list = value ?? DEFAULT_THRESHOLDS;
  const bad = (why: string) =>
    new ParamError("thresholds", `${why}, e.g. [30,90,180]; got ${JSON.stringify(value)}`);
  if (!Array.isArray(list) || list.length === 0 || list.length > 6) {
    throw bad("expected a list of 1 to 6 day counts");
  }
  for (let i = 0; i < list.length; i++) {
    const n = list[i];
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
      throw bad("every threshold must be a whole number of days, at least 1");
    }
    if (i > 0 && n <= list[i - 1]) throw bad("thresholds must be strictly ascending");
  }
  return [...list];
}

/**
 * Idle days of an install; `null` means unknown, i.e. idle forever.
 *
 * @example
 * ```ts
 * import { idleDays } from "./idle_buckets.ts";
 * idleDays({ lastUsed: null, firstDiscovered: new Date("2024-01-01T00:00:00Z") } as never,
 *   new Date("2024-01-31T00:00:00Z")); // 30
 * ```
 */
export function idleDays(
  install: Pick<Resource<"ComputerApplication">, "lastUsed" | "firstDiscovered">,
  now: Date,
): number | null {
  return daysSince(install.lastUsed ?? install.firstDiscovered, now);
}

/**
 * The label of bucket `b` of `thresholds`: `30–89 days`, …, `180+ days` for the last.
 *
 * @example
 * ```ts
 * import { bucketLabel } from "./idle_buckets.ts";
 * console.log(bucketLabel([30, 90, 180], 0), bucketLabel([30, 90, 180], 2)); // "30–89 days" "180+ days"
 * ```
 */
export function bucketLabel(thresholds: readonly number[], b: number): string {
  return b + 1 < thresholds.length
    ? `${thresholds[b]}–${thresholds[b + 1] - 1} days`
    : `${thresholds[b]}+ days`;
}

/**
 * The bucket label of a never-used install whose discovery date is unknown.
 *
 * @example
 * ```ts
 * import { NEVER_UNKNOWN_DISCOVERY } from "./idle_buckets.ts";
 * console.log(NEVER_UNKNOWN_DISCOVERY); // "Never used, discovery date unknown"
 * ```
 */
export const NEVER_UNKNOWN_DISCOVERY = "Never used, discovery date unknown";

/** An install's idleness. */
export interface Idleness {
  /** Idle days (`null`: unknown, idle forever). */
  readonly idleDays: number | null;
  /** Never used (no last-use date). */
  readonly never: boolean;
  /** Used within the first threshold. */
  readonly recent: boolean;
  /** The bucket index of a used install idle past the first threshold, else -1. */
  readonly bucket: number;
  /**
   * Its bucket's label, as the table's column of that bucket is named (`Unused 30–89 days`); a
   * never-used install's says when it was discovered (`Never used, discovered 30+ days ago`,
   * `Never used, discovered within 30 days`, `Never used, discovery date unknown`), so no part
   * of the never-used installs carries the name of all of them; `""` for a recent install.
   */
  readonly bucketLabel: string;
}

/**
 * The idleness of installs at `now` with `thresholds`, as {@link idleness} gives it, with the
 * bucket labels made once: what judging a million installs calls once each.
 *
 * @example
 * ```ts
 * import { idlenessAt } from "./idle_buckets.ts";
 * const judge = idlenessAt(new Date("2024-06-30T00:00:00Z"), [30, 90, 180]);
 * console.log(judge({ lastUsed: new Date("2024-03-01T00:00:00Z"), firstDiscovered: null }).bucket); // 1
 * ```
 */
export function idlenessAt(
  now: Date,
  thresholds: readonly number[],
): (install: Pick<Resource<"ComputerApplication">, "lastUsed" | "firstDiscovered">) => Idleness {
  const labels = thresholds.map((_, b) => `Unused ${bucketLabel(thresholds, b)}`);
  const first = thresholds[0];
  const neverLabel = (idle: number | null) =>
    idle === null
      ? NEVER_UNKNOWN_DISCOVERY
      : idle >= first
      ? `Never used, discovered ${first}+ days ago`
      : `Never used, discovered within ${first} days`;
  return (install) => {
    const idle = idleDays(install, now);
    const never = !install.lastUsed;
    let bucket = -1;
    if (!never) {
      for (let b = thresholds.length - 1; b >= 0 && bucket < 0; b--) {
        if (idle! >= thresholds[b]) bucket = b;
      }
    }
    const label = never ? neverLabel(idle) : bucket < 0 ? "" : labels[bucket];
    return { idleDays: idle, never, recent: !never && bucket < 0, bucket, bucketLabel: label };
  };
}

/**
 * The idleness of an install at `now` with `thresholds`.
 *
 * @example
 * ```ts
 * import { idleness } from "./idle_buckets.ts";
 * const now = new Date("2024-06-30T00:00:00Z");
 * const install = { lastUsed: new Date("2024-03-01T00:00:00Z"), firstDiscovered: null };
 * console.log(idleness(install, now, [30, 90, 180]).bucketLabel); // "Unused 90–179 days"
 * ```
 */
export function idleness(
  install: Pick<Resource<"ComputerApplication">, "lastUsed" | "firstDiscovered">,
  now: Date,
  thresholds: readonly number[],
): Idleness {
  return idlenessAt(now, thresholds)(install);
}
