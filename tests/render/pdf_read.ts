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
    const m = /^\s*\d{2}\.\s+(.+?)\s{2,}([\d,]+ (?:of [\d,]+ )?rows?)(?:\s+(\d+))?\s*$/.exec(line);
    if (m) out.push({ title: m[1], page: m[3] === undefined ? undefined : Number(m[3]) });
  }
  return out;
}

/**
 * Words of the table headers of `labels` broken across lines in a header cell: one no page shows
 * whole, or one printed as its beginning at the end of a cell's line and its rest at the same place
 * on the next line ("Applicatio" over "n id" for "Application id"). A header may wrap between words
 * and after a hyphen or slash, where words are split here.
 */
export function brokenHeaderWords(pages: readonly string[], labels: readonly string[]): string[] {
  const plain = (word: string) => word.replace(/^[(]+|[),.:;]+$/g, "");
  const parts = (text: string) => text.split(/\s+|(?<=[-–—/])/).map(plain);
  const shown = new Set(pages.join("\n").split(/\s+/).flatMap(parts));
  const words = new Set(labels.flatMap(parts).filter((w) => w.length >= 3));
  const broken = new Set<string>();
  for (const word of words) if (!shown.has(word)) broken.add(word);
  for (const page of pages) {
    const lines = page.split("\n");
    lines.forEach((line, n) => {
      const next = lines[n + 1];
      if (next === undefined) return;
      for (const m of line.matchAll(/\S+/g)) {
        const head = m[0];
        if (/[-–—/]$/.test(head)) continue; // a line may end after a hyphen or slash
        const below = /^\S+/.exec(next.slice(m.index!));
        if (!below || next.slice(0, m.index!).length !== m.index) continue;
        if (m.index! > 0 && next[m.index! - 1] !== " ") continue;
        const joined = plain(head + parts(below[0])[0]);
        if (words.has(joined) && !words.has(plain(head))) broken.add(joined);
      }
    });
  }
  return [...broken];
}
