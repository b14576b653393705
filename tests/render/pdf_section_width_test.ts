/**
 * A printed table sizes its columns against a fixed length, not a query container: the printed
 * HTML gives 1% of a section's width as `var(--cqi)`, which the print stylesheet sets to the
 * width Chrome lays a page's content out at (688px portrait, 1017px landscape). Evaluating the
 * section as a query container cost Chrome about a third of its CPU printing a 400-row table;
 * the fixed length must be exactly the container's, or the printed columns move.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderHtmlString } from "../../lib/render/html.ts";
import { PrintTab } from "../../lib/render/pdf.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import { oneSectionDoc } from "./helpers.ts";
import { usePrintBrowser } from "./print_browser.ts";

const print = usePrintBrowser("samkit-pdf-section-width-");

const columns = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ({ key: `c${i}`, label: `Column ${i}`, type: "text" as const }),
  );

function doc(options: { columns: number; landscape?: boolean }): RenderDocument {
  const base = oneSectionDoc(memorySection({
    id: "s",
    title: "S",
    columns: columns(options.columns),
    rows: [Object.fromEntries(columns(options.columns).map((c) => [c.key, "x"]))],
  }));
  return { ...base, report: { ...base.report, landscape: options.landscape } };
}

/** The right edges (pt) of the words "Q" in a printed document, in reading order. */
async function rightEdges(pdf: Uint8Array, name: string): Promise<number[]> {
  const path = `${print.dir}/${name}.pdf`;
  await Deno.writeFile(path, pdf);
  const out = await new Deno.Command("pdftotext", {
    args: ["-bbox", path, "-"],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return [...text.matchAll(/xMax="([\d.]+)"[^>]*>Q</g)].map((m) => Number(m[1]));
}

describe("a printed section's width", () => {
  it("is given to the table as a fixed length, and on screen as the section's cqi", async () => {
    const printed = await renderHtmlString(doc({ columns: 3 }), { forPrint: true });
    const screen = await renderHtmlString(doc({ columns: 3 }));
    const style = (html: string) => /<table class="data" style="([^"]*)"/.exec(html)?.[1] ?? "";
    assert.match(style(printed), /--fit: calc\([\d.]+ \* var\(--cqi\)\)/);
    assert.doesNotMatch(style(printed), /[\d.]cqi/);
    assert.match(style(screen), /--fit: [\d.]+cqi;/);
  });

  for (
    const [name, options] of [
      ["portrait", { columns: 3 }],
      ["a wide section on a landscape page", { columns: 12 }],
      ["a landscape report", { columns: 3, landscape: true }],
    ] as const
  ) {
    it(`is the width of the section as a query container: ${name}`, async () => {
      const html = await renderHtmlString(doc(options), { forPrint: true });
      // Half the section by the fixed length, then by a query container as wide as the section.
      const probes = '<div style="width: calc(50 * var(--cqi)); text-align: right">Q</div>' +
        '<div style="container-type: inline-size">' +
        '<div style="width: 50cqi; text-align: right">Q</div></div>';
      const probed = html.replace(/(<section class="report-section[^>]*>)/, `$1${probes}`);
      assert.notEqual(probed, html, "a section to probe");
      const tab = new PrintTab(print.browser);
      try {
        const [fixed, container] = await rightEdges((await tab.print(probed)).bytes, name);
        assert.ok(container > 0, `probes printed: ${fixed}, ${container}`);
        assert.ok(
          Math.abs(fixed - container) < 0.05,
          `half the section: ${fixed} pt by --cqi, ${container} pt by 50cqi`,
        );
      } finally {
        await tab.close();
      }
    });
  }
});
