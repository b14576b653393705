/**
 * The verify phase of a pack run: the run's outcome (`complete` when every report succeeded,
 * else `partial`) and its figures compared with the last comparable run of the pack.
 *
 * @module
 */

import { basename, dirname } from "node:path";
import { compareWithEarlier, type Comparison } from "./comparison.ts";
import type { Change, Figure } from "./figures.ts";
import type { RunLedger } from "./run_ledger.ts";

/** A verified run. */
export interface VerifiedRun {
  /** Whether every report succeeded. */
  readonly allOk: boolean;
  /** The manifest status the run ends with. */
  readonly status: "complete" | "partial";
  /** Figures with changes since the run compared with. */
  readonly changes: Change[];
  /** The run compared with, and what was not compared, with reasons. */
  readonly comparison: Comparison;
}

/**
 * Verifies a run whose reports all ran: its status, and its figures against earlier runs in the
 * same pack folder.
 *
 * @example
 * ```ts ignore
 * import { verifyRun } from "./run_verify.ts";
 * const { status, changes } = await verifyRun({ dir, ledger, figures });
 * ```
 */
export async function verifyRun(
  options: { dir: string; ledger: RunLedger; figures: readonly Figure[] },
): Promise<VerifiedRun> {
  const { dir, ledger } = options;
  const { changes, comparison } = await compareWithEarlier(
    dirname(dir),
    basename(dir),
    { source: ledger.source, reports: ledger.reports },
    options.figures,
  );
  const allOk = ledger.reports.every((r) => r.status === "ok");
  return { allOk, status: allOk ? "complete" : "partial", changes, comparison };
}
