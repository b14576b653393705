/**
 * A short, safe excerpt of a value read from a file a user named, for an error message: at most
 * a few characters, quoted, with control and format characters escaped, so a file that is not
 * what it claims to be (a secret, `/etc/passwd`) never reaches output beyond a glimpse.
 *
 * @module
 */

/** The most characters of a value an excerpt shows. */
export const MAX_EXCERPT_CHARS = 24;

/**
 * The value quoted, cut to {@link MAX_EXCERPT_CHARS} characters (with `…`), every control or
 * invisible format character shown as a `\u` escape.
 *
 * @example
 * ```ts
 * import { safeExcerpt } from "./excerpt.ts";
 * console.log(safeExcerpt("EURO")); // "EURO"
 * console.log(safeExcerpt("a\u202Eb")); // "a\u202eb"
 * console.log(safeExcerpt("x".repeat(100)).length); // 27
 * ```
 */
export function safeExcerpt(value: unknown): string {
  const text = String(value ?? "");
  const cut = [...text].slice(0, MAX_EXCERPT_CHARS).join("");
  const shown = cut.replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"\\]/gu,
    (c) =>
      c === '"' || c === "\\" ? `\\${c}` : `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`,
  );
  return `"${shown}${cut.length < text.length ? "…" : ""}"`;
}
