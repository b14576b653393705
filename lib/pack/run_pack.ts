/**
 * Running a pack: every report once into `<root>/<pack>/<YYYY-MM-DDTHHMMZ>/`, sharing one client,
 * one browser and one cache of fetched data; a manifest with checksums; figures and changes since
 * the previous run; an optional snapshot of the API data; the summary email or its `.eml`.
 *
 * @module
 */

import type { PackFile } from "./pack_file.ts";
import { join, resolve } from "node:path";
import { abandonRun, type Manifest, readManifest } from "./manifest.ts";
import type { Comparison } from "./comparison.ts";
import type { Change } from "./figures.ts";
import { EvidenceFolder, stagingOf } from "./evidence_folder.ts";
import { stageRun } from "./run_stage.ts";
import { RunLedger } from "./run_ledger.ts";
import { type RenderedReports, renderReports } from "./run_render.ts";
import { verifyRun } from "./run_verify.ts";
import { publishInterrupted, publishRun } from "./run_publish.ts";
import { diffWithPrevious } from "./run_row_diff.ts";
import { ownerState, removeStaleDirs } from "../fs/owned_temp.ts";
import { checkContained, checkSubfolder } from "../fs/containment.ts";
import { safeJoin } from "../fs/safe_name.ts";
import type { SourceOptions } from "../cli/source.ts";
import type { ReportDefinition } from "../report/model.ts";
import { reportingCurrencyOf } from "../sam/reporting_currency_flags.ts";
import type { ReportingCurrencyOptions } from "../sam/reporting_currency.ts";
import { type BrowserHandle, launchBrowser } from "../render/browser.ts";
import { loadTheme, type Theme } from "../render/theme.ts";
import { type ManifestSigner, readSigningKey } from "./sign.ts";

export { runFolderName } from "./evidence_folder.ts";
export { printSummaryPdf } from "./run_mail.ts";

/** Options of {@link runPack}. */
export interface RunPackOptions {
  /** The validated pack. */
  readonly pack: PackFile;
  /** The report catalogue. */
  readonly reports: readonly ReportDefinition[];
  /** Overrides the pack's output root (`--out`). */
  readonly outRoot?: string;
  /** Keep the API data read in `snapshot.sqlite` beside the manifest. */
  readonly snapshot?: boolean;
  /** Send the email (else write `summary.eml`). */
  readonly send?: boolean;
  /** Where the data comes from (no base URL: the embedded demo server). */
  readonly source?: SourceOptions;
  /** Cancels the run; the manifest then says `interrupted`. */
  readonly signal?: AbortSignal;
  /** The cap on API calls in flight (`--max-concurrency`; default the query context's). */
  readonly maxConcurrency?: number;
  /** The clock (tests). */
  readonly now?: () => Date;
  /** Log lines (one per step). */
  readonly log?: (line: string) => void;
  /** SMTP credentials (default from SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD). */
  readonly smtpCredentials?: { user?: string; pass?: string };
  /** Your own look for the reports and the mail (default: the pack's `theme` file, if any). */
  readonly theme?: Theme;
  /** Signs the run's manifest (default: the pack's `sign.key`, if any, read before the run). */
  readonly signer?: ManifestSigner;
  /**
   * The browser to print with, the caller's to close (several runs may share one); default one
   * of the run's own, launched at its first PDF and closed when the run ends.
   */
  readonly browser?: BrowserHandle;
}

/** What a pack run produced. */
export interface PackRunResult {
  /** The run folder. */
  readonly dir: string;
  /** The final manifest. */
  readonly manifest: Manifest;
  /** Whether every report succeeded (and the email, when sent). */
  readonly ok: boolean;
  /** Figures with changes since the last comparable run. */
  readonly changes: readonly Change[];
  /** The run compared with and what was not compared, with reasons (absent when interrupted). */
  readonly comparison?: Comparison;
  /** The `.eml` file written when not sending. */
  readonly eml?: string;
  /** Why sending failed. */
  readonly emailError?: string;
}

/**
 * Marks every run of the pack whose process died while `running` as `abandoned` (see
 * {@link abandonRun}) and removes the staging folders of dead runs. A run is dead when its
 * staging folder is gone or its owner process is.
 */
async function settleDeadRuns(packDir: string, log: (line: string) => void): Promise<void> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(packDir)) {
      if (e.isDirectory && !e.name.startsWith(".")) names.push(e.name);
    }
  } catch {
    return; // no earlier run
  }
  for (const name of names.sort()) {
    const dir = join(packDir, name);
    const manifest = await readManifest(dir);
    if (manifest?.status !== "running") continue;
    const staging = stagingOf(dir);
    const gone = await Deno.stat(staging).then(() => false, () => true);
    if (!gone && (await ownerState(staging)) !== "dead") continue;
    await abandonRun(dir, manifest);
    log(`${manifest.pack}: the run ${name} died while running; its manifest now says abandoned`);
  }
  await removeStaleDirs({ dir: packDir, prefix: "." });
}

/**
 * Runs a pack. A report that fails does not stop the others; `ok` says whether all succeeded.
 *
 * @example
 * ```ts ignore
 * import { runPack } from "./run_pack.ts";
 * import { readPackFile } from "./pack_file.ts";
 * import { REPORTS } from "../../reports/mod.ts";
 * const pack = await readPackFile("packs/weekly_audit.json", REPORTS);
 * const { dir, ok } = await runPack({ pack, reports: REPORTS });
 * ```
 */
export async function runPack(given: RunPackOptions): Promise<PackRunResult> {
  // The pack's own report modules are found beside the built-in catalogue.
  const options = { ...given, reports: [...given.pack.definitions ?? [], ...given.reports] };
  const { pack } = options;
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const started = now();
  // Absolute once: every path below (and in the manifest, relative to the run folder) follows.
  const outRoot = resolve(options.outRoot ?? pack.output);
  const packDir = safeJoin(outRoot, pack.name);
  // Before anything is written: the output root, and the pack's folder in it, really there.
  checkContained(outRoot, { what: "pack output folder", access: "write" });
  checkSubfolder(outRoot, packDir, "pack folder");
  await settleDeadRuns(packDir, log);
  // The rates are read before the run folder exists: a bad or missing file writes nothing.
  const fx = await reportingCurrencyOf({
    code: pack.reportingCurrency?.code,
    ratesFile: pack.reportingCurrency?.fxRates,
    names: { code: "reportingCurrency", rates: "fxRates" },
  });
  // So is the theme (its logo and templates too).
  const theme = options.theme ?? (pack.theme ? await loadTheme(pack.theme) : undefined);
  // So is the signing key: a missing or bad one writes nothing.
  const signer = options.signer ?? (pack.sign ? await readSigningKey(pack.sign.key) : undefined);
  const folder = await EvidenceFolder.create(packDir, started);
  try {
    return await runInFolder({ ...options, fx, theme, signer }, folder, started, log, now);
  } finally {
    await folder.close();
  }
}

/** Resolves `{ done: false }` as soon as `signal` aborts, else with what `work` gives. */
function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<{ done: true; value: T } | { done: false }> {
  const finished = work.then((value) => ({ done: true as const, value }));
  if (!signal) return finished;
  let stop = () => {};
  const aborted = new Promise<{ done: false }>((resolve) => {
    stop = () => resolve({ done: false });
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
  return Promise.race([finished, aborted]).finally(() => {
    signal.removeEventListener("abort", stop);
  });
}

/**
 * Runs the pack in its folder (see {@link runPhases}). A stop (`signal`) ends it at once in
 * whatever phase it is — waiting on the service, the browser or the mail server — with the
 * manifest saying `interrupted`: the work left behind cannot move a file into the folder or
 * write the manifest again (the folder is sealed, the manifest final).
 */
async function runInFolder(
  options: RunPackOptions & { readonly fx?: ReportingCurrencyOptions },
  folder: EvidenceFolder,
  started: Date,
  log: (line: string) => void,
  now: () => Date,
): Promise<PackRunResult> {
  const { pack, signal } = options;
  const ledger = new RunLedger({ pack, folder, started, signer: options.signer });
  const interrupted = () => publishInterrupted({ pack, ledger, dir: folder.dir, now, log });
  const work = runPhases(options, folder, ledger, started, log, now);
  try {
    const outcome = await untilAborted(work, signal);
    if (outcome.done) return outcome.value;
    work.catch(() => {}); // left behind: whatever it ends with changes nothing now
    // A final manifest already being written is the run's last step: it is let finish.
    return ledger.finished ? await work : await interrupted();
  } catch (error) {
    if (signal?.aborted && !ledger.finished) return await interrupted();
    throw error;
  } finally {
    ledger.detach();
  }
}

/**
 * Runs the pack in its folder, phase by phase: stage (manifest, source), render (every report),
 * verify (status, comparison with earlier runs), publish (summary, mail, final manifest).
 */
async function runPhases(
  options: RunPackOptions & { readonly fx?: ReportingCurrencyOptions },
  folder: EvidenceFolder,
  ledger: RunLedger,
  started: Date,
  log: (line: string) => void,
  now: () => Date,
): Promise<PackRunResult> {
  const { pack } = options;
  // A pack with a diff keeps every run's snapshot: the next run compares with it.
  const snapshot = options.snapshot === true || pack.diff !== undefined;
  const staged = await stageRun({ ...options, snapshot, folder, ledger, started, log });
  // One browser for the whole run; it starts only when a PDF is printed and closes on return
  // (the caller's, when given, is left open).
  await using own = options.browser ? undefined : launchBrowser();
  const browser = options.browser ?? own!;
  let rendered: RenderedReports;
  try {
    const outDir = folder.staged;
    rendered = await renderReports({ ...options, staged, outDir, browser, started, log });
  } finally {
    await staged.close();
  }
  await staged.keepSnapshot();
  if (rendered.interrupted) {
    return await publishInterrupted({ pack, ledger, dir: folder.dir, now, log });
  }
  const verified = await verifyRun({ dir: folder.dir, ledger, figures: rendered.figures });
  const rowDiff = pack.diff
    ? await diffWithPrevious({
      ...options,
      pack: pack.name,
      diff: pack.diff,
      folder,
      ledger,
      comparison: verified.comparison,
      started,
      browser,
      log,
    })
    : undefined;
  return await publishRun({
    rowDiff,
    ...options,
    folder,
    ledger,
    rendered,
    verified,
    started,
    browser,
    now,
    log,
  });
}
