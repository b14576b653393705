/**
 * Redaction of secrets in text that may reach a log, an error message or a report: bearer
 * tokens, client secrets, and the value of every sensitive field of the catalogue
 * (`SENSITIVE_FIELDS`), whether written as JSON (`"secretKey":"…"`), as a form or query pair
 * (`client_secret=…`) or as `name: value`.
 *
 * Sensitive values stay on the objects the client returns (the caller asked the API for them);
 * redaction is for what is printed about them.
 *
 * @module
 */

import { SENSITIVE_FIELDS } from "./catalogue.ts";

/**
 * The text that replaces a secret.
 *
 * @example
 * ```ts
 * import { REDACTED } from "./redact.ts";
 * console.log(REDACTED); // "<redacted>"
 * ```
 */
export const REDACTED = "<redacted>";

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
 * Text with every secret it visibly carries replaced by {@link REDACTED}: bearer tokens,
 * `client_secret=…`, any sensitive field written as a JSON pair, a form pair or `name: value`,
 * and each literal value in `secrets` (for secrets that appear without their name).
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
  let out = text
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(JSON_PAIR, `$1"${REDACTED}"`)
    .replace(FORM_PAIR, `$1${REDACTED}`)
    .replace(TEXT_PAIR, `$1${REDACTED}`);
  for (const secret of secrets) {
    // Very short values would scrub ordinary words; they are not credible secrets anyway.
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
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
 * it sent), scrubbed from every message it builds with {@link Redactor.scrub}.
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
