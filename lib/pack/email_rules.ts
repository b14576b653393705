/**
 * The rules of a pack's `email` section: SMTP host, TLS mode and port, sender, attachments,
 * evidence link, attachment cap, subject and recipients, checked in that order. Credentials are
 * refused by name: they belong in SAMKIT_SMTP_USER and SAMKIT_SMTP_PASSWORD.
 *
 * @module
 */

import type { Format } from "../render/renderer.ts";
import { checkFields, type Fail, type FieldRule, type FieldScope } from "./field_rules.ts";
import type { PackEmail, PackReport } from "./pack_file.ts";

/**
 * The default cap on the email's attachments: 5 MB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_ATTACHMENT_BYTES } from "./email_rules.ts";
 * console.log(DEFAULT_MAX_ATTACHMENT_BYTES); // 5000000
 * ```
 */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 5_000_000;

type Reports = readonly PackReport[];
type Scope = FieldScope<Reports>;

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

/** Refuses a credential-looking field before it could be taken for a mere unknown one. */
function refuseCredential(key: string, fail: Fail): void {
  if (!/pass|secret|user/i.test(key)) return;
  fail(
    "email",
    `field "${key}" is not allowed: credentials belong in SAMKIT_SMTP_USER and SAMKIT_SMTP_PASSWORD, never in the pack file`,
  );
}

function tlsOf(value: unknown, { fail }: Scope): PackEmail["tls"] {
  const tls = value ?? "starttls";
  if (!["starttls", "tls", "none"].includes(tls as string)) fail("expected starttls, tls or none");
  return tls as PackEmail["tls"];
}

function portOf(value: unknown, { checked, fail }: Scope): number {
  const port = value ?? (checked.tls === "tls" ? 465 : 587);
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) {
    fail("expected a port 1-65535");
  }
  return port as number;
}

/** Checks one `email.attach` entry: summary.pdf, a report id writing a PDF, or `<id>.<format>`. */
function checkAttachEntry(a: unknown, reports: Reports, fail: (problem: string) => never): void {
  if (a === "summary.pdf") return;
  if (typeof a !== "string") return fail("expected report ids");
  const report = reports.find((r) => r.id === a) ??
    reports.find((r) => a.startsWith(`${r.id}.`));
  if (!report) return fail(`${JSON.stringify(a)} is not a report of this pack`);
  const format = report.id === a ? "pdf" : a.slice(report.id.length + 1);
  if (!report.formats.includes(format as Format)) {
    fail(`report ${report.id} does not write ${format === "pdf" ? "a PDF" : format}`);
  }
}

function attachOf(value: unknown, { context, fail }: Scope): string[] {
  const attach = value === undefined ? [] : value;
  if (!Array.isArray(attach)) return fail("expected a list of report ids");
  for (const a of attach) checkAttachEntry(a, context, fail);
  return attach as string[];
}

/** A list of addresses: `to` must have one at least, `cc` may be absent. */
function addresses(required: boolean) {
  return (value: unknown, { fail }: Scope): string[] => {
    if (value === undefined && !required) return [];
    if (!Array.isArray(value) || (required && !value.length)) {
      return fail("expected a list of email addresses");
    }
    for (const a of value as unknown[]) {
      if (typeof a !== "string" || !ADDRESS.test(a)) {
        fail(`not an email address: ${JSON.stringify(a)}`);
      }
    }
    return value as string[];
  };
}

/** The fields of the email section, in the order they are checked. */
const EMAIL_RULES: readonly FieldRule<Reports>[] = [
  {
    field: "host",
    check: (v, { fail }) => typeof v === "string" && v ? v : fail("expected the SMTP host"),
  },
  { field: "tls", check: tlsOf },
  { field: "port", check: portOf },
  {
    field: "from",
    check: (v, { fail }) =>
      typeof v === "string" && ADDRESS.test(v) ? v : fail("expected an email address"),
  },
  { field: "attach", check: attachOf },
  {
    field: "evidenceUrl",
    check: (v, { fail }) =>
      v === undefined || (typeof v === "string" && /^https?:\/\/\S+$/.test(v))
        ? v
        : fail("expected an http(s) URL"),
  },
  {
    field: "maxAttachmentBytes",
    check: (v, { fail }) => {
      const max = v ?? DEFAULT_MAX_ATTACHMENT_BYTES;
      return Number.isInteger(max) && (max as number) >= 0
        ? max
        : fail("expected a whole number of bytes");
    },
  },
  {
    field: "subject",
    check: (v, { fail }) => {
      if (v !== undefined && typeof v !== "string") fail("expected text");
      return v ?? "{company}: {pack} for {date}";
    },
  },
  { field: "to", check: addresses(true) },
  { field: "cc", check: addresses(false) },
];

/**
 * Checks a pack's `email` section; `attach` entries must name reports of the pack that write the
 * format attached.
 *
 * @example
 * ```ts
 * import { checkEmail } from "./email_rules.ts";
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * const email = { host: "smtp.example.com", from: "sam@example.com", to: ["cfo@example.com"] };
 * console.log(checkEmail(email, { reports: [], fail }).port); // 587
 * ```
 */
export function checkEmail(
  section: unknown,
  options: { readonly reports: readonly PackReport[]; readonly fail: Fail },
): PackEmail {
  const { reports: context, fail } = options;
  const e = checkFields(section, EMAIL_RULES, {
    at: "email",
    context,
    fail,
    onUnknown: refuseCredential,
  });
  return {
    host: e.host as string,
    port: e.port as number,
    tls: e.tls as PackEmail["tls"],
    from: e.from as string,
    to: e.to as string[],
    cc: e.cc as string[],
    subject: e.subject as string,
    attach: e.attach as string[],
    maxAttachmentBytes: e.maxAttachmentBytes as number,
    ...(e.evidenceUrl ? { evidenceUrl: e.evidenceUrl as string } : {}),
  };
}
