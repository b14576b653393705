/**
 * The rules of a pack's `schedule`: a cron expression and an IANA time zone (default UTC). The
 * expression's type is checked first, then the zone, then the expression itself in that zone.
 *
 * @module
 */

import { Cron } from "croner";
import { checkFields, type Fail, type FieldRule, type FieldScope } from "./field_rules.ts";
import type { PackSchedule } from "./pack_file.ts";

const CRON_EXAMPLE = 'expected a cron expression such as "0 6 * * 1"';

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function timezoneOf(value: unknown, { fail }: FieldScope<null>): string {
  const timezone = value === undefined ? "UTC" : value;
  if (typeof timezone !== "string" || !isTimeZone(timezone)) {
    fail(`unknown time zone ${JSON.stringify(timezone)}`);
  }
  return timezone as string;
}

function cronOf(cron: unknown, { checked, fail }: FieldScope<null>): string {
  try {
    new Cron(cron as string, { timezone: checked.timezone as string, paused: true });
  } catch (e) {
    fail(`bad cron expression ${JSON.stringify(cron)}: ${(e as Error).message}`);
  }
  return cron as string;
}

/** The fields of a pack's schedule, in the order they are checked. */
const SCHEDULE_RULES: readonly FieldRule<null>[] = [
  { field: "cron", check: (v, { fail }) => typeof v === "string" ? v : fail(CRON_EXAMPLE) },
  { field: "timezone", check: timezoneOf },
  { field: "cron", check: cronOf },
];

/**
 * Checks a pack's `schedule` section.
 *
 * @example
 * ```ts
 * import { checkSchedule } from "./schedule_rules.ts";
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * console.log(checkSchedule({ cron: "0 6 * * 1" }, fail)); // { cron: "0 6 * * 1", timezone: "UTC" }
 * ```
 */
export function checkSchedule(section: unknown, fail: Fail): PackSchedule {
  const checked = checkFields(section, SCHEDULE_RULES, { at: "schedule", context: null, fail });
  return { cron: checked.cron as string, timezone: checked.timezone as string };
}
