/**
 * Which earlier run a pack run is compared with, and which of its reports: only runs of the same
 * source ({@link sourceIdentity}: base URL, or the demo estate's size and seed; a snapshot keeps
 * its run's) and, per report, the same parameters and filter. Whatever is not compared is said
 * with its reason, for the summary to show.
 *
 * @module
 */

import { join } from "node:path";
import { type Manifest, readManifest } from "./manifest.ts";
import { type Change, compareFigures, type Figure } from "./figures.ts";
import { sourceIdentity } from "./source_identity.ts";
import { readRegularTextFile } from "../fs/regular_file.ts";

/** What identifies a run for comparison: its source and each report's parameters and filter. */
export interface RunIdentity {
  /** The manifest's `source` text. */
  readonly source: string;
  /** The reports run, with their parameters and filter. */
  readonly reports: readonly {
    readonly id: string;
    readonly params: Readonly<Record<string, unknown>>;
    readonly filter?: string;
    readonly status?: string;
  }[];
}

/** The run a comparison was made with, and what was left out. */
export interface Comparison {
  /** The run compared with (folder name, start, source), or null when none. */
  readonly previous:
    | { readonly run: string; readonly started: string; readonly source: string }
    | null;
  /** Report ids whose figures were compared. */
  readonly compared: readonly string[];
  /** Why there is no comparison, or what was left out of it, one sentence each. */
  readonly notes: readonly string[];
}

const stable = (v: unknown): string =>
  JSON.stringify(
    v,
    (_k, x) =>
      x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
        : x,
  );

/**
 * Why a previous run is not of the same source as the current one, or null when it is.
 *
 * @example
 * ```ts
 * import { sourceDifference } from "./comparison.ts";
 * console.log(sourceDifference("http://a.test", "http://b.test"));
 * // "the previous run read http://b.test; not compared"
 * ```
 */
export function sourceDifference(current: string, previous: string): string | null {
  return sourceIdentity(current) === sourceIdentity(previous)
    ? null
    : `the previous run read ${previous}; not compared`;
}

/**
 * Why one report's figures cannot be compared with the previous run's, or null when they can.
 *
 * @example
 * ```ts
 * import { reportDifference } from "./comparison.ts";
 * const now = { id: "stale-computers", params: { days: 60 } };
 * console.log(reportDifference(now, { reports: [{ id: "stale-computers", params: { days: 30 } }] }));
 * // "stale-computers: parameters differ ({"days":30} then, {"days":60} now); not compared"
 * ```
 */
export function reportDifference(
  current: RunIdentity["reports"][number],
  previous: Pick<RunIdentity, "reports">,
): string | null {
  const before = previous.reports.find((r) => r.id === current.id);
  const id = current.id;
  if (!before) return `${id}: not in the previous run; not compared`;
  if (before.status && before.status !== "ok") {
    return `${id}: ${before.status} in the previous run; not compared`;
  }
  if (stable(before.params) !== stable(current.params)) {
    return `${id}: parameters differ (${stable(before.params)} then, ${
      stable(current.params)
    } now); not compared`;
  }
  if ((before.filter ?? "") !== (current.filter ?? "")) {
    return `${id}: filter differs (${JSON.stringify(before.filter ?? "")} then, ${
      JSON.stringify(current.filter ?? "")
    } now); not compared`;
  }
  return null;
}

/**
 * Decides what of a previous run (its manifest) the current run is compared with.
 *
 * @example
 * ```ts
 * import { decideComparison } from "./comparison.ts";
 * const now = { source: "http://a.test", reports: [{ id: "r", params: {} }] };
 * const before = { source: "http://b.test", started: "2026-01-01T00:00:00Z", reports: [] };
 * console.log(decideComparison(now, { run: "2026-01-01T0000Z", manifest: before }).notes[0]);
 * ```
 */
export function decideComparison(
  current: RunIdentity,
  previous: { run: string; manifest: RunIdentity & { started: string } } | null,
): Comparison {
  if (!previous) return { previous: null, compared: [], notes: ["no earlier finished run"] };
  const { manifest } = previous;
  const ref = { run: previous.run, started: manifest.started, source: manifest.source };
  const why = sourceDifference(current.source, manifest.source);
  if (why) return { previous: null, compared: [], notes: [why] };
  const notes: string[] = [];
  const compared: string[] = [];
  for (const report of current.reports) {
    if (report.status && report.status !== "ok") continue;
    const difference = reportDifference(report, manifest);
    if (difference) notes.push(difference);
    else compared.push(report.id);
  }
  return { previous: ref, compared, notes };
}

/** A finished earlier run: its folder name, manifest and figures. */
export interface EarlierRun {
  /** The run folder's name. */
  readonly run: string;
  /** Its manifest. */
  readonly manifest: Manifest;
  /** Its figures (from summary.json). */
  readonly figures: readonly Figure[];
}

/**
 * The finished (`complete` or `partial`) runs of a pack before `current`, newest first, with
 * their figures; dead, interrupted and unreadable runs are left out.
 *
 * @example
 * ```ts ignore
 * import { earlierRuns } from "./comparison.ts";
 * for await (const run of earlierRuns("out/packs/weekly", "2026-11-23T0600Z")) console.log(run.run);
 * ```
 */
export async function* earlierRuns(packDir: string, current: string): AsyncGenerator<EarlierRun> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(packDir)) {
      if (e.isDirectory && !e.name.startsWith(".") && e.name < current) names.push(e.name);
    }
  } catch {
    return;
  }
  for (const run of names.sort().reverse()) {
    const manifest = await readManifest(join(packDir, run));
    if (manifest?.status !== "complete" && manifest?.status !== "partial") continue;
    try {
      const summary = JSON.parse(await readRegularTextFile(join(packDir, run, "summary.json")));
      yield { run, manifest, figures: summary.figures as Figure[] };
    } catch {
      // a run without a readable summary is skipped
    }
  }
}

/**
 * Finds the last comparable run (the newest finished run of the same source) and compares the
 * figures of the reports whose parameters and filter match; when none, says why (the newest
 * finished run's source).
 *
 * @example
 * ```ts ignore
 * import { compareWithEarlier } from "./comparison.ts";
 * const { changes, comparison } = await compareWithEarlier(packDir, run, identity, figures);
 * ```
 */
export async function compareWithEarlier(
  packDir: string,
  current: string,
  identity: RunIdentity,
  figures: readonly Figure[],
): Promise<{ changes: Change[]; comparison: Comparison }> {
  let newest: Comparison | null = null;
  for await (const earlier of earlierRuns(packDir, current)) {
    const comparison = decideComparison(identity, earlier);
    newest ??= comparison;
    if (!comparison.previous) continue;
    const compared = new Set(comparison.compared);
    const before = earlier.figures.filter((f) => compared.has(f.report));
    const skipped = newest === comparison ? [] : [
      `later runs of other sources were not compared (${newest.notes[0]})`,
    ];
    const changes = compareFigures(figures, before);
    return { changes, comparison: { ...comparison, notes: [...skipped, ...comparison.notes] } };
  }
  return {
    changes: compareFigures(figures, null),
    comparison: newest ?? decideComparison(identity, null),
  };
}
