/**
 * Redaction of secrets in text that may reach a log, an error message or a report: every secret
 * the process registered (`secrets.ts`), removed by value; bearer tokens, client secrets, and the
 * value of every sensitive field of the catalogue (`SENSITIVE_FIELDS`), whether written as JSON
 * (`"secretKey":"…"`), as a form or query pair (`client_secret=…`) or as `name: value`.
 *
 * Sensitive values stay on the objects the client returns (the caller asked the API for them);
 * redaction is for what is printed about them.
 *
 * @module
 */

import { SENSITIVE_FIELDS } from "./catalogue.ts";
import { REDACTED, registerSecret, scrubDeep, scrubSecrets } from "./secrets.ts";

export { REDACTED };

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The sensitive names as one alternation, longest first so `access_token` wins over `token`. */
const NAMES = [...SENSITIVE_FIELDS, "accessToken", "clientSecret", "refresh_token", "apiKey"]
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join("|");

/** `Bearer <token>` in any letter case. */
const BEARER = /\b(bearer)\s+[A-Za-z0-9\-._~+/=]+/gi;
/** `"name": "value"` (JSON), also with a number, boolean or null value. */
const JSON_PAIR = new RegExp(
  `("(?:${NAMES})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`,
  "gi",
);
/** `name=value` in a form body or query string, up to `&`, whitespace or a quote. */
const FORM_PAIR = new RegExp(`(\\b(?:${NAMES})=)[^&\\s"']*`, "gi");
/** `name: value` in free text (not a path segment such as `/connect/token: …`). */
const TEXT_PAIR = new RegExp(`((?<![/.\\w-])(?:${NAMES})\\s*:\\s*)(?!")[^\\s,;&}]+`, "gi");

/**
 * Text with every secret it carries replaced by {@link REDACTED}: each secret the process
 * registered (`registerSecret`) and each literal value in `secrets`, whatever surrounds them;
 * then bearer tokens, `client_secret=…`, and any sensitive field written as a JSON pair, a form
 * pair or `name: value`.
 *
 * @example
 * ```ts
 * import { redact } from "./redact.ts";
 * console.log(redact('Authorization: Bearer abc.def {"secretKey":"s3cr3t"}'));
 * // 'Authorization: Bearer <redacted> {"secretKey":"<redacted>"}'
 * console.log(redact("grant_type=client_credentials&client_secret=xyz"));
 * // "grant_type=client_credentials&client_secret=<redacted>"
 * console.log(redact("token hunter2 was refused", ["hunter2"])); // "token <redacted> was refused"
 * ```
 */
export function redact(text: string, secrets: Iterable<string> = []): string {
  // Values first: a pattern stopping at a space or comma could cut a secret short of its value.
  let out = scrubSecrets(text);
  for (const secret of secrets) {
    // Very short values would scrub ordinary words; they are not credible secrets anyway.
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(JSON_PAIR, `$1"${REDACTED}"`)
    .replace(FORM_PAIR, `$1${REDACTED}`)
    .replace(TEXT_PAIR, `$1${REDACTED}`);
}

/**
 * A deep copy of a value with every sensitive field's value replaced by {@link REDACTED}
 * (objects and arrays are walked; `Date`s are kept). For logging a request or response body.
 *
 * @example
 * ```ts
 * import { redactValue } from "./redact.ts";
 * const body = { type: "ProviderAStore", connectionDetails: { bucketName: "b", secretKey: "k" } };
 * console.log(redactValue(body));
 * // { type: "ProviderAStore", connectionDetails: { bucketName: "b", secretKey: "<redacted>" } }
 * ```
 */
export function redactValue<T>(value: T): T {
  return walk(value) as T;
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSensitiveName(k) && v !== null && v !== undefined ? REDACTED : walk(v);
  }
  return out;
}

/**
 * Whether a field or parameter name names a secret (a catalogue sensitive field, a token or a
 * client secret), in any letter case.
 *
 * @example
 * ```ts
 * import { isSensitiveName } from "./redact.ts";
 * console.log(isSensitiveName("licenseKeys"), isSensitiveName("hostName")); // true false
 * ```
 */
export function isSensitiveName(name: string): boolean {
  return SENSITIVE_LOWER.has(name.toLowerCase());
}

const SENSITIVE_LOWER = new Set(
  [...SENSITIVE_FIELDS, "accessToken", "clientSecret", "refresh_token", "apiKey", "authorization"]
    .map((n) => n.toLowerCase()),
);

/**
 * A set of literal secrets known to the client (client secret, tokens it received, credentials
 * it sent), scrubbed from every message it builds with {@link Redactor.scrub}. Each is also
 * registered with the process (`registerSecret`), so no other log line or record shows it.
 *
 * @example
 * ```ts
 * import { Redactor } from "./redact.ts";
 * const r = new Redactor();
 * r.add("tok-123456");
 * console.log(r.scrub("rejected tok-123456")); // "rejected <redacted>"
 * ```
 */
export class Redactor {
  #pinned = new Set<string>();
  #recent = new Set<string>();

  /**
   * Remembers a secret value (ignored when empty or not a string). `pinned` secrets (a client
   * secret, a static token) are kept for the client's life; others (renewed tokens, credentials
   * sent once) are kept among the last 64.
   */
  add(secret: unknown, options: { pinned?: boolean } = {}): void {
    if (typeof secret !== "string" || secret.length === 0) return;
    registerSecret(secret, { renewed: !options.pinned });
    if (options.pinned) {
      this.#pinned.add(secret);
      return;
    }
    this.#recent.delete(secret);
    this.#recent.add(secret);
    if (this.#recent.size > 64) {
      const first = this.#recent.values().next().value;
      if (first !== undefined) this.#recent.delete(first);
    }
  }

  /** Text with every known secret and every visible secret pattern redacted. */
  scrub(text: string): string {
    return redact(text, [...this.#pinned, ...this.#recent]);
  }
}

/** Words of a field name that make it a secret's: `clientSecret`, `api_key`, `smtpPassword`… */
const SECRET_WORDS =
  /secret|passw|passphrase|token|apikey|privatekey|accesskey|licensekey|securitycode|credential|authori[sz]ation/;

/**
 * Whether a field name looks like a secret's, in any letter case and with or without `_` or `-`:
 * every {@link isSensitiveName}, and any name containing secret, password, passphrase, token,
 * api key, private key, access key, credential or authorization. Broader than
 * {@link isSensitiveName} on purpose: for what is printed, not what is recorded.
 *
 * @example
 * ```ts
 * import { isSecretLikeName } from "./redact.ts";
 * console.log(isSecretLikeName("smtp_password"), isSecretLikeName("reportName")); // true false
 * ```
 */
export function isSecretLikeName(name: string): boolean {
  return isSensitiveName(name) || SECRET_WORDS.test(name.toLowerCase().replace(/[_-]/g, ""));
}

/**
 * A response body as it may be printed: the value of every field named like a secret
 * ({@link isSecretLikeName}) replaced by {@link REDACTED}, and every other string with the
 * registered secrets removed by value ({@link redact}).
 *
 * @example
 * ```ts
 * import { printable } from "./redact.ts";
 * console.log(printable({ name: "n", connectionDetails: { apiKey: "k-123", region: "eu" } }));
 * // { name: "n", connectionDetails: { apiKey: "<redacted>", region: "eu" } }
 * ```
 */
export function printable<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object" || v instanceof Date) return v;
    return Object.fromEntries(
      Object.entries(v).map((
        [k, x],
      ) => [k, isSecretLikeName(k) && x !== null && x !== undefined ? REDACTED : walk(x)]),
    );
  };
  return scrubDeep(walk(value), (text) => redact(text)) as T;
}
