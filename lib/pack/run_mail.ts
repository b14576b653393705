/**
 * The summary of a pack run as mail: summary.pdf printed into the run folder, then the message
 * sent or written as summary.eml. The attachments are chosen with summary.pdf's size counted;
 * when that changes the choice, the summary (which names them) is built and printed again.
 *
 * @module
 */

import { join } from "node:path";
import type { PackEmail } from "./pack_file.ts";
import type { Manifest } from "./manifest.ts";
import type { Comparison } from "./comparison.ts";
import type { Exposure } from "./risks.ts";
import type { Change } from "./figures.ts";
import type { RunRates } from "./summary_rates.ts";
import type { EvidenceFolder } from "./evidence_folder.ts";
import { DIFF_REPORT, type RowDiff } from "./run_row_diff.ts";
import { chooseAttachments, SUMMARY_PDF } from "./attachments.ts";
import { buildMessage, sendMessage, writeEml } from "./mail.ts";
import type { ReportDefinition } from "../report/model.ts";
import type { BrowserHandle } from "../render/browser.ts";
import { PrintTab } from "../render/pdf.ts";
import { numberPages } from "../render/pdf_merge.ts";
import { writeAtomic } from "../render/atomic.ts";
import { redact } from "../api/redact.ts";
import type { Theme } from "../render/theme.ts";

/**
 * Prints the summary email's HTML to a PDF (A4, backgrounds) in the run's browser, written
 * atomically.
 *
 * @example
 * ```ts ignore
 * import { printSummaryPdf } from "./run_mail.ts";
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
    // Chrome numbers no page: every page says which it is, and of how many.
    return await writeAtomic(path, await numberPages(bytes));
  } finally {
    await tab.close();
  }
}

/** What {@link summaryMail} needs of the run. */
export interface SummaryMailInput {
  /** The pack's email section. */
  readonly email: PackEmail;
  /** The pack's title, if any. */
  readonly title?: string;
  /** The report catalogue (titles and definitions). */
  readonly reports: readonly ReportDefinition[];
  /** The manifest as it will be final. */
  readonly draft: Manifest;
  /** Figures changed since the run compared with. */
  readonly changes: readonly Change[];
  /** The run compared with, and what was not compared. */
  readonly comparison: Comparison;
  /** The row-by-row comparison with the previous run, when the pack has a diff. */
  readonly rowDiff?: RowDiff;
  /** The license position's exposure. */
  readonly exposure: Exposure;
  /** The reporting currency's amounts, if any. */
  readonly rates: RunRates | null;
  /** The run's evidence folder. */
  readonly folder: EvidenceFolder;
  /** The run's browser. */
  readonly browser: BrowserHandle;
  /** Moves finished files into the run folder and lists them in the manifest. */
  readonly checkpoint: () => Promise<string[]>;
  /** Send the message (else write summary.eml). */
  readonly send?: boolean;
  /** SMTP credentials (default from SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD). */
  readonly smtpCredentials?: { user?: string; pass?: string };
  /** Log lines. */
  readonly log: (line: string) => void;
  /** Your own look (default samkit's). */
  readonly theme?: Theme;
}

/** The diff's files, as a report's, for `email.attach` to name (none when no diff was made). */
function diffFiles(diff: RowDiff | undefined): { id: string; files: readonly string[] }[] {
  return diff?.status === "made" ? [{ id: DIFF_REPORT, files: diff.files }] : [];
}

/** Builds the message for an attachment choice. */
function buildSummary(input: SummaryMailInput, choice: ReturnType<typeof chooseAttachments>) {
  return buildMessage(input.email, {
    manifest: input.draft,
    titles: Object.fromEntries(input.reports.map((r) => [r.id, r.title])),
    changes: input.changes,
    comparison: input.comparison,
    ...(input.rowDiff ? { rowDiff: input.rowDiff } : {}),
    previousStarted: input.comparison.previous?.started ?? null,
    risks: input.exposure.risks,
    unpriced: input.exposure.unpriced,
    rates: input.rates,
    title: input.title,
    definitions: input.reports,
    folder: input.folder.dir,
    choice,
    theme: input.theme,
  });
}

/** Sends the message; the error, logged, when sending fails. */
async function send(
  input: SummaryMailInput,
  message: Awaited<ReturnType<typeof buildMessage>>,
): Promise<{ emailError?: string }> {
  const { email, log } = input;
  try {
    await sendMessage(email, message, input.smtpCredentials);
    log(`${input.draft.pack}: summary sent to ${email.to.join(", ")}`);
    return {};
  } catch (e) {
    // A MailError is redacted already; anything else thrown on the way is redacted here.
    const emailError = redact((e as Error).message ?? String(e));
    log(`${input.draft.pack}: ${emailError}`);
    return { emailError };
  }
}

/**
 * Prints summary.pdf, then sends the summary or writes it as summary.eml.
 *
 * @example
 * ```ts ignore
 * import { summaryMail } from "./run_mail.ts";
 * const { eml, emailError } = await summaryMail({ email, reports, draft, changes, comparison,
 *   exposure, rates, folder, browser, checkpoint, log });
 * ```
 */
export async function summaryMail(
  input: SummaryMailInput,
): Promise<{ eml?: string; emailError?: string }> {
  const { email, folder } = input;
  const choose = (summaryBytes: number) =>
    chooseAttachments(email.attach, {
      reports: [...input.draft.reports, ...diffFiles(input.rowDiff)],
      files: [...input.draft.files, { path: SUMMARY_PDF, bytes: summaryBytes }],
    }, email.maxAttachmentBytes);
  const print = async (html: string) => {
    await printSummaryPdf(input.browser, html, join(folder.staged, SUMMARY_PDF));
    await input.checkpoint();
    return folder.files.find((f) => f.path === SUMMARY_PDF)?.bytes ?? 0;
  };
  let choice = choose(0);
  let message = await buildSummary(input, choice);
  const printed = await print(message.printHtml);
  const again = choose(printed);
  if (again.linked.length !== choice.linked.length) {
    choice = again;
    message = await buildSummary(input, choice);
    await print(message.printHtml);
  }
  if (input.send) return await send(input, message);
  await writeEml(email, message, join(folder.staged, "summary.eml"));
  await input.checkpoint();
  const eml = join(folder.dir, "summary.eml");
  input.log(`${input.draft.pack}: summary written to ${eml} (use --send to mail it)`);
  return { eml };
}
