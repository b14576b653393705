/**
 * The identity of a run's data source, for deciding which runs may be compared: a tenant's base
 * URL (scheme, host and path; lower-case host, no trailing slash), or the embedded demo estate's
 * size and seed (its "as of" day left out: the same seed and size give the same estate, aged). A
 * snapshot re-render keeps the recorded run's source text, so it keeps that run's identity.
 *
 * @module
 */

const EMBEDDED = /^embedded reference server \(demo estate: (\d+) computers, seed (\d+)\b/;

/**
 * The comparable identity of a manifest's `source` text.
 *
 * @example
 * ```ts
 * import { sourceIdentity } from "./source_identity.ts";
 * console.log(sourceIdentity("https://SAM.example.com/api/")); // "https://sam.example.com/api"
 * console.log(sourceIdentity(
 *   "embedded reference server (demo estate: 400 computers, seed 1, as of 2026-11-23)",
 * )); // "embedded demo estate: 400 computers, seed 1"
 * ```
 */
export function sourceIdentity(source: string): string {
  const text = source.trim();
  const embedded = EMBEDDED.exec(text);
  if (embedded) return `embedded demo estate: ${embedded[1]} computers, seed ${embedded[2]}`;
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return text;
  }
}
