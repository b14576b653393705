/**
 * A chart of money per currency prints readable: renewals' month-by-month chart is a chart per
 * currency, each on a page at a size whose labels are as large as the table's text, every label
 * and amount inside the page; its table repeats no row as a subtotal of one row.
 *
 * @module
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { renewals } from "../../reports/renewals.ts";
import { stackedBarSvg } from "../../lib/render/charts/stacked_bar.ts";
import { renderHtmlString } from "../../lib/render/html.ts";
import { memorySection } from "../../lib/report/spool.ts";
import { oneSectionDoc } from "./helpers.ts";
import { withServer } from "../helpers/server.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";

after(closeTestBrowser);

/** A word `pdftotext -bbox` places on a page (points). */
interface PdfWord {
  readonly page: number;
  readonly text: string;
  readonly height: number;
  readonly xMax: number;
  readonly pageWidth: number;
}

/** Every word of a PDF with its page, height and right edge, from `pdftotext -bbox`. */
async function pdfWords(path: string): Promise<PdfWord[]> {
  const out = await new Deno.Command("pdftotext", { args: ["-bbox", path, "-"], stdout: "piped" })
    .output();
  const xml = new TextDecoder().decode(out.stdout);
  const words: PdfWord[] = [];
  let page = 0, pageWidth = 0;
  for (const m of xml.matchAll(/<page width="([\d.]+)"|<word ([^>]+)>([^<]*)<\/word>/g)) {
    if (m[1]) {
      page++;
      pageWidth = Number(m[1]);
      continue;
    }
    const at = (name: string) => Number(new RegExp(`${name}="([\\d.]+)"`).exec(m[2])![1]);
    words.push({
      page,
      text: m[3],
      height: at("yMax") - at("yMin"),
      xMax: at("xMax"),
      pageWidth,
    });
  }
  return words;
}

describe("renewals' chart by month in the PDF", () => {
  it("is a chart per currency with labels as large as the table's", async () => {
    await withServer({}, async (srv) => {
      const run = await runReportForTest({ server: srv, report: renewals, formats: ["pdf"] });
      const months = run.result.document.sections.find((s) => s.id === "months")!;
      const currencies = Object.keys(months.totals ?? {}).filter((k) => /^[A-Z]{3}$/.test(k));
      assert.ok(currencies.length >= 2, `currencies: ${currencies}`);
      const words = await pdfWords(run.file("pdf"));
      const headed = words.filter((w, i) =>
        w.text === "Amounts" && words[i + 1]?.text === "in" &&
        currencies.includes(words[i + 2]?.text)
      );
      assert.equal(headed.length, currencies.length, "a chart per currency");
      // The month labels of the charts (and the table's months): none printed tiny.
      const labels = words.filter((w) => /^20\d\d-\d\d$/.test(w.text));
      assert.ok(labels.length > 0);
      const smallest = Math.min(...labels.map((w) => w.height));
      assert.ok(smallest >= 8, `month labels ${smallest.toFixed(1)} pt high`);
      const outside = words.filter((w) => w.xMax > w.pageWidth - 20).map((w) => w.text);
      assert.deepEqual(outside, [], "every word inside the page's margin");
      // Its table has a row per month and currency: no subtotal line repeats one row.
      const text = words.map((w) => w.text).join(" ");
      assert.doesNotMatch(text, /Subtotal [A-Z]{3} · 1 row/);
    });
  });
});

describe("a stacked bar chart's labels", () => {
  it("show a product's whole name and version", () => {
    const name = "Microsoft SQL Server 2022 Standard 16.0";
    const svg = stackedBarSvg(
      {
        type: "stackedBar",
        title: "Reclaimable value",
        label: "application",
        segments: [{ key: "value", label: "Reclaimable value" }],
      },
      [{ application: name, value: 5 }],
      { id: "c", locale: "en-US", columns: [], now: new Date(0), total: 1 },
    );
    assert.ok(svg.includes(`>${name}</text>`), "drawn whole, not cut with an ellipsis");
  });
});

describe("a bar chart's labels", () => {
  it("show a product's whole name and version", async () => {
    const name = "Oracle Database 19c Enterprise Edition 19.24";
    const html = await renderHtmlString(oneSectionDoc(memorySection({
      id: "top",
      title: "Top applications",
      columns: [
        { key: "application", label: "Application", type: "text" },
        { key: "cost", label: "Cost to date", type: "number" },
      ],
      rows: [{ application: name, cost: 5 }, { application: "IBM Db2", cost: 2 }],
      chart: { type: "bar", title: "Cost to date", label: "application", value: "cost" },
    })));
    assert.match(html, new RegExp(`class="bar-label"[^>]*>${name}</text>`));
  });
});
