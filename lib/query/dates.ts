/**
 * Date arithmetic for reports: whole days between instants (UTC), as SAM reports count ages.
 *
 * @module
 */

const DAY = 86_400_000;

/**
 * Whole days from `then` to `now` (0 when `then` is later), or `null` when `then` is missing.
 *
 * @example
 * ```ts
 * import { daysSince } from "./dates.ts";
 * console.log(daysSince(new Date("2024-01-01T00:00:00Z"), new Date("2024-01-31T12:00:00Z"))); // 30
 * ```
 */
export function daysSince(then: Date | null | undefined, now: Date): number | null {
  if (!then || Number.isNaN(then.getTime())) return null;
  return Math.max(0, Math.floor((now.getTime() - then.getTime()) / DAY));
}
