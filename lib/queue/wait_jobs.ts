/**
 * Waiting for enqueued pack jobs to end (completed, failed after its retries, or cancelled) and
 * reading each one's last attempt from the run history (redacted as the history reads it).
 *
 * @module
 */

import type { PgBoss } from "pg-boss";
import { PACK_QUEUE } from "./boss.ts";
import type { HistoryRun, RunHistory } from "./history.ts";

/** How a job ended. */
export interface JobEnd {
  /** The job's id. */
  readonly jobId: string;
  /** pg-boss's final state (`completed`, `failed`, `cancelled`), or `pending` at the deadline. */
  readonly state: string;
  /** Its last attempt, from the history. */
  readonly run: HistoryRun | null;
}

const FINAL = new Set(["completed", "failed", "cancelled"]);

/**
 * Polls until every job has ended or `timeoutMs` passes, every `pollMs` (default 250: one small
 * query per open job, so `enqueue --wait` reports a run at most a quarter of a second after it
 * ends).
 *
 * @example
 * ```ts ignore
 * import { waitForJobs } from "./wait_jobs.ts";
 * const ends = await waitForJobs(boss, history, ["…"], 600_000);
 * ```
 */
export async function waitForJobs(
  boss: PgBoss,
  history: RunHistory,
  jobIds: readonly string[],
  timeoutMs: number,
  pollMs = 250,
): Promise<JobEnd[]> {
  const deadline = Date.now() + timeoutMs;
  const states = new Map<string, string>();
  while (true) {
    for (const id of jobIds) {
      if (FINAL.has(states.get(id) ?? "")) continue;
      const [job] = await boss.findJobs(PACK_QUEUE, { id });
      states.set(id, job?.state ?? "deleted");
    }
    const open = jobIds.filter((id) => !FINAL.has(states.get(id)!));
    if (!open.length || Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  const runs = await history.runs({ jobIds: [...jobIds] });
  return jobIds.map((jobId) => {
    const state = states.get(jobId)!;
    const last = runs.filter((r) => r.jobId === jobId).at(-1) ?? null;
    return { jobId, state: FINAL.has(state) ? state : "pending", run: last };
  });
}
