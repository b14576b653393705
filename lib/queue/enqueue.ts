/**
 * Putting packs on the queue: one job per tenant now, or a pg-boss schedule per tenant that
 * creates the job at each time of the pack's cron expression in its time zone.
 *
 * @module
 */

import type { PgBoss } from "pg-boss";
import { dirname, resolve } from "node:path";
import type { PackFile } from "../pack/pack_file.ts";
import type { Tenant } from "../tenants/tenants_file.ts";
import { tenantEmail } from "../tenants/mail_settings.ts";
import { PACK_QUEUE } from "./boss.ts";
import { type PackJobData, singletonKeyOf } from "./pack_job.ts";

/** What to enqueue. */
export interface EnqueueRequest {
  /** The validated pack (for its name and schedule). */
  readonly pack: PackFile;
  /** The pack document as read (what workers validate again). */
  readonly packDoc: unknown;
  /** The pack file's path. */
  readonly packFile: string;
  /** The tenants to run it for. */
  readonly tenants: readonly Tenant[];
  /** Overrides the pack's output root. */
  readonly outRoot?: string;
  /** Each run sends its summary email (the job carries the flag, a schedule's jobs too). */
  readonly send?: boolean;
  /** Register the pack's cron schedule instead of running it now. */
  readonly onSchedule?: boolean;
  /**
   * Per-job liveness and retry settings (else the queue's): `retryBackoff: false` retries after
   * exactly `retryDelay` seconds (0: at once) instead of the queue's doubling, jittered delay.
   */
  readonly jobOptions?: {
    readonly heartbeatSeconds?: number;
    readonly retryDelay?: number;
    readonly retryBackoff?: boolean;
  };
}

/** One tenant's entry: the job id (now) or the schedule key (on its cron). */
export interface Enqueued {
  readonly tenant: string;
  readonly jobId?: string;
  readonly scheduleKey?: string;
}

/**
 * The schedule key of a tenant's pack (one schedule per tenant and pack; enqueueing again
 * replaces it).
 *
 * @example
 * ```ts
 * import { scheduleKeyOf } from "./enqueue.ts";
 * console.log(scheduleKeyOf("acme", "weekly-audit")); // acme/weekly-audit
 * ```
 */
export function scheduleKeyOf(tenantId: string, pack: string): string {
  return `${tenantId}/${pack}`;
}

/**
 * Enqueues a pack for every tenant given. With `send`, every tenant must have somewhere to send
 * its summary (else `MailSettingsError`, before any job is queued).
 *
 * @example
 * ```ts ignore
 * import { enqueuePacks } from "./enqueue.ts";
 * const jobs = await enqueuePacks(boss, { pack, packDoc, packFile, tenants });
 * ```
 */
export async function enqueuePacks(boss: PgBoss, request: EnqueueRequest): Promise<Enqueued[]> {
  if (request.send) { for (const tenant of request.tenants) tenantEmail(request.pack, tenant); }
  const out: Enqueued[] = [];
  for (const tenant of request.tenants) {
    const data: PackJobData = {
      tenant,
      packFile: request.packFile,
      packDir: resolve(dirname(request.packFile)),
      pack: request.packDoc,
      ...(request.outRoot ? { outRoot: request.outRoot } : {}),
      ...(request.send ? { send: true } : {}),
    };
    const singletonKey = singletonKeyOf(tenant.id);
    const options = { singletonKey, ...request.jobOptions };
    if (request.onSchedule) {
      const { cron, timezone } = request.pack.schedule!;
      const key = scheduleKeyOf(tenant.id, request.pack.name);
      await boss.schedule(PACK_QUEUE, cron, { ...data }, { ...options, tz: timezone, key });
      out.push({ tenant: tenant.id, scheduleKey: key });
    } else {
      const jobId = await boss.send(PACK_QUEUE, { ...data }, options);
      if (!jobId) throw new Error(`tenant ${tenant.id}: the queue refused the job`);
      out.push({ tenant: tenant.id, jobId });
    }
  }
  return out;
}
