/**
 * The pack history the trends report reads: the dated run folders of one pack (each with
 * `manifest.json` and `summary.json`), the finished runs of one source selected, the others
 * listed with why they were left out. Headline figures come from each run's own figures through
 * the pack summary's {@link headlineOf}, so a trend row equals what that run's summary said; a
 * run with a reporting currency also carries the statement of the rates it converted with.
 *
 * @module
 */

import { join } from "node:path";
import { checkContained, checkSubfolder } from "../fs/containment.ts";
import { type Manifest, readManifest } from "../pack/manifest.ts";
import { currentFigures, type Figure } from "../pack/figures.ts";
import { type ConvertedPart, type Headline, headlineOf } from "../pack/headline.ts";
import { reportDifference } from "../pack/comparison.ts";
import { sourceIdentity } from "../pack/source_identity.ts";
import { readRegularTextFile } from "../fs/regular_file.ts";

/** One run of the selected source. */
export interface HistoryRun {
  /** The run folder's name. */
  readonly run: string;
  /** When it started. */
  readonly started: Date;
  /** Its manifest. */
  readonly manifest: Manifest;
  /** Its headline figures; a figure whose report ran with other parameters than the latest run is null. */
  readonly headline: Headline;
  /**
   * The rates the run's reports converted with, as its summary stated them (`1 EUR = … (rates
   * of …, file)`); null when the run had no reporting currency.
   */
  readonly rates: string | null;
  /** Reports left out of the trend for this run, with the reason. */
  readonly notes: readonly string[];
  /**
   * The reports that ran in this run and compare with the latest: a money figure of theirs that
   * has no line in a currency is 0 in that currency, not unknown.
   */
  readonly compared: readonly string[];
}

/** A run left out, and why. */
export interface SkippedRun {
  /** The run folder's name. */
  readonly run: string;
  /** Why it is not in the trend. */
  readonly reason: string;
}

/** The history of one source. */
export interface History {
  /** The source's identity (see `sourceIdentity`), or null when no run was found. */
  readonly source: string | null;
  /** Its runs, oldest first. */
  readonly runs: readonly HistoryRun[];
  /** Runs left out, oldest first. */
  readonly skipped: readonly SkippedRun[];
}

/**
 * The report each headline figure comes from (whose parameters must match across runs); the
 * all-currency totals in a reporting currency (`converted`) are not among the trends.
 */
const REPORT_OF: Record<Exclude<keyof Headline, "converted">, string> = {
  shortfallCost: "license-position",
  unpricedShortfalls: "license-position",
  positionsShort: "license-position",
  remainingPurchaseNeed: "license-optimization",
  optimisation: "license-optimization",
  costToDate: "license-cost-summary",
  runRate: "license-cost-summary",
  uncoveredInstalls: "entitlement-state-by-computer",
  staleComputers: "stale-computers",
};

/** The headline figures kept per currency: empty, not null, when their report is left out. */
const PER_CURRENCY = [
  "costToDate",
  "runRate",
  "shortfallCost",
  "remainingPurchaseNeed",
  "optimisation",
];

/** The report each all-currency total in a reporting currency comes from. */
const CONVERTED_REPORT_OF: Record<ConvertedPart, string> = {
  shortfallCost: "license-position",
  remainingPurchaseNeed: "license-optimization",
  moneySaved: "license-optimization",
  costToDate: "license-cost-summary",
  runRate: "license-cost-summary",
};

/**
 * The history folder is not a pack's output folder.
 *
 * @example
 * ```ts
 * import { HistoryFolderError } from "./trends_history.ts";
 * console.log(new HistoryFolderError("out/packs/x", "no such folder").message);
 * ```
 */
export class HistoryFolderError extends Error {
  /**
   * Builds the error from the folder and what is wrong with it.
   *
   * @param folder The folder given.
   * @param problem What is wrong.
   */
  constructor(folder: string, problem: string) {
    super(`history ${folder}: ${problem}`);
    this.name = "HistoryFolderError";
  }
}

interface RawRun {
  readonly run: string;
  readonly manifest: Manifest | null;
  readonly figures: readonly Figure[] | null;
  readonly rates: string | null;
}

async function readRuns(folder: string): Promise<RawRun[]> {
  checkContained(folder, { what: "history folder" });
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(folder)) {
      if (e.isDirectory && !e.name.startsWith(".")) names.push(e.name);
    }
  } catch (e) {
    throw new HistoryFolderError(
      folder,
      e instanceof Deno.errors.NotFound ? "no such folder" : (e as Error).message,
    );
  }
  const runs: RawRun[] = [];
  for (const run of names.sort()) {
    // A run's files are read only where they really are inside the history folder.
    for (const file of ["manifest.json", "summary.json"]) {
      checkSubfolder(folder, join(folder, run, file), "history file", "read");
    }
    const manifest = await readManifest(join(folder, run));
    let figures: Figure[] | null = null;
    let rates: string | null = null;
    try {
      const summary = JSON.parse(await readRegularTextFile(join(folder, run, "summary.json")));
      // An earlier run's figures under today's names, so every run reads alike.
      figures = Array.isArray(summary.figures) ? currentFigures(summary.figures) : summary.figures;
      const statement = summary.reportingCurrency?.statement;
      rates = typeof statement === "string" ? statement : null;
    } catch {
      figures = null;
    }
    runs.push({ run, manifest, figures, rates });
  }
  return runs;
}

function unusable(raw: RawRun): string | null {
  if (!raw.manifest) return "no readable manifest.json";
  if (raw.manifest.status !== "complete" && raw.manifest.status !== "partial") {
    return `status ${raw.manifest.status}`;
  }
  if (!Array.isArray(raw.figures)) return "no readable summary.json";
  return null;
}

/** The headline with the figures of reports run differently from `latest` set to null. */
function comparableHeadline(
  raw: RawRun,
  latest: Manifest,
): { headline: Headline; notes: string[]; compared: string[]; rates: string | null } {
  const notes: string[] = [];
  const differs = new Set<string>();
  for (const report of latest.reports) {
    if (!raw.manifest!.reports.some((r) => r.id === report.id)) continue;
    const why = reportDifference(report, { reports: raw.manifest!.reports });
    if (why) {
      differs.add(report.id);
      notes.push(
        why.replace("in the previous run", "in this run").replace(/then, /, "here, ")
          .replace(/ now\)/, " in the latest run)").replace("; not compared", "; left out"),
      );
    }
  }
  const headline = headlineOf(raw.figures!) as Record<keyof Headline, unknown>;
  for (const [name, report] of Object.entries(REPORT_OF)) {
    if (!differs.has(report)) continue;
    headline[name as keyof Headline] = PER_CURRENCY.includes(name) ? {} : null;
  }
  const converted = headline.converted as Record<string, unknown> | undefined;
  for (const [part, report] of Object.entries(CONVERTED_REPORT_OF)) {
    if (converted && differs.has(report)) converted[part] = null;
  }
  const compared = raw.manifest!.reports.filter((r) => r.status === "ok" && !differs.has(r.id))
    .map((r) => r.id);
  return { headline: headline as unknown as Headline, notes, compared, rates: raw.rates };
}

/**
 * Reads a pack's history: the finished runs of `source` (a base URL or manifest source text;
 * default the latest finished run's source), oldest first; runs of other sources and unfinished
 * or unreadable runs are listed as skipped with the reason.
 *
 * @example
 * ```ts
 * import { readHistory } from "./trends_history.ts";
 * const folder = await Deno.makeTempDir(); // a pack's output folder: one run folder per run
 * const history = await readHistory(folder);
 * console.log(history.runs.length, history.skipped); // 0 []
 * await Deno.remove(folder);
 * ```
 */
export async function readHistory(folder: string, source?: string): Promise<History> {
  const raws = await readRuns(folder);
  const usable = raws.filter((r) => !unusable(r));
  const wanted = source !== undefined
    ? sourceIdentity(source)
    : usable.length
    ? sourceIdentity(usable[usable.length - 1].manifest!.source)
    : null;
  const mine = usable.filter((r) => sourceIdentity(r.manifest!.source) === wanted);
  const latest = mine[mine.length - 1]?.manifest;
  const runs: HistoryRun[] = [];
  const skipped: SkippedRun[] = [];
  for (const raw of raws) {
    const why = unusable(raw) ??
      (sourceIdentity(raw.manifest!.source) === wanted
        ? null
        : `read ${raw.manifest!.source}, not ${wanted}; not compared`);
    if (why) {
      skipped.push({ run: raw.run, reason: why });
      continue;
    }
    runs.push({
      run: raw.run,
      started: new Date(raw.manifest!.started),
      manifest: raw.manifest!,
      ...comparableHeadline(raw, latest!),
    });
  }
  return { source: wanted, runs, skipped };
}
