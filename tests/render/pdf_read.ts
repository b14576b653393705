/**
 * Reading a rendered PDF back for tests, as a reader meets it: each page's text as `pdftotext
 * -layout` lays it out, the bookmarks with the page each opens, and checks of what every page
 * must say on its own.
 *
 * @module
 */

import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFRef } from "pdf-lib";

const decoder = new TextDecoder();

/** The text of each page (`pdftotext -layout`). */
export async function pdfPages(path: string): Promise<string[]> {
  const out = await new Deno.Command("pdftotext", {
    args: ["-layout", path, "-"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`pdftotext ${path}: ${decoder.decode(out.stderr)}`);
  const pages = decoder.decode(out.stdout).split("\f");
  if (pages.at(-1)?.trim() === "") pages.pop();
  return pages;
}

/** Top-level bookmarks: title and 1-based page. */
export async function pdfOutline(path: string): Promise<{ title: string; page: number }[]> {
  const doc = await PDFDocument.load(await Deno.readFile(path), { updateMetadata: false });
  const refs = doc.getPages().map((p) => p.ref.toString());
  const root = doc.catalog.lookup(PDFName.of("Outlines"), PDFDict);
  const out: { title: string; page: number }[] = [];
  let ref = root.get(PDFName.of("First")) as PDFRef | undefined;
  while (ref) {
    const item = doc.context.lookup(ref, PDFDict);
    const title = (item.lookup(PDFName.of("Title")) as unknown as { decodeText(): string })
      .decodeText();
    const dest = item.lookup(PDFName.of("Dest"), PDFArray);
    out.push({ title, page: refs.indexOf(dest.get(0).toString()) + 1 });
    ref = item.get(PDFName.of("Next")) as PDFRef | undefined;
  }
  return out;
}

/**
 * The contents lines of a document's summary page: number, title and the page number printed at
 * the line's end (undefined when the line has none).
 */
export function contentsLines(pages: readonly string[]): {
  readonly title: string;
  readonly page?: number;
}[] {
  const text = pages.find((p) => /^\s*CONTENTS\s*$/m.test(p)) ?? "";
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^\s*CONTENTS\s*$/.test(l));
  const out: { title: string; page?: number }[] = [];
  for (const line of lines.slice(at + 1)) {
    const m = /^\s*\d{2}\.\s+(.+?)\s{2,}([\d,]+ rows?)(?:\s+(\d+))?\s*$/.exec(line);
    if (m) out.push({ title: m[1], page: m[3] === undefined ? undefined : Number(m[3]) });
  }
  return out;
}

/**
 * Words of the table headers of `labels` that no page shows whole: a word broken across lines in
 * its header cell ("Applicatio" / "n id") is not on any page as itself. Words are split at
 * spaces and after hyphens and slashes (where a header may wrap).
 */
export function brokenHeaderWords(pages: readonly string[], labels: readonly string[]): string[] {
  const plain = (word: string) => word.replace(/^[(]+|[),.:;]+$/g, "");
  const shown = new Set(
    pages.join("\n").split(/\s+/).flatMap((w) => [w, ...w.split(/(?<=[-–—/])/)]).map(plain),
  );
  const broken = new Set<string>();
  for (const label of labels) {
    for (const word of label.split(/\s+|(?<=[-–—/])/).map(plain)) {
      if (word.length >= 3 && !shown.has(word)) broken.add(`${word} (of "${label}")`);
    }
  }
  return [...broken];
}
