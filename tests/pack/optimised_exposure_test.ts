/**
 * The optimised exposure in the pack summary: per currency, the figures of the run's own
 * license-optimization `currencies` section (never recomputed), the same sentence in the text
 * part, the HTML part and summary.pdf, carried by summary.json, and no such line when the pack
 * has no license-optimization report.
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
import { summaryText, summaryView } from "../../lib/pack/summary_view.ts";
import type { Change } from "../../lib/pack/figures.ts";
import type { Manifest } from "../../lib/pack/manifest.ts";

const TOKEN = "optimised-exposure-token";
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
  return `Optimised exposure: ${money(r.costAfter)} after harvest and reallocation ` +
    `(ELP ${money(r.costBefore)}; ${money(r.moneySaved)} saved; ${r.closed} of ${r.short} ` +
    "positions closed)";
}

describe("the optimised exposure in the pack summary", () => {
  let fx: PackFixture;
  let withReport: PackRunResult;
  let without: PackRunResult;
  let rows: CurrencyRow[] = [];

  before(async () => {
    fx = await startPackFixture({ prefix: "optimised-", token: TOKEN });
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
    });
    without = await runPack({
      pack: pack("position-only", [{ id: "license-position", formats: ["json"] }]),
      reports: REPORTS,
      outRoot: fx.dir,
      source,
    });
    const json = JSON.parse(await Deno.readTextFile(`${withReport.dir}/license-optimization.json`));
    rows = json.sections.find((s: { id: string }) => s.id === "currencies").rows;
  });

  after(() => fx?.close());

  it("carries in summary.json the figures of the same run's license-optimization currencies section", async () => {
    assert.ok(withReport.ok, JSON.stringify(withReport.manifest.reports));
    assert.ok(rows.length >= 1, "the estate has priced short positions");
    assert.ok(rows.some((r) => r.closed > 0 && r.moneySaved > 0), JSON.stringify(rows));
    const summary = JSON.parse(await Deno.readTextFile(`${withReport.dir}/summary.json`));
    const expected = Object.fromEntries(rows.map((r) => [r.currency, {
      costAfter: r.costAfter,
      costBefore: r.costBefore,
      moneySaved: r.moneySaved,
      closed: r.closed,
      short: r.short,
    }]));
    assert.deepEqual(summary.headline.optimisedExposure, expected);
  });

  it("states one sentence per currency, the same in the text part, the HTML part and summary.pdf", async () => {
    const { text, html } = await parts(withReport);
    const visible = htmlVisibleText(html);
    const pdf = await pdfText(`${withReport.dir}/summary.pdf`);
    const stated = text.split("\n").map((l) => l.trim()).filter((l) =>
      l.startsWith("Optimised exposure:")
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

  it("shows no optimised exposure when the pack has no license-optimization report", async () => {
    assert.ok(without.ok, JSON.stringify(without.manifest.reports));
    const { text, html } = await parts(without);
    assert.ok(text.includes("Shortfall cost ("), "the ELP's exposure is still shown");
    assert.ok(!text.includes("Optimised exposure"), text);
    assert.ok(!html.includes("Optimised exposure"));
    assert.ok(!(await pdfText(`${without.dir}/summary.pdf`)).includes("Optimised exposure"));
    const summary = JSON.parse(await Deno.readTextFile(`${without.dir}/summary.json`));
    assert.deepEqual(summary.headline.optimisedExposure, {});
  });

  it("is the trends report's optimised exposure per run and currency, only for a pack that runs the report", async () => {
    const optimisedTrend = await trendSections(`${fx.dir}/optimised`);
    for (const r of rows) {
      const money = optimisedTrend.find((s) => s.id === `money-${r.currency.toLowerCase()}`);
      assert.equal(money?.rows[0].optimisedExposure, r.costAfter, r.currency);
    }
    for (const s of await trendSections(`${fx.dir}/position-only`)) {
      assert.ok(!s.columns.some((c) => c.key === "optimisedExposure"), s.id);
    }
  });
});

describe("the optimised exposure among what moved", () => {
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
    assert.match(text, /Optimised exposure \(EUR\) +€1,000\.00 +€900\.00 +-€100\.00/);
    assert.ok(!text.includes("Optimisation:"), text);
    assert.match(text, /2 other figures moved/);
    assert.ok(
      text.includes(
        "Optimised exposure: €900.00 after harvest and reallocation (ELP €5,000.00; " +
          "€4,100.00 saved; 3 of 4 positions closed)",
      ),
      text,
    );
  });
});
