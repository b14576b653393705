/**
 * A document made for print is laid out once, for print: on screen it is not displayed, so Chrome
 * does not lay out every page of a long table for the screen when the document loads and then
 * again for print (about a fifth of the demo's printing time). The HTML report a person opens is
 * displayed as ever.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderHtmlString } from "../../lib/render/html.ts";
import { numberedSection, oneSectionDoc } from "./helpers.ts";
import { usePrintBrowser } from "./print_browser.ts";

const print = usePrintBrowser("samkit-print-layout-once-");

const DOC = oneSectionDoc(numberedSection(300));

/** The document's height in CSS pixels when loaded with `media` emulated. */
async function heightAs(html: string, media: "screen" | "print"): Promise<number> {
  const page = await print.browser.newPage();
  try {
    await page.emulateMediaType(media);
    await page.setContent(html, { waitUntil: "load" });
    // A string, run in the page: this file is type-checked without the DOM's types.
    return await page.evaluate("document.documentElement.getBoundingClientRect().height") as number;
  } finally {
    await page.close();
  }
}

describe("a document made for print", () => {
  it("is not laid out on screen, and is whole in print", async () => {
    const html = await renderHtmlString(DOC, { forPrint: true });
    assert.equal(await heightAs(html, "screen"), 0, "nothing laid out for the screen");
    assert.ok(await heightAs(html, "print") > 3_000, "the whole table laid out for print");
  });

  it("leaves the HTML report people open on screen as it was", async () => {
    const html = await renderHtmlString(DOC);
    assert.ok(await heightAs(html, "screen") > 3_000, "the HTML report displayed on screen");
  });
});
