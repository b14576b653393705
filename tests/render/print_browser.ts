/**
 * Test helper: one browser and one temporary folder for a file of PDF tests, launched before its
 * tests and closed (the folder removed) after them.
 *
 * @module
 */

import { after, before } from "node:test";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { PdfRenderer } from "../../lib/render/pdf.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";

/** The browser and folder a file's PDF tests print with; read them inside a test. */
export interface PrintBrowser {
  /** The browser launched before the file's tests. */
  readonly browser: BrowserHandle;
  /** A temporary folder, removed with everything in it after the file's tests. */
  readonly dir: string;
  /** Prints `doc` with samkit's PDF renderer into a fresh folder under {@link dir}; its path. */
  render(doc: RenderDocument): Promise<string>;
}

/**
 * Registers `before`/`after` hooks that launch a browser and make a temporary folder named
 * `prefix…`, then close the browser and remove the folder. Call it once at a test file's top.
 *
 * @example Usage
 * ```ts ignore
 * import { usePrintBrowser } from "./print_browser.ts";
 *
 * const print = usePrintBrowser("samkit-pdf-dates-");
 * it("prints", async () => {
 *   const pdf = await print.render(doc);
 * });
 * ```
 */
export function usePrintBrowser(prefix: string): PrintBrowser {
  let browser: BrowserHandle | undefined;
  let dir: string | undefined;
  before(async () => {
    browser = launchBrowser();
    dir = await Deno.makeTempDir({ prefix });
  });
  after(async () => {
    await browser?.close();
    if (dir) await Deno.remove(dir, { recursive: true });
  });
  const print: PrintBrowser = {
    get browser(): BrowserHandle {
      if (!browser) throw new Error(`print browser ${prefix}: read before its before() hook ran`);
      return browser;
    },
    get dir(): string {
      if (!dir) throw new Error(`print folder ${prefix}: read before its before() hook ran`);
      return dir;
    },
    async render(doc: RenderDocument): Promise<string> {
      const outDir = await Deno.makeTempDir({ dir: print.dir });
      const [path] = await new PdfRenderer().render(doc, { outDir, browser: print.browser });
      return path;
    },
  };
  return print;
}
