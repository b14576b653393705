/**
 * The one rule for every file or folder name samkit builds from data (a currency code, a section
 * id, a pack name, a tenant id): a slug of safe characters that can never name a parent, an
 * absolute path, a hidden file or a device, and a join that is checked to stay in its folder.
 *
 * A slug keeps `A-Z a-z 0-9 . _ -` and turns every other character into `_`; a leading dot
 * becomes `_`; a Windows device name (`CON`, `NUL`, `COM1`…) is never left bare; the length is
 * bounded. When any of that changed the text, a short hash of the original text is appended, so
 * two different hostile values (`a/b` and `a\b`) cannot land on the same file.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** The longest slug {@link safeName} returns by default. */
export const MAX_NAME_LENGTH = 80;

const UNSAFE = /[^A-Za-z0-9._-]/g;
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$)$/i;
const HASH_LENGTH = 10;
const LOOKS_HASHED = new RegExp(`-[0-9a-f]{${HASH_LENGTH}}$`);
const LOOKS_DISTINCT = new RegExp(`\\.[0-9a-f]{${HASH_LENGTH}}$`);

/** Options of {@link safeName}. */
export interface SafeNameOptions {
  /** The longest result, hash suffix included (default {@link MAX_NAME_LENGTH}; at least 16). */
  readonly maxLength?: number;
}

/**
 * A path that would leave its folder: the message names the folder and the name asked for.
 *
 * @example
 * ```ts
 * import { PathEscapeError } from "./safe_name.ts";
 * console.log(new PathEscapeError("/out", "../x").message);
 * ```
 */
export class PathEscapeError extends Error {
  /** The folder. */
  readonly dir: string;
  /**
   * @param dir The folder the path must stay in.
   * @param name The name that would leave it.
   */
  constructor(dir: string, name: string) {
    super(`the name ${JSON.stringify(name)} would leave the folder ${dir}`);
    this.name = "PathEscapeError";
    this.dir = dir;
  }
}

function shortHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, HASH_LENGTH);
}

/**
 * The safe file or folder name for a piece of data: unchanged when it already is one, else a
 * slug with a short hash of the original appended.
 *
 * @example
 * ```ts
 * import { safeName } from "./safe_name.ts";
 * console.log(safeName("by-publisher-gbp")); // by-publisher-gbp
 * console.log(safeName("x/../../pwned").startsWith("x_.._.._pwned-")); // true
 * console.log(safeName("..") === ".."); // false
 * ```
 */
export function safeName(text: string, options: SafeNameOptions = {}): string {
  const max = Math.max(16, options.maxLength ?? MAX_NAME_LENGTH);
  let slug = text.replace(UNSAFE, "_").replace(/^\./, "_");
  const device = DEVICE.test(slug.split(".")[0]);
  if (device) slug = `_${slug}`;
  const changed = slug !== text || device || slug.length === 0 || slug.length > max ||
    LOOKS_HASHED.test(slug);
  if (!changed) return slug;
  slug = slug.slice(0, max - HASH_LENGTH - 1);
  return `${slug}-${shortHash(text)}`;
}

/**
 * The part of a section id (and so of its file name) for each of a set of values built from data
 * (currency codes), distinct from every other value's even where file names are compared without
 * case: a value that is already a safe name and the only one of its spelling in any case becomes
 * its lower case (`EUR` → `eur`); any other — unsafe (`EU/R`), sharing its lower case with another
 * value (`eur` and `EUR`), or ending like a hashed part — becomes the slug of its lower case, a dot
 * and the short hash of its exact text (`eur.<hash of "eur">`, `eur.<hash of "EUR">`). The dot
 * keeps the part a safe name that {@link safeName} leaves as it is, so a section's file is named
 * by its id alone (`<report>-by-publisher-eur.<hash>.csv`). A value's part does not depend on the
 * order of the values, only on which others share its lower case.
 *
 * @example
 * ```ts
 * import { distinctNames } from "./safe_name.ts";
 * const parts = distinctNames(["EUR", "USD", "eur", "EU/R"]);
 * console.log(parts.get("USD")); // "usd"
 * console.log(parts.get("EUR") !== parts.get("eur")); // true
 * console.log(parts.get("EUR")!.startsWith("eur."), parts.get("EU/R")!.startsWith("eu_r.")); // true true
 * console.log(distinctNames(["EUR", "GBP"]).get("EUR")); // "eur"
 * ```
 */
export function distinctNames(
  values: Iterable<string>,
  options: SafeNameOptions = {},
): Map<string, string> {
  const unique = [...new Set(values)];
  const spellings = new Map<string, number>();
  for (const value of unique) {
    const lower = value.toLowerCase();
    spellings.set(lower, (spellings.get(lower) ?? 0) + 1);
  }
  const max = Math.max(16, options.maxLength ?? MAX_NAME_LENGTH);
  const parts = new Map<string, string>();
  for (const value of unique) {
    const lower = value.toLowerCase();
    const alone = spellings.get(lower) === 1 && safeName(lower, options) === lower &&
      !LOOKS_DISTINCT.test(lower);
    parts.set(value, alone ? lower : hashedSlug(lower, value, max));
  }
  return parts;
}

/** The slug of `text` (unsafe characters `_`, no leading dot, no device) with the hash of `of`. */
function hashedSlug(text: string, of: string, max: number): string {
  let slug = text.replace(UNSAFE, "_").replace(/^\./, "_");
  if (slug === "" || DEVICE.test(slug.split(".")[0])) slug = `_${slug}`;
  return `${slug.slice(0, max - HASH_LENGTH - 1)}.${shortHash(of)}`;
}

/**
 * Whether `path` is `dir` or inside it, both taken as absolute (no file system look-up).
 *
 * @example
 * ```ts
 * import { isInside } from "./safe_name.ts";
 * console.log(isInside("/out", "/out/a/b.csv")); // true
 * console.log(isInside("/out", "/out/../etc")); // false
 * console.log(isInside("/out", "/outside")); // false
 * ```
 */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Joins names built from data under `dir`, each made safe with {@link safeName}, and checks that
 * the result stays inside `dir`; throws {@link PathEscapeError} when it would not.
 *
 * @example
 * ```ts
 * import { safeJoin } from "./safe_name.ts";
 * console.log(safeJoin("/out", "weekly")); // /out/weekly
 * console.log(safeJoin("/out", "../../etc").startsWith("/out/")); // true
 * ```
 */
export function safeJoin(dir: string, ...names: readonly string[]): string {
  const path = join(dir, ...names.map((name) => safeName(name)));
  if (!isInside(dir, path) || resolve(path) === resolve(dir)) {
    throw new PathEscapeError(dir, names.join("/"));
  }
  return path;
}

/**
 * The file name of a report's file of one format, `<report-id>.<extension>`, or of one of its
 * sections, `<report-id>-<section-id>.<extension>`, with the data-built part made safe.
 *
 * @example
 * ```ts
 * import { reportFileName } from "./safe_name.ts";
 * console.log(reportFileName("license-cost-summary", "csv", "by-currency"));
 * // license-cost-summary-by-currency.csv
 * console.log(reportFileName("elp", "csv", "exposure-x/../../pwned").includes("/")); // false
 * ```
 */
export function reportFileName(reportId: string, extension: string, sectionId?: string): string {
  const stem = sectionId === undefined ? reportId : `${reportId}-${sectionId}`;
  return `${safeName(stem, { maxLength: 120 })}.${extension}`;
}
