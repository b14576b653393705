/**
 * The secrets this process holds, registered once where samkit reads them (a bearer token, a
 * client secret, the access tokens it obtains, SMTP credentials, connector keys, the database
 * password, a secret file's contents), and removed by value from any text before it is printed,
 * logged or stored. Redaction by pattern (`redact.ts`) catches secrets that arrive with their
 * name; this catches the ones a server echoes without it.
 *
 * A value is also removed in the spellings it travels in: percent-encoded (a URL), form-encoded,
 * JSON-escaped, and the base64 forms SMTP authentication sends it in. Values shorter than
 * {@link MIN_SECRET_CHARS} are not registered: removing them would scrub ordinary words.
 *
 * @module
 */

/**
 * The text that replaces a secret.
 *
 * @example
 * ```ts
 * import { REDACTED } from "./secrets.ts";
 * console.log(REDACTED); // "<redacted>"
 * ```
 */
export const REDACTED = "<redacted>";

/**
 * The shortest value registered (shorter ones are ignored).
 *
 * @example
 * ```ts
 * import { MIN_SECRET_CHARS } from "./secrets.ts";
 * console.log(MIN_SECRET_CHARS); // 4
 * ```
 */
export const MIN_SECRET_CHARS = 4;

/** Renewed secrets (access tokens, keys a write sent) kept: the most recent this many. */
const MAX_RENEWED = 256;

/** Options of {@link registerSecret}. */
export interface SecretOptions {
  /**
   * A name rather than a secret (an SMTP user): removed only where it stands alone, not inside
   * a longer word, so a user `sam` leaves `samkit` alone.
   */
  readonly name?: boolean;
  /**
   * One of a stream of secrets that replace each other (access tokens, keys sent once): kept
   * among the most recent {@link MAX_RENEWED} rather than for the process's life.
   */
  readonly renewed?: boolean;
  /** Spellings to remove besides the value's own (e.g. the base64 an SMTP login sends). */
  readonly forms?: readonly string[];
}

const pinned = new Map<string, boolean>();
const renewed = new Map<string, boolean>();
let compiled: { anywhere: RegExp | null; alone: RegExp | null } | null = null;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The spellings a value travels in: as is, percent-encoded, form-encoded, JSON-escaped. */
function spellings(value: string): string[] {
  return [
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
  ];
}

/**
 * Registers a secret so that {@link scrubSecrets} removes it from any text from now on. Anything
 * not a string, or shorter than {@link MIN_SECRET_CHARS}, is ignored; registering twice is
 * harmless.
 *
 * @example
 * ```ts
 * import { registerSecret, scrubSecrets } from "./secrets.ts";
 * registerSecret("hunter2-plain");
 * console.log(scrubSecrets("535 bad login hunter2-plain")); // "535 bad login <redacted>"
 * registerSecret("mailer", { name: true });
 * console.log(scrubSecrets("mailer refused; mailers fine")); // "<redacted> refused; mailers fine"
 * ```
 */
export function registerSecret(value: unknown, options: SecretOptions = {}): void {
  if (typeof value !== "string" || value.length < MIN_SECRET_CHARS) return;
  const values = [...spellings(value), ...(options.forms ?? [])];
  for (const v of new Set(values)) {
    if (v.length < MIN_SECRET_CHARS) continue;
    // Registered once to be removed anywhere, a value stays so even if also given as a name.
    const alone = options.name === true && (pinned.get(v) ?? renewed.get(v)) !== false;
    if (options.renewed && !pinned.has(v)) {
      renewed.delete(v);
      renewed.set(v, alone);
      if (renewed.size > MAX_RENEWED) renewed.delete(renewed.keys().next().value!);
    } else {
      renewed.delete(v);
      pinned.set(v, alone);
    }
  }
  compiled = null;
}

/** One alternation of the values, longest first (so a secret containing another goes whole). */
function alternation(values: string[]): string | null {
  if (!values.length) return null;
  return values.sort((a, b) => b.length - a.length).map(escapeRe).join("|");
}

function compile(): NonNullable<typeof compiled> {
  const all = [...pinned, ...renewed];
  const anywhere = alternation(all.filter(([, alone]) => !alone).map(([v]) => v));
  const alone = alternation(all.filter(([, a]) => a).map(([v]) => v));
  return {
    anywhere: anywhere === null ? null : new RegExp(anywhere, "gu"),
    alone: alone === null
      ? null
      : new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alone})(?![\\p{L}\\p{N}_])`, "gu"),
  };
}

/**
 * Text with every registered secret replaced by {@link REDACTED}.
 *
 * @example
 * ```ts
 * import { registerSecret, scrubSecrets } from "./secrets.ts";
 * registerSecret("pa ss/wörd");
 * console.log(scrubSecrets("url postgres://u:pa%20ss%2Fw%C3%B6rd@db")); // "url postgres://u:<redacted>@db"
 * ```
 */
export function scrubSecrets(text: string): string {
  compiled ??= compile();
  let out = text;
  if (compiled.anywhere) out = out.replace(compiled.anywhere, () => REDACTED);
  if (compiled.alone) out = out.replace(compiled.alone, () => REDACTED);
  return out;
}

/**
 * A deep copy of a JSON-like value with {@link scrubSecrets} (or `scrub`) applied to every string
 * in it (keys kept, `Date`s kept); for a record about to be stored or printed.
 *
 * @example
 * ```ts
 * import { registerSecret, scrubDeep } from "./secrets.ts";
 * registerSecret("tok-9f8e7d");
 * console.log(scrubDeep({ error: "refused tok-9f8e7d", n: 1 })); // { error: "refused <redacted>", n: 1 }
 * ```
 */
export function scrubDeep<T>(value: T, scrub: (text: string) => string = scrubSecrets): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object" || v instanceof Date) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value) as T;
}
