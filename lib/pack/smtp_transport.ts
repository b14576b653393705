/**
 * The SMTP connection a summary mail is sent over: the pack's host, port and TLS mode, the
 * credentials when a user is given, and the same time limits for every sender. The credentials
 * are registered as secrets (with the base64 forms an SMTP login sends them in), so a server
 * that echoes them in its reply has them removed from every message, log line and record.
 *
 * @module
 */

import nodemailer from "nodemailer";
import { Buffer } from "node:buffer";
import type { PackEmail } from "./pack_file.ts";
import { registerSecret } from "../api/secrets.ts";

/** SMTP credentials; without a user the mail is sent without authentication. */
export interface SmtpCredentials {
  /** The SMTP user. */
  readonly user?: string;
  /** Its password (empty when not given). */
  readonly pass?: string;
}

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/**
 * Registers SMTP credentials as secrets: the password anywhere it appears, as is and in the
 * base64 of an `AUTH LOGIN` or `AUTH PLAIN` exchange; the user where it stands alone (a user
 * `sam` leaves `samkit` alone), as is and in base64.
 *
 * @example
 * ```ts
 * import { registerSmtpCredentials } from "./smtp_transport.ts";
 * import { redact } from "../api/redact.ts";
 * registerSmtpCredentials({ user: "mailer", pass: "hunter2-plain" });
 * console.log(redact("535 mailer hunter2-plain")); // "535 <redacted> <redacted>"
 * ```
 */
export function registerSmtpCredentials(credentials: SmtpCredentials): void {
  const { user, pass } = credentials;
  if (user) registerSecret(user, { name: true, forms: [base64(user)] });
  if (pass) {
    registerSecret(pass, {
      forms: [base64(pass), ...(user ? [base64(`\u0000${user}\u0000${pass}`)] : [])],
    });
  }
}

/** How long connecting and the server's greeting may take, in milliseconds. */
const TIMEOUT_MS = 20_000;

/**
 * A nodemailer transport to the pack's SMTP server: `tls` connects over implicit TLS,
 * `starttls` requires the upgrade, `none` never upgrades. The caller closes it.
 *
 * @example
 * ```ts
 * import { smtpTransport } from "./smtp_transport.ts";
 * const transport = smtpTransport({ host: "127.0.0.1", port: 2525, tls: "none" }, {});
 * transport.close();
 * ```
 */
export function smtpTransport(
  email: Pick<PackEmail, "host" | "port" | "tls">,
  credentials: SmtpCredentials,
): ReturnType<typeof nodemailer.createTransport> {
  const { user, pass } = credentials;
  registerSmtpCredentials(credentials);
  return nodemailer.createTransport({
    host: email.host,
    port: email.port,
    secure: email.tls === "tls",
    requireTLS: email.tls === "starttls",
    ignoreTLS: email.tls === "none",
    auth: user ? { user, pass: pass ?? "" } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
  });
}
