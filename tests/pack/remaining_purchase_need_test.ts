/**
 * The remaining purchase need in the pack summary: per currency, the figures of the run's own
 * license-optimization `currencies` section (never recomputed), the same sentence in the text
 * part, the HTML part and summary.pdf, carried by summary.json under the same name
 * (`remainingPurchaseNeed`), and no such line when the pack has no license-optimization report.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type PackFixture, startPackFixture } from "../helpers/pack_fixture.ts";
import {
  htmlVisibleText,
  mailParts,
  pdfText,
  testEmail,
  trendSections,
} from "../helpers/pack_summary.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { type PackRunResult, runPack } from "../../lib/pack/run_pack.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { summaryText, summaryView } from "../../lib/pack/summary_view.ts";
import type { Change, Figure } from "../../lib/pack/figures.ts";
import type { Manifest } from "../../lib/pack/manifest.ts";
import { compareWithEarlier } from "../../lib/pack/comparison.ts";
import { headlineFigures } from "../../lib/pack/headline.ts";
import { readHistory } from "../../lib/sam/trends_history.ts";
import { convertedRows, moneyRows } from "../../lib/sam/trends_rows.ts";

const TOKEN = "remaining-purchase-need-token";
const EMAIL = testEmail("sam@example.test");

interface CurrencyRow {
  readonly currency: string;
  readonly short: number;
  readonly closed: number;
  readonly costBefore: number;
  readonly moneySaved: number;
  readonly costAfter: number;
}

const parts = (run: PackRunResult) => mailParts(run.eml!);

/** The sentence the summary must state for one `currencies` row, formatted here, separately. */
function expectedSentence(r: CurrencyRow): string {
  const money = (v: number) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: r.currency }).format(v);
  return `Remaining purchase need: ${money(r.costAfter)} after harvest and reallocation ` +
    `(ELP ${money(r.costBefore)}; ${money(r.moneySaved)} saved; ${r.closed} of ${r.short} ` +
    "positions closed)";
}

describe("the remaining purchase need in the pack summary", () => {
  let fx: PackFixture;
  let withReport: PackRunResult;
  let without: PackRunResult;
  let rows: CurrencyRow[] = [];
  /** Both runs print their summary.pdf with one browser. */
  let browser: BrowserHandle;

  before(async () => {
    fx = await startPackFixture({ prefix: "optimised-", token: TOKEN });
    browser = launchBrowser();
    const source = fx.source;
    const pack = (name: string, reports: { id: string; formats: string[] }[]) =>
      validatePack({ name, reports, email: EMAIL }, { file: `${name}.json`, reports: REPORTS });
    withReport = await runPack({
      pack: pack("optimised", [
        { id: "license-position", formats: ["json"] },
        { id: "license-optimization", formats: ["json"] },
      ]),
      reports: REPORTS,
      outRoot: fx.dir,
      source,
      browser,
    });
    without = await runPack({
      pack: pack("position-only", [{ id: "license-position", formats: ["json"] }]),
      reports: REPORTS,
      outRoot: fx.dir,
      source,
      browser,
    });
    const json = JSON.parse(await Deno.readTextFile(`${withReport.dir}/license-optimization.json`));
    rows = json.sections.find((s: { id: string }) => s.id === "currencies").rows;
  });

  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it("carries in summary.json the figures of the same run's license-optimization currencies section", async () => {
    assert.ok(withReport.ok, JSON.stringify(withReport.manifest.reports));
    assert.ok(rows.length >= 1, "the estate has priced short positions");
    assert.ok(rows.some((r) => r.closed > 0 && r.moneySaved > 0), JSON.stringify(rows));
    const summary = JSON.parse(await Deno.readTextFile(`${withReport.dir}/summary.json`));
    const need = Object.fromEntries(rows.map((r) => [r.currency, r.costAfter]));
    assert.deepEqual(summary.headline.remainingPurchaseNeed, need);
    const optimisation = Object.fromEntries(rows.map((r) => [r.currency, {
      costBefore: r.costBefore,
      moneySaved: r.moneySaved,
      closed: r.closed,
      short: r.short,
    }]));
    assert.deepEqual(summary.headline.optimisation, optimisation);
    assert.equal(summary.headline.optimisedExposure, undefined, "one name per figure");
  });

  it("states one sentence per currency, the same in the text part, the HTML part and summary.pdf", async () => {
    const { text, html } = await parts(withReport);
    const visible = htmlVisibleText(html);
    const pdf = await pdfText(`${withReport.dir}/summary.pdf`);
    const stated = text.split("\n").map((l) => l.trim()).filter((l) =>
      l.startsWith("Remaining purchase need:")
    );
    assert.deepEqual(stated, rows.map(expectedSentence), text);
    for (const sentence of stated) {
      assert.ok(visible.includes(sentence), `HTML part: ${sentence}`);
      assert.ok(pdf.includes(sentence), `summary.pdf: ${sentence}\n${pdf}`);
    }
    // Beside the ELP's: in the exposure section, after its figures, before the top risks.
    const at = (s: string) => text.indexOf(s);
    assert.ok(at("Positions short") < at(stated[0]), text);
    assert.ok(at(stated[stated.length - 1]) < at("Top risks by shortfall cost"), text);
  });

  it("shows no remaining purchase need when the pack has no license-optimization report", async () => {
    assert.ok(without.ok, JSON.stringify(without.manifest.reports));
    const { text, html } = await parts(without);
    assert.ok(text.includes("Shortfall cost ("), "the ELP's exposure is still shown");
    assert.ok(!text.includes("Remaining purchase need"), text);
    assert.ok(!html.includes("Remaining purchase need"));
    assert.ok(!(await pdfText(`${without.dir}/summary.pdf`)).includes("Remaining purchase need"));
    const summary = JSON.parse(await Deno.readTextFile(`${without.dir}/summary.json`));
    assert.deepEqual(summary.headline.remainingPurchaseNeed, {});
    assert.deepEqual(summary.headline.optimisation, {});
  });

  it("is the trends report's remaining purchase need per run and currency, only for a pack that runs the report", async () => {
    const optimisedTrend = await trendSections(`${fx.dir}/optimised`);
    for (const r of rows) {
      const money = optimisedTrend.find((s) => s.id === `money-${r.currency.toLowerCase()}`);
      assert.equal(money?.rows[0].remainingPurchaseNeed, r.costAfter, r.currency);
    }
    for (const s of await trendSections(`${fx.dir}/position-only`)) {
      assert.ok(!s.columns.some((c) => c.key === "remainingPurchaseNeed"), s.id);
    }
  });
});

describe("the remaining purchase need among what moved", () => {
  const change = (part: string, value: number, previous: number): Change => ({
    key: `license-optimization|row|currencies|${part}|EUR|EUR`,
    report: "license-optimization",
    label: part,
    value,
    type: ["closed", "short"].includes(part) ? "integer" : "currency",
    currency: "EUR",
    previous,
    delta: value - previous,
  });
  const manifest = {
    pack: "weekly-audit",
    started: "2026-11-23T06:00:00.000Z",
    status: "complete",
    source: "test",
    reports: [],
  } as unknown as Manifest;

  it("lists what is left to buy as a headline change and counts the other parts as other figures", () => {
    const view = summaryView({
      manifest,
      titles: {},
      changes: [
        change("costAfter", 900, 1000),
        change("costBefore", 5000, 5000),
        change("moneySaved", 4100, 4000),
        change("closed", 3, 2),
        change("short", 4, 4),
      ],
      previousStarted: "2026-11-16T06:00:00.000Z",
    });
    const text = summaryText(view).join("\n");
    assert.match(text, /Remaining purchase need \(EUR\) +€1,000\.00 +€900\.00 +-€100\.00/);
    assert.ok(!text.includes("Optimisation:"), text);
    assert.match(text, /2 other figures moved/);
    assert.ok(
      text.includes(
        "Remaining purchase need: €900.00 after harvest and reallocation (ELP €5,000.00; " +
          "€4,100.00 saved; 3 of 4 positions closed)",
      ),
      text,
    );
  });
});

describe("an earlier run's summary.json written when the figure was called optimised exposure", () => {
  const ROOT = new URL("../../", import.meta.url).pathname;
  const SOURCE = "http://sam.test/api";
  const report = { id: "license-optimization", status: "ok", params: {}, formats: ["json"] };
  const manifestOf = (started: string): Manifest => ({
    pack: "weekly-audit",
    status: "complete",
    started,
    finished: started,
    source: SOURCE,
    samkitVersion: "0",
    parameters: {},
    reports: [{ ...report, files: [] }],
    files: [],
  } as Manifest);
  /** A figure of license-optimization's EUR row of "Purchase need per currency", of `type`. */
  const eurRow = (type: string) => ([part, value]: [string, number]): Figure => ({
    key: `license-optimization|row|currencies|${part}|EUR|EUR`,
    report: "license-optimization",
    label: `Purchase need per currency: ${part} (EUR)`,
    value,
    type,
    currency: "EUR",
  });
  /** license-optimization's figures as a run collects them (the keys never changed). */
  const figuresOf = (need: number, needEur: number): Figure[] => [
    ...Object.entries({ costAfter: need, costBefore: 5000, moneySaved: 5000 - need })
      .map(eurRow("currency")),
    ...Object.entries({ closed: 2, short: 4 }).map(eurRow("integer")),
    {
      key: "license-optimization|fact|Remaining purchase need, all currencies (EUR)",
      report: "license-optimization",
      label: "Remaining purchase need, all currencies (EUR)",
      value: needEur,
      type: "currency",
      currency: "EUR",
    },
  ];
  const EARLIER = "2026-11-16T0600Z";
  const NOW = "2026-11-23T0600Z";
  let dir = "";

  before(async () => {
    await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
    dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "purchase-need-" });
    const write = async (run: string, summary: unknown) => {
      await Deno.mkdir(`${dir}/${run}`);
      const started = `${run.slice(0, 13)}:${run.slice(13, 15)}:00.000Z`;
      await Deno.writeTextFile(`${dir}/${run}/manifest.json`, JSON.stringify(manifestOf(started)));
      await Deno.writeTextFile(`${dir}/${run}/summary.json`, JSON.stringify(summary));
    };
    // As a run before the rename wrote it: the headline's old keys beside the same figures.
    await write(EARLIER, {
      pack: "weekly-audit",
      source: SOURCE,
      headline: {
        shortfallCost: {},
        optimisedExposure: {
          EUR: { costAfter: 1000, costBefore: 5000, moneySaved: 4000, closed: 2, short: 4 },
        },
        converted: { currency: "EUR", optimisedExposure: 1100 },
      },
      reportingCurrency: { statement: "1 EUR = 1.1 USD (rates of 2026-11-16, fx.csv)" },
      figures: figuresOf(1000, 1100),
    });
    await write(NOW, {
      pack: "weekly-audit",
      source: SOURCE,
      reportingCurrency: { statement: "1 EUR = 1.1 USD (rates of 2026-11-23, fx.csv)" },
      figures: figuresOf(900, 990),
    });
  });

  after(async () => {
    if (dir) await Deno.remove(dir, { recursive: true });
  });

  it("is read by trends under today's name, per currency and in the reporting currency", async () => {
    const history = await readHistory(dir);
    assert.deepEqual(history.runs.map((r) => r.run), [EARLIER, NOW]);
    assert.deepEqual(history.runs[0].headline.remainingPurchaseNeed, { EUR: 1000 });
    assert.deepEqual(moneyRows(history, "EUR").map((r) => r.remainingPurchaseNeed), [1000, 900]);
    assert.deepEqual(
      convertedRows(history, "EUR").map((r) => r.remainingPurchaseNeed),
      [1100, 990],
    );
  });

  it("is compared with today's remaining purchase need in what moved", async () => {
    const { changes, comparison } = await compareWithEarlier(dir, NOW, {
      source: SOURCE,
      reports: [report],
    }, figuresOf(900, 990));
    assert.equal(comparison.previous?.run, EARLIER);
    const moved = headlineFigures(changes).filter((l) => l.name === "remainingPurchaseNeed")
      .map((l) => [l.label, l.value, l.previous, l.delta]);
    assert.deepEqual(moved, [["Remaining purchase need (EUR)", 900, 1000, -100]]);
    const converted = headlineFigures(changes).find((l) =>
      l.name === "converted" && l.part === "remainingPurchaseNeed"
    );
    assert.deepEqual(
      [converted?.label, converted?.previous, converted?.delta],
      ["Remaining purchase need, all currencies (EUR)", 1100, -110],
    );
  });
});
