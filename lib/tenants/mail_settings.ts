/**
 * A tenant's SMTP settings for its pack summaries (the tenants file's `mail` section), and the
 * email a tenant's queued pack sends: the pack's `email` section with the tenant's settings laid
 * over it. Secrets are references (an environment variable or a secret file), read by the worker
 * when it sends; they never travel through the queue or sit in a file samkit reads as settings.
 *
 * @module
 */

import { DEFAULT_MAX_ATTACHMENT_BYTES, type PackEmail, type PackFile } from "../pack/pack_file.ts";
import type { SecretRef } from "./tenants_file.ts";

/** The tenants file's `mail` section: any field given replaces the pack's. */
export interface TenantMail {
  /** SMTP host; when given, only this section's `user` and `password` are sent to it. */
  readonly host?: string;
  /** SMTP port (default 587, or 465 with `tls: "tls"`). */
  readonly port?: number;
  /** `starttls`, `tls` or `none` (default `starttls`). */
  readonly tls?: PackEmail["tls"];
  /** Sender address. */
  readonly from?: string;
  /** Recipients. */
  readonly to?: readonly string[];
  /** Copy recipients. */
  readonly cc?: readonly string[];
  /** Where the SMTP user name is read from. */
  readonly user?: SecretRef;
  /** Where the SMTP password is read from. */
  readonly password?: SecretRef;
}

/** Where a summary's SMTP credentials come from. */
export type MailAuth =
  /** References of the tenant's `mail` section (none: send without authentication). */
  | { readonly kind: "refs"; readonly user?: SecretRef; readonly password?: SecretRef }
  /** The worker's SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD, as `deno task pack --send`. */
  | { readonly kind: "env" };

/** The email a tenant's pack sends, and where its credentials come from. */
export interface TenantEmail {
  /** The email settings (the pack's with the tenant's laid over). */
  readonly email: PackEmail;
  /** Where its SMTP credentials come from. */
  readonly auth: MailAuth;
}

/**
 * A tenant whose pack cannot send its summary: no SMTP host, sender or recipient in either the
 * pack or the tenant's `mail` section.
 *
 * @example
 * ```ts
 * import { MailSettingsError } from "./mail_settings.ts";
 * console.log(new MailSettingsError("acme", "no SMTP host").message);
 * ```
 */
export class MailSettingsError extends Error {
  /**
   * @param tenant The tenant's id.
   * @param problem What is missing.
   */
  constructor(tenant: string, problem: string) {
    super(
      `tenant ${tenant}: cannot send the summary: ${problem} (give it in the pack file's ` +
        `"email" section or the tenant's "mail" section of the tenants file)`,
    );
    this.name = "MailSettingsError";
  }
}

type Fail = (field: string, problem: string) => never;
type RefOf = (v: unknown, at: string, fail: Fail) => SecretRef;

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;
const FIELDS = ["host", "port", "tls", "from", "to", "cc", "user", "password"];

function addresses(v: unknown, at: string, fail: Fail): string[] {
  if (!Array.isArray(v) || !v.length) return fail(at, "expected a list of email addresses");
  for (const a of v) {
    if (typeof a !== "string" || !ADDRESS.test(a)) {
      fail(at, `not an email address: ${JSON.stringify(a)}`);
    }
  }
  return v as string[];
}

/**
 * Validates a tenant's `mail` section. `refOf` reads a secret reference (the tenants file's
 * rule: `{"env": "NAME"}` or `{"file": "path"}`, never the secret itself).
 *
 * @example
 * ```ts
 * import { tenantMailOf } from "./mail_settings.ts";
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * const refOf = (v: unknown) => v as { env: string };
 * const mail = tenantMailOf(
 *   { host: "smtp.acme.example", to: ["cfo@acme.example"], password: { env: "ACME_SMTP_PW" } },
 *   "tenants[0].mail",
 *   fail,
 *   refOf,
 * );
 * console.log(mail.host, mail.password); // smtp.acme.example { env: "ACME_SMTP_PW" }
 * ```
 */
export function tenantMailOf(v: unknown, at: string, fail: Fail, refOf: RefOf): TenantMail {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    return fail(at, "expected an object");
  }
  const m = v as Record<string, unknown>;
  for (const key of Object.keys(m)) {
    if (!FIELDS.includes(key)) {
      fail(`${at}.${key}`, /pass|secret|token/i.test(key) ? "secrets go by reference" : "unknown");
    }
  }
  if (m.host !== undefined && (typeof m.host !== "string" || !m.host)) {
    fail(`${at}.host`, "expected the SMTP host");
  }
  if (m.tls !== undefined && !["starttls", "tls", "none"].includes(m.tls as string)) {
    fail(`${at}.tls`, "expected starttls, tls or none");
  }
  if (m.port !== undefined && !(Number.isInteger(m.port) && +m.port! >= 1 && +m.port! <= 65535)) {
    fail(`${at}.port`, "expected a port 1-65535");
  }
  if (m.from !== undefined && (typeof m.from !== "string" || !ADDRESS.test(m.from))) {
    fail(`${at}.from`, "expected an email address");
  }
  if ((m.port !== undefined || m.tls !== undefined) && m.host === undefined) {
    fail(`${at}.host`, "port and tls need the host they belong to");
  }
  return {
    ...(m.host !== undefined ? { host: m.host as string } : {}),
    ...(m.port !== undefined ? { port: m.port as number } : {}),
    ...(m.tls !== undefined ? { tls: m.tls as PackEmail["tls"] } : {}),
    ...(m.from !== undefined ? { from: m.from as string } : {}),
    ...(m.to !== undefined ? { to: addresses(m.to, `${at}.to`, fail) } : {}),
    ...(m.cc !== undefined ? { cc: addresses(m.cc, `${at}.cc`, fail) } : {}),
    ...(m.user !== undefined ? { user: refOf(m.user, `${at}.user`, fail) } : {}),
    ...(m.password !== undefined ? { password: refOf(m.password, `${at}.password`, fail) } : {}),
  };
}

/**
 * The email a tenant's pack sends: the pack's `email` section (subject, attachments, cap,
 * evidence link, and its SMTP server) with the tenant's `mail` section laid over it. A tenant
 * that names its own host sends only its own credentials to it; otherwise the pack's host gets
 * the tenant's `user`/`password` when given, else the worker's SAMKIT_SMTP_USER and
 * SAMKIT_SMTP_PASSWORD (as `deno task pack --send`).
 *
 * @example
 * ```ts
 * import { tenantEmail } from "./mail_settings.ts";
 * const pack = { name: "weekly", output: "./out/packs", reports: [] };
 * const tenant = { id: "acme", mail: { host: "smtp.acme.example", from: "sam@acme.example",
 *   to: ["cfo@acme.example"] } };
 * const { email, auth } = tenantEmail(pack, tenant);
 * console.log(email.host, email.port, auth.kind); // smtp.acme.example 587 refs
 * ```
 */
export function tenantEmail(
  pack: PackFile,
  tenant: { readonly id: string; readonly mail?: TenantMail },
): TenantEmail {
  const base = pack.email;
  const mail = tenant.mail ?? {};
  const host = mail.host ?? base?.host;
  if (!host) throw new MailSettingsError(tenant.id, "no SMTP host");
  const from = mail.from ?? base?.from;
  if (!from) throw new MailSettingsError(tenant.id, "no sender address (from)");
  const to = mail.to ?? base?.to;
  if (!to?.length) throw new MailSettingsError(tenant.id, "no recipient (to)");
  const own = mail.host !== undefined;
  const tls = own ? mail.tls ?? "starttls" : base!.tls;
  const port = own ? mail.port ?? (tls === "tls" ? 465 : 587) : base!.port;
  const email: PackEmail = {
    host,
    port,
    tls,
    from,
    to,
    cc: mail.cc ?? base?.cc ?? [],
    subject: base?.subject ?? "{company}: {pack} for {date}",
    attach: base?.attach ?? [],
    maxAttachmentBytes: base?.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES,
    ...(base?.evidenceUrl ? { evidenceUrl: base.evidenceUrl } : {}),
  };
  const refs = mail.user !== undefined || mail.password !== undefined;
  const auth: MailAuth = own || refs
    ? {
      kind: "refs",
      ...(mail.user ? { user: mail.user } : {}),
      ...(mail.password ? { password: mail.password } : {}),
    }
    : { kind: "env" };
  return { email, auth };
}
