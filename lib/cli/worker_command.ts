/**
 * `samkit worker`: pull pack jobs from the PostgreSQL queue and run them, until Ctrl-C or
 * SIGTERM (packs in hand are then interrupted, their manifests say so, and the queue gives their
 * jobs to another worker).
 *
 * @module
 */

import { parseArgs, stringFlag } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { printErr } from "./terminal_text.ts";
import { builtInReports } from "../report/built_in.ts";
import { databaseUrl, displayUrl } from "../queue/database_url.ts";
import { workerName } from "../queue/worker_name.ts";
import { cleanStaleTemp } from "../fs/owned_temp.ts";
import { interruptLiveRunsSync } from "../pack/run_ledger.ts";
import { DEFAULT_STOP_GRACE_MS, stopOnSignals } from "./stop_signals.ts";

/** How long a stopping worker waits for its jobs to record how they ended. */
const STOP_WAIT_MS = DEFAULT_STOP_GRACE_MS - 1_000;

/** The help text of `samkit worker`. */
export const WORKER_HELP = `Usage: deno task worker [options]

Pulls pack jobs from the PostgreSQL queue and runs them (any number of workers, on any
machine that reaches the database and the tenants). A tenant never has two packs running at
once; a job whose worker dies is retried on another after its heartbeat lapses.

Options:
  --concurrency N      Packs run at once by this worker (default 2)
  --database-url URL   PostgreSQL (else SAMKIT_DATABASE_URL)
  --poll SECONDS       How often to look for new jobs (default 2)
  --supervise SECONDS  How often to look for jobs of dead workers (default 30)
  --quiet              No log lines on stderr
  -h, --help           This help

Credentials are read on this machine from the variables or files the tenants file names; a
bare file name is looked up in /run/secrets, then in each folder of SAMKIT_SECRET_DIRS
(comma-separated; the worker's permission set must allow reading them). A job enqueued with
--send mails its summary once the run stands (not from an attempt that is retried); the SMTP
host must be allowed to this worker (deno task worker:remote with SAMKIT_SMTP_HOSTS).

A job whose tenant cannot be reached (connection refused or reset, DNS, time-outs, 429, 5xx)
is retried with backoff (three retries by default); a 401/403, a bad pack or a missing
credential is not.

SIGINT or SIGTERM stops the worker: packs in hand are interrupted (their manifests say so,
their jobs go to another worker) and it exits with 130 or 143 within seconds, whatever the
packs were waiting on; a second signal ends it at once.`;

const FLAGS = {
  concurrency: { type: "string" },
  "database-url": { type: "string" },
  poll: { type: "string" },
  supervise: { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function positive(value: string | undefined, flag: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`--${flag}: expected a number ≥ ${min}`);
  return n;
}

/**
 * Runs `samkit worker` until stopped and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { workerCommand } from "./worker_command.ts";
 * Deno.exit(await workerCommand(["--concurrency", "4"]));
 * ```
 */
export async function workerCommand(argv: readonly string[]): Promise<number> {
  // From the start: a stop while the database or a tenant is awaited ends the worker.
  using stop = stopOnSignals({
    log: (line) => printErr(`samkit: ${line}`),
    lastResort: () => {
      for (const dir of interruptLiveRunsSync()) printErr(`samkit: ${dir}: interrupted`);
    },
  });
  try {
    const { values, positionals } = parseArgs(argv, FLAGS);
    if (values.help) {
      console.log(WORKER_HELP);
      return 0;
    }
    if (positionals.length) throw new UsageError("the worker takes no file");
    const concurrency = Math.floor(positive(stringFlag(values, "concurrency"), "concurrency", 2));
    const pollSeconds = positive(stringFlag(values, "poll"), "poll", 2, 0.5);
    const superviseSeconds = positive(stringFlag(values, "supervise"), "supervise", 30);
    const url = databaseUrl(stringFlag(values, "database-url"));
    const name = workerName();
    const log = values.quiet
      ? () => {}
      : (line: string) => printErr(`${new Date().toISOString()} ${name} ${line}`);
    await cleanStaleTemp();
    // The queue, the reports and the pack runner load once the flags are known to be good.
    const [{ openBoss }, { RunHistory }, { startWorker }, reports] = await Promise.all([
      import("../queue/boss.ts"),
      import("../queue/history.ts"),
      import("../queue/worker.ts"),
      builtInReports(),
    ]);
    const boss = await stop.until(openBoss(url, {
      schedule: true,
      supervise: true,
      superviseSeconds,
      max: concurrency + 2,
    }));
    const history = await stop.until(RunHistory.open(url, { max: concurrency + 1 }));
    try {
      await startWorker({
        boss,
        history,
        reports,
        concurrency,
        pollSeconds,
        name,
        signal: stop.signal,
        log,
      });
      log(`worker started on ${displayUrl(url)} (${concurrency} at once)`);
      const { exitCode } = await stop.stopped;
      log("stopping: packs in hand are interrupted and their jobs retried elsewhere");
      // The packs end at once (their manifests say interrupted); what they record is awaited,
      // for less than the grace after which the process exits anyway.
      await boss.stop({ graceful: true, timeout: STOP_WAIT_MS, close: true });
      return exitCode;
    } finally {
      await history.close();
    }
  } catch (error) {
    return stop.exitCode ?? reportError(error);
  }
}
