/**
 * The scheduler behind `samkit schedule`: runs a job at each time of a cron expression in a time
 * zone (croner computes the times, so DST changes are handled in the zone's wall-clock time),
 * skips a run that would overlap the one still going, and logs each run.
 *
 * @module
 */

import { Cron } from "croner";

/**
 * A cron expression or time zone that cannot be used.
 *
 * @example
 * ```ts
 * import { CronError } from "./schedule.ts";
 * console.log(new CronError("61 * * * *", "minute out of range").message);
 * ```
 */
export class CronError extends Error {
  /**
   * Builds the error from the expression and what is wrong.
   *
   * @param expression The expression.
   * @param problem What is wrong.
   */
  constructor(expression: string, problem: string) {
    super(`bad cron expression "${expression}": ${problem}`);
    this.name = "CronError";
  }
}

function cronOf(expression: string, timezone: string): Cron {
  try {
    return new Cron(expression, { timezone, paused: true });
  } catch (e) {
    throw new CronError(expression, (e as Error).message);
  }
}

/**
 * The next `count` run times after `from`.
 *
 * @example
 * ```ts
 * import { nextRuns } from "./schedule.ts";
 * const [first] = nextRuns("0 9 * * *", "Europe/London", new Date("2026-03-28T12:00:00Z"), 1);
 * console.log(first.toISOString()); // 2026-03-29T08:00:00.000Z (09:00 BST)
 * ```
 */
export function nextRuns(expression: string, timezone: string, from: Date, count: number): Date[] {
  const cron = cronOf(expression, timezone);
  const out: Date[] = [];
  let at: Date | null = from;
  while (out.length < count && at) {
    at = cron.nextRun(at);
    if (at) out.push(at);
  }
  return out;
}

/** Options of {@link runSchedule}. */
export interface ScheduleOptions {
  /** The cron expression. */
  readonly cron: string;
  /** The IANA time zone (default UTC). */
  readonly timezone?: string;
  /** The job; a run still going when the next time comes makes that time skip. */
  readonly job: (at: Date) => Promise<void>;
  /** Log lines. */
  readonly log?: (line: string) => void;
  /** Stops the scheduler (a running job finishes; no new one starts). */
  readonly signal?: AbortSignal;
  /** The clock (default `Date.now`): tests pass fake time through fake timers instead. */
  readonly now?: () => number;
}

/** The longest single wait, so clock changes and long gaps are re-checked hourly. */
const MAX_WAIT_MS = 60 * 60 * 1000;

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const id = setTimeout(done, ms);
    function done() {
      clearTimeout(id);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Runs `job` at each scheduled time until `signal` aborts; resolves after the last job ends.
 *
 * @example
 * ```ts
 * import { runSchedule } from "./schedule.ts";
 * // Every second (cron with a seconds field); the first job stops the schedule.
 * const stop = new AbortController();
 * await runSchedule({
 *   cron: "* * * * * *",
 *   job: (at) => {
 *     console.log("ran at a whole second:", at.getMilliseconds() === 0); // true
 *     stop.abort();
 *     return Promise.resolve();
 *   },
 *   signal: stop.signal,
 * });
 * ```
 */
export async function runSchedule(options: ScheduleOptions): Promise<void> {
  const timezone = options.timezone ?? "UTC";
  const cron = cronOf(options.cron, timezone);
  const now = options.now ?? (() => Date.now());
  const log = options.log ?? (() => {});
  let running: Promise<void> | null = null;
  let next = cron.nextRun(new Date(now()));
  if (next) log(`next run at ${next.toISOString()} (${options.cron}, ${timezone})`);
  while (next && !options.signal?.aborted) {
    const delay = next.getTime() - now();
    if (delay > 0) {
      await wait(Math.min(delay, MAX_WAIT_MS), options.signal);
      continue;
    }
    const at = next;
    if (running) {
      log(`skipped the run due at ${at.toISOString()}: the previous run is still going`);
    } else {
      log(`run started for ${at.toISOString()}`);
      running = options.job(at).then(
        () => log(`run for ${at.toISOString()} finished`),
        (e) => log(`run for ${at.toISOString()} failed: ${(e as Error).message}`),
      ).finally(() => {
        running = null;
      });
    }
    next = cron.nextRun(new Date(Math.max(now(), at.getTime())));
    if (next) log(`next run at ${next.toISOString()}`);
  }
  await running;
}
