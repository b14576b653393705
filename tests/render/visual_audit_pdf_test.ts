/**
 * Printed pages as a reader meets them, found by auditing the built-in reports: a section's
 * heading is never the last thing on a page with its chart and table on the next (a short section
 * after a table without totals used to leave "Exposure by publisher (EUR)" and its sentence at the
 * foot of a page), and a bar's value is printed whole however long the amount is.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { contentsLines, pdfPages } from "./pdf_read.ts";
import { PdfRenderer } from "../../lib/render/pdf.ts";
import { usePrintBrowser } from "./print_browser.ts";

const print = usePrintBrowser("samkit-visual-audit-pdf-");

function document(sections: RenderDocument["sections"]): RenderDocument {
  return {
    report: {
      id: "audit",
      title: "Audit of pages",
      description: "Pages as read.",
      landscape: true,
    },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "test",
    params: {},
    summary: [{ label: "Rows", value: 1, type: "integer" }],
    sections,
    version: "test",
  };
}

const FILLER_COLUMNS: Column[] = [
  { key: "name", label: "Publisher name", type: "text" },
  { key: "n", label: "Count", type: "integer" },
];

/** A table without totals, of `count` rows. */
function filler(id: string, count: number) {
  const rows: Row[] = Array.from({ length: count }, (_, n) => ({ name: `${id} row ${n}`, n }));
  return memorySection({ id, title: `Filler ${id}`, columns: FILLER_COLUMNS, rows });
}

/** A short section with a bar chart and a table with totals, as the exposure sections are. */
function exposure(id: string, amounts: readonly (number | null)[]) {
  const rows: Row[] = amounts.map((amount, n) => ({
    publisher: `Vendor ${id}-${n}`,
    cost: amount,
    currency: "CHF",
  }));
  return memorySection({
    id,
    title: `Exposure ${id}`,
    description: "Shortfall cost per publisher, in one currency only.",
    columns: [
      { key: "publisher", label: "Vendor", type: "text" },
      { key: "cost", label: "Shortfall cost", type: "currency", currencyKey: "currency" },
    ],
    rows,
    totals: { sum: ["cost"], perCurrency: "currency" },
    chart: { type: "bar", title: `Cost chart ${id}`, label: "publisher", value: "cost" },
  });
}

/** A section with a stacked bar of two halves of `half` each, in CHF. */
function stacked(id: string, half: number) {
  return memorySection({
    id,
    title: `Stacked ${id}`,
    columns: [
      { key: "item", label: "Item", type: "text" },
      { key: "a", label: "First half", type: "currency", currencyKey: "currency" },
      { key: "b", label: "Second half", type: "currency", currencyKey: "currency" },
    ],
    rows: [{ item: "Total of halves", a: half, b: half, currency: "CHF" }],
    chart: {
      type: "stackedBar",
      title: `Halves ${id}`,
      label: "item",
      segments: [{ key: "a", label: "First" }, { key: "b", label: "Second" }],
      currency: "currency",
    },
  });
}

/**
 * Section headings printed on a page that holds nothing of the section after its heading, its
 * rows-line and its sentence: the page where `title` is a whole line, without the section's
 * `body` text (its chart title or its table's first column label) below it.
 */
function strandedHeadings(
  pages: readonly string[],
  sections: readonly { title: string; body: string }[],
): string[] {
  const out: string[] = [];
  for (const { title, body } of sections) {
    pages.forEach((page, i) => {
      const lines = page.split("\n").map((l) => l.trim());
      const at = lines.indexOf(title);
      if (at === -1) return;
      if (!lines.slice(at + 1).some((l) => l.includes(body))) out.push(`${title} (page ${i + 1})`);
    });
  }
  return out;
}

describe("PDF pages found wrong by the visual audit", () => {
  it("prints no section heading alone at a page's foot after a table without totals", async () => {
    // A landscape page holds a kept table of 19 or 20 rows and the next section's heading and
    // sentence, not its chart and table: the heading used to stay behind on its own.
    for (const n of [19, 20]) {
      const pages = await pdfPages(
        await print.render(document([filler("f", n), exposure("x", [1_200, 800, 300])])),
      );
      assert.ok(pages.some((p) => p.includes("Cost chart x")), `${n} rows: the chart is printed`);
      assert.deepEqual(
        strandedHeadings(pages, [{ title: "Exposure x", body: "Cost chart x" }]),
        [],
        `${n} rows before it`,
      );
    }
  });

  it("prints a bar's value whole, however long the amount", async () => {
    const big = 1_481_481_474;
    const pages = await pdfPages(
      await print.render(document([
        exposure("x", [big, 5]),
        stacked("s", 1_500_000_000),
      ])),
    );
    const text = pages.join("\n");
    // The amount is in the bar chart and in its row of the table.
    assert.equal(text.split("CHF 1,481,481,474.00").length - 1, 2, "bar chart and row");
    // The stacked bar's total is in its chart only (its table has the two halves).
    assert.equal(text.split("CHF 3,000,000,000.00").length - 1, 1, "stacked bar's total");
  });

  it("draws no bar chart whose every bar is 0 or blank, and a blank bar's value as —", async () => {
    const pages = await pdfPages(
      await print.render(document([
        exposure("z", [null, 0]),
        exposure("b", [500, null]),
      ])),
    );
    const text = pages.join("\n");
    assert.ok(text.includes("Exposure z"), "the section is printed");
    assert.ok(!text.includes("Cost chart z"), "no chart of nothing");
    const from = text.indexOf("Cost chart b");
    const chart = text.slice(from, text.indexOf("Shortfall cost", from));
    assert.match(chart, /Vendor b-1\s+—/, `the blank bar's value: ${chart}`);
  });

  it("says in the contents how many of a section's rows the PDF prints, not only the printed", async () => {
    const outDir = await Deno.makeTempDir({ dir: print.dir });
    const doc = document([filler("long", 8), filler("short", 2)]);
    const [path] = await new PdfRenderer({ detailRows: 3 }).render(doc, {
      outDir,
      browser: print.browser,
    });
    const pages = await pdfPages(path);
    const contents = contentsLines(pages);
    assert.deepEqual(contents.map((line) => line.title), ["Filler long", "Filler short"]);
    const text = pages.find((p) => /^\s*CONTENTS\s*$/m.test(p)) ?? "";
    assert.match(text, /Filler long\s.*\s3 of 8 rows\s/, "3 of its 8 rows are printed");
    assert.match(text, /Filler short\s.*\s2 rows\s/);
  });
});
