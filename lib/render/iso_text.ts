/**
 * A date's RFC 3339 text (`2024-01-05T14:03:00.000Z`, what `Date.prototype.toISOString` gives)
 * computed with integer arithmetic: the data renderers write two dates for each of a million rows,
 * and the native call was their largest single cost. Years outside 0–9999, which
 * `toISOString` writes with a sign and six digits, are left to it.
 *
 * @module
 */

const DAY = 86_400_000;

/** "00" … "99". */
const TWO = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));

/** Year 0 and year 10000 at midnight UTC, in epoch milliseconds. */
const FIRST = -62_167_219_200_000, END = 253_402_300_800_000;

/**
 * The text `new Date(time).toISOString()` gives for a finite epoch time in years 0–9999, else
 * that call's own answer (a `RangeError` for an invalid time, as it throws).
 *
 * @example
 * ```ts
 * import { isoText } from "./iso_text.ts";
 * console.log(isoText(Date.UTC(2024, 0, 5, 14, 3, 0, 7))); // "2024-01-05T14:03:00.007Z"
 * console.log(isoText(Date.UTC(2024, 1, 29))); // "2024-02-29T00:00:00.000Z"
 * ```
 */
export function isoText(time: number): string {
  if (!(time >= FIRST && time < END) || !Number.isInteger(time)) {
    return new Date(time).toISOString();
  }
  const days = Math.floor(time / DAY);
  let rest = time - days * DAY;
  // Days to a civil date (H. Hinnant's algorithm; the era is 400 years).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) -
      Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const ms = rest - seconds * 1000;
  return TWO[Math.floor(year / 100)] + TWO[year % 100] + "-" + TWO[month] + "-" + TWO[day] +
    "T" + TWO[hours] + ":" + TWO[minutes] + ":" + TWO[seconds] + "." +
    (ms < 10 ? "00" : ms < 100 ? "0" : "") + ms + "Z";
}
