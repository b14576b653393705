/**
 * The cover is printed once, after the sections, with its own page count guessed (two: the cover
 * page and the summary page): when the guess is wrong (contents running over three pages or more)
 * it is printed again, and every contents line still names the page its section starts on, as
 * the bookmark does. A renderer that printed the guessed cover without checking would be off by
 * the difference.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { PdfRenderer } from "../../lib/render/pdf.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { Column } from "../../lib/report/model.ts";
import { contentsLines, pdfOutline, pdfPages } from "./pdf_read.ts";
import { usePrintBrowser } from "./print_browser.ts";
import { sectionsDoc } from "./helpers.ts";

const print = usePrintBrowser("samkit-pdf-cover-guess-");

const COLUMNS: Column[] = [
  { key: "name", label: "Name", type: "text" },
  { key: "n", label: "N", type: "integer" },
];

function document(sectionCount: number, rows: number): RenderDocument {
  return sectionsDoc(Array.from({ length: sectionCount }, (_, s) =>
    memorySection({
      id: `s${s}`,
      title: `Section number ${s + 1}`,
      columns: COLUMNS,
      rows: Array.from({ length: rows }, (_, n) => ({ n, name: `row ${s}-${n}` })),
    })));
}

/** Renders `doc`, counting the renderer's print calls; the path, the pages and the calls. */
async function render(doc: RenderDocument) {
  let calls = 0;
  const renderer = new PdfRenderer({
    printPdf: async (page, options) => {
      calls++;
      return await page.pdf(options);
    },
  });
  const outDir = await Deno.makeTempDir({ dir: print.dir });
  const [path] = await renderer.render(doc, { outDir, browser: print.browser });
  return { path, pages: await pdfPages(path), calls };
}

/**
 * The contents lines of every cover page (the pages before the first section's bookmark), each
 * with the page it names; and how many pages the cover took.
 */
async function contentsOf(path: string, pages: string[]) {
  const outline = await pdfOutline(path);
  const coverPages = outline.find((o) => o.title === "Section number 1")!.page - 1;
  const lines = pages.slice(0, coverPages).flatMap((page) => contentsLines([`CONTENTS\n${page}`]));
  return { outline, coverPages, lines };
}

/** Each contents line's page is its bookmark's page, and that page shows the section's title. */
async function assertContentsTrue(path: string, pages: string[], sections: number) {
  const { outline, coverPages, lines } = await contentsOf(path, pages);
  assert.equal(lines.length, sections, JSON.stringify(lines));
  for (const line of lines) {
    const mark = outline.find((o) => o.title === line.title);
    assert.ok(mark, `a bookmark for ${line.title}`);
    assert.equal(line.page, mark.page, `${line.title}: contents say ${line.page}`);
    assert.ok(pages[mark.page - 1].includes(line.title), `${line.title} on page ${mark.page}`);
  }
  return coverPages;
}

describe("the cover's page count, guessed", () => {
  it("prints a cover of two pages, as guessed, once", async () => {
    const { path, pages, calls } = await render(document(2, 5));
    assert.equal(await assertContentsTrue(path, pages, 2), 2, "the cover page and the summary's");
    assert.equal(calls, 2, "the rows, then the cover");
  });

  it("prints contents running over three pages again, every section's page right", async () => {
    const { path, pages, calls } = await render(document(90, 1));
    const coverPages = await assertContentsTrue(path, pages, 90);
    assert.ok(coverPages >= 3, `a cover of ${coverPages} pages`);
    assert.equal(calls, 3, "the rows, the cover as guessed (two pages), the cover again");
  });
});
