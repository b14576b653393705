/**
 * The row-by-row comparison of a pack run with its previous run (the pack's `diff` section): the
 * run-diff report between the run the figures were compared with (the newest finished run of the
 * same source, `comparison.ts`) and this one, rendered through the one report engine into this
 * run's staging folder and moved into its folder — so the manifest lists it with its checksum and
 * the signature covers it — and, for the summary, one line per position that moved. Nothing is
 * ever written into the previous run's folder: it is only read.
 *
 * When there is nothing to compare with — the first run, earlier runs only of other sources, a
 * previous run without a snapshot or whose snapshot was changed or cannot be read, license-position
 * run differently — no diff is made and the outcome says why, naming the folder or file; the run
 * goes on. A diff that fails for another reason is `failed`, with its error.
 *
 * @module
 */

import { dirname, isAbsolute, join, relative } from "node:path";
import { DIFF_REPORT, type PackDiff } from "./pack_diff.ts";
import type { Comparison } from "./comparison.ts";
import type { EvidenceFolder } from "./evidence_folder.ts";
import type { RunLedger } from "./run_ledger.ts";
import { checkRunFolder } from "./diff_read.ts";
import { RunFolderError } from "./verify_run.ts";
import { displayTime } from "./summary_view.ts";
import { historySource, openSnapshotSource } from "../cli/source.ts";
import { runReport } from "../report/runner.ts";
import type { ReportDefinition } from "../report/model.ts";
import { resolveParams } from "../report/params.ts";
import { createQueryContext } from "../query/context.ts";
import { createRenderers } from "../render/registry.ts";
import type { RenderDocument } from "../render/renderer.ts";
import type { BrowserHandle } from "../render/browser.ts";
import type { Theme } from "../render/theme.ts";
import { redact } from "../api/redact.ts";
import { VERSION } from "../version.ts";

export { DIFF_REPORT } from "./pack_diff.ts";

/** How many rows of each kind the diff found. */
export interface RowDiffCounts {
  /** Positions whose shortfall or surplus changed. */
  readonly positions: number;
  /** Computers added. */
  readonly computersAdded: number;
  /** Computers removed. */
  readonly computersRemoved: number;
  /** Installs that appeared. */
  readonly installsAppeared: number;
  /** Installs that disappeared. */
  readonly installsDisappeared: number;
  /** Licenses added. */
  readonly licensesAdded: number;
  /** Licenses removed. */
  readonly licensesRemoved: number;
  /** Licenses changed (quantity, cost, dates, validity, organisation). */
  readonly licensesChanged: number;
}

/** What the row-by-row comparison of a run came to. */
export interface RowDiff {
  /** `made` (files written), `not made` (nothing to compare with: `note` says why), `failed`. */
  readonly status: "made" | "not made" | "failed";
  /** The run compared with (folder name and start), when there was one. */
  readonly previous: { readonly run: string; readonly started: string } | null;
  /** Why no diff was made, or why it failed; null when made. */
  readonly note: string | null;
  /** The run-diff files in the run folder (relative paths), PDF first when written. */
  readonly files: readonly string[];
  /** What changed, counted (zero when not made). */
  readonly counts: RowDiffCounts;
  /** One line per moved position, largest change in shortfall first (the report's order). */
  readonly lines: readonly string[];
  /** How many of `lines` the mail lists. */
  readonly mailRows: number;
}

/** Options of {@link diffWithPrevious}. */
export interface DiffWithPreviousOptions {
  /** The pack's name (for log lines). */
  readonly pack: string;
  /** The pack's diff section. */
  readonly diff: PackDiff;
  /** The report catalogue (holds run-diff). */
  readonly reports: readonly ReportDefinition[];
  /** This run's evidence folder (its snapshot already in it). */
  readonly folder: EvidenceFolder;
  /** This run's manifest in progress. */
  readonly ledger: RunLedger;
  /** The run the figures were compared with, and why not when none. */
  readonly comparison: Comparison;
  /** When this run started (the diff's "as of"). */
  readonly started: Date;
  /** The run's browser (for a PDF). */
  readonly browser?: BrowserHandle;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
  /** Your own look (default samkit's). */
  readonly theme?: Theme;
  /** Log lines. */
  readonly log: (line: string) => void;
}

/**
 * The counts of a row-by-row diff in which nothing changed (every count 0).
 *
 * @example
 * ```ts
 * import { NO_COUNTS } from "./run_row_diff.ts";
 * console.log(NO_COUNTS.positions); // 0
 * ```
 */
export const NO_COUNTS: RowDiffCounts = {
  positions: 0,
  computersAdded: 0,
  computersRemoved: 0,
  installsAppeared: 0,
  installsDisappeared: 0,
  licensesAdded: 0,
  licensesRemoved: 0,
  licensesChanged: 0,
};

/** A run folder as a person types it: relative to the working folder when inside it. */
function shownPath(dir: string): string {
  const rel = relative(Deno.cwd(), dir);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : dir;
}

/** Why there is no previous run to compare with, from the comparison's first note. */
function noPrevious(comparison: Comparison): string {
  const why = comparison.notes[0];
  if (!why || why === "no earlier finished run") {
    return "Not compared row by row: this is the pack's first finished run (it keeps its " +
      "snapshot for the next run to compare with).";
  }
  return `Not compared row by row: ${why.replace(/; not compared$/, "")}.`;
}

/**
 * Why the previous run cannot be compared, or null when it can: its folder checked (a
 * license-position that succeeded, a snapshot its manifest lists with that SHA-256) and its
 * snapshot opened.
 */
async function previousProblem(dir: string): Promise<string | null> {
  let snapshot: string;
  try {
    ({ snapshot } = await checkRunFolder(dir));
  } catch (e) {
    // Whatever keeps the folder from being read (a planted link, no permission) is said too.
    const message = redact((e as Error).message ?? String(e));
    const why = e instanceof RunFolderError ? message : `run folder ${dir}: ${message}`;
    return `Not compared row by row: ${why}.`;
  }
  try {
    await openSnapshotSource(snapshot).close();
  } catch (e) {
    // The snapshot's own error names the file; its advice is for the command line.
    const why = redact((e as Error).message).replace(/; give the snapshot\.sqlite .*$/, "");
    return `Not compared row by row: ${why}.`;
  }
  return null;
}

/** The moved positions' lines and the counts of a rendered run-diff document. */
async function collect(doc: RenderDocument): Promise<{ lines: string[]; counts: RowDiffCounts }> {
  const lines: string[] = [];
  const counts = { ...NO_COUNTS };
  const tally: Record<string, Record<string, keyof RowDiffCounts>> = {
    computers: { added: "computersAdded", removed: "computersRemoved" },
    installs: { appeared: "installsAppeared", disappeared: "installsDisappeared" },
    licenses: { added: "licensesAdded", removed: "licensesRemoved", changed: "licensesChanged" },
  };
  const changedLicenses = new Set<string>();
  for (const section of doc.sections) {
    for await (const row of section.rows()) {
      if (section.id === "positions") {
        lines.push(String(row.movedBy));
        counts.positions++;
        continue;
      }
      const field = tally[section.id]?.[String(row.change)];
      if (!field) continue;
      // A changed license has a row per field that changed: it is counted once.
      if (field === "licensesChanged") {
        if (changedLicenses.has(String(row.license))) continue;
        changedLicenses.add(String(row.license));
      }
      counts[field]++;
    }
  }
  return { lines, counts };
}

/** Removes the files a failed diff left in the staging folder. */
async function removeAll(paths: readonly string[]): Promise<void> {
  for (const path of paths) await Deno.remove(path).catch(() => {});
}

/** Renders run-diff between `before` and this run into the staging folder. */
async function render(
  options: DiffWithPreviousOptions,
  before: string,
  written: string[],
): Promise<{ lines: string[]; counts: RowDiffCounts }> {
  const definition = options.reports.find((r) => r.id === DIFF_REPORT);
  if (!definition) throw new Error(`${DIFF_REPORT} is not in the report catalogue`);
  const history = historySource();
  let found = { lines: [] as string[], counts: NO_COUNTS };
  await runReport({
    definition,
    client: history.client,
    query: createQueryContext(),
    params: resolveParams(definition, { before, after: shownPath(options.folder.dir) }),
    formats: options.diff.formats,
    renderers: createRenderers(),
    outDir: options.folder.staged,
    source: history.source,
    version: VERSION,
    now: options.started,
    browser: options.browser,
    signal: options.signal,
    theme: options.theme,
    onEvent: (e) => {
      if (e.type === "written") written.push(e.path);
    },
    inspect: async (doc) => {
      found = await collect(doc);
    },
  });
  return found;
}

/**
 * Compares this run with its previous run row by row (see the module doc). Call it after the
 * run's reports are rendered and its snapshot kept, before the summary.
 *
 * @example
 * ```ts ignore
 * import { diffWithPrevious } from "./run_row_diff.ts";
 * const diff = await diffWithPrevious({ pack: pack.name, diff: pack.diff, reports, folder, ledger,
 *   comparison: verified.comparison, started, browser, log: console.log });
 * console.log(diff.status, diff.lines.slice(0, diff.mailRows));
 * ```
 */
export async function diffWithPrevious(options: DiffWithPreviousOptions): Promise<RowDiff> {
  const { comparison, folder, diff, log } = options;
  const base = { previous: null, files: [], counts: NO_COUNTS, lines: [], mailRows: diff.mailRows };
  const prev = comparison.previous;
  if (!prev) return { ...base, status: "not made", note: noPrevious(comparison) };
  const previous = { run: prev.run, started: prev.started };
  const before = shownPath(join(dirname(folder.dir), prev.run));
  const problem = await previousProblem(before);
  if (problem) {
    log(`${options.pack}: ${problem}`);
    return { ...base, previous, status: "not made", note: problem };
  }
  // This run's manifest lists its snapshot before the diff reads this run's folder.
  await options.ledger.checkpoint();
  const written: string[] = [];
  try {
    const { lines, counts } = await render(options, before, written);
    await options.ledger.checkpoint();
    const pdfFirst = (f: string) => (f.toLowerCase().endsWith(".pdf") ? 0 : 1);
    const files = written.map((p) => relative(folder.staged, p))
      .sort((x, y) => pdfFirst(x) - pdfFirst(y));
    log(
      `${options.pack}: ${DIFF_REPORT} against ${prev.run} done (${counts.positions} positions moved)`,
    );
    return { ...base, previous, status: "made", note: null, files, counts, lines };
  } catch (e) {
    if (options.signal?.aborted) throw e;
    await removeAll(written);
    const message = redact((e as Error).message ?? String(e));
    const expected = e instanceof RunFolderError;
    const note = expected
      ? `Not compared row by row with the run of ${displayTime(prev.started)}: ${message}.`
      : `The row-by-row comparison with the run of ${displayTime(prev.started)} failed: ${message}`;
    log(`${options.pack}: ${note}`);
    return { ...base, previous, status: expected ? "not made" : "failed", note };
  }
}
