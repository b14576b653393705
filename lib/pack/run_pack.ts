/**
 * Running a pack: every report once into `<root>/<pack>/<YYYY-MM-DDTHHMMZ>/`, sharing one client,
 * one browser and one cache of fetched data; a manifest with checksums; figures and changes since
 * the previous run; an optional snapshot of the API data; the summary email or its `.eml`.
 *
 * @module
 */

import type { PackFile } from "./pack_file.ts";
import { checksumFolder, type Manifest, type ManifestReport, writeManifest } from "./manifest.ts";
import { type Change, collectFigures, compareFigures, type Figure } from "./figures.ts";
import { buildMessage, sendMessage, writeEml } from "./mail.ts";
import { SnapshotRecorder } from "./snapshot.ts";
import { openSource, type SourceOptions } from "../cli/source.ts";
import type { ReportDefinition } from "../report/model.ts";
import { runReport } from "../report/runner.ts";
import { createQueryContext } from "../query/context.ts";
import { createRenderers } from "../render/registry.ts";
import { type BrowserHandle, launchBrowser } from "../render/browser.ts";
import { PrintTab } from "../render/pdf.ts";
import { writeAtomic } from "../render/atomic.ts";
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
  /** Figures with changes since the previous run. */
  readonly changes: readonly Change[];
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

async function previousRun(
  packDir: string,
  current: string,
): Promise<{ figures: Figure[]; started: string } | null> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(packDir)) {
      if (e.isDirectory && e.name < current) names.push(e.name);
    }
  } catch {
    return null;
  }
  for (const name of names.sort().reverse()) {
    try {
      const summary = JSON.parse(await Deno.readTextFile(`${packDir}/${name}/summary.json`));
      return { figures: summary.figures as Figure[], started: summary.started as string };
    } catch {
      // a run without a summary (interrupted) is skipped
    }
  }
  return null;
}

async function makeRunDir(packDir: string, started: Date): Promise<string> {
  await Deno.mkdir(packDir, { recursive: true });
  const base = `${packDir}/${runFolderName(started)}`;
  for (let n = 1;; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      await Deno.mkdir(dir);
      return dir;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
  }
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
  const { pack, signal } = options;
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const started = now();
  const root = options.outRoot ?? pack.output;
  const packDir = `${root}/${pack.name}`;
  const dir = await makeRunDir(packDir, started);
  const folderName = dir.slice(packDir.length + 1);
  const parameters = Object.fromEntries(pack.reports.map((r) => [r.id, r.params]));
  const recorder = options.snapshot ? new SnapshotRecorder(`${dir}/snapshot.sqlite`) : undefined;
  let source = "";
  const reports: ManifestReport[] = pack.reports.map((r) => ({
    id: r.id,
    status: "skipped",
    params: r.params,
    formats: r.formats,
    files: [],
  }));
  const manifestOf = (
    status: Manifest["status"],
    files: Manifest["files"] = [],
    finished: Date | null = null,
  ): Manifest => ({
    pack: pack.name,
    status,
    started: started.toISOString(),
    finished: finished?.toISOString() ?? null,
    source,
    samkitVersion: VERSION,
    parameters,
    reports,
    files,
  });
  await writeManifest(dir, manifestOf("running"));
  log(`${pack.name}: run folder ${dir}`);

  const query = createQueryContext({ signal });
  const api = await openSource({
    ...options.source,
    wrapFetch: recorder ? (inner) => recorder.wrap(inner) : undefined,
    onEvent: (e) => {
      if (e.type === "rateLimit") query.limiter.backOff();
    },
  });
  source = api.source;
  // One browser for the whole run; it starts only when a PDF is printed and closes on return.
  await using browser = launchBrowser();
  const renderers = createRenderers();
  const figures: Figure[] = [];
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
        const { files } = await runReport({
          definition,
          client: api.client,
          query,
          params: item.params,
          filter: item.filter,
          formats: item.formats,
          renderers,
          outDir: dir,
          source,
          version: VERSION,
          now: started,
          browser,
          signal,
          inspect: async (doc) => {
            figures.push(...await collectFigures(definition, doc));
          },
        });
        reports[i] = {
          ...reports[i],
          status: "ok",
          files: files.map((f) => f.slice(dir.length + 1)).sort(),
        };
        log(`${pack.name}: ${item.id} done (${files.length} files)`);
      } catch (e) {
        if (signal?.aborted) {
          interrupted = true;
          break;
        }
        const message = redact((e as Error).message ?? String(e));
        reports[i] = { ...reports[i], status: "failed", error: message };
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
  if (interrupted) {
    const manifest = manifestOf("interrupted", await checksumFolder(dir), now());
    await writeManifest(dir, manifest);
    log(`${pack.name}: interrupted; the manifest says so`);
    return { dir, manifest, ok: false, changes: [] };
  }

  const previous = await previousRun(packDir, folderName);
  const changes = compareFigures(figures, previous?.figures ?? null);
  await writeAtomic(
    `${dir}/summary.json`,
    JSON.stringify({ pack: pack.name, started: started.toISOString(), figures, changes }, null, 2) +
      "\n",
  );
  const allOk = reports.every((r) => r.status === "ok");
  let eml: string | undefined;
  let emailError: string | undefined;
  if (pack.email) {
    const titles = Object.fromEntries(options.reports.map((r) => [r.id, r.title]));
    const draft = manifestOf(allOk ? "complete" : "partial", await checksumFolder(dir), now());
    let message = await buildMessage(pack.email, {
      manifest: draft,
      titles,
      changes,
      previousStarted: previous?.started ?? null,
      folder: dir,
    });
    // The summary also as a PDF, kept with the evidence and attached first.
    const summaryPdf = await printSummaryPdf(browser, message.html, `${dir}/summary.pdf`);
    message = {
      ...message,
      attachments: [{ filename: "summary.pdf", path: summaryPdf }, ...message.attachments],
    };
    if (options.send) {
      try {
        await sendMessage(pack.email, message, options.smtpCredentials);
        log(`${pack.name}: summary sent to ${pack.email.to.join(", ")}`);
      } catch (e) {
        emailError = (e as Error).message;
        log(`${pack.name}: ${emailError}`);
      }
    } else {
      eml = await writeEml(pack.email, message, `${dir}/summary.eml`);
      log(`${pack.name}: summary written to ${eml} (use --send to mail it)`);
    }
  }
  const manifest = manifestOf(allOk ? "complete" : "partial", await checksumFolder(dir), now());
  await writeManifest(dir, manifest);
  return { dir, manifest, ok: allOk && !emailError, changes, eml, emailError };
}
