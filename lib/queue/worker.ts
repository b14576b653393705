/**
 * A queue worker: pulls pack jobs from PostgreSQL and runs up to `concurrency` of them at once
 * (each for a different tenant: the queue's singleton key keeps one per tenant), until stopped.
 * Any number of workers may run, on any machine that reaches the database and the tenants.
 *
 * @module
 */

import type { PgBoss } from "pg-boss";
import type { ReportDefinition } from "../report/model.ts";
import { redact } from "../api/redact.ts";
import { PACK_QUEUE } from "./boss.ts";
import type { RunHistory } from "./history.ts";
import type { PackJobData } from "./pack_job.ts";
import { type AttemptOutcome, runAttempt } from "./run_tenant_job.ts";
import { workerName } from "./worker_name.ts";

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  readonly boss: PgBoss;
  readonly history: RunHistory;
  readonly reports: readonly ReportDefinition[];
  /** Packs run at once by this worker (default 2). */
  readonly concurrency?: number;
  /** Seconds between polls for new jobs (default 2). */
  readonly pollSeconds?: number;
  /** This worker's name (default `host:pid`). */
  readonly name?: string;
  /** Aborting it interrupts the packs in hand (their jobs are retried elsewhere). */
  readonly signal?: AbortSignal;
  readonly log?: (line: string) => void;
}

/**
 * Starts pulling jobs; returns the pg-boss worker id (stop with `boss.offWork` or `boss.stop`).
 * Every line it logs is redacted (`redact`): no secret the worker read reaches its log.
 *
 * @example
 * ```ts ignore
 * import { startWorker } from "./worker.ts";
 * await startWorker({ boss, history, reports: REPORTS, concurrency: 2 });
 * ```
 */
export async function startWorker(options: WorkerOptions): Promise<string> {
  const write = options.log ?? (() => {});
  const log = (line: string) => write(redact(line));
  const ctx = {
    history: options.history,
    reports: options.reports,
    worker: options.name ?? workerName(),
    log,
  };
  return await options.boss.work<PackJobData, AttemptOutcome>(
    PACK_QUEUE,
    {
      batchSize: 1,
      localConcurrency: options.concurrency ?? 2,
      pollingIntervalSeconds: options.pollSeconds ?? 2,
    },
    async ([job]) => {
      const signal = options.signal ? AbortSignal.any([job.signal, options.signal]) : job.signal;
      log(`${job.data.tenant.id}: job ${job.id} attempt ${job.retryCount} on ${ctx.worker}`);
      return await runAttempt({ ...job, signal }, ctx);
    },
  );
}
