/**
 * Worksheet names a person can read, within Excel's 31 characters and unique in the workbook.
 *
 * A section title that fits is used as it is (characters Excel forbids replaced). A longer one is
 * shortened deterministically, step by step, until it fits: `and` → `&`, commas dropped,
 * `30 days or more` → `30+ days`, common long words abbreviated (`applications` → `apps`,
 * `organization` → `org`, `installations` → `installs`, …), articles dropped; then its leading
 * words when they keep most of the title and end where a phrase ends (at a comma, before `per`,
 * `by`, `with`, `&`, `that`, `(`, … but not inside a range such as "2025-06 to 2026-06":
 * "Reconciliation with entitlement states" is never "Reconciliation with entitlement", "Renewals
 * by month, 2025-06 to 2026-06" never "Renewals by month 2025-06"); else the section id
 * title-cased; else the leading phrase that fits. A word is cut only when a single word is longer
 * than the limit. Duplicates get ` (2)`, ` (3)`, … with the name shortened again to leave room.
 *
 * @module
 */

import { visibleText } from "./format.ts";

/** Excel's limit of characters in a worksheet name. */
export const SHEET_NAME_MAX = 31;

/** Characters XML 1.0 cannot carry. */
// deno-lint-ignore no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Abbreviations of long words (lower case), applied word by word with the case kept. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  applications: "apps",
  application: "app",
  organizations: "orgs",
  organisations: "orgs",
  organization: "org",
  organisation: "org",
  installations: "installs",
  installation: "install",
  virtualisation: "virt.",
  virtualization: "virt.",
  information: "info",
  configuration: "config",
  maintenance: "maint.",
  percentage: "%",
  number: "no.",
};

/** Words dropped when a title is still too long after abbreviating. */
const ARTICLES = new Set(["the", "a", "an", "each"]);

/** Words that join a title's parts: none ends a shortened name, and each opens a phrase. */
const CONNECTIVES = [
  "&",
  "and",
  "or",
  "by",
  "per",
  "of",
  "for",
  "with",
  "in",
  "on",
  "to",
  "from",
  "at",
  "vs",
  "-",
];

/** Words a shortened name must not end on. */
const DANGLING = new Set([...CONNECTIVES, "the", "a", "an"]);

/** Words that open a phrase: leading words may end only before one of them (or a `(`). */
const PHRASE_START = new Set([
  ...CONNECTIVES,
  "without",
  "that",
  "which",
  "where",
  "when",
  "than",
  "since",
  "until",
  "after",
  "before",
]);

/** Share of a shortened title's words its leading words must keep to stand for it. */
const KEEP_SHARE = 0.4;

/** Words that open what a title is broken down by (`… per organization`, `… by computer`). */
const DIMENSION = new Set(["per", "by"]);

/**
 * Replaces what Excel forbids in a sheet name (`[ ] : * ? / \`, XML-invalid characters, leading
 * and trailing apostrophes) with readable stand-ins, and collapses spaces. Bidi and other control
 * characters are first shown as visible escapes (`<U+202E>`, {@link visibleText}), as in every
 * cell, so a name from data cannot display reversed on a sheet tab.
 *
 * @example
 * ```ts
 * import { cleanSheetText } from "./xlsx_sheet_names.ts";
 * console.log(cleanSheetText("Licences: [EU]/EMEA")); // "Licences - (EU)-EMEA"
 * console.log(cleanSheetText("Spend (\u202EEUR)")); // "Spend (<U+202E>EUR)"
 * ```
 */
export function cleanSheetText(text: string): string {
  return visibleText(text)
    .replace(XML_INVALID, "")
    .replace(/\s*:\s+/g, " - ")
    .replace(/[:/\\]/g, "-")
    .replace(/\[/g, "(")
    .replace(/]/g, ")")
    .replace(/[*?]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^'+|'+$/g, "")
    .trim();
}

/** Keeps the case of `word`'s first letter on its replacement. */
function withCase(word: string, replacement: string): string {
  const first = word[0];
  return first !== first.toLowerCase()
    ? replacement[0].toUpperCase() + replacement.slice(1)
    : replacement;
}

/**
 * The shortened form of a title: `&`, `N+ days`, abbreviations, no articles; no commas, unless
 * `commas` keeps them to mark where phrases end.
 */
function shortened(title: string, limit: number, commas = false): string {
  let text = title.replace(/\s+and\s+/gi, " & ")
    .replace(/,(\s)/g, commas ? ",$1" : "$1")
    .replace(/\b(\d+) (\w+) or more\b/gi, "$1+ $2");
  if (text.length <= limit) return text;
  text = text.split(" ").map((word) => {
    const m = /^([A-Za-z]+)(.*)$/.exec(word);
    const short = m ? ABBREVIATIONS[m[1].toLowerCase()] : undefined;
    return short && m ? withCase(m[1], short) + m[2] : word;
  }).join(" ");
  if (text.length <= limit) return text;
  const words = text.split(" ");
  return words.filter((w, i) => i === 0 || !ARTICLES.has(w.replace(/,$/, "").toLowerCase()))
    .join(" ");
}

/**
 * Whether the first `count` of `words` end where a phrase ends: all of them, at a comma, or before
 * a word that opens a phrase — not one joining two numbers, which is a range ("2025-06 to
 * 2026-06", "30 to 90 days").
 */
function endsPhrase(words: readonly string[], count: number): boolean {
  if (count >= words.length || words[count - 1]?.endsWith(",")) return true;
  const next = words[count];
  const range = /^\d/.test(words[count - 1] ?? "") && /^\d/.test(words[count + 1] ?? "");
  return next.startsWith("(") || (PHRASE_START.has(next.toLowerCase()) && !range);
}

/**
 * The leading words of `text` that fit `limit` — ending where a phrase ends when `phrase` — without
 * a dangling connector at the end; a single word longer than the limit is the only word cut (by
 * the caller).
 */
function leadingWords(text: string, limit: number, phrase: boolean): string[] {
  const words = text.split(" ");
  const out: string[] = [];
  let length = -1;
  for (const word of words) {
    if (length + 1 + word.length > limit) break;
    out.push(word);
    length += 1 + word.length;
  }
  while (phrase && out.length > 0 && !endsPhrase(words, out.length)) out.pop();
  // The commas marked where phrases end; a name has none at its end.
  if (out.length > 0) out[out.length - 1] = out[out.length - 1].replace(/,$/, "");
  // An opening parenthesis whose group does not fit goes with it: no "(org" at the end.
  const open = out.findIndex((w, i) => w.startsWith("(") && !out.slice(i).join(" ").includes(")"));
  if (open > 0) out.length = open;
  while (out.length > 1 && DANGLING.has(out[out.length - 1].toLowerCase())) out.pop();
  return out;
}

/**
 * Whether leading words stand for the whole title: at least {@link KEEP_SHARE} of its words, and
 * the first word after its first `per`/`by` kept (a breakdown is not silently dropped, so
 * "Stale computers per organization" does not pass for "Stale computers").
 */
function standsFor(lead: readonly string[], words: readonly string[]): boolean {
  if (lead.length < 2 || lead.length < words.length * KEEP_SHARE) return false;
  const dimension = words.findIndex((w) => DIMENSION.has(w.toLowerCase()));
  return dimension < 0 || lead.length > dimension + 1;
}

/** A section id title-cased (`reclaim-value` → `Reclaim value`, `by_vendor` → `By vendor`). */
function idTitle(id: string): string {
  const text = cleanSheetText(id.replace(/[-_]+/g, " "));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A title's closing qualifier in brackets (`(GBP)`, `(Users)`), when it takes at most half the
 * room: what tells sections of one title apart (one per currency, per metric), so it is kept
 * whole and the name before it is shortened instead.
 */
function closingQualifier(
  title: string,
  limit: number,
): { readonly head: string; readonly tail: string } | undefined {
  const m = /^(.*\S)\s+(\([^()]+\))$/.exec(title);
  return m && m[2].length * 2 <= limit ? { head: m[1], tail: m[2] } : undefined;
}

/**
 * A readable sheet name of at most `limit` characters (default 31) for a section title: the title,
 * else its shortened form, else its leading words when they end a phrase and keep most of it, else
 * the section id title-cased, else its leading phrase, else the leading words that fit. A closing
 * qualifier in brackets that takes at most half the room (a currency, a metric: what tells
 * sections of one title apart) is kept whole, and the name before it shortened. Pure and
 * deterministic.
 *
 * @example
 * ```ts
 * import { readableSheetName } from "./xlsx_sheet_names.ts";
 * console.log(readableSheetName("End-of-life installations per organization and computer"));
 * // "End-of-life installs per org"
 * console.log(readableSheetName("Stale and quarantined computers per organization", {
 *   id: "organizations",
 * })); // "Organizations"
 * console.log(readableSheetName("Reconciliation with entitlement states")); // "Reconciliation"
 * console.log(readableSheetName("Cost to date and shortfall cost (GBP)")); // "Cost to date (GBP)"
 * ```
 */
export function readableSheetName(
  title: string,
  options: { readonly id?: string; readonly limit?: number } = {},
): string {
  const limit = Math.max(1, options.limit ?? SHEET_NAME_MAX);
  const clean = cleanSheetText(title);
  if (clean.length <= limit) return clean;
  const qualified = closingQualifier(clean, limit);
  if (qualified) {
    const head = readableSheetName(qualified.head, { limit: limit - qualified.tail.length - 1 });
    if (head !== "") return `${head} ${qualified.tail}`;
  }
  const short = shortened(clean, limit);
  if (short.length <= limit) return short;
  // Leading words end where a phrase ends: before a connective, or at a comma of the title.
  const lead = leadingWords(shortened(clean, limit, true), limit, true)
    .map((word) => word.replace(/,$/, ""));
  // A parenthetical (a scope such as "(organization …)") qualifies the title; it is not counted.
  const outside = short.replace(/\s*\([^)]*\)/g, "").split(" ");
  if (standsFor(lead, outside)) return lead.join(" ");
  const id = options.id === undefined ? "" : idTitle(options.id);
  if (id !== "" && id.length <= limit) return id;
  if (lead.length > 0) return lead.join(" ");
  const words = leadingWords(short, limit, false);
  return words.length > 0 ? words.join(" ") : short.slice(0, limit).trimEnd();
}

/**
 * A valid sheet name unique (case-insensitively) among `taken`, which it joins: the readable name
 * of `wish` ({@link readableSheetName}) plus `suffix`, or with ` (2)`, ` (3)`, … when taken, always
 * within 31 characters (the name is shortened again to leave room for the suffix). An empty name
 * becomes `Sheet`; `History`, which Excel reserves, becomes `History_`.
 *
 * @example
 * ```ts
 * import { sheetName } from "./xlsx_sheet_names.ts";
 * const taken = new Set<string>();
 * console.log(sheetName("Licences: [EU]/EMEA", taken)); // "Licences - (EU)-EMEA"
 * console.log(sheetName("licences: [eu]/emea", taken)); // "licences - (eu)-emea (2)"
 * ```
 */
export function sheetName(wish: string, taken: Set<string>, suffix = "", id?: string): string {
  const fit = (tail: string) => {
    let base = readableSheetName(wish, { id, limit: SHEET_NAME_MAX - tail.length });
    base = base.replace(/'+$/, "").trimEnd();
    if (base === "") base = "Sheet".slice(0, SHEET_NAME_MAX - tail.length);
    if (base.toLowerCase() === "history" && tail === "") base = "History_";
    return base + tail;
  };
  let name = fit(suffix);
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = fit(`${suffix} (${n})`);
  taken.add(name.toLowerCase());
  return name;
}
