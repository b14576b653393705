/**
 * The publish phase of a pack run: summary.json (with the row-by-row diff's outcome, when the
 * pack has one) moved into the run folder, the summary mail
 * (summary.pdf, then sent or summary.eml) when the pack has an email section, and the final
 * manifest. An interrupted run publishes only its manifest, saying so.
 *
 * @module
 */

import { join } from "node:path";
import type { PackFile } from "./pack_file.ts";
import type { PackRunResult } from "./run_pack.ts";
import type { EvidenceFolder } from "./evidence_folder.ts";
import type { RunLedger } from "./run_ledger.ts";
import type { RenderedReports } from "./run_render.ts";
import type { VerifiedRun } from "./run_verify.ts";
import type { RowDiff } from "./run_row_diff.ts";
import { headlineOf } from "./headline.ts";
import { sourceIdentity } from "./source_identity.ts";
import { summaryMail } from "./run_mail.ts";
import type { ReportDefinition } from "../report/model.ts";
import type { BrowserHandle } from "../render/browser.ts";
import type { Theme } from "../render/theme.ts";
import { writeAtomic } from "../render/atomic.ts";

/** Options of {@link publishRun}. */
export interface PublishRunOptions {
  /** The validated pack. */
  readonly pack: PackFile;
  /** The report catalogue. */
  readonly reports: readonly ReportDefinition[];
  /** The run's evidence folder. */
  readonly folder: EvidenceFolder;
  /** The run's manifest in progress. */
  readonly ledger: RunLedger;
  /** What the render phase collected. */
  readonly rendered: RenderedReports;
  /** What the verify phase found. */
  readonly verified: VerifiedRun;
  /** The row-by-row comparison with the previous run, when the pack has a diff. */
  readonly rowDiff?: RowDiff;
  /** When the run started. */
  readonly started: Date;
  /** The run's browser (for summary.pdf). */
  readonly browser: BrowserHandle;
  /** Send the email (else write summary.eml). */
  readonly send?: boolean;
  /** SMTP credentials (default from SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD). */
  readonly smtpCredentials?: { user?: string; pass?: string };
  /** The clock. */
  readonly now: () => Date;
  /** Log lines. */
  readonly log: (line: string) => void;
  /** Your own look for the mail (default samkit's). */
  readonly theme?: Theme;
}

/** Writes summary.json (figures, headline, exposure, rates, comparison) into the staging folder. */
async function writeSummaryJson(options: PublishRunOptions): Promise<void> {
  const { pack, rendered, verified, ledger } = options;
  const summary = {
    pack: pack.name,
    ...(pack.title ? { title: pack.title } : {}),
    started: options.started.toISOString(),
    source: ledger.source,
    sourceId: sourceIdentity(ledger.source),
    headline: headlineOf(rendered.figures),
    risks: rendered.exposure.risks,
    unpriced: rendered.exposure.unpriced,
    ...(rendered.rates ? { reportingCurrency: rendered.rates } : {}),
    comparison: verified.comparison,
    ...(options.rowDiff ? { diff: options.rowDiff } : {}),
    figures: rendered.figures,
    changes: verified.changes,
  };
  await writeAtomic(
    join(options.folder.staged, "summary.json"),
    JSON.stringify(summary, null, 2) + "\n",
  );
}

/**
 * Publishes a verified run: summary.json, the summary mail if the pack has one, the final
 * manifest; `ok` when every report succeeded and the email, if sent, went.
 *
 * @example
 * ```ts ignore
 * import { publishRun } from "./run_publish.ts";
 * const result = await publishRun({ pack, reports, folder, ledger, rendered, verified, started,
 *   browser, now: () => new Date(), log: console.log });
 * ```
 */
export async function publishRun(options: PublishRunOptions): Promise<PackRunResult> {
  const { pack, ledger, verified, rendered, now } = options;
  await writeSummaryJson(options);
  await ledger.checkpoint();
  const { changes, comparison } = verified;
  const mail = pack.email
    ? await summaryMail({
      email: pack.email,
      title: pack.title,
      reports: options.reports,
      draft: ledger.manifest(verified.status, now()),
      changes,
      comparison,
      rowDiff: options.rowDiff,
      exposure: rendered.exposure,
      rates: rendered.rates,
      folder: options.folder,
      browser: options.browser,
      checkpoint: () => ledger.checkpoint(),
      send: options.send,
      smtpCredentials: options.smtpCredentials,
      log: options.log,
      theme: options.theme,
    })
    : {};
  const manifest = await ledger.write(verified.status, now());
  const ok = verified.allOk && !mail.emailError && options.rowDiff?.status !== "failed";
  return { dir: options.folder.dir, manifest, ok, changes, comparison, ...mail };
}

/**
 * Publishes an interrupted run: its manifest says `interrupted`; nothing else is compared or
 * sent.
 *
 * @example
 * ```ts ignore
 * import { publishInterrupted } from "./run_publish.ts";
 * const result = await publishInterrupted({ pack, ledger, dir, now, log });
 * console.log(result.manifest.status); // interrupted
 * ```
 */
export async function publishInterrupted(
  options: {
    pack: PackFile;
    ledger: RunLedger;
    dir: string;
    now: () => Date;
    log: (line: string) => void;
  },
): Promise<PackRunResult> {
  const manifest = await options.ledger.write("interrupted", options.now());
  options.log(`${options.pack.name}: interrupted; the manifest says so`);
  return { dir: options.dir, manifest, ok: false, changes: [] };
}
