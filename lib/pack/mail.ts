/**
 * The pack's email: the CFO summary (exposure, top risks, cost, what moved) as HTML and text,
 * with the chosen files attached within the size cap (the rest linked in the evidence folder),
 * sent over SMTP with nodemailer or written as an `.eml` file for review.
 *
 * @module
 */

import nodemailer from "nodemailer";
import Handlebars from "handlebars";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PackEmail } from "./pack_file.ts";
import { type AttachmentChoice, chooseAttachments, evidenceLink } from "./attachments.ts";
import { type SummaryFacts, summaryText, summaryView } from "./summary_view.ts";
import { writeAtomic } from "../render/atomic.ts";
import { DEMO_DATA, isDemoSource } from "../report/demo_source.ts";
import { redact } from "../api/redact.ts";
import { registerSmtpCredentials, smtpTransport } from "./smtp_transport.ts";
import { readRegularTextFileSync } from "../fs/regular_file.ts";

/** What the summary shows (see {@link SummaryFacts}) and where the run's files are. */
export interface SummaryInput extends SummaryFacts {
  /** The run folder. */
  readonly folder: string;
  /** The attachments chosen (default: chosen from the pack's email section and the manifest). */
  readonly choice?: AttachmentChoice;
}

/** A built message. */
export interface BuiltMessage {
  /** The subject. */
  readonly subject: string;
  /** The HTML body. */
  readonly html: string;
  /** The plain-text body. */
  readonly text: string;
  /** Attachments (file paths), summary.pdf first. */
  readonly attachments: readonly { filename: string; path: string }[];
  /** Files asked for but linked in the evidence folder instead (over the size cap). */
  readonly skipped: readonly string[];
}

/**
 * SMTP failure (connection, authentication, rejection), with secrets redacted.
 *
 * @example
 * ```ts
 * import { MailError } from "./mail.ts";
 * console.log(new MailError("connection refused").message);
 * ```
 */
export class MailError extends Error {
  /** @param message What went wrong. */
  constructor(message: string) {
    super(`email not sent: ${redact(message)}`);
    this.name = "MailError";
  }
}

let template: HandlebarsTemplateDelegate | undefined;

function compile(): HandlebarsTemplateDelegate {
  if (!template) {
    const url = new URL("../../templates/email/pack_summary.hbs", import.meta.url);
    template = Handlebars.create().compile(readRegularTextFileSync(fileURLToPath(url)), {
      strict: false,
    });
  }
  return template;
}

type HandlebarsTemplateDelegate = (context: unknown) => string;

/**
 * The subject of a summary mail: `[demo data] ` before it when the run read the embedded demo
 * estate, so demo figures are never mailed as a tenant's audit.
 *
 * @example
 * ```ts
 * import { demoSubject } from "./mail.ts";
 * console.log(demoSubject("Weekly audit", "embedded reference server (demo estate: 4 …")); // "[demo data] Weekly audit"
 * console.log(demoSubject("Weekly audit", "https://eu.example.com")); // "Weekly audit"
 * ```
 */
export function demoSubject(subject: string, source: string): string {
  return isDemoSource(source) ? `[${DEMO_DATA}] ${subject}` : subject;
}

const megabytes = (bytes: number) => `${Math.round(bytes / 100_000) / 10} MB`;

/**
 * Builds the summary message of a run: subject, HTML and text bodies (exposure and top risks
 * first, see {@link summaryView}), and the attachments chosen within the size cap, the rest
 * linked in the evidence folder.
 *
 * @example
 * ```ts ignore
 * import { buildMessage } from "./mail.ts";
 * const message = await buildMessage(email, summary);
 * ```
 */
export function buildMessage(email: PackEmail, input: SummaryInput): Promise<BuiltMessage> {
  const { manifest } = input;
  const date = manifest.started.slice(0, 10);
  const subject = demoSubject(
    email.subject.replaceAll("{pack}", manifest.pack).replaceAll("{date}", date),
    manifest.source,
  );
  const choice = input.choice ??
    chooseAttachments(email.attach, manifest, email.maxAttachmentBytes);
  const link = evidenceLink(input.folder, email.evidenceUrl);
  // One view feeds the HTML and the text part, so both say the same.
  const view = summaryView({
    ...input,
    delivery: {
      attached: choice.attached.map((a) => a.filename),
      linked: choice.linked.map((a) => a.filename),
      cap: megabytes(email.maxAttachmentBytes),
      link,
    },
  });
  const html = compile()({ ...view, subject });
  const text = summaryText(view).join("\n");
  return Promise.resolve({
    subject,
    html,
    text,
    attachments: choice.attached.map((a) => ({
      filename: a.filename,
      path: join(input.folder, a.path),
    })),
    skipped: choice.linked.map((a) => a.filename),
  });
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  json: "application/json",
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  html: "text/html",
};

function mailOptions(email: PackEmail, message: BuiltMessage) {
  return {
    from: email.from,
    to: [...email.to],
    cc: email.cc.length ? [...email.cc] : undefined,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments.map((a) => ({
      ...a,
      contentType: CONTENT_TYPES[a.filename.split(".").pop() ?? ""] ?? "application/octet-stream",
    })),
  };
}

/**
 * Writes the message as an RFC 5322 `.eml` file (for review without sending).
 *
 * @example
 * ```ts ignore
 * import { writeEml } from "./mail.ts";
 * await writeEml(email, message, "out/packs/weekly/2026-11-22T0600Z/summary.eml");
 * ```
 */
export async function writeEml(
  email: PackEmail,
  message: BuiltMessage,
  path: string,
): Promise<string> {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  const info = await transport.sendMail(mailOptions(email, message));
  return await writeAtomic(path, new Uint8Array(info.message as unknown as Uint8Array));
}

/**
 * SAMKIT_SMTP_USER and SAMKIT_SMTP_PASSWORD, registered as secrets as they are read.
 *
 * @example
 * ```ts ignore
 * import { envSmtpCredentials } from "./mail.ts";
 * const { user, pass } = envSmtpCredentials();
 * ```
 */
export function envSmtpCredentials(): { user?: string; pass?: string } {
  const credentials = {
    user: Deno.env.get("SAMKIT_SMTP_USER"),
    pass: Deno.env.get("SAMKIT_SMTP_PASSWORD"),
  };
  registerSmtpCredentials(credentials);
  return credentials;
}

/**
 * Sends the message over SMTP. Credentials come from SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD.
 * A failure is a {@link MailError} whose message has every registered secret removed (the
 * credentials are registered before connecting).
 *
 * @example
 * ```ts ignore
 * import { sendMessage } from "./mail.ts";
 * await sendMessage(email, message);
 * ```
 */
export async function sendMessage(
  email: PackEmail,
  message: BuiltMessage,
  credentials: { user?: string; pass?: string } = envSmtpCredentials(),
): Promise<{ messageId: string; accepted: string[] }> {
  const transport = smtpTransport(email, credentials);
  try {
    const info = await transport.sendMail(mailOptions(email, message));
    return { messageId: info.messageId, accepted: info.accepted.map(String) };
  } catch (e) {
    throw new MailError((e as Error).message);
  } finally {
    transport.close();
  }
}
