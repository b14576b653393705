/**
 * The summary email of a queued pack that was enqueued with `--send`: the pack's `email` section
 * with the tenant's `mail` settings laid over it, its SMTP credentials read on the worker from
 * their references, and a check, before any report runs, that this worker's permissions let it
 * reach the SMTP server. The run writes the message as `summary.eml` (kept in its evidence
 * folder); the worker sends that file once the attempt stands, so an attempt the queue retries
 * mails nothing and what was sent is what the folder keeps.
 *
 * @module
 */

import { join } from "node:path";
import type { PackFile } from "../pack/pack_file.ts";
import { MailError } from "../pack/mail.ts";
import { registerSmtpCredentials, smtpTransport } from "../pack/smtp_transport.ts";
import type { Tenant } from "../tenants/tenants_file.ts";
import { readSecret, type SecretReader } from "../tenants/credentials.ts";
import { type MailAuth, tenantEmail } from "../tenants/mail_settings.ts";
import { readRegularFile } from "../fs/regular_file.ts";

/** What `runPack` needs to send a tenant's summary. */
export interface JobMail {
  /** The pack, its `email` section the one this tenant sends. */
  readonly pack: PackFile;
  /** The SMTP credentials (none: send without authentication). */
  readonly smtpCredentials: { user?: string; pass?: string };
}

/**
 * The worker may not connect to the SMTP server: its permission set does not list the host.
 *
 * @example
 * ```ts
 * import { SmtpPermissionError } from "./job_mail.ts";
 * console.log(new SmtpPermissionError("smtp.acme.example:587").name); // SmtpPermissionError
 * ```
 */
export class SmtpPermissionError extends Error {
  /** @param host `host:port` of the SMTP server. */
  constructor(host: string) {
    super(
      `cannot send the summary: this worker's permission set does not allow connecting to the ` +
        `SMTP server ${host} (Deno --allow-net); start the worker with the host allowed, e.g. ` +
        `SAMKIT_SMTP_HOSTS=${host.replace(/:\d+$/, "")} deno task worker:remote`,
    );
    this.name = "SmtpPermissionError";
  }
}

async function credentialsOf(
  tenantId: string,
  auth: MailAuth,
  reader?: SecretReader,
): Promise<{ user?: string; pass?: string }> {
  if (auth.kind === "env") {
    const env = (name: string) => reader ? reader.env(name) : Deno.env.get(name);
    const user = env("SAMKIT_SMTP_USER");
    const pass = env("SAMKIT_SMTP_PASSWORD");
    const credentials = { ...(user ? { user } : {}), ...(pass ? { pass } : {}) };
    registerSmtpCredentials(credentials);
    return credentials;
  }
  const credentials = {
    ...(auth.user ? { user: await readSecret(tenantId, auth.user, reader, { kind: "name" }) } : {}),
    ...(auth.password ? { pass: await readSecret(tenantId, auth.password, reader) } : {}),
  };
  registerSmtpCredentials(credentials);
  return credentials;
}

/**
 * Prepares a tenant's summary email: settings merged, credentials read (and registered for
 * redaction, with the base64 forms an SMTP login sends them in), the SMTP host checked
 * against this process's net permission. Throws `MailSettingsError`, `CredentialsError` or
 * {@link SmtpPermissionError}, none of which another attempt would fix.
 *
 * @example
 * ```ts ignore
 * import { prepareJobMail } from "./job_mail.ts";
 * const { pack: withMail, smtpCredentials } = await prepareJobMail(pack, tenant);
 * await runPack({ pack: withMail, send: true, smtpCredentials, reports });
 * ```
 */
export async function prepareJobMail(
  pack: PackFile,
  tenant: Tenant,
  reader?: SecretReader,
): Promise<JobMail> {
  const { email, auth } = tenantEmail(pack, tenant);
  const host = `${email.host}:${email.port}`;
  const status = await Deno.permissions.query({ name: "net", host });
  if (status.state !== "granted") throw new SmtpPermissionError(host);
  return {
    pack: { ...pack, email },
    smtpCredentials: await credentialsOf(tenant.id, auth, reader),
  };
}

/**
 * Sends a run's `summary.eml` as written, over SMTP, to the email's recipients (To and Cc).
 * Returns why it was not sent (secrets redacted), or undefined when it was.
 *
 * @example
 * ```ts ignore
 * import { sendSummaryEml } from "./job_mail.ts";
 * const error = await sendSummaryEml(mail, result.dir, console.log);
 * ```
 */
export async function sendSummaryEml(
  mail: JobMail,
  dir: string,
  log: (line: string) => void,
): Promise<string | undefined> {
  const email = mail.pack.email!;
  const transport = smtpTransport(email, mail.smtpCredentials);
  try {
    const raw = await readRegularFile(join(dir, "summary.eml"));
    await transport.sendMail({
      envelope: { from: email.from, to: [...email.to, ...email.cc] },
      raw: raw as unknown as Buffer,
    });
    log(`${mail.pack.name}: summary sent to ${email.to.join(", ")}`);
    return undefined;
  } catch (e) {
    const error = new MailError((e as Error).message ?? String(e)).message;
    log(`${mail.pack.name}: ${error}`);
    return error;
  } finally {
    transport.close();
  }
}
