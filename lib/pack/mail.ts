/**
 * The pack's email: the CFO summary (exposure, top risks, cost, what moved) as HTML and text,
 * with the chosen files attached within the size cap (the rest linked in the evidence folder),
 * sent over SMTP with nodemailer or written as an `.eml` file for review. With a theme
 * (`lib/render/theme.ts`): its company in the subject (`{company}`) and heading, its colours and
 * font, its logo (an inline `cid:` image in the mail, a `data:` image in summary.pdf), its footer
 * line, and its `pack_summary.hbs` in place of samkit's template.
 *
 * @module
 */

import nodemailer from "nodemailer";
import Handlebars from "handlebars";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import type { PackEmail } from "./pack_file.ts";
import { type AttachmentChoice, chooseAttachments, evidenceLink } from "./attachments.ts";
import { type SummaryFacts, summaryText, summaryView } from "./summary_view.ts";
import { writeAtomic } from "../render/atomic.ts";
import { DEMO_DATA, isDemoSource } from "../report/demo_source.ts";
import { redact } from "../api/redact.ts";
import { registerSmtpCredentials, smtpTransport } from "./smtp_transport.ts";
import { readRegularTextFileSync } from "../fs/regular_file.ts";
import type { Theme } from "../render/theme.ts";
import { themeView } from "../render/theme_view.ts";

/** What the summary shows (see {@link SummaryFacts}) and where the run's files are. */
export interface SummaryInput extends SummaryFacts {
  /** The run folder. */
  readonly folder: string;
  /** The attachments chosen (default: chosen from the pack's email section and the manifest). */
  readonly choice?: AttachmentChoice;
  /** Your own look (default samkit's). */
  readonly theme?: Theme;
}

/** A built message. */
export interface BuiltMessage {
  /** The subject. */
  readonly subject: string;
  /** The HTML body (a theme's logo as an inline `cid:` image). */
  readonly html: string;
  /** The HTML body for printing summary.pdf (a theme's logo as a `data:` image). */
  readonly printHtml: string;
  /** Images shown in the body (a theme's logo), sent as inline parts. */
  readonly inline: readonly InlineImage[];
  /** The plain-text body. */
  readonly text: string;
  /** Attachments (file paths), summary.pdf first. */
  readonly attachments: readonly { filename: string; path: string }[];
  /** Files asked for but linked in the evidence folder instead (over the size cap). */
  readonly skipped: readonly string[];
}

/** An image part the HTML body shows by `cid:`. */
export interface InlineImage {
  /** The part's content id. */
  readonly cid: string;
  /** Its file name. */
  readonly filename: string;
  /** Its bytes. */
  readonly content: Uint8Array;
  /** Its type. */
  readonly contentType: string;
}

/** The content id of a theme's logo in the mail. */
const LOGO_CID = "logo@samkit";

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
const themed = new WeakMap<Theme, HandlebarsTemplateDelegate>();

/** The mail template: a theme's `pack_summary.hbs` (checked when the theme loaded), else samkit's. */
function compile(theme?: Theme): HandlebarsTemplateDelegate {
  const own = theme?.templates?.files["pack_summary.hbs"];
  if (theme && own) {
    let compiled = themed.get(theme);
    if (!compiled) themed.set(theme, compiled = Handlebars.create().compile(own.text));
    return compiled;
  }
  if (!template) {
    const url = new URL("../../templates/email/pack_summary.hbs", import.meta.url);
    template = Handlebars.create().compile(readRegularTextFileSync(fileURLToPath(url)), {
      strict: false,
    });
  }
  return template;
}

/**
 * A subject with its placeholders filled: `{company}` (the theme's company, else samkit),
 * `{pack}` and `{date}`.
 *
 * @example
 * ```ts
 * import { fillSubject } from "./mail.ts";
 * console.log(fillSubject("{company}: {pack} for {date}", { pack: "weekly", date: "2024-05-01" }));
 * // "samkit: weekly for 2024-05-01"
 * ```
 */
export function fillSubject(
  subject: string,
  values: { pack: string; date: string; company?: string },
): string {
  return subject.replaceAll("{company}", values.company ?? "samkit")
    .replaceAll("{pack}", values.pack).replaceAll("{date}", values.date);
}

/** The text part: the theme's company first and its footer last, around the summary. */
function textPart(lines: readonly string[], theme: Theme | undefined): string {
  return [
    ...(theme?.company ? [theme.company, ""] : []),
    ...lines,
    ...(theme?.footer ? ["", theme.footer] : []),
  ].join("\n");
}

/** The logo as an inline image part, when the theme has one. */
function inlineLogo(theme: Theme | undefined): InlineImage[] {
  const logo = theme?.logo;
  if (!logo) return [];
  const ext = logo.type === "image/svg+xml" ? "svg" : logo.type === "image/png" ? "png" : "jpg";
  return [{ cid: LOGO_CID, filename: `logo.${ext}`, content: logo.bytes, contentType: logo.type }];
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
  const { theme } = input;
  const subject = demoSubject(
    fillSubject(email.subject, { pack: manifest.pack, date, company: theme?.company }),
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
      folder: input.folder,
    },
  });
  const render = (logoSrc?: string) =>
    compile(theme)({ ...view, subject, theme: theme && themeView(theme, { logoSrc }) });
  const html = render(theme?.logo ? `cid:${LOGO_CID}` : undefined);
  return Promise.resolve({
    subject,
    html,
    printHtml: theme?.logo ? render() : html,
    inline: inlineLogo(theme),
    text: textPart(summaryText(view), theme),
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
    attachments: [
      ...message.attachments.map((a) => ({
        ...a,
        contentType: CONTENT_TYPES[a.filename.split(".").pop() ?? ""] ??
          "application/octet-stream",
      })),
      ...message.inline.map((image) => ({ ...image, content: Buffer.from(image.content) })),
    ],
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
