/**
 * No printed page holds a single row of a table: a table opens with at least two rows under its
 * header and ends with at least three above its totals (license-position printed one row and its
 * totals on a page of their own). Sections whose descriptions grow line by line put the table's
 * start, and so its end, at every height of a page.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { memorySection } from "../../lib/report/spool.ts";
import { pdfPages } from "./pdf_read.ts";
import { usePrintBrowser } from "./print_browser.ts";
import { sectionsDoc } from "./helpers.ts";

const print = usePrintBrowser("samkit-pdf-ends-");

const ROWS = 40;

function section(n: number) {
  return memorySection({
    id: `s${n}`,
    title: `Section ${n}`,
    description: "Words that fill the page before the table. ".repeat(12 * n),
    columns: [
      { key: "name", label: "Name", type: "text" },
      { key: "amount", label: "Amount", type: "currency" },
    ],
    rows: Array.from({ length: ROWS }, (_, r) => ({
      name: `s${n}-row${String(r).padStart(2, "0")}`,
      amount: r,
      currency: "EUR",
    })),
    totals: { sum: ["amount"], perCurrency: "currency" },
  });
}

describe("a printed table's first and last page", () => {
  it("holds more than one of its rows", async () => {
    const path = await print.render(
      sectionsDoc(Array.from({ length: 14 }, (_, n) => section(n + 2))),
    );
    const pages = await pdfPages(path);
    const lone = pages.flatMap((page, i) => {
      const rows = page.match(/\bs\d+-row\d\d\b/g) ?? [];
      return rows.length === 1 ? [`p${i + 1}: ${rows[0]}`] : [];
    });
    assert.deepEqual(lone, [], "pages holding one row of a table");
  });
});
