/**
 * Visual checks of the HTML and PDF layout: every report, and a document of hostile data, is
 * rendered and loaded into Chromium at A4-landscape and A4-portrait widths (screen and print
 * media), and its layout is measured in the page: no table wider than its section (no clipped
 * columns), no cell whose text overflows it, a visible heading for every section, the cover's
 * generated-at time and data source on show. The PDFs are rasterised with pdftoppm (every page
 * has ink in its body band, not only the running header and footer) and read with pdftotext
 * (each page's footer says "Page i of N"). The checks themselves are shown to fail on a broken
 * page, a blank page and an unstamped PDF. The markup the stylesheet's layout relies on (page
 * breaks, column widths, subtotal lines, row groups) is pinned too.
 *
 * The rendered files go to a temp folder, removed afterwards; set `SAMKIT_VISUAL_OUT=./out/visual`
 * to keep them there and look at them.
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "puppeteer-core";
import { API_REPORTS, FLAGSHIP_REPORTS } from "../../reports/mod.ts";
import {
  htmlChunks,
  HtmlRenderer,
  LONG_SECTION_ROWS,
  renderHtmlString,
} from "../../lib/render/html.ts";
import { PdfRenderer, PrintTab } from "../../lib/render/pdf.ts";
import { formatDateTime } from "../../lib/render/format.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { withServer } from "../helpers/server.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { closeTestBrowser, runReportForTest, testBrowser } from "../helpers/run_report.ts";

const decoder = new TextDecoder();

// ---------------------------------------------------------------------------------------------
// Measuring a page

/** A4 widths in CSS pixels (96 per inch): the whole sheet, and inside the stylesheet's margins. */
const A4 = {
  landscape: { sheet: 1123, content: 1017 },
  portrait: { sheet: 794, content: 688 },
} as const;

/** What {@link measure} finds in a loaded report. */
interface Layout {
  /** The viewport width and the document's scroll width (wider: something sticks out). */
  readonly viewport: number;
  readonly scrollWidth: number;
  /** Tables wider than their container. */
  readonly wideTables: { section: string; table: number; container: number }[];
  /** Cells whose content is wider than the cell. */
  readonly overflowingCells: { section: string; text: string; content: number; box: number }[];
  /** Every section that is not a continuation, with its heading when visible. */
  readonly sections: { id: string; heading: string | null }[];
  /** The cover's facts by label (`Generated`, `Data source`, …), when visible. */
  readonly cover: Record<string, string> | null;
  /** How many data cells were measured. */
  readonly cells: number;
}

/**
 * Runs in the page (serialised by Puppeteer, so it uses nothing from this module). `document` is
 * reached through `globalThis` because Deno type-checks this file without the DOM library.
 */
function measureInPage(): Layout {
  // deno-lint-ignore no-explicit-any
  const doc = (globalThis as any).document;
  // deno-lint-ignore no-explicit-any
  type El = any;
  const visible = (el: El) => {
    if (!el) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 &&
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  const text = (el: El) => String(el.textContent ?? "").replace(/\s+/g, " ").trim();
  const sectionOf = (el: El) => el.closest("section")?.id || el.closest("section")?.className || "";
  const wideTables = [];
  const overflowingCells = [];
  let cells = 0;
  for (const table of doc.querySelectorAll("table")) {
    const container = table.parentElement;
    if (table.scrollWidth > container.clientWidth + 1) {
      wideTables.push({
        section: sectionOf(table),
        table: table.scrollWidth,
        container: container.clientWidth,
      });
    }
    for (const cell of table.querySelectorAll("td, th")) {
      cells++;
      if (cell.scrollWidth > cell.clientWidth + 1) {
        overflowingCells.push({
          section: sectionOf(cell),
          text: text(cell).slice(0, 60),
          content: cell.scrollWidth,
          box: cell.clientWidth,
        });
      }
    }
  }
  const sections = [];
  for (const section of doc.querySelectorAll("section.report-section:not(.continued)")) {
    const h2 = section.querySelector("h2");
    sections.push({ id: section.id, heading: visible(h2) && text(h2) ? text(h2) : null });
  }
  let cover: Record<string, string> | null = null;
  const meta = doc.querySelector(".cover .cover-meta");
  if (visible(meta)) {
    cover = {};
    for (const item of meta.querySelectorAll("div")) {
      const dt = item.querySelector("dt");
      const dd = item.querySelector("dd");
      if (visible(dt) && visible(dd)) cover[text(dt)] = text(dd);
    }
  }
  return {
    viewport: doc.documentElement.clientWidth,
    scrollWidth: doc.documentElement.scrollWidth,
    wideTables,
    overflowingCells,
    sections,
    cover,
    cells,
  };
}

/**
 * The widths and media a report is measured at: the screen at both A4 widths, and print at the
 * width inside the margins of the pages it prints on (a portrait document's wide sections print
 * on landscape pages, so measuring them at the portrait width is the stricter check).
 */
function viewsOf(landscape: boolean): { name: string; width: number; media: "screen" | "print" }[] {
  return [
    { name: "screen at A4-landscape width", width: A4.landscape.sheet, media: "screen" },
    { name: "screen at A4-portrait width", width: A4.portrait.sheet, media: "screen" },
    landscape
      ? { name: "print on A4 landscape", width: A4.landscape.content, media: "print" }
      : { name: "print on A4 portrait", width: A4.portrait.content, media: "print" },
  ];
}

/** The HTML each page holds now: another view of it is laid out again, not loaded again. */
const loaded = new WeakMap<Page, string>();

/** Lays `html` out at a width and media type (loading it unless the page holds it), and measures it. */
async function measure(
  page: Page,
  html: string,
  view: { width: number; media: "screen" | "print" },
): Promise<Layout> {
  await page.setViewport({ width: view.width, height: 900 });
  await page.emulateMediaType(view.media);
  if (loaded.get(page) !== html) {
    loaded.delete(page);
    await page.setContent(html, { waitUntil: "load" });
    loaded.set(page, html);
  }
  return await page.evaluate(measureInPage);
}

/** Every layout fault of a measurement, as readable lines (none: the layout is sound). */
function layoutFaults(layout: Layout, expected: { titles: readonly string[] }): string[] {
  const faults: string[] = [];
  if (layout.scrollWidth > layout.viewport + 1) {
    faults.push(`page scrolls sideways: ${layout.scrollWidth}px in ${layout.viewport}px`);
  }
  for (const t of layout.wideTables) {
    faults.push(`table in ${t.section} is ${t.table}px in a ${t.container}px container`);
  }
  for (const c of layout.overflowingCells.slice(0, 10)) {
    faults.push(`cell "${c.text}" in ${c.section} needs ${c.content}px of ${c.box}px`);
  }
  if (layout.overflowingCells.length > 10) {
    faults.push(`… and ${layout.overflowingCells.length - 10} more overflowing cells`);
  }
  const headings = layout.sections.map((s) => s.heading);
  for (const s of layout.sections) {
    if (s.heading === null) faults.push(`section ${s.id} has no visible heading`);
  }
  if (JSON.stringify(headings) !== JSON.stringify(expected.titles)) {
    faults.push(
      `headings ${JSON.stringify(headings)}, expected ${JSON.stringify(expected.titles)}`,
    );
  }
  return faults;
}

// ---------------------------------------------------------------------------------------------
// Checking a PDF

async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} failed: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

/** A decoded binary PGM (P5, 8-bit) image. */
function parsePgm(bytes: Uint8Array): { width: number; height: number; pixels: Uint8Array } {
  // Header: "P5", width, height, maxval, each after whitespace; one whitespace byte before data.
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(bytes[i]))) i++;
    let field = "";
    while (!/\s/.test(String.fromCharCode(bytes[i]))) field += String.fromCharCode(bytes[i++]);
    fields.push(field);
  }
  const [magic, width, height, max] = [fields[0], Number(fields[1]), Number(fields[2]), fields[3]];
  if (magic !== "P5" || max !== "255") throw new Error(`not an 8-bit PGM: ${magic} ${max}`);
  const pixels = bytes.subarray(i + 1, i + 1 + width * height);
  if (pixels.length !== width * height) throw new Error("truncated PGM");
  return { width, height, pixels };
}

/**
 * The share of dark pixels in each page's body band (between 7% and 93% of the page height,
 * clear of the running header and the footer stamped on every page, about 14 mm from the edges),
 * rasterised by pdftoppm at 30 dpi in grey.
 */
async function bodyInk(pdf: string): Promise<number[]> {
  const dir = await Deno.makeTempDir({ prefix: "samkit-visual-" });
  try {
    await run("pdftoppm", ["-gray", "-r", "30", pdf, join(dir, "p")]);
    const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".pgm"))
      .sort();
    const shares: number[] = [];
    for (const name of files) {
      const { width, height, pixels } = parsePgm(await Deno.readFile(join(dir, name)));
      const top = Math.floor(height * 0.07);
      const bottom = Math.ceil(height * 0.93);
      let dark = 0;
      for (let y = top; y < bottom; y++) {
        for (let x = 0; x < width; x++) if (pixels[y * width + x] < 200) dark++;
      }
      shares.push(dark / (width * (bottom - top)));
    }
    return shares;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The least body ink a page must have: a heading, a few table rows or a "no data" box. */
const MIN_BODY_INK = 0.002;

/** Each page's text (pdftotext, layout kept). */
async function pageTexts(pdf: string): Promise<string[]> {
  const pages = (await run("pdftotext", ["-layout", pdf, "-"])).split("\f");
  if (pages.at(-1)?.trim() === "") pages.pop();
  return pages;
}

async function pageCount(pdf: string): Promise<number> {
  return Number(/^Pages:\s+(\d+)/m.exec(await run("pdfinfo", [pdf]))![1]);
}

/** Every fault of a printed PDF: blank pages, missing or wrong page numbers in the footers. */
async function pdfFaults(pdf: string): Promise<string[]> {
  const faults: string[] = [];
  const pages = await pageCount(pdf);
  const ink = await bodyInk(pdf);
  if (ink.length !== pages) faults.push(`pdftoppm made ${ink.length} images of ${pages} pages`);
  ink.forEach((share, i) => {
    if (share < MIN_BODY_INK) faults.push(`page ${i + 1} is blank (${share.toFixed(4)} ink)`);
  });
  const texts = await pageTexts(pdf);
  if (texts.length !== pages) faults.push(`pdftotext read ${texts.length} of ${pages} pages`);
  const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";
  if (!new RegExp(`Page ${pages} of ${pages}\\s*$`).test(lastLine(texts.at(-1) ?? ""))) {
    faults.push(`the last page's footer is "${lastLine(texts.at(-1) ?? "").trim()}"`);
  }
  texts.forEach((text, i) => {
    if (!new RegExp(`Page ${i + 1} of ${pages}\\b`).test(text)) {
      faults.push(`page ${i + 1} has no "Page ${i + 1} of ${pages}"`);
    }
  });
  return faults;
}

// ---------------------------------------------------------------------------------------------
// A document of hostile data

const LONG_WORD = "Unbroken".repeat(40); // 320 characters without a break opportunity
const HTML_TEXT = `<img src=x onerror=alert(1)><b>bold?</b> & "quotes" </td></tr></table>`;

function hostileDocument(): RenderDocument {
  const smallColumns: Column[] = [
    { key: "name", label: "Name", type: "text", width: 6 },
    { key: "note", label: HTML_TEXT, type: "text" },
    { key: "count", label: "Installations counted on every computer", type: "integer" },
    { key: "amount", label: "Amount", type: "currency" },
    { key: "share", label: "Share", type: "percent" },
    { key: "seen", label: "Seen", type: "datetime" },
    { key: "ok", label: "Reclaimable", type: "boolean" },
  ];
  const smallRows: Row[] = Array.from({ length: 40 }, (_, i) => ({
    name: i % 3 === 0 ? LONG_WORD : `Computer ${i} ${"α".repeat(i % 5)} שלום`,
    note: i % 2 === 0 ? HTML_TEXT : "a\nmulti-line\nnote",
    count: i === 0 ? 123_456_789_012 : i * 1_000,
    amount: i === 1 ? 987_654_321.98 : i * 12.5,
    currency: i % 2 === 0 ? "EUR" : "JPY",
    share: i / 40,
    seen: new Date(Date.UTC(2025, 0, 1 + i, 13, 45)),
    ok: i % 4 === 0,
  }));
  // One column per "state", as entitlement-state-by-computer builds them at run time.
  const states = Array.from({ length: 14 }, (_, i) => ({
    key: `s${i}`,
    label: i % 2 === 0
      ? `Licensed <via upgrade & downgrade> ${i}`
      : `State-${i}-ExtraordinarilyLong`,
  }));
  const wideColumns: Column[] = [
    { key: "host", label: "Computer", type: "text", width: 18 },
    ...states.map((s): Column => ({ key: s.key, label: s.label, type: "integer", width: 10 })),
    { key: "total", label: "Applications", type: "integer", width: 10 },
  ];
  const wideRows: Row[] = Array.from({ length: 30 }, (_, i) => ({
    host: i % 7 === 0 ? LONG_WORD : `HOST-${String(i).padStart(5, "0")}`,
    ...Object.fromEntries(states.map((s, j) => [s.key, (i * 37 + j * 101) % 100_000])),
    total: i * 1234,
  }));
  return {
    report: {
      id: "hostile",
      title: `Hostile <script>alert(1)</script> ${LONG_WORD}`,
      description: `${HTML_TEXT} ${LONG_WORD} `.repeat(3),
      landscape: false,
    },
    generatedAt: new Date("2025-06-30T12:00:00Z"),
    source: `https://sam.example.com/${"tenant-".repeat(30)}?q=<b>&x="y"`,
    params: { note: HTML_TEXT, token: LONG_WORD, when: new Date("2025-01-01T00:00:00Z") },
    summary: [
      { label: "Total cost (EUR)", value: 123_456_789_012.34, type: "currency", currency: "EUR" },
      { label: LONG_WORD, value: 42, type: "integer" },
      { label: HTML_TEXT, value: 0.5, type: "percent" },
      { label: "Computers", value: 400, type: "integer" },
      { label: "Oldest scan", value: new Date("2019-03-01T00:00:00Z"), type: "date" },
    ],
    sections: [
      memorySection({
        id: "small",
        title: `Cells that do not fit ${HTML_TEXT}`,
        description: LONG_WORD,
        columns: smallColumns,
        rows: smallRows,
        totals: { sum: ["count", "amount"], perCurrency: "currency" },
      }),
      memorySection({
        id: "grouped",
        title: "Grouped under long group names",
        columns: [
          { key: "group", label: "G", type: "text", width: 2 },
          { key: "n", label: "N", type: "integer", width: 3 },
          { key: "amount", label: "Amount", type: "currency", width: 8 },
        ],
        rows: Array.from({ length: 12 }, (_, i) => ({
          group: i < 6 ? LONG_WORD : HTML_TEXT,
          n: i,
          amount: 1_000_000 + i,
          currency: i % 2 === 0 ? "USD" : "CHF",
        })),
        group: { by: "group", label: LONG_WORD },
        totals: { sum: ["n", "amount"], perCurrency: "currency" },
      }),
      memorySection({
        id: "states",
        title: "One column per entitlement state",
        columns: wideColumns,
        rows: wideRows,
        totals: { sum: [...states.map((s) => s.key), "total"] },
      }),
      memorySection({
        id: "empty",
        title: "Nothing here",
        columns: [{ key: "x", label: "X", type: "text" }],
        rows: [],
        emptyText: HTML_TEXT,
      }),
    ],
    version: "0.0.0-test",
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** A rendered document to check. */
interface Rendered {
  readonly name: string;
  readonly html: string;
  readonly pdf?: string;
  readonly landscape: boolean;
  readonly titles: readonly string[];
  readonly generatedAt: Date;
  readonly source: string;
}

const rendered: Rendered[] = [];
let page: Page;
let dir: string;

/** Set to a folder to keep the rendered files there (to look at them); default: a temp folder. */
const KEEP_DIR = Deno.env.get("SAMKIT_VISUAL_OUT");

before(async () => {
  dir = KEEP_DIR ?? await Deno.makeTempDir({ prefix: "samkit-visual-test-" });
  if (KEEP_DIR) await Deno.mkdir(KEEP_DIR, { recursive: true });
  await withServer({ computers: 60 }, async (server) => {
    // The reports share what they read, as the reports of one pack do.
    const query = createQueryContext();
    // Reports of samkit's run history have no rows against an API server; their tests render them.
    for (const report of API_REPORTS) {
      const flagship = FLAGSHIP_REPORTS.includes(report.id);
      const run = await runReportForTest({
        server,
        report,
        formats: flagship ? ["html", "pdf"] : ["html"],
        dir: join(dir, report.id),
        query,
      });
      const doc = run.result.document;
      rendered.push({
        name: report.id,
        html: await Deno.readTextFile(run.file("html")),
        pdf: flagship ? run.file("pdf") : undefined,
        landscape: report.landscape ?? false,
        titles: doc.sections.map((s) => s.title),
        generatedAt: doc.generatedAt,
        source: doc.source,
      });
    }
  });
  const hostile = hostileDocument();
  const outDir = join(dir, "hostile");
  await Deno.mkdir(outDir, { recursive: true });
  const [html] = await new HtmlRenderer().render(hostile, { outDir });
  const [pdf] = await new PdfRenderer().render(hostile, { outDir, browser: testBrowser() });
  rendered.push({
    name: "hostile data",
    html: await Deno.readTextFile(html),
    pdf,
    landscape: false,
    titles: hostile.sections.map((s) => s.title),
    generatedAt: hostile.generatedAt,
    source: hostile.source,
  });
  page = await testBrowser().newPage();
});

/** Each rendered document measured once per view, whichever test asks first. */
const layouts = new Map<string, Promise<Layout>>();
function measured(doc: Rendered, view: ReturnType<typeof viewsOf>[number]): Promise<Layout> {
  const key = `${doc.name}|${view.name}`;
  let layout = layouts.get(key);
  if (!layout) layouts.set(key, layout = measure(page, doc.html, view));
  return layout;
}

after(async () => {
  await page?.close();
  await closeTestBrowser();
  if (dir && !KEEP_DIR) await Deno.remove(dir, { recursive: true });
});

describe("visual checks", () => {
  it("checks every report and the hostile document, PDFs of the flagships", () => {
    assert.deepEqual(rendered.map((r) => r.name), [
      ...API_REPORTS.map((r) => r.id),
      "hostile data",
    ]);
    assert.deepEqual(
      rendered.filter((r) => r.pdf).map((r) => r.name),
      [
        ...API_REPORTS.map((r) => r.id).filter((id) => FLAGSHIP_REPORTS.includes(id)),
        "hostile data",
      ],
    );
  });

  it("fits every table in its section with no overflowing cell and a heading per section", async () => {
    const faults: string[] = [];
    for (const doc of rendered) {
      for (const view of viewsOf(doc.landscape)) {
        const layout = await measured(doc, view);
        assert.ok(layout.cells > 0, `${doc.name}: no table cell measured`);
        faults.push(
          ...layoutFaults(layout, { titles: doc.titles }).map((f) =>
            `${doc.name}, ${view.name}: ${f}`
          ),
        );
      }
    }
    assert.deepEqual(faults, []);
  });

  it("shows the generated-at time and the data source on the cover", async () => {
    for (const doc of rendered) {
      for (const view of viewsOf(doc.landscape)) {
        const { cover } = await measured(doc, view);
        assert.ok(cover, `${doc.name}, ${view.name}: no visible cover facts`);
        assert.equal(cover["Generated"], formatDateTime(doc.generatedAt), doc.name);
        assert.equal(cover["Data source"], doc.source, doc.name);
      }
    }
  });

  it("prints PDFs with ink on every page and 'Page N of N' in the last footer", async () => {
    for (const doc of rendered.filter((r) => r.pdf)) {
      assert.deepEqual(await pdfFaults(doc.pdf!), [], doc.name);
    }
  });
});

describe("the markup the layout relies on", () => {
  const doc = (sections: ReturnType<typeof memorySection>[]): RenderDocument => ({
    ...hostileDocument(),
    sections,
  });
  const rowsOf = (n: number, group?: (i: number) => string): Row[] =>
    Array.from({ length: n }, (_, i) => ({ g: group ? group(i) : "all", n: i, t: `text ${i}` }));
  const columns: Column[] = [
    { key: "g", label: "Group", type: "text", width: 10 },
    { key: "t", label: "Text", type: "text", width: 20 },
    { key: "n", label: "Count", type: "integer", width: 6 },
  ];

  it("starts long sections on a new page and keeps short ones whole", async () => {
    const html = await renderHtmlString(doc([
      memorySection({ id: "short", title: "Short", columns, rows: rowsOf(LONG_SECTION_ROWS) }),
      memorySection({ id: "long", title: "Long", columns, rows: rowsOf(LONG_SECTION_ROWS + 1) }),
    ]));
    const classes = [...html.matchAll(/<section class="report-section([^"]*)"/g)].map((m) =>
      m[1].trim()
    );
    assert.deepEqual(classes, ["keep", "page-start"]);
  });

  it("gives every column its width and spare-width share, summing to the table's", async () => {
    const html = await renderHtmlString(doc([
      memorySection({
        id: "s",
        title: "S",
        columns: [...columns, { key: "x", label: "Reclaimable", type: "boolean" }],
        rows: rowsOf(2),
      }),
    ]));
    const table =
      /<table class="data" style="--sum: ([\d.]+); --floors: ([\d.]+); --fit: ([\d.]+)cqi; --fit-floors: ([\d.]+)cqi">/
        .exec(html);
    assert.ok(table, "table with --sum, --floors, --fit and --fit-floors");
    const cols = [
      ...html.matchAll(
        /<col style="--w: ([\d.]+); --f: ([\d.]+); --k: ([\d.]+); --share: ([\d.]+)">/g,
      ),
    ].map((m) => [Number(m[1]), Number(m[4]), Number(m[2]), Number(m[3])]);
    // Every column's floor is at most its width, the floors add up to the table's, and the
    // shares of the room above the floors add up to 1.
    const floors = cols.reduce((a, [, , f]) => a + f, 0);
    assert.ok(Math.abs(floors - Number(table[2])) < 0.01, `${floors} vs ${table[2]}`);
    assert.ok(cols.every(([w, , f]) => f <= w + 1e-9), "floors within widths");
    const room = cols.reduce((a, [, , , k]) => a + k, 0);
    assert.ok(Math.abs(room - 1) < 0.001 || room === 0, `room shares sum to ${room}`);
    // Width hints plus padding, a text column no wider than its longest line ("all" under
    // "Group", "text 1"); the boolean column is as wide as its label's word "Reclaimable".
    assert.deepEqual(cols.map(([w]) => Math.round(w)), [7, 9, 8, 13]);
    const sum = cols.reduce((a, [w]) => a + w, 0);
    assert.ok(Math.abs(sum - Number(table[1])) < 0.01, `${sum} vs ${table[1]}`);
    const shares = cols.reduce((a, [, share]) => a + share, 0);
    assert.ok(Math.abs(shares - 1) < 0.001, `shares sum to ${shares}`);
    // Text columns take more of the spare width per character than numbers.
    assert.ok(cols[1][1] / cols[1][0] > cols[2][1] / cols[2][0]);
  });

  it("prints no subtotal lines when the totals sum nothing, and keeps the group headers", async () => {
    const group = (i: number) => (i < 3 ? "A" : "B");
    const html = await renderHtmlString(doc([
      memorySection({
        id: "none",
        title: "None",
        columns,
        rows: rowsOf(5, group),
        group: { by: "g" },
        totals: { sum: [] },
      }),
      memorySection({
        id: "nospec",
        title: "No spec",
        columns,
        rows: rowsOf(5, group),
        group: { by: "g" },
      }),
      memorySection({
        id: "sums",
        title: "Sums",
        columns,
        rows: rowsOf(5, group),
        group: { by: "g" },
        totals: { sum: ["n"] },
      }),
    ]));
    const parts = html.split('<section class="report-section').slice(1);
    assert.equal(parts.length, 3);
    for (const part of parts) assert.equal(part.match(/<tr class="group-head">/g)?.length, 2);
    assert.equal(parts[0].includes('class="subtotal"'), false);
    assert.equal(parts[1].includes('class="subtotal"'), false);
    assert.equal(parts[2].match(/<tr class="subtotal">/g)?.length, 2);
  });

  it("puts at most 20 rows in a row group, and each display group in its own", async () => {
    const html = await renderHtmlString(doc([
      memorySection({ id: "s", title: "S", columns, rows: rowsOf(45) }),
      memorySection({
        id: "g",
        title: "G",
        columns,
        rows: rowsOf(30, (i) => (i < 25 ? "A" : "B")),
        group: { by: "g" },
      }),
    ]));
    const [plain, grouped] = html.split('<section class="report-section').slice(1).map((part) =>
      part.split("<tbody>").slice(1).map((body) =>
        body.match(/<tr class="(odd|even)">/g)?.length ?? 0
      )
    );
    assert.deepEqual(plain, [20, 20, 5]);
    assert.deepEqual(grouped, [20, 5, 5]);
  });

  it("keeps row groups of at most 20 rows, none empty, in streamed files and print chunks", async () => {
    const section = memorySection({
      id: "big",
      title: "Big",
      columns,
      rows: rowsOf(1234, (i) => `G${Math.floor(i / 70)}`),
      group: { by: "g" },
      totals: { sum: ["n"] },
    });
    const outDir = join(dir, "row-groups");
    await Deno.mkdir(outDir, { recursive: true });
    const [file] = await new HtmlRenderer().render(doc([section]), { outDir });
    const chunks: string[] = [];
    for await (const chunk of htmlChunks(doc([section]), { rowsPerChunk: 333 })) {
      chunks.push(chunk.html);
    }
    for (const html of [await Deno.readTextFile(file), ...chunks]) {
      const data = html.slice(html.indexOf('<table class="data"')); // not the cover's tables
      const bodies = data.split("<tbody>").slice(1).map((body) =>
        body.slice(0, body.indexOf("</tbody>")).match(/<tr class="(odd|even)">/g)?.length ?? 0
      );
      assert.ok(bodies.length > 0);
      assert.ok(bodies.every((n) => n >= 1 && n <= 20), JSON.stringify(bodies));
    }
    const total = chunks.join("").match(/<tr class="(odd|even)">/g)?.length;
    assert.equal(total, 1234);
  });
});

describe("the visual checks themselves", () => {
  it("find a clipped table, an overflowing cell and a section without a heading", async () => {
    const html = `<!doctype html><html><body style="margin:0">
      <div class="cover"><dl class="cover-meta"><div><dt>Generated</dt><dd>now</dd></div></dl></div>
      <section class="report-section" id="section-1-a" style="width:300px">
        <h2>A</h2>
        <table class="data" style="width:600px"><tr><td>wide</td></tr></table>
      </section>
      <section class="report-section" id="section-2-b" style="width:300px">
        <h2 style="display:none">B</h2>
        <table class="data" style="table-layout:fixed;width:100px"><tr>
          <td style="white-space:nowrap;width:50px">123,456,789,012.00</td><td>x</td>
        </tr></table>
      </section></body></html>`;
    const layout = await measure(page, html, { width: A4.portrait.content, media: "screen" });
    assert.deepEqual(layout.wideTables.map((t) => t.section), ["section-1-a"]);
    assert.deepEqual(layout.overflowingCells.map((c) => c.text), ["123,456,789,012.00"]);
    assert.deepEqual(layout.sections, [
      { id: "section-1-a", heading: "A" },
      { id: "section-2-b", heading: null },
    ]);
    assert.deepEqual(layout.cover, { Generated: "now" });
    const faults = layoutFaults(layout, { titles: ["A", "B"] });
    assert.equal(faults.length, 4, faults.join("\n")); // table, cell, heading, heading list
  });

  it("find a blank page and a missing page number in an unstamped PDF", async () => {
    const tab = new PrintTab(testBrowser());
    try {
      const { bytes } = await tab.print(
        `<p style="margin-top:80mm">A page with a line of text.</p>` +
          `<div style="break-before:page"></div>`,
      );
      const pdf = join(dir, "unstamped.pdf");
      await Deno.writeFile(pdf, bytes);
      assert.equal(await pageCount(pdf), 2);
      const ink = await bodyInk(pdf);
      assert.ok(ink[0] > 0, `a line of text: ${ink[0]}`);
      assert.equal(ink[1], 0);
      const faults = await pdfFaults(pdf);
      assert.ok(faults.includes(`page 2 is blank (0.0000 ink)`), faults.join("\n"));
      assert.ok(faults.some((f) => f.startsWith("the last page's footer")), faults.join("\n"));
      assert.ok(faults.includes(`page 1 has no "Page 1 of 2"`), faults.join("\n"));
    } finally {
      await tab.close();
    }
  });
});
