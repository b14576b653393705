/**
 * The PDF renderer: the print layout of the HTML report, printed by a headless Chrome/Chromium
 * (`lib/render/browser.ts`) in chunks and assembled with pdf-lib (`lib/render/pdf_merge.ts`).
 *
 * How a document is printed:
 * - **Chunks.** Chrome fails ("Printing failed") near 1,000 pages in one `page.pdf` call and slows
 *   sharply past a few hundred, so long documents are cut by {@link htmlChunks} into HTML
 *   documents of about {@link PdfRendererOptions.pagesPerChunk} pages (default 100, the fastest
 *   size measured: about twice the pages per second of 250-page calls). A document of more rows
 *   than about 25 a page fill in one chunk has its rows per page estimated by printing a probe of
 *   the longest section first; a smaller one is printed whole. Every chunk is printed on the
 *   same browser tab. A chunk that Chrome still fails to print is split in halves and retried.
 * - **Isolation.** JavaScript is disabled while printing, request interception is on and every
 *   request is aborted (the HTML is loaded with `page.setContent`, so the document itself needs
 *   none; a theme's logo is a `data:` image inside it, the one URL let through): a cell holding `<img src=http://…>` or a stylesheet import can make no network
 *   request, and the browser talks to samkit over a pipe, not a port. Blocked requests are
 *   counted ({@link PdfRenderStats.blockedRequests}).
 * - **Cover last.** The cover and summary are printed on their own after the sections, with the
 *   page each section starts on in every line of the contents (from the named destinations of
 *   the printed sections); that print goes first. Those numbers count the cover's own pages,
 *   which are guessed and the cover printed again when the guess was wrong.
 * - **One tab per browser.** A render's tab is kept open for the next render on the same browser
 *   (`PrintTab`): a pack or the demo opens Chrome's tab and renderer once, not once per report.
 * - **Header, footer, outline.** Chrome prints no header or footer; after merging, every page is
 *   stamped with the report title (not on the cover), and a footer with the report, its scope
 *   (the organisation by name, the filter, or the whole estate: `./scope_line.ts`), the
 *   generated-at time and source, and "Page X of Y" numbered over the WHOLE document, so a page
 *   read on its own says what it belongs to. Bookmarks point at each section's heading, wherever
 *   it was printed (from Chrome's named destinations). Title, subject, creator `samkit`,
 *   producer, creation date and language are set.
 * - **Untagged by default.** `tagged: false` is deliberate: a tagged (accessible) PDF of a
 *   99-page table printed 3× slower and came out 28× larger in a measurement, and report tables
 *   are data that the XLSX/CSV/JSON outputs carry in machine-readable form. Pass
 *   `{ tagged: true }` when an accessible PDF matters more than speed and size.
 * - **Atomic.** The file is written to a temp name and renamed (`lib/render/atomic.ts`).
 *
 * Without a browser handle in the render options the renderer launches its own and closes it
 * after the render; a run that prints several reports should pass one shared handle.
 *
 * @module
 */

import type { HTTPRequest, Page, PDFOptions } from "puppeteer-core";
import { join } from "node:path";
import { writeAtomic } from "./atomic.ts";
import { type BrowserHandle, launchBrowser } from "./browser.ts";
import { htmlChunks, type HtmlPrintChunk, renderHtmlString } from "./html.ts";
import { type OutlineItem, PdfAssembler } from "./pdf_merge.ts";
import { printedDocument } from "./pdf_detail.ts";
import { visibleText } from "./format.ts";
import { scopeLine } from "./scope_line.ts";
import { DEMO_DATA, demoTitle, isDemoSource } from "../report/demo_source.ts";
import {
  DEFAULT_LOCALE,
  type RenderDocument,
  type Renderer,
  type RenderOptions,
} from "./renderer.ts";
import type { Theme } from "./theme.ts";

/**
 * Options of the PDF renderer.
 *
 * @example
 * ```ts
 * import { PdfRenderer } from "./pdf.ts";
 * // Smaller chunks, and an accessible (tagged) PDF at the cost of speed and size:
 * const renderer = new PdfRenderer({ pagesPerChunk: 50, tagged: true });
 * console.log(renderer.format); // pdf
 * ```
 */
export interface PdfRendererOptions {
  /** Target pages per `page.pdf` call (default 100; keep it well under 1,000). */
  readonly pagesPerChunk?: number;
  /** Rows per chunk, skipping the rows-per-page probe (default: estimated). */
  readonly rowsPerChunk?: number;
  /** Print a tagged (accessible) PDF (default false: see the module documentation). */
  readonly tagged?: boolean;
  /**
   * The most rows printed of one section (default: every row); a longer section prints its
   * first rows and names the file with its full list (`./pdf_detail.ts`).
   */
  readonly detailRows?: number;
  /** Time-out of one `page.setContent` or `page.pdf` call, in milliseconds (default 300 000). */
  readonly timeoutMs?: number;
  /**
   * How a page is printed (default `page.pdf(options)`): for instrumentation and tests, e.g. to
   * simulate Chrome's "Printing failed" on large chunks.
   */
  readonly printPdf?: (page: Page, options: PDFOptions) => Promise<Uint8Array>;
}

/**
 * What the last render did.
 *
 * @example
 * ```ts
 * import type { PdfRenderStats } from "./pdf.ts";
 * const report = (s: PdfRenderStats) => `${s.pages} pages in ${s.chunks} chunks`;
 * console.log(report({
 *   chunks: 2, pages: 180, rowsPerChunk: 3000, blockedRequests: 0, splits: 0,
 *   timings: { html: 40, load: 900, print: 2100, assemble: 300 },
 * })); // 180 pages in 2 chunks
 * ```
 */
export interface PdfRenderStats {
  /** `page.pdf` calls that produced pages (the probe not included). */
  readonly chunks: number;
  /** Pages of the assembled document. */
  readonly pages: number;
  /** Rows per chunk used. */
  readonly rowsPerChunk: number;
  /** Requests the page attempted and the renderer aborted. */
  readonly blockedRequests: number;
  /** Chunks Chrome failed to print that were split and retried. */
  readonly splits: number;
  /** Milliseconds spent: making HTML, loading it into the tab, printing, merging and stamping. */
  readonly timings: { html: number; load: number; print: number; assemble: number };
}

/**
 * Thrown when Chrome cannot print even a single row's part.
 *
 * @example
 * ```ts
 * import { PdfPrintError } from "./pdf.ts";
 * const error = new PdfPrintError("Chrome could not print demo: Printing failed");
 * console.log(error.name); // PdfPrintError
 * ```
 */
export class PdfPrintError extends Error {
  /** @param message What failed. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "PdfPrintError";
  }
}

/**
 * Options of {@link PrintTab}.
 *
 * @example
 * ```ts
 * import { PrintTab } from "./pdf.ts";
 * import { launchBrowser } from "./browser.ts";
 * await using browser = launchBrowser();
 * const tab = new PrintTab(browser, { timeoutMs: 60_000, pdfOptions: { landscape: true } });
 * await tab.close();
 * ```
 */
export interface PrintTabOptions {
  /** Time-out of one `setContent` or `page.pdf` call, in milliseconds (default 300 000). */
  readonly timeoutMs?: number;
  /** The `page.pdf` options (default: A4, CSS page size, backgrounds, untagged). */
  readonly pdfOptions?: PDFOptions;
  /** How a page is printed (default `page.pdf(options)`). */
  readonly printPdf?: (page: Page, options: PDFOptions) => Promise<Uint8Array>;
}

/**
 * One printed document and how long it took.
 *
 * @example
 * ```ts
 * import { PrintTab } from "./pdf.ts";
 * import { launchBrowser } from "./browser.ts";
 * await using browser = launchBrowser();
 * const tab = new PrintTab(browser);
 * const { bytes, printMs } = await tab.print("<h1>Hi</h1>");
 * console.log(bytes.length > 0, printMs >= 0); // true true
 * await tab.close();
 * ```
 */
export interface PrintResult {
  /** The PDF. */
  readonly bytes: Uint8Array;
  /** Milliseconds to load the HTML. */
  readonly loadMs: number;
  /** Milliseconds in `page.pdf`. */
  readonly printMs: number;
}

/**
 * The `page.pdf` options the renderer uses by default.
 *
 * @example
 * ```ts
 * import { PRINT_OPTIONS } from "./pdf.ts";
 * console.log(PRINT_OPTIONS.tagged); // false
 * ```
 */
export const PRINT_OPTIONS: PDFOptions = Object.freeze({
  printBackground: true,
  preferCSSPageSize: true,
  format: "A4",
  displayHeaderFooter: false,
  tagged: false,
  outline: false,
});

/**
 * A browser tab that prints HTML with no network: JavaScript disabled, request interception on
 * and every request aborted (the HTML is loaded with `setContent`, so the document itself needs
 * no request). The tab is taken on the first print and given back on {@link PrintTab.close}:
 * a tab given back whole is kept open for the next `PrintTab` of the same browser, which starts
 * it on a blank document of its own (a new tab costs Chrome a renderer process and its first
 * layout, about half a second of its CPU per report); a tab whose print failed is closed, and
 * the next print opens a fresh one.
 *
 * @example
 * ```ts
 * import { PrintTab } from "./pdf.ts";
 * import { launchBrowser } from "./browser.ts";
 * const browser = launchBrowser();
 * const tab = new PrintTab(browser);
 * try {
 *   const { bytes } = await tab.print('<p>hi</p><img src="http://127.0.0.1:9/x">');
 *   console.log(bytes.length > 0, tab.blockedRequests); // true 1
 * } finally {
 *   await tab.close();
 *   await browser.close();
 * }
 * ```
 */
export class PrintTab {
  #browser: BrowserHandle;
  #page?: Page;
  #blocked = 0;
  #timeout: number;
  #pdfOptions: PDFOptions;
  #print: (page: Page, options: PDFOptions) => Promise<Uint8Array>;
  #onRequest = (request: HTTPRequest) => {
    // The document arrives through setContent: no request is ever needed.
    if (request.isInterceptResolutionHandled()) return;
    // A theme's logo is a data: URI in the document itself: nothing is fetched for it.
    if (EMBEDDED_IMAGE.test(request.url())) {
      request.continue().catch(() => {});
      return;
    }
    this.#blocked++;
    request.abort("blockedbyclient").catch(() => {});
  };

  /**
   * @param browser The shared browser.
   * @param options Time-out and print options.
   */
  constructor(browser: BrowserHandle, options: PrintTabOptions = {}) {
    this.#browser = browser;
    this.#timeout = options.timeoutMs ?? 300_000;
    this.#pdfOptions = { ...PRINT_OPTIONS, ...options.pdfOptions, timeout: this.#timeout };
    this.#print = options.printPdf ?? (async (page, o) => await page.pdf(o));
  }

  /** Requests the printed documents attempted, all aborted. */
  get blockedRequests(): number {
    return this.#blocked;
  }

  /** Loads `html` and prints it. */
  async print(html: string): Promise<PrintResult> {
    const page = this.#page ??= await this.#open();
    try {
      const t0 = performance.now();
      await page.setContent(html, { waitUntil: "load", timeout: this.#timeout });
      const t1 = performance.now();
      const bytes = await this.#print(page, this.#pdfOptions);
      return { bytes, loadMs: t1 - t0, printMs: performance.now() - t1 };
    } catch (error) {
      // The tab may be unusable after a failure (or a browser crash): the next print opens
      // another, and this one is not kept.
      this.#page = undefined;
      page.off("request", this.#onRequest);
      await page.close().catch(() => {});
      throw error;
    }
  }

  /** Gives the tab back (the browser stays open, and keeps the tab for its next print). */
  async close(): Promise<void> {
    const page = this.#page;
    this.#page = undefined;
    if (!page) return;
    page.off("request", this.#onRequest);
    if (!keepTab(this.#browser, page)) await page.close().catch(() => {});
  }

  async #open(): Promise<Page> {
    const kept = takeKeptTab(this.#browser);
    if (kept) {
      // A fresh document, as a new tab has: setContent writes into the current one, which would
      // keep the last report's policies (its Content-Security-Policy) for the next.
      const fresh = await kept.goto("about:blank", { timeout: this.#timeout }).then(
        () => true,
        () => false,
      );
      if (fresh) {
        kept.on("request", this.#onRequest);
        return kept;
      }
      await kept.close().catch(() => {});
    }
    const page = await this.#browser.newPage();
    page.setDefaultTimeout(this.#timeout);
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on("request", this.#onRequest);
    return page;
  }
}

/** Tabs given back whole, per browser, ready for the next print: JavaScript off, requests held. */
const KEPT_TABS = new WeakMap<BrowserHandle, Page[]>();
/** The most idle tabs kept per browser (one per report printed at the same time). */
const MAX_KEPT_TABS = 4;

/** Keeps `page` for the browser's next print; false when it cannot be kept (closed, or too many). */
function keepTab(browser: BrowserHandle, page: Page): boolean {
  if (page.isClosed() || !page.browser().connected) return false;
  const kept = KEPT_TABS.get(browser) ?? [];
  if (kept.length >= MAX_KEPT_TABS) return false;
  kept.push(page);
  KEPT_TABS.set(browser, kept);
  return true;
}

/** A kept tab of `browser` that is still open, if any (the browser may have been relaunched). */
function takeKeptTab(browser: BrowserHandle): Page | undefined {
  const kept = KEPT_TABS.get(browser);
  while (kept?.length) {
    const page = kept.pop()!;
    if (!page.isClosed() && page.browser().connected) return page;
  }
  return undefined;
}

/** An image embedded in the document (a theme's logo): the only "request" let through. */
const EMBEDDED_IMAGE = /^data:image\/(?:png|jpeg|svg\+xml);base64,/;

/** Rows of the probe that estimates rows per page. */
const PROBE_ROWS = 400;
/** Fewest rows a printed A4 page is assumed to hold (the floor of the estimate). */
const MIN_ROWS_PER_PAGE = 10;
/**
 * Rows per page below which a document is printed whole without the probe: a document of at most
 * `pagesPerChunk` × 25 rows is one chunk (a table page holds 25 to 45 rows; at the floor of 10 a
 * page, 2.5 times the chunk's pages, far from the ~1,000 pages where Chrome fails, and a chunk it
 * fails is split anyway). The probe cost Chrome about a second of CPU for a 2,000-row report
 * printed in one chunk either way.
 */
const UNPROBED_ROWS_PER_PAGE = 25;
/**
 * Pages a report's cover and summary are first assumed to take (the cover page and its summary
 * page, as every flagship report's does): the cover is printed once when this is right, and once
 * more when not, instead of being printed first only to count its pages.
 */
const GUESSED_COVER_PAGES = 2;
/** Margin on the rows-per-page estimate (wrapping varies along a section). */
const ESTIMATE_SAFETY = 0.85;

/** One section's row range inside a chunk. */
interface Part {
  readonly sectionIndex: number;
  readonly rowStart: number;
  readonly rowEnd: number;
}

/** A piece of the document to print on its own when a chunk must be split. */
interface Piece {
  readonly cover: boolean;
  readonly part?: Part;
}

/**
 * Writes a report as `<report-id>.pdf`.
 *
 * @example
 * ```ts
 * import { PdfRenderer } from "./pdf.ts";
 * import { launchBrowser } from "./browser.ts";
 * import { memorySection } from "../report/spool.ts";
 * const browser = launchBrowser();
 * try {
 *   const renderer = new PdfRenderer();
 *   const [path] = await renderer.render({
 *     report: { id: "hello", title: "Hello", description: "One row." },
 *     generatedAt: new Date(),
 *     source: "example",
 *     params: {},
 *     summary: [],
 *     sections: [memorySection({
 *       id: "main",
 *       title: "Main",
 *       columns: [{ key: "n", label: "N", type: "integer" }],
 *       rows: [{ n: 1 }],
 *     })],
 *     version: "0.1.0",
 *   }, { outDir: "/tmp", browser });
 *   console.log(path, renderer.stats?.pages); // /tmp/hello.pdf 2
 * } finally {
 *   await browser.close();
 * }
 * ```
 */
export class PdfRenderer implements Renderer {
  /** The format this renderer writes. */
  readonly format = "pdf" as const;
  #pagesPerChunk: number;
  #rowsPerChunk?: number;
  #tagged: boolean;
  #detailRows: number;
  #timeout: number;
  #print?: (page: Page, options: PDFOptions) => Promise<Uint8Array>;
  #stats?: PdfRenderStats;
  #blockedTotal = 0;
  /** The cover pages each report's last render took: the next render's first guess. */
  #coverPages = new Map<string, number>();

  /** @param options Chunking and printing choices; the defaults suit reports. */
  constructor(options: PdfRendererOptions = {}) {
    this.#pagesPerChunk = Math.max(1, Math.floor(options.pagesPerChunk ?? 100));
    this.#rowsPerChunk = options.rowsPerChunk === undefined
      ? undefined
      : Math.max(1, Math.floor(options.rowsPerChunk));
    this.#tagged = options.tagged ?? false;
    this.#detailRows = options.detailRows ?? Infinity;
    this.#timeout = options.timeoutMs ?? 300_000;
    this.#print = options.printPdf;
  }

  /** What the last completed render did (undefined before the first). */
  get stats(): PdfRenderStats | undefined {
    return this.#stats;
  }

  /** Requests blocked over every render of this renderer. */
  get blockedRequests(): number {
    return this.#blockedTotal;
  }

  /** Prints `<outDir>/<report-id>.pdf` (temp file, then rename) and returns its path. */
  async render(whole: RenderDocument, options: RenderOptions): Promise<string[]> {
    const signal = options.signal;
    signal?.throwIfAborted();
    const doc = await printedDocument(whole, {
      maxRows: this.#detailRows,
      written: options.written,
      locale: options.locale,
    });
    const shared = options.browser as BrowserHandle | undefined;
    const browser = shared ?? launchBrowser();
    let chunks = 0;
    let splits = 0;
    const locale = options.locale ?? DEFAULT_LOCALE;
    const theme = options.theme;
    const timings = { html: 0, load: 0, print: 0, assemble: 0 };
    const timed = async <T>(key: keyof typeof timings, work: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      try {
        return await work();
      } finally {
        timings[key] += performance.now() - start;
      }
    };

    const tab = new PrintTab(browser, {
      timeoutMs: this.#timeout,
      printPdf: this.#print,
      pdfOptions: this.#pdfOptions(),
    });
    const print = async (html: string): Promise<Uint8Array> => {
      signal?.throwIfAborted();
      const result = await tab.print(html);
      timings.load += result.loadMs;
      timings.print += result.printMs;
      return result.bytes;
    };

    try {
      const assembler = await PdfAssembler.create();
      const rowsPerChunk = this.#rowsPerChunk ??
        await this.#estimateRowsPerChunk(doc, { locale, theme }, print);
      const consumed = doc.sections.map(() => 0);
      const anchors = new Map<number, string>();
      // Parts are added to the assembler in order, while Chrome prints the next chunk.
      let adding: Promise<unknown> = Promise.resolve();
      const add = (bytes: Uint8Array) => {
        chunks++;
        adding = adding.then(() => timed("assemble", () => assembler.add(bytes)));
        adding.catch(() => {}); // awaited below; keeps a failure from going unhandled meanwhile
      };

      const printPiece = async (piece: Piece, depth: number): Promise<void> => {
        const html = await timed("html", () =>
          renderHtmlString(doc, {
            locale,
            forPrint: true,
            signal,
            theme,
            chunk: {
              sectionIndex: piece.part?.sectionIndex,
              rowStart: piece.part?.rowStart ?? 0,
              rowEnd: piece.part?.rowEnd ?? 0,
              includeCover: piece.cover,
              includeSummary: piece.cover,
            },
          }));
        const rows = piece.part ? piece.part.rowEnd - piece.part.rowStart : 0;
        const bytes = await tryPrint(withOutlineLinks(html, anchors), rows, depth);
        if (bytes) {
          add(bytes);
          return;
        }
        splits++;
        for (const half of halve(piece)) await printPiece(half, depth + 1);
      };

      /** Prints, or returns undefined when the piece should be split and retried. */
      const tryPrint = async (
        html: string,
        rows: number,
        depth: number,
      ): Promise<Uint8Array | undefined> => {
        try {
          return await print(html);
        } catch (error) {
          if (signal?.aborted) throw error;
          if (rows <= 1 || depth >= 24) {
            const reason = error instanceof Error ? error.message : String(error);
            throw new PdfPrintError(`Chrome could not print ${doc.report.id}: ${reason}`, {
              cause: error,
            });
          }
          return undefined;
        }
      };

      // The cover cannot be split: a failure to print it is the render's.
      const printCover = async (pages: readonly string[]) =>
        (await tryPrint(
          await timed("html", () => coverHtml(doc, { locale, theme, signal, pages })),
          0,
          0,
        ))!;

      let mark = performance.now();
      // The next chunk's HTML is made while Chrome prints this one.
      for await (
        const chunk of readAhead(
          htmlChunks(doc, { locale, rowsPerChunk, signal, theme, cover: false }),
        )
      ) {
        timings.html += performance.now() - mark;
        const parts = partsOf(chunk, doc, consumed);
        const bytes = await tryPrint(withOutlineLinks(chunk.html, anchors), chunk.rows, 0);
        if (bytes) {
          add(bytes);
          mark = performance.now();
          continue;
        }
        // Chrome failed on the chunk: print its parts on their own, halving a lone part.
        splits++;
        let pieces: Piece[] = parts.map((part, i) => ({ cover: chunk.hasCover && i === 0, part }));
        if (pieces.length === 1) pieces = halve(pieces[0]);
        for (const piece of pieces) await printPiece(piece, 1);
        mark = performance.now();
      }
      await adding;
      signal?.throwIfAborted();

      // Now every section's first page is known: the cover, with them in its contents, put
      // before the sections. Its own page count is guessed (what this report's cover took last
      // time, else two pages) and the cover printed again when the guess was wrong.
      const starts = sectionStarts(assembler.destinations(), anchors, doc.sections.length);
      let coverPages = this.#coverPages.get(doc.report.id) ?? GUESSED_COVER_PAGES;
      let coverBytes = await printCover(pageTexts(starts, coverPages));
      for (let again = 0; again < 3; again++) {
        const count = await countPages(coverBytes);
        if (count === coverPages) break;
        coverPages = count;
        coverBytes = await printCover(pageTexts(starts, coverPages));
      }
      this.#coverPages.set(doc.report.id, coverPages);
      chunks++;
      await timed("assemble", () => assembler.prepend(coverBytes));
      await tab.close();

      const bytes = await timed(
        "assemble",
        () => finishPdf(assembler, doc, anchors, { locale, theme }),
      );
      const path = await writeAtomic(join(options.outDir, `${doc.report.id}.pdf`), bytes);
      this.#stats = {
        chunks,
        pages: assembler.pageCount,
        rowsPerChunk,
        blockedRequests: tab.blockedRequests,
        splits,
        timings,
      };
      return [path];
    } finally {
      this.#blockedTotal += tab.blockedRequests;
      await tab.close();
      if (!shared) await browser.close();
    }
  }

  #pdfOptions(): PDFOptions {
    return { ...PRINT_OPTIONS, tagged: this.#tagged };
  }

  /**
   * Rows per chunk for about `pagesPerChunk` pages: documents too small to need more than one
   * chunk are printed whole; otherwise the first rows of the longest section are printed once
   * to measure rows per page.
   */
  async #estimateRowsPerChunk(
    doc: RenderDocument,
    { locale, theme }: { locale: string; theme?: Theme },
    print: (html: string) => Promise<Uint8Array>,
  ): Promise<number> {
    const total = doc.sections.reduce((n, s) => n + s.rowCount, 0);
    if (total <= this.#pagesPerChunk * UNPROBED_ROWS_PER_PAGE) return Math.max(1, total);
    let longest = 0;
    doc.sections.forEach((s, i) => {
      if (s.rowCount > doc.sections[longest].rowCount) longest = i;
    });
    const probeRows = Math.min(PROBE_ROWS, doc.sections[longest].rowCount);
    const html = await renderHtmlString(doc, {
      locale,
      forPrint: true,
      theme,
      chunk: {
        sectionIndex: longest,
        rowStart: 0,
        rowEnd: probeRows,
        includeCover: false,
        includeSummary: false,
      },
    });
    const pages = await countPages(await print(html));
    const rowsPerPage = Math.max(1, probeRows / Math.max(1, pages));
    return Math.max(
      MIN_ROWS_PER_PAGE,
      Math.floor(rowsPerPage * this.#pagesPerChunk * ESTIMATE_SAFETY),
    );
  }
}

/**
 * Reads one item ahead of the consumer, so the source works on item n+1 while the consumer
 * handles item n. Closing early waits for the read in flight, then closes the source.
 */
async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  next.catch(() => {}); // awaited below
  let done = false;
  try {
    while (true) {
      const result = await next;
      if (result.done) {
        done = true;
        return;
      }
      next = iterator.next();
      next.catch(() => {});
      yield result.value;
    }
  } finally {
    if (!done) {
      const last = await next.catch(() => ({ done: true }));
      if (!last.done) await iterator.return?.();
    }
  }
}

/** Splits a piece's row range in two halves (the cover with the first). */
function halve(piece: Piece): [Piece, Piece] {
  const part = piece.part!;
  const mid = part.rowStart + Math.ceil((part.rowEnd - part.rowStart) / 2);
  return [
    { cover: piece.cover, part: { ...part, rowEnd: mid } },
    { cover: false, part: { ...part, rowStart: mid } },
  ];
}

/**
 * The row ranges a chunk from {@link htmlChunks} holds, replaying its cuts: sections in order,
 * each continuing where the previous chunk stopped. `consumed` is updated.
 */
function partsOf(chunk: HtmlPrintChunk, doc: RenderDocument, consumed: number[]): Part[] {
  const parts: Part[] = [];
  let left = chunk.rows;
  for (const index of chunk.sections) {
    const count = doc.sections[index].rowCount;
    const start = consumed[index];
    const take = Math.min(count - start, left);
    if (count === 0 || take > 0) {
      parts.push({ sectionIndex: index, rowStart: start, rowEnd: start + take });
    }
    consumed[index] = start + take;
    left -= take;
  }
  return parts;
}

/**
 * Adds hidden links to every section anchor (`<section id="section-<n>-…">`, the ids html.ts
 * gives section headings) of a printed chunk, and records which anchor belongs to which section. Chrome writes a named
 * destination only for ids that some link points at, and the contents page (which links them)
 * is in the first chunk only; with these, every chunk names its section headings, so the outline
 * can find them.
 */
function withOutlineLinks(html: string, anchors: Map<number, string>): string {
  const ids = new Set<string>();
  for (const match of html.matchAll(/<section\b[^>]*\bid="(section-(\d+)[^"]*)"/g)) {
    ids.add(match[1]);
    const index = Number(match[2]) - 1;
    if (!anchors.has(index)) anchors.set(index, match[1]);
  }
  if (ids.size === 0) return html;
  const links = [...ids].map((id) => `<a href="#${id}"></a>`).join("");
  const nav = `<nav hidden aria-hidden="true">${links}</nav>`;
  const at = html.lastIndexOf("</body>");
  return at < 0 ? html + nav : html.slice(0, at) + nav + html.slice(at);
}

/**
 * The assembled PDF: its metadata, bookmarks, and the title and source stamped on every page
 * (with a theme: its company as author and at the header's right, its footer text above the
 * footer).
 */
function finishPdf(
  assembler: PdfAssembler,
  doc: RenderDocument,
  anchors: Map<number, string>,
  { locale, theme }: { locale: string; theme?: Theme },
): Promise<Uint8Array> {
  // An embedded run's PDF says "demo data" in its title, subject, keywords and every page header.
  const demo = isDemoSource(doc.source);
  const title = demoTitle(doc.report.title, doc.source);
  return assembler.finish({
    metadata: {
      title,
      subject: demo ? `${DEMO_DATA}: ${doc.report.description ?? ""}` : doc.report.description,
      creator: "samkit",
      ...(theme?.company ? { author: theme.company } : {}),
      producer: `samkit ${doc.version} (Chromium, pdf-lib)`,
      keywords: demo ? ["samkit", doc.report.id, DEMO_DATA] : ["samkit", doc.report.id],
      created: doc.generatedAt,
      language: locale,
    },
    outline: outlineOf(doc, anchors),
    stamp: {
      headerLeft: title,
      // Report and scope always; the source (on the cover) is left off whole where it does not fit.
      footerLeft: [
        title,
        scopeLine(doc),
        `Generated ${isoMinute(doc.generatedAt)} UTC`,
        doc.source,
      ],
      inset: 40,
      ...(theme?.company ? { headerRight: theme.company } : {}),
      ...(theme?.footer ? { footerNote: theme.footer } : {}),
    },
  });
}

/**
 * The bookmarks: the cover, then one per section (at its heading, wherever it was printed), their
 * titles' controls shown as visible escapes as on the page.
 */
function outlineOf(doc: RenderDocument, anchors: Map<number, string>): OutlineItem[] {
  return [
    { title: "Cover and summary", page: 0 },
    ...doc.sections.map((section, i) => ({
      title: visibleText(section.title),
      dest: anchors.get(i),
    })),
  ];
}

/** The cover and summary as a print-ready document, its contents naming `pages` when given. */
function coverHtml(
  doc: RenderDocument,
  options: { locale: string; theme?: Theme; signal?: AbortSignal; pages?: readonly string[] },
): Promise<string> {
  return renderHtmlString(doc, {
    locale: options.locale,
    forPrint: true,
    signal: options.signal,
    theme: options.theme,
    tocPages: options.pages,
    chunk: { rowStart: 0, rowEnd: 0, includeCover: true, includeSummary: true },
  });
}

/**
 * The 0-based page (among the sections' pages) each section's heading is printed on, from the
 * assembled parts' named destinations; a section whose heading has none takes the page of the
 * section before it.
 */
function sectionStarts(
  destinations: ReadonlyMap<string, number>,
  anchors: ReadonlyMap<number, string>,
  count: number,
): number[] {
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    const anchor = anchors.get(i);
    const page = anchor === undefined ? undefined : destinations.get(anchor);
    starts.push(page ?? starts[i - 1] ?? 0);
  }
  return starts;
}

/** The page numbers the contents show: each section's page after `coverPages` cover pages. */
function pageTexts(starts: readonly number[], coverPages: number): string[] {
  return starts.map((page) => String(coverPages + page + 1));
}

async function countPages(bytes: Uint8Array): Promise<number> {
  const { PDFDocument } = await import("pdf-lib");
  return (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
}

function isoMinute(date: Date): string {
  return date.toISOString().slice(0, 16).replace("T", " ");
}
