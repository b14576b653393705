/**
 * How an installed product was used: per user, when first and last, on how many days, how
 * often and how long. Last uses fall into age buckets (a month, a quarter, half a year, up to
 * two years) or never, so idle-software reports have something to find; products that are
 * always used (operating systems, agents) fall in the newest bucket.
 *
 * @module
 */

import { DAY, HOUR, pad } from "./generator_context.ts";
import type { Random } from "./random.ts";

/** Usage of one install by one user (ms and counts). */
export interface Usage {
  readonly firstUsed: number;
  readonly lastUsed: number;
  readonly usedDays: number;
  readonly usedCount: number;
  readonly usedMinutes: number;
}

/** The usage of one install: per user (user -1 when the machine has no users) and discovery. */
export interface InstallUsage {
  /** User index and usage; empty when the install was never used. */
  readonly perUser: [number, Usage][];
  /** When the product was first seen in use, or a draw between the floor and the last scan. */
  readonly discovered: number;
}

/** The window an install's usage must fall in. */
export interface UsageWindow {
  /** Earliest possible use (ms): an hour after the client was installed. */
  readonly floor: number;
  /** The machine's last scan (ms). */
  readonly lastScan: number;
  /** The estate's "now" (ms). */
  readonly now: number;
}

const BUCKETS: readonly (readonly [number, number])[] = [[0, 29], [30, 89], [90, 179], [180, 720]];

/** Usage of one install by one user, or null when it was never used. */
function makeUsage(r: Random, w: UsageWindow, alwaysUsed: boolean): Usage | null {
  const { floor, lastScan, now } = w;
  let bucket: number;
  if (alwaysUsed) bucket = 0;
  else {
    const b = r.weightedIndex([0.14, 0.56, 0.12, 0.08, 0.1]);
    if (b === 0) return null;
    bucket = b - 1;
  }
  const [lo, hi] = BUCKETS[bucket];
  let lastUsed = Math.min(
    lastScan - r.int(0, 3 * HOUR),
    now - r.int(lo, hi) * DAY - r.int(0, 10 * HOUR),
  );
  if (lastUsed <= floor + HOUR) lastUsed = Math.min(lastScan, floor + HOUR + r.int(0, 2 * HOUR));
  const spanDays = Math.min(r.int(0, 400), Math.floor((lastUsed - floor) / DAY));
  const firstUsed = Math.max(floor, lastUsed - spanDays * DAY - r.int(0, 6 * HOUR));
  const days = Math.floor((lastUsed - firstUsed) / DAY) + 1;
  const usedDays = Math.max(
    1,
    Math.min(days, Math.round(days * r.float(alwaysUsed ? 0.6 : 0.05, alwaysUsed ? 1 : 0.8))),
  );
  const usedCount = usedDays * r.int(1, 5);
  const usedMinutes = usedCount * (alwaysUsed ? r.int(60, 480) : r.int(3, 90));
  return { firstUsed, lastUsed, usedDays, usedCount, usedMinutes };
}

/** A second user's lighter use of an install, inside the first user's span. */
function secondUsage(r: Random, first: Usage): Usage {
  const lastUsed = Math.max(first.firstUsed, first.lastUsed - r.int(0, 60) * DAY);
  const firstUsed = Math.min(lastUsed, first.firstUsed + r.int(0, 30) * DAY);
  const days = Math.max(1, Math.min(first.usedDays, Math.floor((lastUsed - firstUsed) / DAY) + 1));
  const count = days * r.int(1, 3);
  return {
    firstUsed,
    lastUsed,
    usedDays: days,
    usedCount: count,
    usedMinutes: count * r.int(2, 30),
  };
}

/**
 * Draw the usage of one install by the machine's users (its end user, or one or two of the
 * administrators who log on; a second user shares the first one's use six times in ten).
 *
 * @example
 * ```ts
 * import { drawInstallUsage } from "./generator_usage.ts";
 * import { Random } from "./random.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const window = { floor: now - 400 * 86_400_000, lastScan: now - 3_600_000, now };
 * const use = drawInstallUsage(new Random(3), [7], window, true);
 * console.log(use.perUser[0][0], use.discovered === use.perUser[0][1].firstUsed); // 7 true
 * ```
 */
export function drawInstallUsage(
  r: Random,
  users: readonly number[],
  w: UsageWindow,
  alwaysUsed: boolean,
): InstallUsage {
  const perUser: [number, Usage][] = [];
  const unused = () => w.floor + r.int(0, Math.max(0, w.lastScan - w.floor));
  if (users.length === 0) {
    const u = makeUsage(r, w, alwaysUsed);
    const discovered = u ? u.firstUsed : unused();
    if (u) perUser.push([-1, u]);
    return { perUser, discovered };
  }
  const first = makeUsage(r, w, alwaysUsed);
  if (!first) return { perUser, discovered: unused() };
  perUser.push([users[0], first]);
  if (users.length > 1 && r.chance(0.6)) perUser.push([users[1], secondUsage(r, first)]);
  return { perUser, discovered: first.firstUsed };
}

/** Usage summed over an install's users; first and last use null when never used. */
export interface UsageTotals {
  readonly firstUsed: number | null;
  readonly lastUsed: number | null;
  readonly usedCount: number;
  readonly usedMinutes: number;
  /** The most days any one user used it on. */
  readonly usedDays: number;
}

/**
 * Sum an install's usage over its users.
 *
 * @example
 * ```ts
 * import { usageTotals } from "./generator_usage.ts";
 * const u = { firstUsed: 1, lastUsed: 5, usedDays: 2, usedCount: 4, usedMinutes: 30 };
 * console.log(usageTotals([[0, u], [1, { ...u, lastUsed: 9 }]]).lastUsed); // 9
 * ```
 */
export function usageTotals(perUser: readonly (readonly [number, Usage])[]): UsageTotals {
  let firstUsed: number | null = null, lastUsed: number | null = null;
  let usedCount = 0, usedMinutes = 0, usedDays = 0;
  for (const [, u] of perUser) {
    firstUsed = firstUsed === null ? u.firstUsed : Math.min(firstUsed, u.firstUsed);
    lastUsed = lastUsed === null ? u.lastUsed : Math.max(lastUsed, u.lastUsed);
    usedCount += u.usedCount;
    usedMinutes += u.usedMinutes;
    usedDays = Math.max(usedDays, u.usedDays);
  }
  return { firstUsed, lastUsed, usedCount, usedMinutes, usedDays };
}

/**
 * A duration in minutes as `HH:MM:SS`.
 *
 * @example
 * ```ts
 * import { duration } from "./generator_usage.ts";
 * console.log(duration(90.5)); // "01:30:30"
 * ```
 */
export function duration(minutes: number): string {
  const total = Math.round(minutes * 60);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`;
}
