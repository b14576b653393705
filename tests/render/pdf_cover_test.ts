/**
 * A PDF's first page carries its cover's figures: every tile value the HTML cover shows (each
 * currency of each money figure) is printed on page 1 of the PDF written by the same run, on the
 * demo estate as `deno task demo` labels it (the demo label and a long description take room);
 * and the summary states each figure once.
 *
 * @module
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { runReport } from "../../lib/report/runner.ts";
import { resolveParams } from "../../lib/report/params.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { createRenderers } from "../../lib/render/registry.ts";
import { demoSourceText } from "../../lib/report/demo_source.ts";
import type { ReportDefinition } from "../../lib/report/model.ts";
import { withServer } from "../helpers/server.ts";
import { clientFor, closeTestBrowser, TEST_NOW, testBrowser } from "../helpers/run_report.ts";
import { pdfPages } from "./pdf_read.ts";
import { tileValues } from "./cover_tiles.ts";

after(closeTestBrowser);

/** Runs a report on a demo-labelled reference estate into HTML and PDF; their paths. */
async function runDemo(
  // deno-lint-ignore no-explicit-any
  report: ReportDefinition<any, any>,
): Promise<{ html: string; pdf: string; labels: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "samkit-cover-test-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  return await withServer({}, async (srv) => {
    const all = createRenderers();
    const run = await runReport({
      definition: report,
      client: clientFor(srv),
      query: createQueryContext(),
      params: resolveParams(report, {}),
      formats: ["html", "pdf"],
      renderers: { html: all.html, pdf: all.pdf },
      outDir: dir,
      source: demoSourceText({ computers: 400, seed: 1, asOf: TEST_NOW }),
      version: "0.0.0-test",
      now: TEST_NOW,
      browser: testBrowser(),
    });
    const labels = run.document.summary.map((f) => f.label);
    return { html: `${dir}/${report.id}.html`, pdf: `${dir}/${report.id}.pdf`, labels };
  });
}

describe("the PDF cover", () => {
  it("prints every tile value of license-cost-summary's demo cover on page 1", async () => {
    const { html, pdf, labels } = await runDemo(licenseCostSummary);
    const twice = labels.filter((label, i) => labels.indexOf(label) !== i);
    assert.deepEqual(twice, [], "each summary figure stated once");
    const values = tileValues(await Deno.readTextFile(html));
    assert.ok(values.length >= 4, `tiles: ${values.join(" | ")}`);
    assert.ok(values.some((v) => v.includes("€")), "a euro figure among the tiles");
    const pages = await pdfPages(pdf);
    const first = pages[0].replace(/\s+/g, " ");
    const missing = values.filter((v) => !first.includes(v.replace(/\s+/g, " ")));
    assert.deepEqual(missing, [], `page 1 lacks tile values; page 2: ${pages[1]}`);
  });
});
