/**
 * `samkit enqueue <pack-file> --tenants <tenants-file>`: put a pack on the PostgreSQL queue for
 * one or many tenants, now or on the pack's cron schedule; `--wait` waits for the runs.
 *
 * @module
 */

import { parseArgs, stringFlag } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { printErr, printOut } from "./terminal_text.ts";
import { builtInReports } from "../report/built_in.ts";
import { loadPack, PackFileError } from "../pack/pack_file.ts";
import { readTenantsFile, type Tenant } from "../tenants/tenants_file.ts";
import { MailSettingsError, tenantEmail } from "../tenants/mail_settings.ts";
import type { PackFile } from "../pack/pack_file.ts";
import { databaseUrl } from "../queue/database_url.ts";
import type { JobEnd } from "../queue/wait_jobs.ts";
import { readProblem, readRegularTextFile } from "../fs/regular_file.ts";

/** The help text of `samkit enqueue`. */
export const ENQUEUE_HELP =
  `Usage: deno task enqueue <pack-file.json> --tenants <tenants.json> [options]

Puts the pack on the PostgreSQL queue (pg-boss) once per tenant; workers (deno task worker) run
it into <output>/<tenant>/<pack>/<YYYY-MM-DDTHHMMZ>/ and record each run in the history.

Options:
  --tenants FILE       The tenants file (id, name, baseUrl, credentials by variable or file name)
  --tenant ID[,ID…]    Only these tenants of the file
  --on-schedule        Register the pack's cron schedule per tenant instead of running it now
  --send               Each run mails its summary (SMTP: the pack's "email" section with the
                       tenant's "mail" section of the tenants file laid over it; passwords by
                       env variable or secret file, read on the worker); scheduled runs too
  --out DIR            Overrides the pack's output root (on the workers' machines)
  --database-url URL   PostgreSQL (else SAMKIT_DATABASE_URL)
  --heartbeat SECONDS  A worker that sends no heartbeat this long is taken as dead and its
                       job retried elsewhere (≥ 10; default 30)
  --retry-delay SECONDS  The first retry's delay, doubled each retry (default 30)
  --wait               Wait for the runs and print each tenant's outcome
  --timeout SECONDS    With --wait: give up after this long (default 3600)
  -h, --help           This help

Exit codes: 0 enqueued (with --wait: every run complete, its summary sent if asked), 1 a run
failed, is still pending or did not send its summary, 2 bad pack file, tenants file or usage.`;

const FLAGS = {
  tenants: { type: "string" },
  tenant: { type: "string" },
  "on-schedule": { type: "boolean" },
  send: { type: "boolean" },
  out: { type: "string" },
  "database-url": { type: "string" },
  heartbeat: { type: "string" },
  "retry-delay": { type: "string" },
  wait: { type: "boolean" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function readPackDoc(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readRegularTextFile(path);
  } catch (e) {
    const problem = e instanceof Deno.errors.NotFound ? "no such file" : readProblem(e);
    throw new PackFileError(path, "", problem);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PackFileError(path, "", `not valid JSON: ${(e as Error).message}`);
  }
}

function pickTenants(all: Tenant[], wanted: string | undefined): Tenant[] {
  if (!wanted) return all;
  const ids = wanted.split(",").map((s) => s.trim()).filter(Boolean);
  for (const id of ids) {
    if (!all.some((t) => t.id === id)) {
      throw new UsageError(`--tenant: no tenant ${JSON.stringify(id)} in the tenants file`);
    }
  }
  return all.filter((t) => ids.includes(t.id));
}

function jobOptionsOf(values: Record<string, unknown>) {
  const out: { heartbeatSeconds?: number; retryDelay?: number } = {};
  if (values.heartbeat !== undefined) {
    const n = Number(values.heartbeat);
    if (!Number.isInteger(n) || n < 10) {
      throw new UsageError("--heartbeat: expected whole seconds ≥ 10");
    }
    out.heartbeatSeconds = n;
  }
  if (values["retry-delay"] !== undefined) {
    const n = Number(values["retry-delay"]);
    if (!Number.isInteger(n) || n < 0) {
      throw new UsageError("--retry-delay: expected whole seconds ≥ 0");
    }
    out.retryDelay = n;
  }
  return out;
}

function timeoutOf(value: string | undefined): number {
  const n = Number(value ?? 3600);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError("--timeout: expected seconds > 0");
  return n * 1000;
}

/** With `--send`: every tenant has an SMTP host, a sender and a recipient (else exit 2). */
function checkMail(pack: PackFile, tenants: readonly Tenant[]): void {
  for (const tenant of tenants) {
    try {
      tenantEmail(pack, tenant);
    } catch (e) {
      if (e instanceof MailSettingsError) throw new UsageError(`--send: ${e.message}`);
      throw e;
    }
  }
}

/**
 * Prints one line per job; true when every run is complete (and its summary, if asked for,
 * sent: a complete run's error is its email's).
 */
function printEnds(ends: readonly JobEnd[], tenants: readonly string[]): boolean {
  let ok = true;
  ends.forEach((end, i) => {
    const run = end.run;
    const status = end.state === "pending" ? "pending" : run?.status ?? end.state;
    if (status !== "complete" || run?.error) ok = false;
    const where = run?.dir ? ` ${run.dir}/manifest.json` : "";
    const why = run?.error ? ` (${run.error})` : "";
    printOut(`${tenants[i]}\t${status}\t${run?.worker ?? "-"}${where}${why}`);
  });
  return ok;
}

/**
 * Runs `samkit enqueue` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { enqueueCommand } from "./enqueue_command.ts";
 * Deno.exit(await enqueueCommand(["packs/weekly_audit.json", "--tenants", "tenants.json"]));
 * ```
 */
export async function enqueueCommand(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs(argv, FLAGS);
    if (values.help) {
      console.log(ENQUEUE_HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError("expected one pack file");
    const tenantsFile = stringFlag(values, "tenants");
    if (!tenantsFile) throw new UsageError("--tenants FILE is required");
    const packFile = positionals[0];
    const packDoc = await readPackDoc(packFile);
    const pack = await loadPack(packDoc, { file: packFile, reports: await builtInReports() });
    const tenants = pickTenants(await readTenantsFile(tenantsFile), stringFlag(values, "tenant"));
    const onSchedule = values["on-schedule"] === true;
    if (onSchedule && !pack.schedule) throw new UsageError(`${packFile} has no "schedule" section`);
    if (onSchedule && values.wait) throw new UsageError("--wait cannot wait for a schedule");
    const send = values.send === true;
    if (send) checkMail(pack, tenants);
    const timeoutMs = timeoutOf(stringFlag(values, "timeout"));
    const jobOptions = jobOptionsOf(values);
    const url = databaseUrl(stringFlag(values, "database-url"));
    // The queue's modules load once the pack, the tenants and the flags are known to be good.
    const [{ openBoss }, { enqueuePacks }, { RunHistory }, { waitForJobs }] = await Promise.all([
      import("../queue/boss.ts"),
      import("../queue/enqueue.ts"),
      import("../queue/history.ts"),
      import("../queue/wait_jobs.ts"),
    ]);
    const boss = await openBoss(url);
    try {
      const outRoot = stringFlag(values, "out");
      const jobs = await enqueuePacks(boss, {
        pack,
        packDoc,
        packFile,
        tenants,
        onSchedule,
        send,
        jobOptions,
        ...(outRoot ? { outRoot } : {}),
      });
      for (const j of jobs) {
        printErr(
          j.jobId
            ? `samkit: ${j.tenant}: job ${j.jobId} queued`
            : `samkit: ${j.tenant}: scheduled ${pack.schedule!.cron} (${pack.schedule!.timezone})`,
        );
      }
      if (!values.wait) return 0;
      const history = await RunHistory.open(url, { max: 1 });
      try {
        const ids = jobs.map((j) => j.jobId!);
        const ends = await waitForJobs(boss, history, ids, timeoutMs);
        return printEnds(ends, jobs.map((j) => j.tenant)) ? 0 : 1;
      } finally {
        await history.close();
      }
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
  } catch (error) {
    return reportError(error);
  }
}
