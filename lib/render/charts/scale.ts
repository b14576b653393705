/**
 * Scales and axes shared by the charts: a linear scale, "nice" ticks (1, 2, 5 × 10ⁿ), a time
 * scale with year ticks, compact tick labels, the width text takes, the room values after bars
 * need and how many labels of an axis to skip so that none overlap.
 *
 * @module
 */

/**
 * A linear map from `[d0, d1]` to `[r0, r1]` (a zero-width domain maps to `r0`).
 *
 * @example
 * ```ts
 * import { linearScale } from "./scale.ts";
 * const x = linearScale(0, 100, 200, 600);
 * console.log(x(50)); // 400
 * ```
 */
export function linearScale(
  d0: number,
  d1: number,
  r0: number,
  r1: number,
): (value: number) => number {
  const span = d1 - d0;
  return (value) => span === 0 ? r0 : r0 + ((value - d0) / span) * (r1 - r0);
}

/**
 * Ticks from 0 (or below, for negative minima) to a round maximum at least `max`: steps of 1, 2
 * or 5 × 10ⁿ, about `count` of them. All-zero data gets the ticks 0 and 1.
 *
 * @example
 * ```ts
 * import { niceTicks } from "./scale.ts";
 * console.log(niceTicks(0, 87)); // [0, 20, 40, 60, 80, 100]
 * ```
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const lo = Math.min(0, Number.isFinite(min) ? min : 0);
  const hi = Math.max(0, Number.isFinite(max) ? max : 0);
  if (hi - lo <= 0) return [0, 1];
  const step = niceStep((hi - lo) / Math.max(1, count));
  const first = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let t = first; t < hi + step * 0.999; t += step) ticks.push(roundTo(t, step));
  return ticks;
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

function roundTo(value: number, step: number): number {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  return Number(value.toFixed(decimals));
}

/**
 * A tick label: compact (`1.2K`, `3.4M`) in the locale.
 *
 * @example
 * ```ts
 * import { tickLabel } from "./scale.ts";
 * console.log(tickLabel(1500, "en-US"), tickLabel(20, "en-US")); // "1.5K" "20"
 * ```
 */
export function tickLabel(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 1 })
    .format(value);
}

/**
 * The width in px that `text` takes at `size` px (an estimate of the report fonts: 0.6 em a
 * character, so labels laid out by it never touch).
 *
 * @example
 * ```ts
 * import { textWidth } from "./scale.ts";
 * console.log(textWidth("2024-05", 10)); // 42
 * ```
 */
export function textWidth(text: string, size: number): number {
  return [...text].length * size * 0.6;
}

/** What {@link valueRoom} needs besides the texts. */
export interface ValueRoomOptions {
  /** The values' font size in px. */
  readonly size: number;
  /** The space between a bar's end and its value, in px. */
  readonly gap: number;
  /** The least room, in px (the room of a short value). */
  readonly min: number;
  /** The most room, in px (what is left for the bars beside it). */
  readonly max: number;
}

/**
 * Room in px after the longest bar for the values printed at bars' ends: the widest of `texts`
 * (by {@link textWidth}) plus the gap, within `[min, max]`, so an amount like
 * "CHF 1,481,481,474.00" is drawn whole inside the chart rather than cut at its edge.
 *
 * @example
 * ```ts
 * import { valueRoom } from "./scale.ts";
 * const options = { size: 11, gap: 6, min: 110, max: 300 };
 * console.log(valueRoom(["$5.00"], options), valueRoom(["CHF 1,481,481,474.00"], options)); // 110 142
 * ```
 */
export function valueRoom(texts: readonly string[], options: ValueRoomOptions): number {
  const widest = Math.max(0, ...texts.map((t) => textWidth(t, options.size)));
  return Math.min(options.max, Math.max(options.min, Math.ceil(widest + options.gap + 4)));
}

/**
 * Show every n-th label so that labels `widest` px wide, `slot` px apart, leave a gap: 1 when
 * they fit, else the smallest step that makes room.
 *
 * @example
 * ```ts
 * import { labelStep } from "./scale.ts";
 * console.log(labelStep(20, 42), labelStep(60, 42)); // 3 1
 * ```
 */
export function labelStep(slot: number, widest: number, gap = 6): number {
  if (slot <= 0) return 1;
  return Math.max(1, Math.ceil((widest + gap) / slot));
}

/**
 * January 1 of each year in `[from, to]` (UTC), thinned to every n-th year when there are more
 * than `most`.
 *
 * @example
 * ```ts
 * import { yearTicks } from "./scale.ts";
 * const ticks = yearTicks(new Date("2023-06-01"), new Date("2026-02-01"));
 * console.log(ticks.map((d) => d.getUTCFullYear())); // [2024, 2025, 2026]
 * ```
 */
export function yearTicks(from: Date, to: Date, most = 8): Date[] {
  const first = from.getUTCFullYear() + 1;
  const last = to.getUTCFullYear();
  const years = Math.max(0, last - first + 1);
  const step = Math.max(1, Math.ceil(years / most));
  const ticks: Date[] = [];
  for (let y = first; y <= last; y += step) ticks.push(new Date(Date.UTC(y, 0, 1)));
  return ticks;
}

/**
 * `date` plus `months` calendar months (UTC; the day is clamped to the month's last day).
 *
 * @example
 * ```ts
 * import { addMonths } from "./scale.ts";
 * console.log(addMonths(new Date("2024-01-31T00:00:00Z"), 1).toISOString()); // "2024-02-29T00:00:00.000Z"
 * ```
 */
export function addMonths(date: Date, months: number): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const out = new Date(date.getTime());
  out.setUTCFullYear(y, m, Math.min(date.getUTCDate(), last));
  return out;
}

/**
 * A count from a spec clamped to `[lo, hi]` (whole; non-numbers give `lo`).
 *
 * @example
 * ```ts
 * import { clampCount } from "./scale.ts";
 * console.log(clampCount(500, 1, 50), clampCount(0, 1, 50), clampCount(7.9, 1, 50)); // 50 1 7
 * ```
 */
export function clampCount(value: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, Math.floor(Number.isFinite(value) ? value : lo)));
}
