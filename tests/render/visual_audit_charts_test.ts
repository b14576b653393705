/**
 * Charts as a reader meets them, found by auditing the built-in reports: a timeline whose title
 * promises "installations after the name" draws that figure on every line, a long application name
 * being cut before it rather than the figure after it; and no text of any chart kind sticks out of
 * its chart (where the page clips it), measured in Chrome with its fonts: a long amount after a bar
 * or a stacked bar, the latest run's label under a line chart; and no line of a chart is drawn
 * through a text's letters (a grid line through a bar's total, the "now" line through a date).
 *
 * @module
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { timelineSvg } from "../../lib/render/charts/timeline.ts";
import { stackedBarSvg } from "../../lib/render/charts/stacked_bar.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { renderHtmlString } from "../../lib/render/html.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import { CHART_FIXTURES } from "./chart_fixtures.ts";
import { closeTestBrowser, testBrowser } from "../helpers/run_report.ts";

after(closeTestBrowser);

/** A long name, as an application's or a run's label can be. */
const LONG = (i: number) =>
  `Microsoft SQL Server 2019 Enterprise Core Edition ${i} (Nov 28, 2026, 15:0${i} UTC)`;

/** One section per chart kind with long labels, and bar and stacked-bar charts of large amounts. */
function chartsDocument(): RenderDocument {
  const kinds = Object.entries(CHART_FIXTURES).flatMap(([kind, f]) =>
    [2, 7].map((count) =>
      memorySection({
        id: `${kind}-${count}`,
        title: `${kind} of ${count}`,
        columns: f.columns,
        rows: f.rows(count, LONG),
        chart: f.spec,
      })
    )
  );
  const money: Column[] = [
    { key: "name", label: "Name", type: "text" },
    { key: "a", label: "A", type: "currency", currencyKey: "currency" },
    { key: "b", label: "B", type: "currency", currencyKey: "currency" },
  ];
  const amounts: Row[] = [1_500_000_000, 750_000_000, 3].map((a, i) => ({
    name: LONG(i),
    a,
    b: a,
    currency: "CHF",
  }));
  return {
    report: { id: "charts", title: "Charts", description: "Every kind, long texts." },
    generatedAt: new Date("2026-11-28T15:01:00Z"),
    source: "test",
    params: {},
    summary: [],
    sections: [
      ...kinds,
      memorySection({
        id: "bars",
        title: "Bars",
        columns: money,
        rows: amounts,
        chart: { type: "bar", title: "Bars of amounts", label: "name", value: "a" },
      }),
      memorySection({
        id: "stacked",
        title: "Stacked",
        columns: money,
        rows: amounts,
        chart: {
          type: "stackedBar",
          title: "Stacked amounts",
          label: "name",
          segments: [{ key: "a", label: "A" }, { key: "b", label: "B" }],
          currency: "currency",
        },
      }),
    ],
    version: "test",
  };
}

/**
 * Runs in the page: each chart text whose drawn box reaches past its SVG's left or right edge
 * (where the SVG clips it), as "section: text (left–right of 0–width)". `document` is reached
 * through `globalThis` because Deno type-checks this file without the DOM library.
 */
function textsOutsideInPage(): string[] {
  // deno-lint-ignore no-explicit-any
  const doc = (globalThis as any).document;
  const out: string[] = [];
  for (const svg of doc.querySelectorAll("figure.chart svg")) {
    const box = svg.getBoundingClientRect();
    const section = svg.closest("section")?.querySelector("h2")?.textContent ?? "?";
    for (const text of svg.querySelectorAll("text")) {
      const r = text.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) {
        const shown = [...text.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent)
          .join("");
        out.push(
          `${section}: "${shown}" (${Math.round(r.left - box.left)}–${
            Math.round(r.right - box.left)
          } of 0–${Math.round(box.width)})`,
        );
      }
    }
  }
  return out;
}

/** The shown texts of the SVG's `<text>` elements (not their titles), entities resolved. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>(?:<title>[^<]*<\/title>)?([^<]*)<\/text>/g)].map((m) =>
    m[1].replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">")
  );
}

/**
 * Runs in the page: each chart text a line of its chart (a grid line, the "now" line, a guide)
 * runs through, with no white box drawn over the line and under the text, as "section: text".
 */
function textsStruckInPage(): string[] {
  // deno-lint-ignore no-explicit-any
  const doc = (globalThis as any).document;
  const out: string[] = [];
  for (const svg of doc.querySelectorAll("figure.chart svg")) {
    const section = svg.closest("section")?.querySelector("h2")?.textContent ?? "?";
    const lines = [...svg.querySelectorAll("line")].map((l) => l.getBoundingClientRect());
    for (const text of svg.querySelectorAll("text")) {
      const r = text.getBoundingClientRect();
      const struck = lines.some((l) =>
        l.left <= r.right && l.right >= r.left && l.top <= r.bottom && l.bottom >= r.top
      );
      if (!struck) continue;
      const box = text.previousElementSibling;
      const b = box?.getBoundingClientRect();
      const covered = box?.tagName === "rect" && box.getAttribute("fill") === "#fff" &&
        b.left <= r.left + 0.5 && b.right >= r.right - 0.5 && b.top <= r.top + 0.5 &&
        b.bottom >= r.bottom - 0.5;
      if (!covered) out.push(`${section}: "${text.textContent}"`);
    }
  }
  return out;
}

describe("charts found wrong by the visual audit", () => {
  it("draws each timeline item's figure after its name, however long the name", () => {
    const columns: Column[] = [
      { key: "app", label: "Application", type: "text" },
      { key: "eol", label: "End of life", type: "date" },
      { key: "installs", label: "Installations", type: "integer" },
    ];
    const rows = [
      {
        app: "Oracle Database 12c Enterprise Edition 12.1.0.2",
        eol: new Date("2022-03-31"),
        installs: 17,
      },
      {
        app: "Microsoft SQL Server 2014 Enterprise 12.0.6024.0",
        eol: new Date("2024-07-09"),
        installs: 1_204,
      },
      { app: "Java 8", eol: new Date("2030-12-31"), installs: 3 },
    ];
    const svg = timelineSvg(
      {
        type: "timeline",
        title: "End-of-life dates",
        label: "app",
        date: "eol",
        value: "installs",
      },
      rows,
      { id: "t", locale: "en-US", columns, now: new Date("2026-11-28"), total: rows.length },
    );
    const drawn = texts(svg);
    // A long name: the figure on its own after the name cut; a short one: one text, whole.
    for (const figure of ["· 17", "· 1,204"]) {
      assert.ok(drawn.includes(figure), `"${figure}" is drawn: ${drawn.join(" | ")}`);
    }
    assert.ok(drawn.includes("Java 8 · 3"), "a short name is drawn whole with its figure");
    const cut = drawn.find((t) => t.startsWith("Oracle Database 12c"));
    assert.ok(cut?.endsWith("…"), `a long name is cut: ${cut}`);
    assert.ok(svg.includes("<title>Oracle Database 12c Enterprise Edition 12.1.0.2</title>"));
  });

  it("keeps every text of every chart kind inside its chart, measured in Chrome", async () => {
    const html = await renderHtmlString(chartsDocument(), { forPrint: true });
    const page = await testBrowser().newPage();
    try {
      // A4 landscape's printed width, as the PDF lays the charts out.
      await page.setViewport({ width: 1017, height: 900 });
      await page.emulateMediaType("print");
      await page.setContent(html, { waitUntil: "load" });
      const charts = await page.evaluate(() =>
        // deno-lint-ignore no-explicit-any
        (globalThis as any).document.querySelectorAll("figure.chart svg").length
      );
      assert.ok(charts >= 10, `${charts} charts drawn`);
      assert.deepEqual(await page.evaluate(textsOutsideInPage), []);
      assert.deepEqual(await page.evaluate(textsStruckInPage), []);
    } finally {
      await page.close();
    }
  });

  it("keeps a cut label's closing qualifier, the metric that tells two lines apart", async () => {
    const rows = ["Users", "Processor cores"].map((metric, i) => ({
      label: `Microsoft Office Professional Plus 2019 16.0 2019 (${metric})`,
      value: 10 + i,
    }));
    const columns: Column[] = [
      { key: "label", label: "Position", type: "text" },
      { key: "value", label: "Value", type: "integer" },
    ];
    const svg = stackedBarSvg(
      {
        type: "stackedBar",
        title: "Values",
        label: "label",
        segments: [{ key: "value", label: "V" }],
      },
      rows,
      { id: "q", locale: "en-US", columns, now: new Date("2026-11-28"), total: 2 },
    );
    const drawn = texts(svg);
    for (const metric of ["(Users)", "(Processor cores)"]) {
      const line = drawn.find((t) => t.startsWith("Microsoft Office") && t.endsWith(metric));
      assert.ok(line?.includes("…"), `a cut name ending "${metric}": ${drawn.join(" | ")}`);
    }
    // The bar chart of a report's table cuts its labels the same way.
    const html = await renderHtmlString({
      ...chartsDocument(),
      sections: [memorySection({
        id: "bars",
        title: "Bars",
        columns,
        rows,
        chart: { type: "bar", title: "Bars", label: "label", value: "value" },
      })],
    });
    assert.match(html, />Microsoft Office [^<]*… \(Processor cores\)</);
    assert.match(html, />Microsoft Office [^<]*… \(Users\)</);
  });
});
