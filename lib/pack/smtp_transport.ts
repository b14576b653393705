/**
 * The SMTP connection a summary mail is sent over: the pack's host, port and TLS mode, the
 * credentials when a user is given, and the same time limits for every sender.
 *
 * @module
 */

import nodemailer from "nodemailer";
import type { PackEmail } from "./pack_file.ts";

/** SMTP credentials; without a user the mail is sent without authentication. */
export interface SmtpCredentials {
  /** The SMTP user. */
  readonly user?: string;
  /** Its password (empty when not given). */
  readonly pass?: string;
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
