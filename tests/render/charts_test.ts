import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ChartSpec, Column, Row } from "../../lib/report/model.ts";
import { chartSvg, type SvgChartSpec } from "../../lib/render/charts/chart_svg.ts";
import { chartReadLimit, MAX_CHART_READ, readChartRows } from "../../lib/render/charts/read.ts";
import { escapeXml, num } from "../../lib/render/charts/svg.ts";
import { niceTicks } from "../../lib/render/charts/scale.ts";
import { renderHtmlString } from "../../lib/render/html.ts";
import { PdfRenderer } from "../../lib/render/pdf.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { memorySection } from "../../lib/report/spool.ts";
import {
  CHART_FIXTURES,
  chartContext,
  chartDocument,
  heatFixture,
  lineFixture,
  stackedFixture,
  timelineFixture,
} from "./chart_fixtures.ts";
import { demoDocument } from "./fixtures.ts";
import { removeTempDirs, tempDir } from "./helpers.ts";
import { drawnText, elements, parseXml, textOf, XmlError } from "./xml_check.ts";

const HOSTILE_LABEL = `<script>alert("x")</script> & 'quoted' "A&B"`;

function draw(kind: string, count: number, label?: (i: number) => string) {
  const f = CHART_FIXTURES[kind];
  const rows = f.rows(count, label);
  const svg = chartSvg(f.spec as SvgChartSpec, rows, chartContext(f.columns, rows.length));
  return { svg, rows };
}

/** Every drawn `<text>` of an SVG with its full text (its `<title>`) when cut. */
function texts(svg: string): { shown: string; full: string }[] {
  return elements(parseXml(svg), "text").map((t) => ({ shown: drawnText(t), full: textOf(t) }));
}

describe("xml check", () => {
  it("rejects what is not well-formed", () => {
    for (const bad of ["<a><b></a></b>", "<a>x & y</a>", "<a b=c/>", "<a></a><b/>", "<a>"]) {
      assert.throws(() => parseXml(bad), XmlError, bad);
    }
    assert.equal(textOf(parseXml("<a>x &amp; <b>y</b></a>")), "x & y");
  });
});

describe("chart helpers", () => {
  it("escapes markup, rounds coordinates, picks nice ticks", () => {
    assert.equal(escapeXml(`<&>"'`), "&lt;&amp;&gt;&quot;&#39;");
    assert.equal(num(-0.04), "0");
    assert.deepEqual(niceTicks(0, 0), [0, 1]);
    assert.deepEqual(niceTicks(0, 87), [0, 20, 40, 60, 80, 100]);
    assert.deepEqual(niceTicks(-5, 87, 4), [-50, 0, 50, 100]);
  });
});

for (const kind of Object.keys(CHART_FIXTURES)) {
  describe(`${kind} chart`, () => {
    it("is well-formed SVG with an accessible title and description, and deterministic", () => {
      const { svg } = draw(kind, 8);
      const root = parseXml(svg);
      assert.equal(root.name, "svg");
      assert.equal(root.attrs.role, "img");
      assert.equal(root.attrs["aria-labelledby"], "t-chart-title t-chart-desc");
      const [title, desc] = root.children as { name: string; attrs: Record<string, string> }[];
      assert.equal(title.name, "title");
      assert.equal(desc.name, "desc");
      assert.equal(textOf(root.children[0] as never), CHART_FIXTURES[kind].spec.title);
      assert.ok(textOf(root.children[1] as never).length > 20);
      assert.equal(draw(kind, 8).svg, svg);
      assert.equal(/script|url\(|href|xmlns|style=|\bid="(?!t-chart-)/i.test(svg), false);
    });

    it("escapes hostile labels", () => {
      const { svg } = draw(kind, 3, () => HOSTILE_LABEL);
      parseXml(svg);
      assert.equal(svg.includes("<script"), false);
      assert.ok(svg.includes("&lt;script&gt;"));
      assert.ok(
        texts(svg).some((t) => t.full.includes(HOSTILE_LABEL) || t.full.includes("<script>")),
      );
    });

    it("draws nothing for no rows, and one row", () => {
      const f = CHART_FIXTURES[kind];
      assert.equal(chartSvg(f.spec as SvgChartSpec, [], chartContext(f.columns, 0)), "");
      const { svg } = draw(kind, 1);
      parseXml(svg);
      assert.ok(svg.length > 200);
    });

    it("cuts long labels with an ellipsis and keeps the full text in a title", () => {
      const long = (i: number) => `${"Very long application name ".repeat(6)}${i}`;
      const { svg } = draw(kind, 2, long);
      const cut = texts(svg).filter((t) => t.shown.endsWith("…"));
      if (kind === "line") return; // the line chart has no row labels
      assert.ok(cut.length >= 1, kind);
      for (const t of cut) assert.ok(t.full.includes(long(0)) || t.full.includes(long(1)));
      for (const t of cut) assert.ok([...t.shown].length <= 41);
    });

    it("stays bounded with 200 rows and says what it shows", () => {
      const { svg } = draw(kind, 200);
      const root = parseXml(svg);
      assert.ok(svg.length < 400_000, `${svg.length}`);
      const height = Number(root.attrs.viewBox.split(" ")[3]);
      assert.ok(height < 1400, `${height}`);
      assert.match(drawnText(root), /(First|Latest|first|latest) \d+ of [\d,]+/);
    });
  });
}

describe("stackedBar chart", () => {
  it("draws a segment per positive value, the total, and the legend in series order", () => {
    const { svg, rows } = draw("stackedBar", 3);
    const shown = texts(svg).map((t) => t.shown);
    assert.deepEqual(shown.slice(0, 4), ["Licensed", "Covered by suite", "Uncovered", "Free"]);
    const total = ["licensed", "covered", "uncovered", "free"].reduce(
      (s, k) => s + Number(rows[0][k]),
      0,
    );
    assert.ok(shown.includes(String(total)));
    assert.match(svg, /<title>Application 001 · Free: 5<\/title>/);
    const cut = draw("stackedBar", 200);
    assert.equal(
      elements(parseXml(cut.svg), "g").filter((g) => g.attrs.class === "bar-row").length,
      15,
    );
  });

  it("draws a chart per currency", () => {
    const spec: ChartSpec = {
      type: "stackedBar",
      title: "Spend and shortfall by publisher",
      label: "publisher",
      segments: [{ key: "spend", label: "Spend" }, { key: "shortfall", label: "Shortfall cost" }],
      currency: "currency",
    };
    const columns: Column[] = [
      { key: "publisher", label: "Publisher", type: "text" },
      { key: "spend", label: "Spend", type: "currency" },
      { key: "shortfall", label: "Shortfall", type: "currency" },
    ];
    const rows: Row[] = [
      { publisher: "Microsoft", spend: 1000, shortfall: 200, currency: "EUR" },
      { publisher: "Adobe", spend: 500000, shortfall: 0, currency: "USD" },
      { publisher: "Oracle", spend: 300, shortfall: 50, currency: "EUR" },
    ];
    const svg = chartSvg(spec, rows, chartContext(columns, 3));
    // A chart per currency, each whole (legend, axis, title), so each prints page-sized.
    const roots = svg.split(/(?<=<\/svg>)/);
    assert.equal(roots.length, 2);
    const [eur, usd] = roots.map((root) => texts(root).map((t) => t.shown));
    assert.ok(eur.includes("Amounts in EUR") && usd.includes("Amounts in USD"));
    assert.ok(eur.includes("€1,200.00") && usd.includes("$500,000.00"));
    assert.ok(eur.includes("Oracle") && !usd.includes("Oracle") && usd.includes("Spend"));
    assert.deepEqual(
      roots.map((root) => textOf(elements(parseXml(root), "title")[0])),
      ["Spend and shortfall by publisher (EUR)", "Spend and shortfall by publisher (USD)"],
    );
    // Short labels leave the bars the room (it was 420 px for any label): the longest EUR bar,
    // 1,200 on an axis to 1,800, is longer than two thirds of 420.
    const widths = elements(parseXml(roots[0]), "rect").map((r) => Number(r.attrs.width));
    assert.ok(Math.max(...widths) > 300, `${Math.max(...widths)}`);
  });

  it("says what its rows are the first of: the section's rows, or what the spec names", () => {
    const f = CHART_FIXTURES.stackedBar;
    const rows = f.rows(40);
    const note = (spec: object) =>
      drawnText(parseXml(chartSvg(spec as SvgChartSpec, rows, chartContext(f.columns, 40))));
    assert.match(note({ ...f.spec, top: 5 }), /First 5 of 40 rows\./);
    const valued = { count: 12, noun: "applications with a reclaimable value" };
    assert.match(
      note({ ...f.spec, top: 5, of: valued }),
      /First 5 of 12 applications with a reclaimable value\./,
    );
    const all = note({ ...f.spec, top: 12, of: valued });
    assert.doesNotMatch(all, /First \d+ of/, "every row it is the first of is drawn: no note");
  });
});

describe("heatMap chart", () => {
  it("colours cells by status with a legend, marks unknown and missing cells", () => {
    const rows = heatFixture.rows(2).filter((r) =>
      !(r.connector === "Connector 2" && r.month === "2024-03")
    );
    const svg = chartSvg(
      heatFixture.spec as SvgChartSpec,
      rows,
      chartContext(heatFixture.columns, rows.length),
    );
    const shown = texts(svg).map((t) => t.shown);
    for (const label of ["OK", "Failed", "Never ran", "Not created", "Other", "No record"]) {
      assert.ok(shown.includes(label), label);
    }
    assert.match(svg, /<title>Connector 1 · 2024-03: Failed<\/title>/);
    assert.match(svg, /<title>Connector 2 · 2024-03: No record<\/title>/);
  });

  it("keeps the first rows and the latest columns", () => {
    const rows = Array.from(
      { length: 30 },
      (_, m) => ({ connector: "A", month: `m${String(m).padStart(2, "0")}`, status: "ok" }),
    );
    const svg = chartSvg(
      heatFixture.spec as SvgChartSpec,
      rows,
      chartContext(heatFixture.columns, 30),
    );
    assert.equal((svg.match(/<title>A · /g) ?? []).length, 24);
    assert.ok(svg.includes("A · m29") && !svg.includes("A · m05:"));
    assert.match(drawnText(parseXml(svg)), /Latest 24 of 30 columns\./);
    const { svg: big } = draw("heatMap", 200);
    assert.match(drawnText(parseXml(big)), /First 20 of 200 rows\./);
  });

  it("shades numbers without statuses and prints them", () => {
    const spec: ChartSpec = {
      type: "heatMap",
      title: "Installs",
      row: "org",
      column: "month",
      value: "n",
    };
    const rows = [{ org: "X", month: "a", n: 0 }, { org: "X", month: "b", n: 50 }, {
      org: "Y",
      month: "a",
      n: 100,
    }];
    const svg = chartSvg(spec, rows, chartContext([], 3));
    const shown = texts(svg).map((t) => t.shown);
    assert.ok(
      shown.includes("50") && shown.includes("100 (highest)") && shown.includes("No record"),
    );
  });
});

describe("timeline chart", () => {
  it("draws now, the 12-month band and each phase with its own mark", () => {
    const rows: Row[] = [
      { application: "Old", endOfLife: new Date("2023-01-01T00:00:00Z"), installations: 1 },
      { application: "Soon", endOfLife: new Date("2024-11-01T00:00:00Z"), installations: 2 },
      { application: "Later", endOfLife: new Date("2027-06-01T00:00:00Z"), installations: 3 },
      { application: "Undated", endOfLife: null, installations: 4 },
    ];
    const svg = chartSvg(
      timelineFixture.spec as SvgChartSpec,
      rows,
      chartContext(timelineFixture.columns, 4),
    );
    const shown = texts(svg).map((t) => t.shown);
    assert.ok(shown.includes("Now (May 1, 2024)"));
    assert.ok(shown.includes("Ends within 12 months"));
    assert.ok(
      shown.includes("Old · 1") && shown.includes("Soon · 2") && !shown.includes("Undated · 4"),
    );
    const desc = textOf(parseXml(svg).children[1] as never);
    assert.match(desc, /3 dated items: 1 ended, 1 ends within 12 months, 1 later/);
    const items = elements(parseXml(svg), "g").filter((g) => g.attrs.class === "timeline-item");
    assert.deepEqual(
      items.map((g) =>
        (g.children.find((c) => typeof c !== "string" && /rect|path|circle/.test(c.name)) as {
          name: string;
        }).name
      ),
      ["rect", "path", "circle"],
    );
  });
});

describe("line chart", () => {
  it("draws one axis per currency, breaks lines at missing values, keeps the latest points", () => {
    const { svg } = draw("line", 8);
    const shown = texts(svg).map((t) => t.shown);
    assert.ok(shown.includes("Amounts in EUR") && shown.includes("Amounts in USD"));
    assert.ok(shown.includes("Spend") && shown.includes("Shortfall cost"));
    // Shortfall is missing at the 4th run: two pieces per currency.
    assert.equal((svg.match(/<polyline/g) ?? []).length, 2 + 4);
    assert.match(svg, /<title>Spend · Jan 1, 2024: €100,000.00<\/title>/);
    const many = draw("line", 100);
    assert.match(drawnText(parseXml(many.svg)), /EUR: Latest 24 of 100 points\./);
    const ticks = elements(parseXml(many.svg), "text").map(drawnText).filter((t) =>
      /, 20\d\d$/.test(t)
    );
    assert.ok(ticks.length <= 2 * 12, `${ticks.length} x labels`);
  });
});

describe("charts in HTML", () => {
  it("reads at most the rows a chart needs", async () => {
    let read = 0;
    async function* rows() {
      for (let n = 0; n < 100_000; n++) {
        read++;
        yield { n };
      }
    }
    assert.equal((await readChartRows(rows(), chartReadLimit(stackedFixture.spec))).length, 15);
    assert.equal(read, 15);
    assert.equal(chartReadLimit(lineFixture.spec), MAX_CHART_READ);
  });

  it("embeds one well-formed chart per section with unique ids, no external reference", async () => {
    const html = await renderHtmlString(chartDocument());
    const svgs = [...html.matchAll(/<svg class="chart-svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    assert.equal(svgs.length, 4);
    const ids = svgs.map((svg) => parseXml(svg).attrs["aria-labelledby"]);
    assert.equal(new Set(ids).size, 4);
    assert.equal(ids[0], "section-1-stackedbar-chart-title section-1-stackedbar-chart-desc");
    assert.equal(/url\(|<script|xlink:href/i.test(html), false);
  });

  it("puts the SVG only where the template marks it (data cannot forge the marker)", async () => {
    const marker = "<!--samkit:chart-->";
    const spec = { ...timelineFixture.spec, title: marker } as ChartSpec;
    const section = memorySection({
      id: "t",
      title: marker,
      description: marker,
      columns: timelineFixture.columns,
      rows: timelineFixture.rows(3),
      chart: spec,
    });
    const html = await renderHtmlString(demoDocument([section]));
    assert.equal((html.match(/<svg class="chart-svg/g) ?? []).length, 1);
    assert.equal(html.includes(marker), false);
    assert.ok(html.includes("&lt;!--samkit:chart--&gt;"));
  });

  it("draws no chart for an empty section and keeps the bar chart as it was", async () => {
    const empty = memorySection({
      id: "e",
      title: "E",
      columns: timelineFixture.columns,
      rows: [],
      chart: timelineFixture.spec,
    });
    assert.equal(
      (await renderHtmlString(demoDocument([empty]))).includes('<svg class="chart-svg'),
      false,
    );
    const bars = await renderHtmlString(demoDocument());
    assert.ok(
      bars.includes('<svg class="bars" role="img" aria-label="Annual cost (top products)"'),
    );
  });
});

describe("charts in PDF", () => {
  let browser: BrowserHandle;
  before(() => {
    browser = launchBrowser();
  });
  after(async () => {
    await browser.close();
    await removeTempDirs();
  });

  it("prints each kind's title and legend", async () => {
    const outDir = await tempDir();
    const [path] = await new PdfRenderer().render(chartDocument(), { outDir, browser });
    const out = await new Deno.Command("pdftotext", {
      args: ["-layout", path, "-"],
      stdout: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    for (
      const expected of [
        "Installations per entitlement state",
        "Covered by suite",
        "Connector retrievals per month",
        "Never ran",
        "End-of-life dates",
        "Ends within 12 months",
        "Now (May 1, 2024)",
        "Spend and shortfall per run",
        "Amounts in USD",
        "Shortfall cost",
      ]
    ) {
      assert.ok(text.includes(expected), expected);
    }
  });
});
