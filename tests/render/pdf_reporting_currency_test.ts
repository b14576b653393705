/**
 * license-cost-summary in a reporting currency, read from its printed PDF: every currency's
 * figures on the cover (page 1), the summary's figures and its contents on one page, and totals
 * labels ("Total all currencies (EUR)") whose words are never broken across lines and that read
 * on one line over the empty cells after them.
 *
 * @module
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { parseFxRates } from "../../lib/sam/fx_rates.ts";
import { withServer } from "../helpers/server.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { brokenHeaderWords, pdfPages } from "./pdf_read.ts";
import { tileValues } from "./cover_tiles.ts";

after(closeTestBrowser);

const RATES = "date,currency,rate\n2025-06-27,USD,1.08345\n2025-06-27,GBP,0.85713\n";

describe("license-cost-summary in EUR, printed", () => {
  it("keeps its cover, summary, contents and totals labels readable", async () => {
    await withServer({}, async (srv) => {
      const run = await runReportForTest({
        server: srv,
        report: licenseCostSummary,
        formats: ["html", "pdf"],
        reportingCurrency: {
          code: "EUR",
          rates: parseFxRates(RATES, "rates.csv"),
          source: "rates.csv",
        },
      });
      const pages = await pdfPages(run.file("pdf"));
      const first = pages[0].replace(/\s+/g, " ");
      const tiles = tileValues(await Deno.readTextFile(run.file("html")));
      assert.ok(tiles.some((t) => t.startsWith("£")) && tiles.some((t) => t.startsWith("$")));
      assert.deepEqual(tiles.filter((t) => !first.includes(t)), [], "every tile on page 1");

      const summary = pages.findIndex((p) => /^\s*Summary\s*$/m.test(p));
      assert.ok(summary >= 0, "a summary page");
      assert.match(pages[summary], /^\s*CONTENTS\s*$/m, "the contents on the summary's page");

      // Every word of every totals label printed whole (its column keeps the longest).
      const labels = ["Total all currencies (EUR) · 3 rows", "Subtotal", "currencies"];
      assert.deepEqual(brokenHeaderWords(pages, labels), [], "totals labels whole");
      // A totals label spans the empty cells after it: one line, not wrapped in a narrow column.
      assert.match(pages.join("\n"), /Total all currencies \(EUR\) · [\d,]+ rows/);
    });
  });
});
