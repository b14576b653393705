/**
 * Which licenses a purchase-date range keeps: the range is inclusive, and a `to` given as a date
 * (midnight UTC) includes that whole day.
 *
 * @module
 */

const DAY = 86_400_000;

/**
 * Whether a purchase date lies in the inclusive range `from`…`to`. A `to` at midnight UTC (a
 * date-only parameter) includes that whole day. Without a range every license is in; with one,
 * a license without a purchase date is out.
 *
 * @example
 * ```ts
 * import { inPurchaseRange } from "./purchase_range.ts";
 * const d = new Date("2023-05-31T18:00:00Z");
 * console.log(inPurchaseRange(d, undefined, new Date("2023-05-31T00:00:00Z"))); // true
 * ```
 */
export function inPurchaseRange(
  date: Date | null,
  from: Date | undefined,
  to: Date | undefined,
): boolean {
  if (!from && !to) return true;
  if (!date || Number.isNaN(date.getTime())) return false;
  const t = date.getTime();
  if (from && t < from.getTime()) return false;
  if (to) {
    const end = to.getTime() % DAY === 0 ? to.getTime() + DAY : to.getTime() + 1;
    if (t >= end) return false;
  }
  return true;
}
