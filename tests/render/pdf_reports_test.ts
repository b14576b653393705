/**
 * Every API report's PDF as a reader meets it, read from the printed file: no header word broken
 * across lines, a footer naming the report, its scope and the page on every page, contents lines
 * with the page their bookmark opens, no page holding only a heading, a capped section saying
 * which rows it prints without claiming totals or a chart it lacks, and no command line anywhere.
 *
 * @module
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { withServer } from "../helpers/server.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { brokenHeaderWords, contentsLines, pdfOutline, pdfPages } from "./pdf_read.ts";

after(closeTestBrowser);

/** A page's lines with text, the running header and footer left out. */
function bodyLines(page: string, title: string): string[] {
  const lines = page.split("\n").filter((l) => l.trim() !== "");
  return lines.filter((l, i) =>
    !(i === 0 && l.trim().startsWith(title)) && !/Page \d+ of \d+\s*$/.test(l)
  );
}

describe("every API report's PDF", () => {
  it("reads whole on every page", async () => {
    let capped = 0;
    await withServer({}, async (srv) => {
      // The reports share what they read, as the reports of one pack do.
      const query = createQueryContext();
      for (const report of API_REPORTS) {
        const run = await runReportForTest({
          server: srv,
          report,
          formats: ["xlsx", "pdf"],
          query,
        });
        const path = run.file("pdf");
        const pages = await pdfPages(path);
        const doc = run.result.document;
        const id = report.id;
        const labels = doc.sections.filter((s) => s.rowCount > 0)
          .flatMap((s) => s.columns.map((c) => c.label));
        assert.deepEqual(brokenHeaderWords(pages, labels), [], `${id}: header words whole`);

        pages.forEach((text, i) => {
          const footer = text.trimEnd().split("\n").at(-1) ?? "";
          assert.match(footer, /Whole estate|Organisation: |Filter: /, `${id} p${i + 1}: scope`);
          assert.match(footer, new RegExp(`Page ${i + 1} of ${pages.length}\\s*$`), `${id}`);
          // A page with a heading has more than the heading (and its row count) on it.
          assert.ok(bodyLines(text, doc.report.title).length > 2, `${id} p${i + 1}: ${text}`);
          assert.doesNotMatch(text, /deno task|--param|--format/, `${id} p${i + 1}: no CLI`);
        });

        const contents = contentsLines(pages);
        const outline = await pdfOutline(path);
        assert.equal(contents.length, doc.sections.length, `${id}: a contents line per section`);
        contents.forEach((line, i) => {
          assert.equal(line.page, outline[i + 1]?.page, `${id}: ${line.title}'s page`);
        });

        const text = pages.join("\n").replace(/\s+/g, " ");
        for (const section of doc.sections.filter((s) => s.rowCount > 500)) {
          const of = section.rowCount.toLocaleString("en-US");
          const note = new RegExp(
            `This PDF prints 500 of the ${of} rows: ([^.]+)\\.( The [^.]+\\.)?`,
          )
            .exec(text);
          assert.ok(note, `${id}: ${section.title} says which of its ${of} rows it prints`);
          const claims = note[2] ?? "";
          assert.equal(/totals/.test(claims), (section.totalsSpec?.sum.length ?? 0) > 0, claims);
          assert.equal(/chart/.test(claims), section.chart !== undefined, claims);
          capped++;
        }
      }
    });
    assert.ok(capped > 0, "a section longer than the PDF prints");
  });
});
