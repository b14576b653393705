/**
 * What a queued job carries: the tenant's entry (names of its credential variables or files,
 * never secrets), the pack document as enqueued (validated again by the worker against its own
 * report catalogue, its report modules loaded from the pack file's folder), and the output root.
 *
 * @module
 */

import type { Tenant } from "../tenants/tenants_file.ts";

/** The data of one pack job. */
export interface PackJobData {
  /** The tenant. */
  readonly tenant: Tenant;
  /** The pack file's path when enqueued (for messages). */
  readonly packFile: string;
  /**
   * The pack file's folder, absolute, when enqueued: the report modules the pack names are
   * found from here (a worker started in the user's project folder may load them; one started
   * elsewhere refuses them as outside its folders). Absent in jobs queued before it existed:
   * the folder of `packFile` then.
   */
  readonly packDir?: string;
  /** The pack document as read from the file. */
  readonly pack: unknown;
  /** Where runs go: `<outRoot>/<tenant id>/<pack>/<run>/` (default the pack's output). */
  readonly outRoot?: string;
  /**
   * Send the summary email (`enqueue --send`), with the tenant's `mail` settings laid over the
   * pack's `email` section; else the summary is written as `summary.eml` when the pack has one.
   */
  readonly send?: boolean;
}

/**
 * The singleton key of a tenant's jobs: one pack at a time per tenant, across all workers.
 *
 * @example
 * ```ts
 * import { singletonKeyOf } from "./pack_job.ts";
 * console.log(singletonKeyOf("acme")); // tenant:acme
 * ```
 */
export function singletonKeyOf(tenantId: string): string {
  return `tenant:${tenantId}`;
}

export { isTransient } from "./transient.ts";
