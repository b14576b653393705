/**
 * The pack's email: an HTML summary of headline figures and changes, with the chosen PDFs
 * attached, sent over SMTP with nodemailer or written as an `.eml` file for review.
 *
 * @module
 */

import nodemailer from "nodemailer";
import Handlebars from "handlebars";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import type { PackEmail } from "./pack_file.ts";
import type { Change } from "./figures.ts";
import type { Manifest } from "./manifest.ts";
import { writeAtomic } from "../render/atomic.ts";
import { redact } from "../api/redact.ts";

/** What the summary shows. */
export interface SummaryInput {
  /** The finished manifest. */
  readonly manifest: Manifest;
  /** Report titles by id. */
  readonly titles: Readonly<Record<string, string>>;
  /** Figures with changes. */
  readonly changes: readonly Change[];
  /** When the previous run started, if there was one. */
  readonly previousStarted: string | null;
  /** The run folder. */
  readonly folder: string;
  /** Number locale (default en-US). */
  readonly locale?: string;
}

/** A built message. */
export interface BuiltMessage {
  /** The subject. */
  readonly subject: string;
  /** The HTML body. */
  readonly html: string;
  /** The plain-text body. */
  readonly text: string;
  /** Attachments (file paths). */
  readonly attachments: readonly { filename: string; path: string }[];
  /** PDFs left out because of the size limit. */
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

const MAX_FIGURES = 40;
let template: HandlebarsTemplateDelegate | undefined;

function compile(): HandlebarsTemplateDelegate {
  if (!template) {
    const url = new URL("../../templates/email/pack_summary.hbs", import.meta.url);
    template = Handlebars.create().compile(Deno.readTextFileSync(fileURLToPath(url)), {
      strict: false,
    });
  }
  return template;
}

type HandlebarsTemplateDelegate = (context: unknown) => string;

function displayTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function formatFigure(
  value: number | null,
  change: Change,
  locale: string,
  signed = false,
): string {
  if (value === null) return "new";
  const opts: Intl.NumberFormatOptions = change.type === "currency" && change.currency
    ? { style: "currency", currency: change.currency }
    : { maximumFractionDigits: 2 };
  const text = new Intl.NumberFormat(locale, opts).format(value);
  return signed && value > 0 ? `+${text}` : text;
}

/**
 * Builds the summary message of a run: subject, HTML and text bodies, and attachments within the
 * size limit.
 *
 * @example
 * ```ts ignore
 * import { buildMessage } from "./mail.ts";
 * const message = await buildMessage(email, summary);
 * ```
 */
export async function buildMessage(email: PackEmail, input: SummaryInput): Promise<BuiltMessage> {
  const { manifest } = input;
  const locale = input.locale ?? "en-US";
  const date = manifest.started.slice(0, 10);
  const subject = email.subject.replaceAll("{pack}", manifest.pack).replaceAll("{date}", date);
  const attachments: { filename: string; path: string }[] = [];
  const skipped: string[] = [];
  let total = 0;
  for (const id of email.attach) {
    const report = manifest.reports.find((r) => r.id === id);
    const pdf = report?.files.find((f) => f.endsWith(".pdf"));
    if (!pdf) continue;
    const file = manifest.files.find((f) => f.path === pdf);
    const bytes = file?.bytes ?? (await Deno.stat(`${input.folder}/${pdf}`)).size;
    if (total + bytes > email.maxAttachmentBytes) {
      skipped.push(basename(pdf));
      continue;
    }
    total += bytes;
    attachments.push({ filename: basename(pdf), path: `${input.folder}/${pdf}` });
  }
  const hasPrevious = input.previousStarted !== null;
  // Headline facts always; other figures (section totals, tracked rows) only when they moved.
  // summary.json beside the manifest keeps every figure.
  const chosen = input.changes.filter((c) =>
    c.key.includes("|fact|") || (c.delta !== null && c.delta !== 0)
  );
  const shown = chosen.slice(0, MAX_FIGURES).map((c) => ({
    label: c.label,
    now: formatFigure(c.value, c, locale),
    before: formatFigure(c.previous, c, locale),
    change: c.delta === null ? "new" : formatFigure(c.delta, c, locale, true),
    up: (c.delta ?? 0) > 0,
    down: (c.delta ?? 0) < 0,
  }));
  const statusText = {
    complete: "all reports succeeded",
    partial: "some reports failed",
    interrupted: "interrupted",
    running: "running",
    abandoned: "abandoned (the process died)",
  }[manifest.status];
  const html = compile()({
    subject,
    pack: manifest.pack,
    started: displayTime(manifest.started),
    statusText,
    source: manifest.source,
    reports: manifest.reports.map((r) => ({
      ...r,
      title: input.titles[r.id] ?? r.id,
      ok: r.status === "ok",
    })),
    figures: shown,
    moreFigures: input.changes.length - shown.length,
    hasPrevious,
    previousStarted: input.previousStarted ? displayTime(input.previousStarted) : null,
    attached: attachments.map((a) => a.filename),
    skipped,
    folder: input.folder,
  });
  const text = [
    `${manifest.pack}: run of ${displayTime(manifest.started)} (${statusText})`,
    `Data from ${manifest.source}`,
    "",
    ...manifest.reports.map((r) =>
      `- ${input.titles[r.id] ?? r.id}: ${r.status}${r.error ? ` (${r.error})` : ""}`
    ),
    "",
    ...shown.map((f) =>
      `${f.label}: ${f.now}${hasPrevious ? ` (before ${f.before}, change ${f.change})` : ""}`
    ),
    "",
    `Attached: ${attachments.map((a) => a.filename).join(", ") || "none"}`,
    ...(skipped.length ? [`Not attached (size limit): ${skipped.join(", ")}`] : []),
  ].join("\n");
  return { subject, html, text, attachments, skipped };
}

function mailOptions(email: PackEmail, message: BuiltMessage) {
  return {
    from: email.from,
    to: [...email.to],
    cc: email.cc.length ? [...email.cc] : undefined,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments.map((a) => ({ ...a, contentType: "application/pdf" })),
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
 * Sends the message over SMTP. Credentials come from SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD.
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
  credentials: { user?: string; pass?: string } = {
    user: Deno.env.get("SAMKIT_SMTP_USER"),
    pass: Deno.env.get("SAMKIT_SMTP_PASSWORD"),
  },
): Promise<{ messageId: string; accepted: string[] }> {
  const transport = nodemailer.createTransport({
    host: email.host,
    port: email.port,
    secure: email.tls === "tls",
    requireTLS: email.tls === "starttls",
    ignoreTLS: email.tls === "none",
    auth: credentials.user ? { user: credentials.user, pass: credentials.pass ?? "" } : undefined,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
  });
  try {
    const info = await transport.sendMail(mailOptions(email, message));
    return { messageId: info.messageId, accepted: info.accepted.map(String) };
  } catch (e) {
    throw new MailError((e as Error).message);
  } finally {
    transport.close();
  }
}
