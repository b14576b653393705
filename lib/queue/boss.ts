/**
 * The pack queue on PostgreSQL (pg-boss): one queue, `samkit-pack`, whose jobs are one pack for
 * one tenant. Its policy is `singleton` with the tenant's id as singleton key, so a tenant has at
 * most one pack running at a time wherever the workers are; failed attempts are retried with
 * exponential backoff, and a job whose worker stops sending heartbeats (killed, crashed, machine
 * gone) is failed by the supervisor and retried on another worker.
 *
 * @module
 */

import { PgBoss } from "pg-boss";
import { redact } from "../api/redact.ts";

/** The queue's name. */
export const PACK_QUEUE = "samkit-pack";

/** Retry and liveness settings of the queue. */
export interface QueueSettings {
  /** Retries after the first attempt (default 3). */
  readonly retryLimit: number;
  /** The first retry's delay in seconds, doubled each retry (default 30). */
  readonly retryDelay: number;
  /** The longest retry delay in seconds (default 900). */
  readonly retryDelayMax: number;
  /** A worker must send a heartbeat this often (seconds, ≥ 10; default 30). */
  readonly heartbeatSeconds: number;
  /** The longest a pack may run, in seconds (default 4 hours). */
  readonly expireInSeconds: number;
}

/** The default {@link QueueSettings}. */
export const DEFAULT_QUEUE_SETTINGS: QueueSettings = {
  retryLimit: 3,
  retryDelay: 30,
  retryDelayMax: 900,
  heartbeatSeconds: 30,
  expireInSeconds: 4 * 60 * 60,
};

/** Options of {@link openBoss}. */
export interface OpenBossOptions {
  /** How often (seconds) this instance checks for dead jobs and expiry (default 30). */
  readonly superviseSeconds?: number;
  /** Whether this instance runs cron schedules (workers do; `enqueue` does not). */
  readonly schedule?: boolean;
  /** Whether it supervises (workers do). */
  readonly supervise?: boolean;
  /** Queue settings, when the queue is created or updated. */
  readonly settings?: Partial<QueueSettings>;
  /** Connections in the pool (default 4). */
  readonly max?: number;
}

/**
 * Starts pg-boss on `url` (creating its schema on first use) and makes sure the pack queue exists
 * with its settings.
 *
 * @example
 * ```ts ignore
 * import { openBoss, PACK_QUEUE } from "./boss.ts";
 * const boss = await openBoss("postgresql://samkit@127.0.0.1/samkit");
 * console.log(await boss.getQueue(PACK_QUEUE));
 * await boss.stop();
 * ```
 */
export async function openBoss(url: string, options: OpenBossOptions = {}): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    application_name: "samkit",
    max: options.max ?? 4,
    schedule: options.schedule ?? false,
    supervise: options.supervise ?? false,
    superviseIntervalSeconds: options.superviseSeconds ?? 30,
    monitorIntervalSeconds: options.superviseSeconds ?? 30,
  });
  boss.on("error", (e: Error) => console.error(`samkit: queue: ${redact(e.message)}`));
  await boss.start();
  const settings = { ...DEFAULT_QUEUE_SETTINGS, ...options.settings };
  const queue = {
    policy: "singleton",
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelay,
    retryBackoff: true,
    retryDelayMax: settings.retryDelayMax,
    heartbeatSeconds: settings.heartbeatSeconds,
    expireInSeconds: settings.expireInSeconds,
  } as const;
  if (await boss.getQueue(PACK_QUEUE)) {
    if (options.settings) await boss.updateQueue(PACK_QUEUE, queue);
  } else {
    await boss.createQueue(PACK_QUEUE, queue).catch(async (e) => {
      // Another process created it first.
      if (!await boss.getQueue(PACK_QUEUE)) throw e;
    });
  }
  return boss;
}
