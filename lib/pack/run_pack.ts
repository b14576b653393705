/**
 * Running a pack: every report once into `<root>/<pack>/<YYYY-MM-DDTHHMMZ>/`, sharing one client,
 * one browser and one cache of fetched data; a manifest with checksums; figures and changes since
 * the previous run; an optional snapshot of the API data; the summary email or its `.eml`.
 *
 * @module
 */

import type { PackFile } from "./pack_file.ts";
import { basename, dirname, join, resolve } from "node:path";
import {
  abandonRun,
  type Manifest,
  type ManifestFile,
  type ManifestReport,
  readManifest,
  sha256File,
  writeManifest,
} from "./manifest.ts";
import { compareWithEarlier, type Comparison } from "./comparison.ts";
import { collectExposure, type Exposure } from "./risks.ts";
import { headlineOf } from "./headline.ts";
import { sourceIdentity } from "./source_identity.ts";
import { chooseAttachments, SUMMARY_PDF } from "./attachments.ts";
import { markOwned, ownerState, removeStaleDirs } from "../fs/owned_temp.ts";
import { checkContained, checkSubfolder } from "../fs/containment.ts";
import { safeJoin } from "../fs/safe_name.ts";
import { type Change, collectFigures, type Figure } from "./figures.ts";
import { addReportRates, type RunRates } from "./summary_rates.ts";
import { buildMessage, sendMessage, writeEml } from "./mail.ts";
import { SnapshotRecorder } from "./snapshot.ts";
import { openSource, type SourceOptions } from "../cli/source.ts";
import type { ReportDefinition } from "../report/model.ts";
import { reportingCurrencyOf } from "../sam/reporting_currency_flags.ts";
import type { ReportingCurrencyOptions } from "../sam/reporting_currency.ts";
import { rereadNote, runReport } from "../report/runner.ts";
import { backOffOnPressure, createQueryContext } from "../query/context.ts";
import { createRenderers } from "../render/registry.ts";
import { type BrowserHandle, launchBrowser } from "../render/browser.ts";
import { PrintTab } from "../render/pdf.ts";
import { isTempName, writeAtomic } from "../render/atomic.ts";
import { redact } from "../api/redact.ts";
import { VERSION } from "../version.ts";

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
 * Prints the summary email's HTML to a PDF (A4, backgrounds) in the run's browser, written
 * atomically.
 *
 * @example
 * ```ts ignore
 * import { printSummaryPdf } from "./run_pack.ts";
 * await printSummaryPdf(browser, "<h1>Summary</h1>", "out/summary.pdf");
 * ```
 */
export async function printSummaryPdf(
  browser: BrowserHandle,
  html: string,
  path: string,
): Promise<string> {
  const tab = new PrintTab(browser, {
    pdfOptions: { format: "A4", printBackground: true, tagged: false },
  });
  try {
    const { bytes } = await tab.print(html);
    return await writeAtomic(path, bytes);
  } finally {
    await tab.close();
  }
}

/**
 * The run folder name of an instant: `YYYY-MM-DDTHHMMZ` (UTC).
 *
 * @example
 * ```ts
 * import { runFolderName } from "./run_pack.ts";
 * console.log(runFolderName(new Date("2026-11-22T06:05:09Z"))); // 2026-11-22T0605Z
 * ```
 */
export function runFolderName(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z`;
}

async function makeRunDir(packDir: string, started: Date): Promise<string> {
  await Deno.mkdir(packDir, { recursive: true });
  const base = join(packDir, runFolderName(started));
  for (let n = 1;; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      await Deno.mkdir(dir);
      checkSubfolder(packDir, dir, "run folder");
      return dir;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
  }
}

/**
 * The staging folder of a run folder: `.<run>.staging` beside it, owned by the run's process.
 * Reports are rendered there and their finished files moved into the run folder, so the run
 * folder only ever holds finished files and the manifest.
 */
function stagingOf(dir: string): string {
  return join(dirname(dir), `.${basename(dir)}.staging`);
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

/** A run folder and its staging folder, with the checksums of the files moved in so far. */
class EvidenceFolder {
  /** The run folder (absolute). */
  readonly dir: string;
  /** Where reports are rendered before their files are moved into the run folder. */
  readonly staged: string;
  #files: ManifestFile[] = [];

  private constructor(dir: string) {
    this.dir = dir;
    this.staged = join(stagingOf(dir), "files");
  }

  /** Creates the run folder and its owned staging folder. */
  static async create(packDir: string, started: Date): Promise<EvidenceFolder> {
    const folder = new EvidenceFolder(await makeRunDir(packDir, started));
    await Deno.mkdir(stagingOf(folder.dir));
    await markOwned(stagingOf(folder.dir));
    await Deno.mkdir(folder.staged);
    return folder;
  }

  /** The files in the run folder, sorted by path. */
  get files(): ManifestFile[] {
    return [...this.#files].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  }

  /** A path in the staging folder. */
  stagedPath(name: string): string {
    return join(stagingOf(this.dir), name);
  }

  /** Moves every finished file of the staging folder into the run folder; their paths. */
  async publish(): Promise<string[]> {
    const moved: string[] = [];
    for (const rel of await finishedFiles(this.staged)) {
      moved.push(await this.adopt(join(this.staged, rel), rel));
    }
    return moved.sort();
  }

  /** Moves one finished file into the run folder as `rel`, with its checksum. */
  async adopt(from: string, rel: string): Promise<string> {
    const to = join(this.dir, rel);
    await Deno.mkdir(dirname(to), { recursive: true });
    checkSubfolder(this.dir, dirname(to), "run sub-folder");
    await Deno.rename(from, to);
    const bytes = (await Deno.stat(to)).size;
    this.#files = this.#files.filter((f) => f.path !== rel);
    this.#files.push({ path: rel, bytes, sha256: await sha256File(to) });
    return rel;
  }

  /** Removes the staging folder (and any unfinished file in it). */
  async close(): Promise<void> {
    await Deno.remove(stagingOf(this.dir), { recursive: true }).catch(() => {});
  }
}

/** Finished files below `dir` (temp names and probes left out), relative to it. */
async function finishedFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await finishedFiles(dir, rel));
    else if (e.isFile && !isTempName(e.name) && !e.name.startsWith(".samkit-")) out.push(rel);
  }
  return out;
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
export async function runPack(options: RunPackOptions): Promise<PackRunResult> {
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
  const folder = await EvidenceFolder.create(packDir, started);
  try {
    return await runInFolder({ ...options, fx }, folder, started, log, now);
  } finally {
    await folder.close();
  }
}

async function runInFolder(
  options: RunPackOptions & { readonly fx?: ReportingCurrencyOptions },
  folder: EvidenceFolder,
  started: Date,
  log: (line: string) => void,
  now: () => Date,
): Promise<PackRunResult> {
  const { pack, signal } = options;
  const { dir } = folder;
  const parameters = Object.fromEntries(pack.reports.map((r) => [r.id, r.params]));
  const snapshotPath = folder.stagedPath("snapshot.sqlite");
  const recorder = options.snapshot ? new SnapshotRecorder(snapshotPath) : undefined;
  let source = "";
  const reports: ManifestReport[] = pack.reports.map((r) => ({
    id: r.id,
    status: "skipped",
    params: r.params,
    formats: r.formats,
    ...(r.filter ? { filter: r.filter } : {}),
    files: [],
  }));
  const manifestOf = (status: Manifest["status"], finished: Date | null = null): Manifest => ({
    pack: pack.name,
    status,
    started: started.toISOString(),
    finished: finished?.toISOString() ?? null,
    source,
    samkitVersion: VERSION,
    parameters,
    reports,
    files: folder.files,
  });
  /** Moves finished files into the run folder, then lists them in the manifest. */
  const checkpoint = async (): Promise<string[]> => {
    const moved = await folder.publish();
    await writeManifest(dir, manifestOf("running"));
    return moved;
  };
  await writeManifest(dir, manifestOf("running"));
  log(`${pack.name}: run folder ${dir}`);

  const query = createQueryContext({
    signal,
    ...(options.maxConcurrency ? { maxConcurrency: options.maxConcurrency } : {}),
  });
  const filterWarnings = new Set<string>();
  const api = await openSource({
    ...options.source,
    wrapFetch: recorder ? (inner) => recorder.wrap(inner) : undefined,
    onEvent: backOffOnPressure(query.limiter, (e) => {
      if (e.type === "filterWarning" && !filterWarnings.has(e.message)) {
        filterWarnings.add(e.message);
        log(`${pack.name}: warning: ${e.op}: ${e.message}`);
      }
    }),
  });
  source = api.source;
  // One browser for the whole run; it starts only when a PDF is printed and closes on return.
  await using browser = launchBrowser();
  const renderers = createRenderers();
  const figures: Figure[] = [];
  let exposure: Exposure = { risks: {}, unpriced: [] };
  let rates: RunRates | null = null;
  let interrupted = false;
  try {
    for (const [i, item] of pack.reports.entries()) {
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      const definition = options.reports.find((r) => r.id === item.id)!;
      log(`${pack.name}: ${item.id} …`);
      try {
        await runReport({
          definition,
          client: api.client,
          query,
          params: item.params,
          filter: item.filter,
          formats: item.formats,
          renderers,
          outDir: folder.staged,
          source,
          version: VERSION,
          now: started,
          browser,
          signal,
          reportingCurrency: options.fx,
          onEvent: (e) => {
            if (e.type === "reread") log(`${pack.name}: note: ${rereadNote(e)}`);
          },
          inspect: async (doc) => {
            figures.push(...await collectFigures(definition, doc));
            rates = addReportRates(rates, doc, options.fx?.source ?? "");
            if (definition.id === "license-position") {
              exposure = await collectExposure(definition.id, doc);
            }
          },
        });
        const files = await folder.publish();
        reports[i] = { ...reports[i], status: "ok", files };
        await writeManifest(dir, manifestOf("running"));
        log(`${pack.name}: ${item.id} done (${files.length} files)`);
      } catch (e) {
        if (signal?.aborted) {
          interrupted = true;
          break;
        }
        const message = redact((e as Error).message ?? String(e));
        // Files a failed report finished before failing are kept, listed under it.
        const files = await folder.publish();
        reports[i] = { ...reports[i], status: "failed", error: message, files };
        await writeManifest(dir, manifestOf("running"));
        log(`${pack.name}: ${item.id} failed: ${message}`);
      }
    }
  } finally {
    await api.close();
    recorder?.close({
      generatedAt: started.toISOString(),
      source,
      pack: pack.name,
      params: parameters,
      filters: Object.fromEntries(
        pack.reports.filter((r) => r.filter).map((r) => [r.id, r.filter!]),
      ),
    });
  }
  if (recorder) await folder.adopt(snapshotPath, "snapshot.sqlite");
  if (interrupted) {
    const manifest = manifestOf("interrupted", now());
    await writeManifest(dir, manifest);
    log(`${pack.name}: interrupted; the manifest says so`);
    return { dir, manifest, ok: false, changes: [] };
  }

  const { changes, comparison } = await compareWithEarlier(
    dirname(dir),
    basename(dir),
    { source, reports },
    figures,
  );
  await writeAtomic(
    join(folder.staged, "summary.json"),
    JSON.stringify(
      {
        pack: pack.name,
        ...(pack.title ? { title: pack.title } : {}),
        started: started.toISOString(),
        source,
        sourceId: sourceIdentity(source),
        headline: headlineOf(figures),
        risks: exposure.risks,
        unpriced: exposure.unpriced,
        ...(rates ? { reportingCurrency: rates } : {}),
        comparison,
        figures,
        changes,
      },
      null,
      2,
    ) + "\n",
  );
  await checkpoint();
  const allOk = reports.every((r) => r.status === "ok");
  const final = allOk ? "complete" : "partial";
  const mail = pack.email
    ? await summaryMail(options, {
      email: pack.email,
      draft: manifestOf(final, now()),
      changes,
      comparison,
      exposure,
      rates,
      folder,
      browser,
      checkpoint,
      log,
    })
    : {};
  const manifest = manifestOf(final, now());
  await writeManifest(dir, manifest);
  return { dir, manifest, ok: allOk && !mail.emailError, changes, comparison, ...mail };
}

/** What {@link summaryMail} needs of the run. */
interface SummaryMailInput {
  readonly email: NonNullable<PackFile["email"]>;
  readonly draft: Manifest;
  readonly changes: readonly Change[];
  readonly comparison: Comparison;
  readonly exposure: Exposure;
  readonly rates: RunRates | null;
  readonly folder: EvidenceFolder;
  readonly browser: BrowserHandle;
  readonly checkpoint: () => Promise<string[]>;
  readonly log: (line: string) => void;
}

/**
 * Prints summary.pdf, then sends the summary or writes it as summary.eml. The attachments are
 * chosen with summary.pdf's size counted; when that changes the choice, the summary (which names
 * them) is built and printed again.
 */
async function summaryMail(
  options: RunPackOptions,
  input: SummaryMailInput,
): Promise<{ eml?: string; emailError?: string }> {
  const { email, folder, log } = input;
  const name = input.draft.pack;
  const titles = Object.fromEntries(options.reports.map((r) => [r.id, r.title]));
  const choose = (summaryBytes: number) =>
    chooseAttachments(email.attach, {
      reports: input.draft.reports,
      files: [...input.draft.files, { path: SUMMARY_PDF, bytes: summaryBytes }],
    }, email.maxAttachmentBytes);
  const build = (choice: ReturnType<typeof choose>) =>
    buildMessage(email, {
      manifest: input.draft,
      titles,
      changes: input.changes,
      comparison: input.comparison,
      previousStarted: input.comparison.previous?.started ?? null,
      risks: input.exposure.risks,
      unpriced: input.exposure.unpriced,
      rates: input.rates,
      title: options.pack.title,
      definitions: options.reports,
      folder: folder.dir,
      choice,
    });
  const print = async (html: string) => {
    await printSummaryPdf(input.browser, html, join(folder.staged, SUMMARY_PDF));
    await input.checkpoint();
    return folder.files.find((f) => f.path === SUMMARY_PDF)?.bytes ?? 0;
  };
  let choice = choose(0);
  let message = await build(choice);
  const printed = await print(message.html);
  const again = choose(printed);
  if (again.linked.length !== choice.linked.length) {
    choice = again;
    message = await build(choice);
    await print(message.html);
  }
  if (options.send) {
    try {
      await sendMessage(email, message, options.smtpCredentials);
      log(`${name}: summary sent to ${email.to.join(", ")}`);
      return {};
    } catch (e) {
      const emailError = (e as Error).message;
      log(`${name}: ${emailError}`);
      return { emailError };
    }
  }
  await writeEml(email, message, join(folder.staged, "summary.eml"));
  await input.checkpoint();
  const eml = join(folder.dir, "summary.eml");
  log(`${name}: summary written to ${eml} (use --send to mail it)`);
  return { eml };
}
