/**
 * PDF pages as people read them, checked in the printed file: no header word broken across lines
 * however many columns a table has, ids whole, a chart and its title on one page, the contents
 * naming the page each section starts on (the one its bookmark opens), and a footer on every page
 * with the report, its scope (the organisation by name) and the page number.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { brokenHeaderWords, contentsLines, pdfOutline, pdfPages } from "./pdf_read.ts";
import { usePrintBrowser } from "./print_browser.ts";

const print = usePrintBrowser("samkit-pdf-pages-");

/** The label words of the wide table: long words a squeezed column used to break. */
const LABELS = [
  "Step",
  "Action",
  "Application",
  "Application id",
  "Metric",
  "Computer",
  "Computer id",
  "Organization",
  "Manufacturer",
  "Entitlements",
  "Requirement",
  "Reconciliation",
  "Installations",
  "License",
  "Currency",
  "Shortfall cost (unit price × shortfall)",
  "Surplus value (unit price × surplus)",
  "Requirement understated",
  "Harvestable",
  "Subscriptions",
];

function wideColumns(): Column[] {
  return LABELS.map((label, i): Column => {
    const key = `c${i}`;
    if (label === "License" || label.endsWith(" id")) {
      return { key, label, type: "text", width: 6 };
    }
    if (["Step", "Entitlements", "Requirement", "Installations"].includes(label)) {
      return { key, label, type: "integer" };
    }
    if (label.startsWith("Shortfall") || label.startsWith("Surplus")) {
      return { key, label, type: "currency" };
    }
    return { key, label, type: "text" };
  });
}

function wideRows(count: number): Row[] {
  return Array.from({ length: count }, (_, n) => {
    const row: Row = { currency: "USD" };
    wideColumns().forEach((c) => {
      row[c.key] = c.type === "integer"
        ? n * 1_234
        : c.type === "currency"
        ? n * 1_000.5
        : c.label === "License"
        ? `LIC${String(n).padStart(5, "0")}`
        : c.label.endsWith(" id")
        ? `APP${String(n).padStart(4, "0")}`
        : `${c.label.toLowerCase()} ${n}`;
    });
    return row;
  });
}

function document(sections: RenderDocument["sections"], extra: Partial<RenderDocument> = {}) {
  return {
    report: { id: "pages", title: "Pages as read", description: "How a reader meets them." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "test",
    params: {},
    summary: [{ label: "Rows", value: 1, type: "integer" as const }],
    sections,
    version: "test",
    ...extra,
  } satisfies RenderDocument;
}

describe("PDF pages as people read them", () => {
  it("breaks no header word across lines and wraps no id, in a table of 20 columns", async () => {
    const path = await print.render(document([
      memorySection({ id: "wide", title: "Wide", columns: wideColumns(), rows: wideRows(40) }),
    ]));
    const pages = await pdfPages(path);
    assert.deepEqual(brokenHeaderWords(pages, LABELS), []);
    const words = new Set(pages.join("\n").split(/\s+/));
    for (let n = 0; n < 40; n++) {
      const id = `LIC${String(n).padStart(5, "0")}`;
      assert.ok(words.has(id), `${id} whole`);
      assert.ok(words.has(`APP${String(n).padStart(4, "0")}`), `APP id ${n} whole`);
    }
  });

  it("names in the contents the page each section starts on, as its bookmark does", async () => {
    const rows = (count: number) => Array.from({ length: count }, (_, n) => ({ n, name: `x${n}` }));
    const columns: Column[] = [
      { key: "name", label: "Name", type: "text" },
      { key: "n", label: "N", type: "integer" },
    ];
    const path = await print.render(document([
      memorySection({ id: "long", title: "Long section", columns, rows: rows(300) }),
      memorySection({ id: "short", title: "Short section", columns, rows: rows(3) }),
      memorySection({ id: "empty", title: "Empty section", columns, rows: [] }),
      memorySection({ id: "second", title: "Second long section", columns, rows: rows(120) }),
    ]));
    const pages = await pdfPages(path);
    const contents = contentsLines(pages);
    const outline = await pdfOutline(path);
    assert.equal(contents.length, 4, JSON.stringify(contents));
    for (const line of contents) {
      const mark = outline.find((o) => o.title === line.title);
      assert.ok(mark, `a bookmark for ${line.title}`);
      assert.equal(line.page, mark.page, `${line.title}: contents say ${line.page}`);
      assert.ok(pages[mark.page - 1].includes(line.title), `${line.title} on page ${mark.page}`);
    }
    assert.ok(contents[3].page! > contents[0].page! + 3, "the long section runs over pages");
  });

  it("keeps a tall chart on the page of its title", async () => {
    const items = Array.from({ length: 60 }, (_, n) => ({
      item: `Item ${String(n + 1).padStart(2, "0")}`,
      value: 1_000 - n,
    }));
    const path = await print.render(document([
      memorySection({
        id: "chart",
        title: "Charted",
        description: "A chart taller than a page at the page's width.",
        columns: [
          { key: "item", label: "Item", type: "text" },
          { key: "value", label: "Value", type: "integer" },
        ],
        rows: items,
        chart: {
          type: "bar",
          title: "Sixty bars by value",
          label: "item",
          value: "value",
          top: 60,
        },
      }),
    ]));
    const pages = await pdfPages(path);
    const captioned = pages.findIndex((p) => p.includes("Sixty bars by value"));
    assert.ok(captioned >= 0, "the chart's title is printed");
    for (const bar of ["Item 01", "Item 60"]) {
      assert.ok(pages[captioned].includes(bar), `${bar} on the page of the chart's title`);
    }
  });

  it("says on every page which report, which scope and which page it is", async () => {
    const rows = Array.from({ length: 200 }, (_, n) => ({ n, name: `row ${n}` }));
    const path = await print.render(document([
      memorySection({
        id: "rows",
        title: "Rows",
        columns: [
          { key: "name", label: "Name", type: "text" },
          { key: "n", label: "N", type: "integer" },
        ],
        rows,
      }),
    ], {
      params: { organization: "ORG07" },
      scope: {
        parameters: [{
          name: "organization",
          description: "Organisation id",
          value: "ORG07",
          origin: "given",
          label: "Contoso EMEA / IT",
        }],
      },
    }));
    const pages = await pdfPages(path);
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    pages.forEach((text, i) => {
      const footer = text.trimEnd().split("\n").at(-1) ?? "";
      assert.match(footer, /Pages as read/, `the report on page ${i + 1}`);
      assert.match(footer, /Organisation: Contoso EMEA \/ IT \(ORG07\)/, `scope, page ${i + 1}`);
      assert.match(footer, new RegExp(`Page ${i + 1} of ${pages.length}\\s*$`));
    });
    // The cover states the organisation by name too.
    assert.match(pages[0], /Contoso EMEA \/ IT \(ORG07\)/);
  });
});
