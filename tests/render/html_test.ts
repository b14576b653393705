import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { basename } from "node:path";
import {
  capCellText,
  htmlChunks,
  HtmlRenderer,
  MAX_CELL_CHARS,
  renderHtmlString,
} from "../../lib/render/html.ts";
import { memorySection, spoolSection } from "../../lib/report/spool.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { demoDocument, demoSections, HOSTILE } from "./fixtures.ts";
import { failingSection, listDir, removeTempDirs, tempDir } from "./helpers.ts";

after(removeTempDirs);

async function renderDemo(doc = demoDocument()) {
  const outDir = await tempDir();
  const files = await new HtmlRenderer().render(doc, { outDir });
  return { outDir, files, html: await Deno.readTextFile(files[0]) };
}

/** The text content of the rows of a given class, cells joined by "|". */
function rowsOfClass(html: string, cls: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<tr class="${cls}">([\\s\\S]*?)</tr>`, "g");
  for (const match of html.matchAll(re)) {
    const cells = [...match[1].matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((m) =>
      m[1].replace(/<[^>]+>/g, "").trim()
    );
    out.push(cells.join("|"));
  }
  return out;
}

/** Data rows (zebra classes). */
function dataRows(html: string): string[] {
  return [...rowsOfClass(html, "even"), ...rowsOfClass(html, "odd")];
}

describe("HtmlRenderer", () => {
  it("writes <report-id>.html and leaves no temp file", async () => {
    const { files, outDir } = await renderDemo();
    assert.equal(basename(files[0]), "license-audit.html");
    assert.deepEqual(await listDir(outDir), ["license-audit.html"]);
  });

  it("escapes hostile strings from rows and parameters so they render as text", async () => {
    const { html } = await renderDemo();
    assert.equal(/<script/i.test(html), false, "no script element");
    assert.equal(/<img/i.test(html), false, "no img element");
    const escape = (text: string) =>
      text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
        .replaceAll('"', "&quot;").replaceAll("=", "&#x3D;");
    for (const hostile of Object.values(HOSTILE)) {
      assert.ok(html.includes(escape(hostile)), hostile);
    }
    assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert.ok(html.includes("&lt;img src&#x3D;http://evil.example/x&gt;"));
    assert.ok(html.includes("He said &quot;hi&quot;, then left"));
  });

  it("makes no external reference of any kind", async () => {
    const { html } = await renderDemo();
    // No attribute points anywhere but a fragment of the document itself.
    const attributes = [...html.matchAll(/\s([a-z:-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)];
    assert.ok(attributes.length > 10);
    for (const [, name, raw] of attributes) {
      const value = raw.replace(/^["']|["']$/g, "");
      assert.equal(
        /^(src|srcset|action|formaction|poster|data|xlink:href)$/i.test(name),
        false,
        name,
      );
      if (name.toLowerCase() === "href") assert.match(value, /^#/);
      assert.equal(/(https?:|\/\/)/i.test(value), false, `${name}=${value}`);
    }
    assert.equal(/src\s*=/i.test(html), false);
    assert.equal(/url\(/i.test(html), false);
    assert.equal(/@import/i.test(html), false);
    assert.equal(/<(link|script|iframe|object|embed|img|image)\b/i.test(html), false);
    // The content security policy forbids every fetch even if something slipped through.
    assert.ok(html.includes(`content="default-src 'none'; style-src 'unsafe-inline'"`));
    // The only URL-looking text is the data source, as text on the cover.
    const urls = [...html.matchAll(/https?:\/\/[^\s<"]+/g)].map((m) => m[0]);
    assert.deepEqual([...new Set(urls)], ["http://127.0.0.1:8787", "http://evil.example/x&gt;"]);
  });

  it("shows the cover facts of a tiny fixed document", async () => {
    const { html } = await renderDemo();
    for (
      const text of [
        "<title>Licence position audit</title>",
        "<h1>Licence position audit</h1>",
        "Which products are over- or under-licensed, and what they cost per year.",
        "May 1, 2024, 08:30 UTC",
        "http://127.0.0.1:8787 (reference server, seed 1)",
        "<code>license-audit</code>",
        "samkit 0.1.0",
        '<tr><th scope="row">asOf</th><td>May 1, 2024</td></tr>',
        '<tr><th scope="row">top</th><td>10</td></tr>',
        "$442,200.50",
        "€37,050.55",
        "87.3%",
        "1,284",
      ]
    ) assert.ok(html.includes(text), text);
    // Cover, then summary, then contents, then the sections in order.
    const order = [
      'class="cover"',
      'class="summary"',
      'class="toc"',
      "<h2>Licence cost by publisher</h2>",
      "<h2>Computers</h2>",
      "<h2>Quarantined computers</h2>",
    ].map((marker) => html.indexOf(marker));
    assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), String(order));
    assert.ok(html.includes('<a href="#section-1-license-cost">'));
    assert.ok(html.includes('id="section-1-license-cost"'));
  });

  it("computes group subtotals and totals per currency", async () => {
    const { html } = await renderDemo();
    // A totals label spans the empty cells after it (read here as one cell).
    assert.match(html, /<td class="label" colspan="2">Subtotal USD · 2 rows<\/td>/);
    assert.deepEqual(rowsOfClass(html, "group-head"), [
      "Publisher Adobe",
      "Publisher Atlassian",
      "Publisher Microsoft",
    ]);
    assert.deepEqual(rowsOfClass(html, "subtotal"), [
      "Subtotal USD · 2 rows|160|169||$53,400.50||",
      "Subtotal EUR · 2 rows|500|556||€30,750.35||",
      // Microsoft's rows are one per currency: a subtotal of one row would repeat it.
    ]);
    assert.deepEqual(rowsOfClass(html, "total"), [
      "Total EUR · 3 rows|535|577||€37,050.55||",
      "Total USD · 3 rows|1,060|1,349||$442,200.50||",
      "Total EUR · 2 rows|€5,799.99|",
      "Total USD · 2 rows|$0.30|",
    ]);
  });

  it("formats cells by type, right-aligns numbers and marks emphasis", async () => {
    const { html } = await renderDemo();
    assert.ok(html.includes('<td class="num bad">76.3%</td>'));
    assert.ok(html.includes('<td class="num warn">91.6%</td>'));
    assert.ok(html.includes('<td class="num">105.0%</td>'));
    assert.ok(html.includes('<td class="date">Sep 30, 2024</td>'));
    assert.ok(html.includes('<td class="date none">—</td>'));
    assert.ok(html.includes('<td class="bool">Yes</td>'));
    assert.ok(html.includes('<td class="date">Apr 30, 2024, 22:15 UTC</td>'));
    assert.ok(html.includes('<th scope="col" class="num">Annual cost</th>'));
  });

  it("cuts a cell past 2,000 characters with a visible mark giving its full length", async () => {
    const long = "A".repeat(99_990) + "TAIL-MARKER";
    const section = memorySection({
      id: "long",
      title: "Long",
      columns: [{ key: "note", label: "Note", type: "text" }, {
        key: "n",
        label: "N",
        type: "integer",
      }],
      rows: [{ note: long, n: 1 }, { note: "short", n: 2 }],
    });
    const { html } = await renderDemo(demoDocument([section]));
    const cells = dataRows(html).map((r) => r.split("|")[0]);
    assert.equal(cells[0], `${"A".repeat(MAX_CELL_CHARS)}… [truncated, 100,001 characters]`);
    assert.ok(!html.includes("TAIL-MARKER"));
    assert.ok(html.length < 20_000 + 2 * MAX_CELL_CHARS, `${html.length} characters of HTML`);
    assert.equal(cells[1], "short");
    assert.equal(capCellText("x".repeat(MAX_CELL_CHARS)), "x".repeat(MAX_CELL_CHARS));
  });

  it("formats with the locale it is given", async () => {
    const outDir = await tempDir();
    const [file] = await new HtmlRenderer().render(demoDocument(), { outDir, locale: "de-DE" });
    const html = await Deno.readTextFile(file);
    assert.ok(html.includes('<html lang="de">'));
    assert.ok(html.includes("388.800,00\u00a0$"));
    assert.ok(html.includes("30.09.2024"));
  });

  it("shows the no-data text for an empty section instead of a table", async () => {
    const { html } = await renderDemo();
    const at = html.indexOf("<h2>Quarantined computers</h2>");
    const rest = html.slice(at, html.indexOf("</section>", at));
    assert.ok(rest.includes('<p class="no-data">No data for these parameters.</p>'));
    assert.equal(rest.includes("<table"), false);
    const custom = demoSections()[2];
    const doc = demoDocument([memorySection({ ...custom, emptyText: "Nothing <quarantined>." })]);
    assert.ok((await renderHtmlString(doc)).includes("Nothing &lt;quarantined&gt;."));
  });

  it("draws the chart as inline SVG bars from the first rows", async () => {
    const { html } = await renderDemo();
    const svg = html.slice(html.indexOf("<svg"), html.indexOf("</svg>"));
    assert.equal((svg.match(/class="bar"/g) ?? []).length, 6);
    assert.equal(/xmlns|href|url\(/.test(svg), false);
    assert.ok(svg.includes(">Microsoft 365 E3</text>"));
    // The largest value gets the full bar area: from the labels' room to the values' (110 px).
    const bars = [...svg.matchAll(/class="bar" x="([\d.]+)" y="0" width="([\d.]+)"/g)]
      .map((m) => [Number(m[1]), Number(m[2])]);
    assert.equal(Math.max(...bars.map(([x, w]) => x + w)), 760 - 110);
    assert.ok(bars[0][0] < 230, "short labels leave the bars more room");
    assert.ok(html.includes("<figcaption>Annual cost (top products)</figcaption>"), "no note");
  });

  it("says which rows a bar chart draws when its table has more", async () => {
    const columns: Column[] = [
      { key: "os", label: "OS", type: "text" },
      { key: "n", label: "Servers", type: "integer" },
    ];
    const rows = Array.from({ length: 1300 }, (_, i) => ({ os: `OS ${i}`, n: 1300 - i }));
    const chart = { type: "bar" as const, title: "Servers per OS", label: "os", value: "n" };
    const section = memorySection({ id: "s", title: "S", columns, rows, chart });
    const html = await renderHtmlString(demoDocument([section]));
    assert.ok(html.includes("<figcaption>Servers per OS (first 10 of 1,300 rows)</figcaption>"));
    assert.equal((html.match(/class="bar"/g) ?? []).length, 10);
  });

  it("prints repeated table headers, unbroken rows, A4 pages and landscape for wide tables", async () => {
    const { html } = await renderDemo();
    assert.match(html, /thead\s*\{\s*display:\s*table-header-group/);
    assert.match(html, /tr\s*\{\s*break-inside:\s*avoid/);
    assert.match(html, /@page\s*\{\s*size:\s*A4 portrait;\s*margin:/);
    assert.match(html, /@page wide\s*\{\s*size:\s*A4 landscape/);
    const columns: Column[] = Array.from({ length: 10 }, (_, i) => ({
      key: `c${i}`,
      label: `C${i}`,
      type: "text",
    }));
    const wide = memorySection({ id: "w", title: "W", columns, rows: [{ c0: "x" }] });
    assert.ok((await renderHtmlString(demoDocument([wide]))).includes("report-section wide"));
    const landscape = demoDocument(undefined, {
      report: { id: "l", title: "L", description: "", landscape: true },
    });
    assert.match(await renderHtmlString(landscape), /<body class="screen landscape">/);
  });

  it("leaves no final file and no temp file when a row source fails", async () => {
    const outDir = await tempDir();
    const [cost, hosts] = demoSections().map(memorySection);
    await assert.rejects(
      new HtmlRenderer().render(demoDocument([cost, failingSection(hosts, 1)]), { outDir }),
      /row source failed/,
    );
    assert.deepEqual(await listDir(outDir), []);
  });

  it("streams a large spooled section with every row once and zebra classes", async () => {
    const dir = await tempDir();
    const rows: Row[] = Array.from({ length: 1200 }, (_, n) => ({ n, g: `G${Math.floor(n / 7)}` }));
    const section = await spoolSection({
      id: "big",
      title: "Big",
      columns: [{ key: "g", label: "G", type: "text" }, { key: "n", label: "N", type: "integer" }],
      rows,
      totals: { sum: ["n"] },
      group: { by: "g" },
    }, { dir });
    const { html } = await renderDemo(demoDocument([section]));
    assert.equal(dataRows(html).length, 1200);
    assert.equal(rowsOfClass(html, "odd").length, 600);
    assert.equal(rowsOfClass(html, "group-head").length, Math.ceil(1200 / 7));
    assert.deepEqual(rowsOfClass(html, "total"), ["Total · 1,200 rows|719,400"]);
    await section.dispose();
  });
});

describe("htmlChunks", () => {
  const columns: Column[] = [
    { key: "g", label: "Group", type: "text" },
    { key: "n", label: "N", type: "integer" },
  ];
  const rows: Row[] = Array.from({ length: 25 }, (_, n) => ({ g: n < 12 ? "A" : "B", n }));

  it("puts the cover first, cuts long sections and keeps every row exactly once", async () => {
    const doc = demoDocument([
      memorySection({
        id: "s",
        title: "Long",
        columns,
        rows,
        totals: { sum: ["n"] },
        group: { by: "g" },
      }),
      memorySection({ id: "e", title: "Empty", columns, rows: [] }),
    ]);
    const chunks = [];
    for await (const chunk of htmlChunks(doc, { rowsPerChunk: 10 })) chunks.push(chunk);
    assert.deepEqual(chunks.map((c) => [c.index, c.hasCover, c.rows, c.sections]), [
      [0, true, 10, [0]],
      [1, false, 10, [0]],
      [2, false, 5, [0, 1]],
    ]);
    for (const chunk of chunks) {
      assert.ok(chunk.html.startsWith("<!doctype html>"));
      assert.ok(chunk.html.trimEnd().endsWith("</html>"));
      assert.ok(chunk.html.includes('<body class="print">'));
      assert.equal(chunk.html.includes('class="colophon"'), false);
    }
    assert.ok(chunks[0].html.includes('class="cover"'));
    assert.equal(chunks[1].html.includes('class="cover"'), false);
    // One h2 per section across all chunks (one outline entry each).
    const h2 = chunks.flatMap((c) => [...c.html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1]));
    assert.deepEqual(h2, ["Long", "Empty"]);
    assert.ok(chunks[1].html.includes("Long <span>(continued)</span>"));
    // Every row once, in order.
    const ns = chunks.flatMap((c) => dataRows(c.html).map((r) => Number(r.split("|")[1])))
      .sort((a, b) => a - b);
    assert.deepEqual(ns, rows.map((r) => r.n));
    // Group A spans chunks 0 and 1: its header repeats as continued, its subtotal counts all 12.
    assert.deepEqual(rowsOfClass(chunks[1].html, "group-head"), [
      "Group A (continued)",
      "Group B",
    ]);
    assert.deepEqual(rowsOfClass(chunks[1].html, "subtotal"), ["Subtotal · 12 rows|66"]);
    assert.deepEqual(rowsOfClass(chunks[2].html, "subtotal"), ["Subtotal · 13 rows|234"]);
    // Totals only after the section's last row.
    assert.deepEqual(rowsOfClass(chunks[0].html, "total"), []);
    assert.deepEqual(rowsOfClass(chunks[2].html, "total"), ["Total · 25 rows|300"]);
    assert.ok(chunks[2].html.includes("No data for these parameters."));
  });

  it("packs small sections into one chunk", async () => {
    const doc = demoDocument();
    const chunks = [];
    for await (const chunk of htmlChunks(doc)) chunks.push(chunk);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0].sections, [0, 1, 2]);
  });
});

describe("renderHtmlString", () => {
  it("renders only the cover and summary when no section is asked for", async () => {
    const html = await renderHtmlString(demoDocument(), {
      forPrint: true,
      chunk: { rowStart: 0, rowEnd: 0, includeCover: true, includeSummary: true },
    });
    assert.ok(html.includes('class="cover"'));
    assert.ok(html.includes('class="summary"'));
    assert.equal(html.includes('<section class="report-section'), false);
  });

  it("renders a row range of one section with subtotals that count earlier rows", async () => {
    const section = memorySection({
      id: "s",
      title: "S",
      columns: [{ key: "g", label: "Group", type: "text" }, {
        key: "n",
        label: "N",
        type: "integer",
      }],
      rows: [{ g: "A", n: 1 }, { g: "A", n: 2 }, { g: "A", n: 3 }, { g: "B", n: 4 }],
      totals: { sum: ["n"] },
      group: { by: "g" },
    });
    const html = await renderHtmlString(demoDocument([section]), {
      chunk: {
        sectionIndex: 0,
        rowStart: 2,
        rowEnd: 3,
        includeCover: false,
        includeSummary: false,
      },
    });
    assert.deepEqual(dataRows(html), ["A|3"]);
    assert.deepEqual(rowsOfClass(html, "group-head"), ["Group A (continued)"]);
    assert.deepEqual(rowsOfClass(html, "subtotal"), ["Subtotal · 3 rows|6"]);
    assert.deepEqual(rowsOfClass(html, "total"), []);
    assert.equal(html.includes('class="cover"'), false);
    const tail = await renderHtmlString(demoDocument([section]), {
      chunk: {
        sectionIndex: 0,
        rowStart: 3,
        rowEnd: 99,
        includeCover: false,
        includeSummary: false,
      },
    });
    assert.deepEqual(dataRows(tail), ["B|4"]);
    assert.deepEqual(rowsOfClass(tail, "total"), ["Total · 4 rows|10"]);
  });

  it("renders the whole document when no chunk is given", async () => {
    const html = await renderHtmlString(demoDocument());
    assert.equal(dataRows(html).length, 10);
    assert.ok(html.includes('class="colophon"'));
  });
});
