/**
 * The monthly finance pack is what finance plans with: `packs/monthly_finance.json` run twice
 * against the reference server (a month apart) has license-cost-summary and renewals in one
 * reporting currency (EUR), its summary leads with the software cost (cost to date beside the
 * annual run rate, and their all-currencies totals in EUR), says what moved since the previous
 * month's run, and its renewals report plans month by month.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { REPORTS } from "../../reports/mod.ts";
import { type PackFile, readPackFile } from "../../lib/pack/pack_file.ts";
import { type PackRunResult, runPack } from "../../lib/pack/run_pack.ts";
import { ROOT } from "../helpers/cli.ts";
import { type PackFixture, startPackFixture } from "../helpers/pack_fixture.ts";
import { mailParts } from "../helpers/pack_summary.ts";

const TOKEN = "monthly-finance-token";
const RUN_AT = new Date("2026-12-01T06:00:00Z");
const EARLIER_AT = new Date("2026-11-02T06:00:00Z");

describe("the monthly finance pack", () => {
  let fx: PackFixture;
  let now: PackRunResult;

  before(async () => {
    fx = await startPackFixture({ prefix: "monthly-finance-", token: TOKEN, now: RUN_AT });
    const example = await readPackFile(`${ROOT}packs/monthly_finance.json`, REPORTS);
    assert.equal(example.reportingCurrency?.code, "EUR");
    // The example names its rates relative to the project folder; the test may run elsewhere.
    const pack: PackFile = {
      ...example,
      reportingCurrency: { code: "EUR", fxRates: `${ROOT}packs/fx_rates.example.csv` },
      reports: example.reports.map((r) => ({ ...r, formats: ["json" as const] })),
    };
    const run = (at: Date) =>
      runPack({ pack, reports: REPORTS, outRoot: fx.dir, source: fx.source, now: () => at });
    await run(EARLIER_AT);
    now = await run(RUN_AT);
  });

  after(async () => {
    await fx?.close();
  });

  it("runs the cost summary and the renewals in EUR, and leads its summary with the software cost", async () => {
    assert.deepEqual(now.manifest.reports.map((r) => [r.id, r.status]), [
      ["license-cost-summary", "ok"],
      ["renewals", "ok"],
    ]);
    const summary = JSON.parse(await Deno.readTextFile(`${now.dir}/summary.json`));
    const converted = summary.headline.converted;
    assert.equal(converted.currency, "EUR");
    assert.equal(typeof converted.costToDate, "number");
    assert.equal(typeof converted.runRate, "number");
    assert.ok(Object.keys(summary.headline.costToDate).length >= 2, "several currencies");
    const { text } = await mailParts(now.eml!);
    const cost = text.indexOf("Software cost");
    assert.ok(cost >= 0, text.slice(0, 400));
    assert.equal(text.indexOf("Compliance exposure"), -1, "nothing leads with an exposure");
    assert.match(text, /All currencies \(EUR\)/);
    assert.match(text, /What moved since/);
  });

  it("plans renewals month by month in every currency and in EUR", async () => {
    const json = JSON.parse(await Deno.readTextFile(`${now.dir}/renewals.json`));
    const months = json.sections.find((s: { id: string }) => s.id === "months");
    assert.ok(months.rows.length >= 12);
    assert.ok(months.columns.some((c: { key: string }) => c.key === "annualCostInEUR"));
    assert.ok("all currencies (EUR)" in months.totals);
  });
});
