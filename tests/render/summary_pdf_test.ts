/**
 * The pack's summary.pdf as a recipient reads it: printed from samkit's mail template, every page
 * says which it is ("Page 2 of 3"), and a table is never cut from its header (no header left at
 * the foot of a page with its rows on the next), wherever the text before it ends.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import Handlebars from "handlebars";
import { printSummaryPdf } from "../../lib/pack/run_mail.ts";
import { pdfPages } from "./pdf_read.ts";
import { usePrintBrowser } from "./print_browser.ts";

const print = usePrintBrowser("samkit-summary-pdf-");

const TEMPLATE = Handlebars.create().compile(
  await Deno.readTextFile(new URL("../../templates/email/pack_summary.hbs", import.meta.url)),
);

/** A summary whose first section's text runs `lines` lines before a table of eight rows. */
function summaryHtml(lines: number): string {
  return TEMPLATE({
    subject: "Weekly SAM audit pack",
    title: "Weekly SAM audit",
    runLine: "Run of 2026-11-28 05:17 UTC",
    sourceLine: "Data from the reference server",
    sections: [{
      heading: "Compliance exposure",
      intro: Array.from({ length: lines }, (_, n) => `Intro line ${n + 1} of the exposure.`),
      tables: [{
        caption: "Top risks by shortfall cost",
        columns: [{ text: "Application" }, { text: "Shortfall cost", numeric: true }],
        rows: Array.from({ length: 8 }, (_, n) => [
          { text: `Risky application ${n + 1}` },
          { text: `$${(8 - n) * 1000}.00`, numeric: true },
        ]),
      }],
    }],
  });
}

describe("the pack's summary.pdf", () => {
  it("numbers every page and keeps each table with its header", async () => {
    let straddled = 0;
    for (let lines = 20; lines <= 46; lines += 2) {
      const path = `${print.dir}/summary-${lines}.pdf`;
      await printSummaryPdf(print.browser, summaryHtml(lines), path);
      const pages = await pdfPages(path);
      pages.forEach((text, i) => {
        assert.match(
          text,
          new RegExp(`Page ${i + 1} of ${pages.length}\\s*$`),
          `${lines}: p${i + 1}`,
        );
      });
      const headerPage = pages.findIndex((t) => /Application\s+Shortfall cost/.test(t));
      const lastRowPage = pages.findIndex((t) => t.includes("Risky application 8"));
      assert.equal(lastRowPage, headerPage, `${lines} lines: the table on one page`);
      if (pages.length > 1) straddled++;
    }
    assert.ok(straddled > 0, "some of the summaries run over a page");
  });
});
