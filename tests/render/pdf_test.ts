import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { PdfPrintError, PdfRenderer, PrintTab } from "../../lib/render/pdf.ts";
import type { RenderDocument, RenderSection } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import { pdfOutline } from "./pdf_read.ts";
import type { Column, Row } from "../../lib/report/model.ts";

const decoder = new TextDecoder();

async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} failed: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

/** The text of each page (pdftotext, layout kept). */
async function pageTexts(path: string, first?: number, last?: number): Promise<string[]> {
  const range = first ? ["-f", String(first), "-l", String(last ?? first)] : [];
  const text = await run("pdftotext", ["-layout", ...range, path, "-"]);
  const pages = text.split("\f");
  if (pages.at(-1)?.trim() === "") pages.pop();
  return pages;
}

async function pdfinfoPages(path: string): Promise<number> {
  const info = await run("pdfinfo", [path]);
  return Number(/^Pages:\s+(\d+)/m.exec(info)![1]);
}

const PRODUCT_COLUMNS: Column[] = [
  { key: "name", label: "Product", type: "text" },
  { key: "seats", label: "Seats", type: "integer" },
  { key: "cost", label: "Annual cost", type: "currency" },
  { key: "renewal", label: "Renewal", type: "date" },
];

function products(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `Product ${String(i + 1).padStart(5, "0")}`,
    seats: i + 1,
    cost: 10,
    currency: i % 2 === 0 ? "EUR" : "USD",
    renewal: new Date(Date.UTC(2025, i % 12, 1)),
  }));
}

function doc(sections: RenderSection[], title = "Licence costs"): RenderDocument {
  return {
    report: { id: "licence-costs", title, description: "What we pay for licences." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "http://127.0.0.1:8787 (reference server, seed 1)",
    params: { region: "EMEA" },
    summary: [{ label: "Products", value: 3, type: "integer" }],
    sections,
    version: "0.1.0",
  };
}

let browser: BrowserHandle;
let dir = "";
before(async () => {
  browser = launchBrowser();
  dir = await Deno.makeTempDir({ prefix: "samkit-pdf-" });
});
after(async () => {
  await browser.close();
  await Deno.remove(dir, { recursive: true });
});

/** `run` on the first call only; later calls wait for that first run. */
function once(run: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= run());
}

describe("PdfRenderer", () => {
  it("prints title, totals and 'Page N of N' on the last page, untagged, with metadata", async () => {
    const out = await Deno.makeTempDir({ dir });
    const renderer = new PdfRenderer();
    const [path] = await renderer.render(
      doc([
        memorySection({
          id: "products",
          title: "Products",
          columns: PRODUCT_COLUMNS,
          rows: products(30),
          totals: { sum: ["seats", "cost"], perCurrency: "currency" },
        }),
      ]),
      { outDir: out, browser },
    );
    assert.equal(path, `${out}/licence-costs.pdf`);
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name), ["licence-costs.pdf"]);
    const pages = await pdfinfoPages(path);
    assert.equal(pages, renderer.stats!.pages);
    const texts = await pageTexts(path);
    assert.equal(texts.length, pages);
    assert.match(texts[0], /Licence costs/);
    assert.match(texts[0], /http:\/\/127\.0\.0\.1:8787 \(reference server, seed 1\)/);
    const last = texts[pages - 1];
    assert.match(last, new RegExp(`Page ${pages} of ${pages}`));
    assert.match(last, /Total EUR/);
    assert.match(last, /€150\.00/); // 15 EUR rows × 10
    assert.match(last, /\$150\.00/);
    texts.forEach((text, i) => assert.match(text, new RegExp(`Page ${i + 1} of ${pages}\\b`)));
    // The running header (title) is on every page but the cover.
    assert.match(texts[1].split("\n").find((l) => l.trim() !== "")!, /Licence costs/);

    const info = await run("pdfinfo", [path]);
    assert.match(info, /^Title:\s+Licence costs$/m);
    assert.match(info, /^Creator:\s+samkit$/m);
    assert.match(info, /^Tagged:\s+no$/m);
    assert.match(info, /^CreationDate:.*2024/m);
  });

  it("prints long documents in chunks, numbered over the whole document, with an outline", async () => {
    const renderer = new PdfRenderer({ pagesPerChunk: 4 });
    const [path] = await renderer.render(
      doc([
        memorySection({
          id: "products",
          title: "Products",
          columns: PRODUCT_COLUMNS,
          rows: products(700),
          totals: { sum: ["cost"], perCurrency: "currency" },
        }),
        memorySection({
          id: "vendors",
          title: "Vendors",
          columns: [{ key: "v", label: "Vendor", type: "text" }],
          rows: [{ v: "Contoso" }, { v: "Fabrikam" }],
        }),
      ]),
      { outDir: dir, browser },
    );
    const stats = renderer.stats!;
    assert.ok(stats.chunks >= 3, `chunks: ${stats.chunks}`);
    const pages = await pdfinfoPages(path);
    assert.equal(pages, stats.pages);
    const texts = await pageTexts(path);
    texts.forEach((text, i) => assert.match(text, new RegExp(`Page ${i + 1} of ${pages}\\b`)));
    // Every row is there once, in order, across the chunks.
    const names = texts.join("\n").match(/Product \d{5}/g)!;
    assert.deepEqual(names, products(700).map((r) => r.name));

    const bookmarks = await pdfOutline(path);
    assert.deepEqual(bookmarks.map((b) => b.title), ["Cover and summary", "Products", "Vendors"]);
    assert.equal(bookmarks[0].page, 1);
    // A long section opens its page (heading right under the running header); a short one
    // follows the previous section on the same page, so its heading is somewhere on that page.
    assert.match(
      texts[bookmarks[1].page - 1],
      /^\s*Licence costs[^\n]*\n(\s*\n)*\s*Products/,
    );
    assert.match(texts[bookmarks[2].page - 1], /^\s*Vendors\s*$/m);
    assert.equal(bookmarks[2].page, pages); // the small last section on the last page
  });

  it("makes no request for hostile cell values, titles or parameters", async () => {
    let hits = 0;
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => {
        hits++;
        return new Response("x");
      },
    );
    const stop = once(() => server.shutdown());
    try {
      const origin = `http://127.0.0.1:${server.addr.port}`;
      const hostile = [
        `<img src=${origin}/img>`,
        `<script>fetch("${origin}/script")</script>`,
        `<link rel=stylesheet href=${origin}/css>`,
        `<iframe src="${origin}/frame"></iframe>`,
        `<div style="background:url(${origin}/bg)">x</div>`,
        `"><svg onload="fetch('${origin}/svg')">`,
      ];
      const renderer = new PdfRenderer();
      const [path] = await renderer.render(
        {
          ...doc(
            [
              memorySection({
                id: "evil",
                title: `Evil <img src=${origin}/section-title>`,
                description: `<style>@import url(${origin}/import);</style>`,
                columns: [{ key: "v", label: `<img src=${origin}/label>`, type: "text" }],
                rows: hostile.map((v) => ({ v })),
              }),
            ],
            `Report <img src=${origin}/title>`,
          ),
          params: { note: `<meta http-equiv="refresh" content="0;url=${origin}/refresh">` },
        },
        { outDir: dir, browser },
      );
      const text = (await pageTexts(path)).join("\n");
      assert.match(text, /<img src=http:\/\/127\.0\.0\.1:\d+\/img>/); // printed as text
      assert.match(text, /<script>fetch/);
      // Every request the document could make was made while it loaded, before it printed: the
      // server's shutdown waits for any still in flight, so the count is final.
      await stop();
      assert.equal(hits, 0);
      assert.equal(renderer.stats!.blockedRequests, 0); // escaped: nothing even tried
    } finally {
      await stop();
    }
  });

  it("retries a chunk Chrome fails to print in halves", async () => {
    let calls = 0;
    const renderer = new PdfRenderer({
      rowsPerChunk: 120,
      printPdf: async (page, options) => {
        calls++;
        // The first call prints the rows (the cover is printed after them).
        if (calls === 1) throw new Error("Protocol error (Page.printToPDF): Printing failed");
        return await page.pdf(options);
      },
    });
    const [path] = await renderer.render(
      doc([
        memorySection({
          id: "products",
          title: "Products",
          columns: PRODUCT_COLUMNS,
          rows: products(100),
          totals: { sum: ["cost"], perCurrency: "currency" },
        }),
      ]),
      { outDir: dir, browser },
    );
    assert.equal(renderer.stats!.splits, 1);
    assert.equal(renderer.stats!.chunks, 3, "two halves and the cover");
    const texts = await pageTexts(path);
    const names = texts.join("\n").match(/Product \d{5}/g)!;
    assert.deepEqual(names, products(100).map((r) => r.name));
    assert.match(texts.at(-1)!, /Total EUR/);
    assert.match(texts.at(-1)!, new RegExp(`Page ${texts.length} of ${texts.length}`));
    assert.deepEqual((await pdfOutline(path)).map((b) => b.title), [
      "Cover and summary",
      "Products",
    ]);
  });

  it("fails with PdfPrintError and writes nothing when even one row cannot print", async () => {
    const out = await Deno.makeTempDir({ dir });
    const renderer = new PdfRenderer({
      rowsPerChunk: 10,
      printPdf: () => Promise.reject(new Error("Printing failed")),
    });
    await assert.rejects(
      renderer.render(
        doc([
          memorySection({ id: "p", title: "P", columns: PRODUCT_COLUMNS, rows: products(2) }),
        ]),
        { outDir: out, browser },
      ),
      PdfPrintError,
    );
    assert.deepEqual([...Deno.readDirSync(out)], []);
  });

  it("stops when aborted and writes nothing", async () => {
    const out = await Deno.makeTempDir({ dir });
    const controller = new AbortController();
    const renderer = new PdfRenderer({
      rowsPerChunk: 20,
      printPdf: async (page, options) => {
        controller.abort(new Error("cancelled"));
        return await page.pdf(options);
      },
    });
    await assert.rejects(
      renderer.render(
        doc([
          memorySection({ id: "p", title: "P", columns: PRODUCT_COLUMNS, rows: products(100) }),
        ]),
        { outDir: out, browser, signal: controller.signal },
      ),
      /cancelled/,
    );
    assert.deepEqual([...Deno.readDirSync(out)], []);
  });

  it("prints a 1,500-page document in chunks with the right page count and outline", async () => {
    // About 40 rows fit an A4 page. Measured: 1,542 pages in 20 chunks in 15-22 s on 2 cores
    // (Chrome's printing is three quarters of it); slower when the machine is busy.
    const rows = Array.from({ length: 61_000 }, (_, i) => ({ n: i + 1, code: `C${i + 1}` }));
    const renderer = new PdfRenderer();
    const started = performance.now();
    const [path] = await renderer.render(
      doc([
        memorySection({
          id: "numbers",
          title: "Numbers",
          columns: [
            { key: "n", label: "N", type: "integer" },
            { key: "code", label: "Code", type: "text" },
          ],
          rows,
          totals: { sum: ["n"] },
        }),
      ], "Long report"),
      { outDir: dir, browser },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const stats = renderer.stats!;
    console.log(
      `1,500-page test: ${stats.pages} pages, ${stats.chunks} chunks, ${seconds} s`,
      stats.timings,
    );
    const pages = await pdfinfoPages(path);
    assert.ok(pages >= 1_500, `pages: ${pages}`);
    assert.equal(pages, stats.pages);
    assert.ok(stats.chunks >= 10, `chunks: ${stats.chunks}`);
    const [last] = await pageTexts(path, pages);
    assert.match(last, new RegExp(`Page ${pages} of ${pages}`));
    assert.match(last, /61,000/); // the last row
    assert.match(last, /Total/);
    const [middle] = await pageTexts(path, 1000);
    assert.match(middle, new RegExp(`Page 1000 of ${pages}`));
    const bookmarks = await pdfOutline(path);
    assert.deepEqual(bookmarks.map((b) => b.title), ["Cover and summary", "Numbers"]);
    assert.equal(bookmarks[1].page, 3); // cover, summary, then the section
  });
});

describe("PrintTab", () => {
  it("aborts every request of raw HTML and runs no script", async () => {
    let hits = 0;
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
      hits++;
      return new Response("body{}", { headers: { "content-type": "text/css" } });
    });
    const stop = once(() => server.shutdown());
    const tab = new PrintTab(browser);
    try {
      const origin = `http://127.0.0.1:${server.addr.port}`;
      const html = `<!doctype html><html><head>
        <link rel="stylesheet" href="${origin}/a.css">
        <style>@import url("${origin}/b.css"); body { background: url(${origin}/bg.png) }</style>
        </head><body>
        <p>hello</p>
        <img src="${origin}/img.png">
        <iframe src="${origin}/frame.html"></iframe>
        <script>document.body.innerHTML = "SCRIPT RAN"; fetch("${origin}/fetch");</script>
        </body></html>`;
      const { bytes } = await tab.print(html);
      const path = await Deno.makeTempFile({ dir, suffix: ".pdf" });
      await Deno.writeFile(path, bytes);
      const text = (await pageTexts(path)).join("\n");
      assert.match(text, /hello/);
      assert.doesNotMatch(text, /SCRIPT RAN/);
      await stop(); // waits for any request still in flight: the count is final
      assert.equal(hits, 0);
      assert.ok(tab.blockedRequests >= 4, `blocked: ${tab.blockedRequests}`);
    } finally {
      await tab.close();
      await stop();
    }
  });
});
