import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import type { Page } from "puppeteer-core";
import { PdfRenderer, PrintTab } from "../../lib/render/pdf.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { defineReport } from "../../lib/report/model.ts";
import { runReport } from "../../lib/report/runner.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { createRenderers } from "../../lib/render/registry.ts";
import { inTurn } from "../../lib/cli/demo_turns.ts";
import { numberedSection, oneSectionDoc } from "./helpers.ts";
import { usePrintBrowser } from "./print_browser.ts";

/**
 * A handle on the file's browser that counts the tabs opened and the starts asked for. Its tab
 * pool is its own (kept tabs belong to a handle), and closing it closes the tabs it opened and
 * leaves the browser running for the next test.
 */
function counting(browser: BrowserHandle) {
  const counts = { pages: 0, starts: 0 };
  const opened: Promise<Page>[] = [];
  const closeTabs = async () => {
    const tabs = await Promise.allSettled(opened.splice(0));
    for (const tab of tabs) if (tab.status === "fulfilled") await tab.value.close().catch(() => {});
  };
  const handle: BrowserHandle = {
    newPage() {
      counts.pages++;
      const page = browser.newPage();
      opened.push(page);
      return page;
    },
    start() {
      counts.starts++;
      browser.start();
    },
    version: () => browser.version(),
    get launched() {
      return browser.launched;
    },
    get launches() {
      return browser.launches;
    },
    close: closeTabs,
    [Symbol.asyncDispose]: closeTabs,
  };
  return { handle, counts };
}

function doc(rows: number, id = "wait"): RenderDocument {
  const base = oneSectionDoc(numberedSection(rows));
  return { ...base, report: { ...base.report, id, title: "Waiting" } };
}

const print = usePrintBrowser("samkit-pdf-wait-");

describe("PDF tabs", () => {
  it("reports printed one after the other on one browser share one tab", async () => {
    const { handle, counts } = counting(print.browser);
    const renderer = new PdfRenderer();
    for (const id of ["first", "second", "third"]) {
      await renderer.render(doc(5, id), { outDir: print.dir, browser: handle });
    }
    assert.equal(counts.pages, 1, "one tab for three reports (was one per report)");
  });

  it("a kept tab counts its blocked requests for the print that made them only", async () => {
    const { handle, counts } = counting(print.browser);
    try {
      const first = new PrintTab(handle);
      await first.print('<p>one</p><img src="http://127.0.0.1:9/one">');
      await first.close();
      const second = new PrintTab(handle);
      await second.print(
        '<p>two</p><img src="http://127.0.0.1:9/a"><img src="http://127.0.0.1:9/b">',
      );
      await second.close();
      assert.equal(counts.pages, 1, "the second print used the first's tab");
      assert.equal(first.blockedRequests, 1);
      assert.equal(second.blockedRequests, 2);
    } finally {
      await handle.close();
    }
  });

  it("a kept tab starts on a blank document: a report's policies do not carry over", async () => {
    const { handle, counts } = counting(print.browser);
    try {
      // A report's document forbids every request in its Content-Security-Policy.
      await new PdfRenderer().render(doc(5), { outDir: print.dir, browser: handle });
      const raw = new PrintTab(handle);
      await raw.print('<p>raw</p><img src="http://127.0.0.1:9/raw.png">');
      await raw.close();
      assert.equal(counts.pages, 1, "the raw print used the report's tab");
      // Its request reached the tab's interception (and was aborted there), not the policy.
      assert.equal(raw.blockedRequests, 1);
    } finally {
      await handle.close();
    }
  });

  it("a tab whose print failed is not kept: the next render opens a fresh one", async () => {
    const { handle, counts } = counting(print.browser);
    try {
      const failing = new PrintTab(handle, {
        printPdf: () => Promise.reject(new Error("Printing failed")),
      });
      await assert.rejects(failing.print("<p>x</p>"), /Printing failed/);
      await failing.close();
      const next = new PrintTab(handle);
      const { bytes } = await next.print("<p>y</p>");
      await next.close();
      assert.ok(bytes.length > 0);
      assert.equal(counts.pages, 2);
    } finally {
      await handle.close();
    }
  });

  it("two reports printed at once print on two tabs, and both are kept", async () => {
    const { handle, counts } = counting(print.browser);
    try {
      const renderer = new PdfRenderer();
      await Promise.all(
        ["a", "b"].map((id) => renderer.render(doc(5, id), { outDir: print.dir, browser: handle })),
      );
      await renderer.render(doc(5, "c"), { outDir: print.dir, browser: handle });
      assert.equal(counts.pages, 2);
    } finally {
      await handle.close();
    }
  });
});

describe("PDF probe", () => {
  it("prints a document of 2,000 one-line rows without a probe: rows, then cover", async () => {
    let calls = 0;
    const renderer = new PdfRenderer({
      printPdf: async (page, options) => {
        calls++;
        return await page.pdf(options);
      },
    });
    await renderer.render(doc(2_000), { outDir: print.dir, browser: print.browser });
    assert.equal(
      calls,
      2,
      "no probe print, and the cover printed once (was 4: a probe and two covers)",
    );
    assert.equal(renderer.stats!.chunks, 2);
    assert.equal(renderer.stats!.rowsPerChunk, 2_000);
  });

  it("still probes a document too long for one chunk", async () => {
    const renderer = new PdfRenderer({ pagesPerChunk: 4 });
    await renderer.render(doc(400), { outDir: print.dir, browser: print.browser });
    assert.ok(renderer.stats!.rowsPerChunk < 400, `rows per chunk ${renderer.stats!.rowsPerChunk}`);
  });
});

describe("the browser starts while the data is read", () => {
  it("start() launches once, before the first tab, and a second start() does nothing", async () => {
    const own = launchBrowser();
    try {
      own.start();
      own.start();
      await own.version();
      assert.equal(own.launches, 1);
    } finally {
      await own.close();
    }
  });

  it("a start() that fails throws nothing; the next tab tries again and says why", async () => {
    const own = launchBrowser({ executablePath: "/bin/false", launcher: null, timeoutMs: 10_000 });
    try {
      own.start();
      await assert.rejects(own.newPage(), /Could not start the browser at \/bin\/false/);
    } finally {
      await own.close();
    }
  });

  it("runReport starts the browser before the report reads its data, only for PDF", async () => {
    const seen: number[] = [];
    const fake: BrowserHandle = {
      newPage: () => Promise.reject(new Error("no tab in this test")),
      start: () => void seen.push(-1),
      version: () => Promise.resolve("fake"),
      launched: false,
      launches: 0,
      close: () => Promise.resolve(),
      [Symbol.asyncDispose]: () => Promise.resolve(),
    };
    const report = defineReport({
      id: "reads",
      title: "Reads",
      description: "Notes when its data is read.",
      params: {},
      data: () => {
        seen.push(seen.length);
        return {
          sections: [{
            id: "s",
            title: "S",
            columns: [{ key: "n", label: "N", type: "integer" }],
            rows: [{ n: 1 }],
          }],
        };
      },
    });
    const base = {
      definition: report,
      client: null,
      query: createQueryContext(),
      params: {},
      renderers: createRenderers(),
      outDir: print.dir,
      source: "test",
      version: "0.1.0",
      browser: fake,
    };
    await runReport({ ...base, formats: ["json"] });
    assert.deepEqual(seen, [0], "JSON only: no browser started");
    seen.length = 0;
    await assert.rejects(runReport({ ...base, formats: ["json", "pdf"] }), /no tab in this test/);
    assert.deepEqual(seen, [-1, 1], "started, then the data read");
  });
});

describe("inTurn", () => {
  it("runs at most N at once and hands results on in order", async () => {
    let running = 0;
    let most = 0;
    const gates = [0, 1, 2, 3, 4].map(() => Promise.withResolvers<void>());
    const seen: string[] = [];
    const done = inTurn([0, 1, 2, 3, 4], 2, async (i) => {
      running++;
      most = Math.max(most, running);
      await gates[i].promise;
      running--;
      return i * 10;
    }, (i, r) => void seen.push(`${i}:${r}`));
    // Finish them last to first: results still come out in order.
    for (const i of [1, 0, 3, 2, 4]) {
      gates[i].resolve();
      await Promise.resolve();
    }
    await done;
    assert.deepEqual(seen, ["0:0", "1:10", "2:20", "3:30", "4:40"]);
    assert.equal(most, 2);
  });

  it("on a failure aborts the runs still going, waits for them, and throws that failure", async () => {
    const finished: number[] = [];
    const started: number[] = [];
    const error = await inTurn([0, 1, 2], 2, async (i, signal) => {
      started.push(i);
      if (i === 0) throw new Error("first failed");
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      finished.push(i);
      return i;
    }, () => {}).then(() => undefined, (e) => e);
    assert.match(String(error), /first failed/);
    assert.deepEqual(finished, [1], "the run going was aborted and awaited");
    assert.deepEqual(started, [0, 1], "the run not started yet never started");
  });
});
