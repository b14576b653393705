/**
 * The pack summary in a reporting currency: the example pack `packs/weekly_audit_eur.json` (its
 * reports in the formats read here) run against the reference server states, beside the
 * per-currency figures, the reports' own "…, all currencies (EUR)" totals (read back here from
 * each report's XLSX Summary, not from the pack's figures), the rates and their date as the
 * reports state them, the same in the text part, the HTML part and summary.pdf; the same pack
 * without a reporting currency shows none of it and the same per-currency figures; the trends
 * report over the pack's runs shows each run's all-currency totals with the rates that run used.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { REPORTS } from "../../reports/mod.ts";
import { type PackFile, readPackFile } from "../../lib/pack/pack_file.ts";
import { type PackRunResult, runPack } from "../../lib/pack/run_pack.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { summaryText, summaryView } from "../../lib/pack/summary_view.ts";
import { addReportRates } from "../../lib/pack/summary_rates.ts";
import type { Change } from "../../lib/pack/figures.ts";
import type { Manifest } from "../../lib/pack/manifest.ts";
import { ROOT } from "../helpers/cli.ts";
import { type PackFixture, startPackFixture } from "../helpers/pack_fixture.ts";
import { htmlVisibleText, mailParts, pdfText, trendSections } from "../helpers/pack_summary.ts";

const TOKEN = "reporting-currency-summary-token";
/** The run's day: the example rates of 2026-11-20 are the latest on or before it. */
const RUN_AT = new Date("2026-11-23T06:00:00Z");
const STATEMENT = "1 EUR = 0.88045 GBP = 1.15285 USD (rates of 2026-11-20, fx_rates.example.csv)";
/** An earlier run's day: the example rates of 2026-01-02 are the latest on or before it. */
const EARLIER_AT = new Date("2026-06-01T06:00:00Z");
const EARLIER_STATEMENT =
  "1 EUR = 0.87335 GBP = 1.17025 USD (rates of 2026-01-02, fx_rates.example.csv)";

/** The "Key figures" of a report's XLSX Summary sheet, label → value. */
async function keyFigures(path: string): Promise<Map<string, unknown>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const out = new Map<string, unknown>();
  let inFigures = false;
  book.getWorksheet("Summary")!.eachRow((row) => {
    const [label, value] = [row.getCell(1).value, row.getCell(2).value];
    if (label === "Key figures") inFigures = true;
    else if (inFigures && value === null) inFigures = false;
    else if (inFigures) out.set(String(label), value);
  });
  return out;
}

async function parts(run: PackRunResult): Promise<{ text: string; html: string; pdf: string }> {
  return { ...await mailParts(run.eml!), pdf: await pdfText(`${run.dir}/summary.pdf`) };
}

/** Money as the summary writes it, formatted here, separately. */
const eur = (v: unknown) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" }).format(v as number);

describe("the weekly audit pack's summary in EUR", () => {
  let fx: PackFixture;
  let inEur: PackRunResult;
  let plain: PackRunResult;
  let earlier: PackRunResult;
  /** The runs print their PDFs with one browser. */
  let browser: BrowserHandle;

  before(async () => {
    fx = await startPackFixture({ prefix: "summary-eur-", token: TOKEN, now: RUN_AT });
    browser = launchBrowser();
    const example = await readPackFile(`${ROOT}packs/weekly_audit_eur.json`, REPORTS);
    // The example names its rates relative to the project folder; the test may run elsewhere.
    // What is read here is the summary and each report's XLSX: the reports' other formats go,
    // but for the PDF the mail attaches.
    const pack: PackFile = {
      ...example,
      reportingCurrency: { code: "EUR", fxRates: `${ROOT}packs/fx_rates.example.csv` },
      reports: example.reports.map((r) => ({
        ...r,
        formats: r.formats.filter((f) =>
          f === "xlsx" || f === "json" || (f === "pdf" && example.email?.attach.includes(r.id))
        ),
      })),
    };
    const run = (p: PackFile, at = RUN_AT) =>
      runPack({
        pack: p,
        reports: REPORTS,
        outRoot: fx.dir,
        source: fx.source,
        now: () => at,
        browser,
      });
    inEur = await run(pack);
    // Only the summary's figures matter in the other runs: one cheap format per report.
    const cheap = pack.reports.map((r) => ({ ...r, formats: ["json" as const] }));
    // The earlier run is read by the trends report only (its summary.json): no mail, no browser.
    const { email: _email, ...unmailed } = pack;
    earlier = await run({ ...unmailed, reports: cheap }, EARLIER_AT);
    const { reportingCurrency: _, ...withoutCurrency } = pack;
    plain = await run({
      ...withoutCurrency,
      name: "weekly-audit-plain",
      reports: cheap,
    });
  });

  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it("carries in summary.json the all-currency totals of the reports' own Summary sheets", async () => {
    assert.ok(inEur.ok, JSON.stringify(inEur.manifest.reports));
    const summary = JSON.parse(await Deno.readTextFile(`${inEur.dir}/summary.json`));
    const cost = await keyFigures(`${inEur.dir}/license-cost-summary.xlsx`);
    const position = await keyFigures(`${inEur.dir}/license-position.xlsx`);
    const optimisation = await keyFigures(`${inEur.dir}/license-optimization.xlsx`);
    assert.ok(cost.has("Cost to date (GBP)"), "the estate has money in three currencies");
    assert.deepEqual(summary.headline.converted, {
      currency: "EUR",
      shortfallCost: position.get("Shortfall cost, all currencies (EUR)"),
      remainingPurchaseNeed: optimisation.get("Remaining purchase need, all currencies (EUR)"),
      moneySaved: optimisation.get("Money saved, all currencies (EUR)"),
      costToDate: cost.get("Cost to date, all currencies (EUR)"),
      runRate: cost.get("Annual run rate, all currencies (EUR)"),
    });
    for (const v of Object.values(summary.headline.converted).slice(1)) {
      assert.equal(typeof v, "number", JSON.stringify(summary.headline.converted));
    }
    assert.equal(summary.reportingCurrency.statement, cost.get("Reporting currency"));
    assert.equal(summary.reportingCurrency.statement, STATEMENT);
  });

  it("states the converted totals beside the per-currency figures, the same in the text part, HTML part and summary.pdf", async () => {
    const { text, html, pdf } = await parts(inEur);
    const visible = htmlVisibleText(html);
    const cost = await keyFigures(`${inEur.dir}/license-cost-summary.xlsx`);
    const position = await keyFigures(`${inEur.dir}/license-position.xlsx`);
    const optimisation = await keyFigures(`${inEur.dir}/license-optimization.xlsx`);
    const shortfall = eur(position.get("Shortfall cost, all currencies (EUR)"));
    const line = (s: string) => text.split("\n").find((l) => l.trim().startsWith(s))?.trim();
    const exposureRow = line("Shortfall cost, all currencies (EUR)");
    assert.match(
      exposureRow ?? "",
      new RegExp(`^Shortfall cost, all currencies \\(EUR\\) +\\${shortfall}$`),
    );
    const costRow = line("All currencies (EUR)");
    assert.match(
      costRow ?? "",
      new RegExp(
        `^All currencies \\(EUR\\) +\\${eur(cost.get("Cost to date, all currencies (EUR)"))} +` +
          `\\${eur(cost.get("Annual run rate, all currencies (EUR)"))}$`,
      ),
    );
    const optimised = `Remaining purchase need, all currencies (EUR): ${
      eur(optimisation.get("Remaining purchase need, all currencies (EUR)"))
    } after harvest and reallocation (${
      eur(optimisation.get("Money saved, all currencies (EUR)"))
    } saved)`;
    assert.equal(line("Remaining purchase need, all currencies"), optimised);
    // Each total right after the figures in their own currency that it converts.
    const at = (s: string) => text.indexOf(s);
    assert.ok(at("Shortfall cost (USD)") < at(exposureRow!), text);
    assert.ok(at(exposureRow!) < at("Unpriced shortfalls"), text);
    assert.ok(at("Remaining purchase need: $") < at(optimised), text);
    assert.ok(at("\n  USD ") < at(costRow!), text);
    for (const shown of [STATEMENT, shortfall, optimised, ...costRow!.split(/ {2,}/)]) {
      assert.ok(text.includes(shown), `text part: ${shown}`);
      assert.ok(visible.includes(shown), `HTML part: ${shown}`);
      assert.ok(pdf.includes(shown), `summary.pdf: ${shown}\n${pdf}`);
    }
  });

  it("states the rates and their date once, as the reports state them", async () => {
    const { text } = await parts(inEur);
    const stated = text.split("\n").filter((l) => l.includes("rates of"));
    assert.equal(stated.length, 1, text);
    assert.ok(stated[0].startsWith(`Reporting currency EUR: ${STATEMENT}.`), stated[0]);
    assert.ok(!text.includes("Currencies are never added together"), text);
  });

  it("without a reporting currency shows no converted total, no rates, and the same per-currency figures", async () => {
    assert.ok(plain.ok, JSON.stringify(plain.manifest.reports));
    const { text, html, pdf } = await parts(plain);
    for (const part of [text, html, pdf]) {
      assert.ok(!part.includes("all currencies"), part);
      assert.ok(!part.includes("All currencies"), part);
      assert.ok(!part.includes("Reporting currency"), part);
    }
    assert.ok(text.includes("Currencies are never added together."), text);
    const read = async (run: PackRunResult) =>
      JSON.parse(await Deno.readTextFile(`${run.dir}/summary.json`));
    const [withRates, without] = [await read(inEur), await read(plain)];
    assert.equal(without.reportingCurrency, undefined);
    assert.equal(without.headline.converted, undefined);
    const { converted: _, ...perCurrency } = withRates.headline;
    assert.deepEqual(without.headline, perCurrency);
  });

  it("trends show each run's all-currency totals with the rates that run used", async () => {
    assert.ok(earlier.ok, JSON.stringify(earlier.manifest.reports));
    const sections = await trendSections(`${fx.dir}/${inEur.manifest.pack}`);
    const converted = sections.find((s) => s.id === "converted-eur");
    const expected = async (run: PackRunResult, rates: string) => {
      const summary = JSON.parse(await Deno.readTextFile(`${run.dir}/summary.json`));
      const { costToDate, shortfallCost, remainingPurchaseNeed } = summary.headline.converted;
      return { costToDate, shortfallCost, remainingPurchaseNeed, rates };
    };
    const shown = converted?.rows.map((r) => ({
      costToDate: r.costToDate,
      shortfallCost: r.shortfallCost,
      remainingPurchaseNeed: r.remainingPurchaseNeed,
      rates: r.rates,
    }));
    assert.deepEqual(shown, [
      await expected(earlier, EARLIER_STATEMENT),
      await expected(inEur, STATEMENT),
    ]);
    assert.notEqual(shown![0].costToDate, shown![1].costToDate, "other rates, another total");
    const plainTrends = await trendSections(`${fx.dir}/${plain.manifest.pack}`);
    assert.ok(!plainTrends.some((s) => s.id.startsWith("converted-")), "none without the option");
  });
});

describe("the converted totals among what moved", () => {
  const manifest = {
    pack: "weekly-audit-eur",
    started: "2026-11-23T06:00:00.000Z",
    status: "complete",
    source: "test",
    reports: [],
  } as unknown as Manifest;
  const change = (key: string, currency: string, value: number, previous: number): Change => ({
    key,
    report: key.split("|")[0],
    label: key.split("|").pop()!,
    value,
    type: "currency",
    currency,
    previous,
    delta: Math.round((value - previous) * 100) / 100,
  });

  it("lists a moved converted total under its label and says that rates move it too", () => {
    const rates = addReportRates(null, {
      reportingCurrency: {
        code: "EUR",
        rates: [{ currency: "USD", rate: "1.15285", date: "2026-11-20" }],
      },
    }, "fx.csv");
    const view = summaryView({
      manifest,
      titles: {},
      changes: [
        change("license-cost-summary|fact|Cost to date (USD)", "USD", 1000, 1000),
        change("license-cost-summary|fact|Cost to date, all currencies (EUR)", "EUR", 867.42, 860),
      ],
      previousStarted: "2026-11-16T06:00:00.000Z",
      rates,
    });
    const text = summaryText(view).join("\n");
    assert.match(text, /Cost to date, all currencies \(EUR\) +€860\.00 +€867\.42 +\+€7\.42/);
    assert.ok(!/^ +Cost to date \(USD\)/m.test(text), "an unmoved figure is not listed");
    assert.match(text, /also moves when the rates move/);
    assert.match(
      text,
      /Reporting currency EUR: 1 EUR = 1\.15285 USD \(rates of 2026-11-20, fx\.csv\)/,
    );
  });

  it("gathers one rate per currency over the run's reports, whichever report used it", () => {
    const doc = (...currencies: string[]) => ({
      reportingCurrency: {
        code: "EUR",
        rates: currencies.map((currency) => ({
          currency,
          rate: currency === "EUR" ? "1" : currency === "GBP" ? "0.88045" : "1.15285",
          date: currency === "EUR" ? null : "2026-11-20",
        })),
      },
    });
    let rates = addReportRates(null, doc("EUR", "USD"), "fx.csv");
    rates = addReportRates(rates, {}, "fx.csv");
    rates = addReportRates(rates, doc("GBP", "USD"), "fx.csv");
    assert.deepEqual(rates?.rates.map((r) => r.currency), ["EUR", "GBP", "USD"]);
    assert.equal(
      rates?.statement,
      "1 EUR = 0.88045 GBP = 1.15285 USD (rates of 2026-11-20, fx.csv)",
    );
    assert.equal(addReportRates(null, {}, "fx.csv"), null);
  });
});
