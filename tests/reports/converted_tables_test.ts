/**
 * A reporting currency all the way down, and covers that carry the decision, from the files
 * themselves: in every money report run with EUR, every table's converted totals are the sums of
 * their converted rows (per currency, and over all currencies), a currency's converted total is
 * the same cent in every table that states it, a row's converted parts add up to its converted
 * total; and every report's HTML cover shows its money figures in every currency of the data.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { cents, totalsProblems } from "./support/converted_totals.ts";
import { parseFxRates } from "../../lib/sam/fx_rates.ts";
import type { ReportDefinition } from "../../lib/report/model.ts";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { licenseOptimization } from "../../reports/license_optimization.ts";
import { renewals } from "../../reports/renewals.ts";
import { unusedSoftware } from "../../reports/unused_software.ts";

const TOKEN = "converted-tables-test-token";
const RATES = "date,currency,rate\n2025-06-27,USD,1.08345\n2025-06-27,GBP,0.85713\n";
const reportingCurrency = {
  code: "EUR",
  rates: parseFxRates(RATES, "rates.csv"),
  source: "rates.csv",
};
const REPORTS: ReportDefinition[] = [
  licenseCostSummary,
  licensePosition,
  licenseOptimization,
  renewals,
  unusedSoftware,
] as ReportDefinition[];

// deno-lint-ignore no-explicit-any
type Json = any;

// No test changes the store: one server for the file, and every run shares one query context
// (as the reports of a pack do), so each collection is read once.
const fixture = serverFixture({ computers: 400, token: TOKEN });
const query = createQueryContext();

describe("a reporting currency in every money table (400 computers)", () => {
  it("gives every converted total the sum of its converted rows, per currency and over all", async () => {
    let tables = 0;
    for (const report of REPORTS) {
      const run = await runReportForTest({
        server: fixture.srv,
        report,
        reportingCurrency,
        query,
      });
      for (const section of run.json.sections) {
        assert.deepEqual(totalsProblems(section), [], report.id);
        const lines = Object.keys(section.totals ?? {});
        if (lines.some((l) => l.startsWith("all currencies"))) tables++;
      }
    }
    assert.ok(tables >= 8, `${tables} tables with an all-currencies line`);
  });

  it("states a currency's converted cost to date as the same cent in every table, and a row's converted parts add up to its converted total", async () => {
    const run = await runReportForTest({
      server: fixture.srv,
      report: licenseCostSummary,
      reportingCurrency,
      query,
    });
    const section = (id: string) => run.json.sections.find((s: Json) => s.id === id);
    const byTable = new Map<string, Map<string, number>>();
    for (const id of ["licenses", "by-vendor", "by-application", "currency-totals"]) {
      const sums = new Map<string, number>();
      for (const r of section(id).rows) {
        if (r.costToDateInEUR === null) continue;
        sums.set(r.currency, (sums.get(r.currency) ?? 0) + cents(r.costToDateInEUR));
        const parts = ["purchaseCost", "accumulatedMaintenance", "accumulatedSupport"];
        const added = parts.reduce((n, k) => n + cents(r[`${k}InEUR`]), 0);
        assert.equal(cents(r.costToDateInEUR), added, `${id}: a row's parts add up`);
      }
      byTable.set(id, sums);
    }
    const [first, ...others] = [...byTable.values()];
    assert.ok(first.size >= 2, "several currencies");
    for (const other of others) assert.deepEqual(other, first);
    for (const r of section("run-rate").rows) {
      const parts = cents(r.maintenanceInEUR) + cents(r.supportInEUR) +
        cents(r.subscriptionsInEUR);
      assert.equal(cents(r.totalInEUR), parts, `run rate ${r.currency}`);
    }
  });
});

describe("covers that carry the decision (400 computers)", () => {
  it("show every currency of each money figure on the HTML cover, the decision first", async () => {
    for (const report of REPORTS) {
      const run = await runReportForTest({
        server: fixture.srv,
        report,
        formats: ["html"],
        query,
      });
      const html = await Deno.readTextFile(run.file("html"));
      const cover = html.slice(html.indexOf('<header class="cover">'), html.indexOf("</header>"));
      const money = run.result.document.summary.filter((f) =>
        f.type === "currency" && typeof f.value === "number"
      );
      assert.ok(money.length > 0, `${report.id} has money on its cover`);
      // Every money figure of the cover in every currency of the data: none left off.
      const shown = (f: { value: unknown; currency?: string }) =>
        new Intl.NumberFormat("en-US", { style: "currency", currency: f.currency })
          .format(f.value as number);
      const onCover = money.filter((f) => f.cover);
      assert.ok(onCover.length > 0, `${report.id} marks money for its cover`);
      const codes = new Set(money.map((f) => f.currency));
      assert.deepEqual(new Set(onCover.map((f) => f.currency)), codes, report.id);
      for (const f of onCover) {
        assert.ok(cover.includes(shown(f)), `${report.id}: ${f.label} ${shown(f)} on the cover`);
      }
      const tiles = [...cover.matchAll(/class="fact-label">([^<]*)</g)].map((m) => m[1]);
      if (report.id === "license-position") {
        assert.deepEqual(tiles.slice(0, 2), ["Positions short", "Shortfall cost"]);
      }
    }
  });
});
