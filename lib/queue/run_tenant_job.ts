/**
 * One attempt of a pack job on a worker: settle the job's earlier attempts whose worker died,
 * read the tenant's credentials (and, for a job sent with `--send`, its SMTP settings), run the
 * pack into `<out>/<tenant>/<pack>/<run>/` within the tenant's rate budget, send its summary, and
 * record the attempt in the run history.
 *
 * @module
 */

import { join } from "node:path";
import { loadPack } from "../pack/pack_file.ts";
import { abandonRun, readManifest } from "../pack/manifest.ts";
import type { Figure } from "../pack/figures.ts";
import { runPack } from "../pack/run_pack.ts";
import type { ReportDefinition } from "../report/model.ts";
import { resolveCredentials } from "../tenants/credentials.ts";
import { redact } from "../api/redact.ts";
import { safeJoin } from "../fs/safe_name.ts";
import type { HistoryRun, RunHistory, RunStatus } from "./history.ts";
import type { PackJobData } from "./pack_job.ts";
import { isTransient, isTransientError } from "./transient.ts";
import { prepareJobMail, sendSummaryEml } from "./job_mail.ts";
import { readRegularTextFile } from "../fs/regular_file.ts";

/** The part of a pg-boss job an attempt needs. */
export interface PackJob {
  readonly id: string;
  readonly retryCount: number;
  readonly data: PackJobData;
  readonly signal: AbortSignal;
}

/** What the worker needs to run attempts. */
export interface AttemptContext {
  readonly history: RunHistory;
  readonly reports: readonly ReportDefinition[];
  /** This worker's name (`host:pid`). */
  readonly worker: string;
  readonly log: (line: string) => void;
}

/** How an attempt ended. */
export interface AttemptOutcome {
  readonly status: RunStatus;
  readonly dir: string | null;
  readonly error?: string;
}

/**
 * An attempt that should be tried again (the network, the service busy, the worker stopping).
 * Its message (kept by the queue with the job) is redacted.
 *
 * @example
 * ```ts
 * import { RetryableAttemptError } from "./run_tenant_job.ts";
 * console.log(new RetryableAttemptError("acme", "the service answered 503").message);
 * ```
 */
export class RetryableAttemptError extends Error {
  /**
   * @param tenant The tenant's id.
   * @param problem What happened.
   */
  constructor(tenant: string, problem: string) {
    super(redact(`tenant ${tenant}: ${problem}`));
    this.name = "RetryableAttemptError";
  }
}

/** Marks the dead attempts' run folders abandoned (manifest and history). */
async function settleEarlier(job: PackJob, ctx: AttemptContext): Promise<void> {
  if (job.retryCount === 0) return;
  for (const run of await ctx.history.abandonEarlier(job.id, job.retryCount)) {
    const manifest = run.dir ? await readManifest(run.dir) : null;
    const settled = manifest?.status === "running"
      ? await abandonRun(run.dir!, manifest)
      : manifest;
    await ctx.history.finish(run.id, { status: "abandoned", manifest: settled });
    ctx.log(
      `${run.tenantId}: attempt ${run.attempt} of job ${job.id} died on ${run.worker}; ` +
        `abandoned${run.dir ? ` (${run.dir})` : ""}`,
    );
  }
}

async function readFigures(dir: string): Promise<Figure[] | null> {
  try {
    return JSON.parse(await readRegularTextFile(join(dir, "summary.json"))).figures as Figure[];
  } catch {
    return null;
  }
}

/**
 * Runs one attempt of a pack job. Throws {@link RetryableAttemptError} when the queue should try
 * again; a tenant whose service refuses it (403) ends `failed` without a retry.
 *
 * @example
 * ```ts ignore
 * import { runAttempt } from "./run_tenant_job.ts";
 * const outcome = await runAttempt(job, { history, reports: REPORTS, worker: "host:1", log });
 * ```
 */
export async function runAttempt(job: PackJob, ctx: AttemptContext): Promise<AttemptOutcome> {
  const { tenant } = job.data;
  await settleEarlier(job, ctx);
  const pack = await loadPack(job.data.pack, {
    file: job.data.packFile,
    ...(job.data.packDir ? { base: job.data.packDir } : {}),
    reports: ctx.reports,
  });
  const rowId = await ctx.history.start({
    jobId: job.id,
    attempt: job.retryCount,
    tenantId: tenant.id,
    tenantName: tenant.name,
    pack: pack.name,
    worker: ctx.worker,
  });
  const fail = async (error: string, dir: string | null = null): Promise<AttemptOutcome> => {
    await ctx.history.finish(rowId, { status: "failed", dir, error });
    ctx.log(`${tenant.id}: ${pack.name} failed: ${error}`);
    return { status: "failed", dir, error };
  };
  let dir: string | null = null;
  try {
    const credentials = await resolveCredentials(tenant);
    const mail = job.data.send ? await prepareJobMail(pack, tenant) : undefined;
    const result = await runPack({
      // The summary is written as summary.eml and sent below once the attempt stands: an
      // attempt the queue will retry mails nothing.
      // The tenant's signing key, if it has one, signs its runs in place of the pack's.
      pack: { ...mail?.pack ?? pack, ...(tenant.sign ? { sign: tenant.sign } : {}) },
      reports: ctx.reports,
      outRoot: safeJoin(job.data.outRoot ?? pack.output, tenant.id),
      source: { baseUrl: tenant.baseUrl, registryPrefix: tenant.registryPrefix, ...credentials },
      maxConcurrency: tenant.maxConcurrency,
      signal: job.signal,
      log: (line) => {
        const at = line.indexOf(": run folder ");
        if (at >= 0 && !dir) {
          dir = line.slice(at + ": run folder ".length);
          ctx.history.setDir(rowId, dir).catch(() => {});
        }
        ctx.log(`${tenant.id}: ${line}`);
      },
    });
    const retry = retryReason(result.manifest);
    const emailError = mail && !retry
      ? await sendSummaryEml(mail, result.dir, (line) => ctx.log(`${tenant.id}: ${line}`))
      : undefined;
    return await settle(rowId, { ...result, emailError }, retry, ctx, tenant.id);
  } catch (e) {
    if (e instanceof RetryableAttemptError) throw e;
    const message = redact((e as Error).message ?? String(e));
    const outcome = await fail(message, dir);
    if (isTransientError(e)) throw new RetryableAttemptError(tenant.id, message);
    return outcome;
  }
}

/** Why the queue should try a finished run again (interrupted, or every report failed for a
 * passing reason), or null. */
function retryReason(manifest: NonNullable<HistoryRun["manifest"]>): string | null {
  if (manifest.status === "interrupted") return "interrupted (the worker stopped or lost the job)";
  const failed = manifest.reports.filter((r) => r.status === "failed");
  if (failed.length !== manifest.reports.length) return null;
  const transient = failed.filter((r) => isTransient(r.error ?? ""));
  return transient.length ? transient.map((r) => `${r.id}: ${r.error}`).join("; ") : null;
}

/**
 * Records a finished run (an email that was not sent is its error, redacted); throws to retry
 * when `retry` says why.
 */
async function settle(
  rowId: number,
  result: { dir: string; manifest: NonNullable<HistoryRun["manifest"]>; emailError?: string },
  retry: string | null,
  ctx: AttemptContext,
  tenantId: string,
): Promise<AttemptOutcome> {
  const { dir, manifest } = result;
  const failed = manifest.reports.filter((r) => r.status === "failed");
  const none = failed.length === manifest.reports.length;
  // Redacted here as well as in the history: the queue keeps the outcome with the job.
  const error = redact(
    [
      ...failed.map((r) => `${r.id}: ${r.error ?? "failed"}`),
      ...(result.emailError ? [result.emailError] : []),
    ].join("; "),
  ) || undefined;
  const status: RunStatus = manifest.status === "partial" && none ? "failed" : manifest.status;
  await ctx.history.finish(rowId, {
    status,
    dir,
    manifest,
    figures: await readFigures(dir),
    error: error ?? null,
  });
  ctx.log(`${tenantId}: ${manifest.pack} ${status}: ${dir}/manifest.json`);
  if (retry) throw new RetryableAttemptError(tenantId, retry);
  return { status, dir, ...(error ? { error } : {}) };
}
