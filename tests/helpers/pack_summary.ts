/**
 * Test helper: read a pack run's summary as its recipient reads it — the mail's text and HTML
 * parts, summary.pdf as text — and the trends report over a pack's runs as a user runs it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { simpleParser } from "mailparser";
import { ROOT, runCli } from "./cli.ts";

/**
 * The mail settings of a test pack: a local relay that is never reached (the tests read the
 * .eml the run keeps), plain text, one recipient.
 *
 * @example Usage
 * ```ts ignore
 * import { testEmail } from "./pack_summary.ts";
 *
 * const email = testEmail("cfo@example.test");
 * ```
 */
export function testEmail(to: string) {
  return {
    host: "127.0.0.1",
    port: 2525,
    tls: "none",
    from: "samkit@example.test",
    to: [to],
  };
}

/** The two parts of a summary mail. */
export interface MailParts {
  /** The text/plain part. */
  readonly text: string;
  /** The text/html part, as sent. */
  readonly html: string;
}

/**
 * The text and HTML parts of the summary mail a pack run kept at `eml`.
 *
 * @example Usage
 * ```ts ignore
 * import { mailParts } from "./pack_summary.ts";
 *
 * const { text, html } = await mailParts(run.eml!);
 * ```
 */
export async function mailParts(eml: string): Promise<MailParts> {
  const mail = await simpleParser(Buffer.from(await Deno.readFile(eml)));
  return { text: mail.text ?? "", html: String(mail.html) };
}

/**
 * The visible text of an HTML body: tags dropped, entities decoded, the `<title>` left out,
 * white space folded to single spaces.
 *
 * @example Usage
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { htmlVisibleText } from "./pack_summary.ts";
 *
 * assert.equal(htmlVisibleText("<p>a &amp; b</p>"), " a & b ");
 * ```
 */
export function htmlVisibleText(html: string): string {
  // A mail client shows neither the title nor a style sheet's rules.
  return html.replace(/<title>[\s\S]*?<\/title>/, " ")
    .replace(/<style\b[\s\S]*?<\/style>/gi, " ").replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&#x3D;/g, "=")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/\s+/g, " ");
}

/**
 * The text of a PDF (poppler's `pdftotext`), white space folded to single spaces.
 *
 * @example Usage
 * ```ts ignore
 * import { pdfText } from "./pack_summary.ts";
 *
 * const text = await pdfText(`${run.dir}/summary.pdf`);
 * ```
 */
export async function pdfText(path: string): Promise<string> {
  const out = await new Deno.Command("pdftotext", { args: [path, "-"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).replace(/\s+/g, " ");
}

/** One section of the trends report's JSON output. */
export interface TrendSection {
  /** The section id (`money-eur`, `converted-eur`, …). */
  readonly id: string;
  /** Its columns. */
  readonly columns: readonly { readonly key: string }[];
  /** One row a run. */
  readonly rows: readonly Record<string, unknown>[];
}

/**
 * The trends report's sections over a pack folder (absolute, under the project folder), run as
 * a user runs it; the JSON goes to `<history>-trends`.
 *
 * @example Usage
 * ```ts ignore
 * import { trendSections } from "./pack_summary.ts";
 *
 * const sections = await trendSections(`${dir}/weekly-audit`);
 * ```
 */
export async function trendSections(history: string): Promise<TrendSection[]> {
  const out = `${history}-trends`;
  const r = await runCli([
    "report",
    "trends",
    "--param",
    `history=${history.slice(ROOT.length)}`,
    "--format",
    "json",
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(await Deno.readTextFile(`${out}/trends.json`)).sections;
}
