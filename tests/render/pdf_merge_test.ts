import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFRef } from "pdf-lib";
import { PdfAssembler } from "../../lib/render/pdf_merge.ts";
import { pdfPages } from "./pdf_read.ts";

/** The text of each page of a PDF held as bytes, as `pdftotext -layout` reads it. */
async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const path = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(path, bytes);
    return await pdfPages(path);
  } finally {
    await Deno.remove(path);
  }
}

/** A part of `pages` pages with named destinations `dests` (name → 0-based page). */
async function part(pages: number, dests: Record<string, number> = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]);
  const dict = doc.context.obj({});
  for (const [name, page] of Object.entries(dests)) {
    dict.set(
      PDFName.of(name),
      doc.context.obj([doc.getPage(page).ref, PDFName.of("XYZ"), 6, 800, 0]),
    );
  }
  doc.catalog.set(PDFName.of("Dests"), doc.context.register(dict));
  return await doc.save();
}

/** The outline's top-level items: title and 0-based page. */
function outline(doc: PDFDocument): { title: string; page: number; kids: number }[] {
  const pages = doc.getPages().map((p) => p.ref.toString());
  const root = doc.catalog.lookup(PDFName.of("Outlines"), PDFDict);
  const out: { title: string; page: number; kids: number }[] = [];
  let ref = root.get(PDFName.of("First")) as PDFRef | undefined;
  while (ref) {
    const item = doc.context.lookup(ref, PDFDict);
    const dest = item.lookup(PDFName.of("Dest"), PDFArray);
    const title = (item.lookup(PDFName.of("Title")) as unknown as { decodeText(): string })
      .decodeText();
    const count = item.get(PDFName.of("Count"));
    out.push({
      title,
      page: pages.indexOf(dest.get(0).toString()),
      kids: count ? Math.abs(Number(count.toString())) : 0,
    });
    ref = item.get(PDFName.of("Next")) as PDFRef | undefined;
  }
  return out;
}

describe("PdfAssembler", () => {
  it("merges parts in order and maps named destinations to the merged pages", async () => {
    const assembler = await PdfAssembler.create();
    assert.equal(await assembler.add(await part(3, { "section-a": 1 })), 3);
    assert.equal(await assembler.add(await part(2, { "section-b": 0, "section-c": 1 })), 2);
    assert.equal(assembler.pageCount, 5);
    assert.deepEqual(
      Object.fromEntries(assembler.destinations()),
      { "section-a": 1, "section-b": 3, "section-c": 4 },
    );
    const bytes = await assembler.finish({
      metadata: { title: "Merged", created: new Date("2024-05-01T08:00:00Z") },
      outline: [
        { title: "Cover", page: 0 },
        { title: "A", dest: "section-a" },
        {
          title: "Later",
          dest: "section-b",
          children: [{ title: "C", dest: "section-c" }, { title: "Gone", dest: "nowhere" }],
        },
        { title: "Missing", dest: "nowhere" },
      ],
    });
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    assert.equal(doc.getPageCount(), 5);
    assert.deepEqual(outline(doc), [
      { title: "Cover", page: 0, kids: 0 },
      { title: "A", page: 1, kids: 0 },
      { title: "Later", page: 3, kids: 1 },
    ]);
    // Links made by Chrome use /Dest /<name>: the merged /Dests resolves them across parts.
    const dests = doc.catalog.lookup(PDFName.of("Dests"), PDFDict);
    const c = dests.lookup(PDFName.of("section-c"), PDFArray);
    assert.equal(c.get(0).toString(), doc.getPage(4).ref.toString());
    assert.equal(doc.catalog.get(PDFName.of("PageMode"))?.toString(), "/UseOutlines");
  });

  it("sets title, creator and creation date", async () => {
    const assembler = await PdfAssembler.create();
    await assembler.add(await part(1));
    const created = new Date("2024-05-01T08:00:00Z");
    const bytes = await assembler.finish({
      metadata: { title: "Licence costs", subject: "What we pay", created, language: "en-US" },
    });
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    assert.equal(doc.getTitle(), "Licence costs");
    assert.equal(doc.getCreator(), "samkit");
    assert.equal(doc.getSubject(), "What we pay");
    assert.equal(doc.getCreationDate()?.toISOString(), created.toISOString());
  });

  it("stamps page numbers over the whole document and survives titles a WinAnsi font lacks", async () => {
    const assembler = await PdfAssembler.create();
    await assembler.add(await part(2));
    await assembler.add(await part(2));
    const bytes = await assembler.finish({
      metadata: { title: "Ünïcode ✓ 報告", created: new Date() },
      stamp: { headerLeft: "Ünïcode ✓ 報告", footerLeft: "Generated 2024-05-01 08:00 UTC" },
    });
    const pages = await pagesOf(bytes);
    assert.equal(pages.length, 4);
    pages.forEach((page, i) => assert.match(page, new RegExp(`Page ${i + 1} of 4`)));
    assert.match(pages[1], /Ünïcode \? \?\?/);
    assert.doesNotMatch(pages[0], /Ünïcode/); // no running header on the cover
  });

  it("leaves whole footer parts off from the end where the line is too wide, never cutting one", async () => {
    const assembler = await PdfAssembler.create();
    await assembler.add(await part(2));
    const source = "embedded reference server (demo estate: 400 computers, seed 1): " +
      "demo data, not a tenant's, ".repeat(6);
    const bytes = await assembler.finish({
      metadata: { title: "Footer", created: new Date() },
      stamp: { footerLeft: ["License cost summary", "Organisation: ORG07", "Generated x", source] },
    });
    const pages = await pagesOf(bytes);
    assert.equal(pages.length, 2);
    for (const page of pages) {
      assert.match(page, /License cost summary · Organisation: ORG07 · Generated x\s+Page/);
      assert.doesNotMatch(page, /embedded|\u2026/);
    }
  });

  it("refuses to add or finish twice", async () => {
    const assembler = await PdfAssembler.create();
    await assembler.add(await part(1));
    await assembler.finish({ metadata: { title: "x", created: new Date() } });
    await assert.rejects(assembler.add(await part(1)), /already finished/);
    await assert.rejects(
      assembler.finish({ metadata: { title: "x", created: new Date() } }),
      /already finished/,
    );
  });
});
