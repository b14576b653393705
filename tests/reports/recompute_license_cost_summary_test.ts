/**
 * license-cost-summary's annual run rate recomputed from the rows the same report prints, with
 * this file's own arithmetic: per currency, the yearly maintenance and support are the licenses'
 * ones, the subscriptions per year and their count are those of the running subscriptions it
 * lists (each its term cost × 12 ÷ its whole months, to the cent), the licenses with a yearly cost
 * are the licenses with maintenance or support plus the running subscriptions, and the run rate
 * is their sum; with a reporting currency, the converted run rate is the sum of the converted
 * parts. Whole estate, an organisation, a purchase range, and EUR.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { parseFxRates } from "../../lib/sam/fx_rates.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const RATES = "date,currency,rate\n2025-06-27,USD,1.08345\n2025-06-27,GBP,0.85713\n";
const reportingCurrency = { code: "EUR", rates: parseFxRates(RATES, "rates.csv"), source: "r" };

const cents = (v: number | null | undefined) => Math.round((v ?? 0) * 100);
const rowsOf = (json: Json, id: string): Json[] | undefined =>
  json.sections.find((s: Json) => s.id === id)?.rows;
const DAY = 86_400_000;

/** Every run-rate figure that does not recompute from the printed rows. */
function problems(json: Json, fx?: string): string[] {
  const found: string[] = [];
  const check = (ok: boolean, what: string) => ok || found.push(what);
  const licenses = rowsOf(json, "licenses")!;
  const subscriptions = rowsOf(json, "run-rate-subscriptions");
  if (!subscriptions) return ["the running subscriptions are not printed"];
  for (const s of subscriptions) {
    const days = (Date.parse(s.validTo) - Date.parse(s.validFrom)) / DAY;
    check(Math.abs(s.months - days / (365.25 / 12)) <= 0.5 + 1 / 30, `${s.licenseId}: months`);
    const perYear = Math.round(cents(s.termCost) * 12 / s.months);
    check(cents(s.subscriptions) === perYear, `${s.licenseId}: per year ${s.subscriptions}`);
  }
  for (const r of rowsOf(json, "run-rate")!) {
    const code = r.currency;
    const mine = licenses.filter((l) => l.currency === code);
    const subs = subscriptions.filter((s) => s.currency === code);
    const sum = (rows: Json[], k: string) => rows.reduce((t, x) => t + cents(x[k]), 0);
    check(cents(r.maintenance) === sum(mine, "currentMaintenance"), `${code}: maintenance`);
    check(cents(r.support) === sum(mine, "currentSupport"), `${code}: support`);
    check(cents(r.subscriptions) === sum(subs, "subscriptions"), `${code}: subscriptions`);
    check(r.runningSubscriptions === subs.length, `${code}: running subscriptions`);
    const yearly = new Set([
      ...mine.filter((l) => l.currentMaintenance || l.currentSupport).map((l) => l.licenseId),
      ...subs.map((s) => s.licenseId),
    ]);
    check(r.licenses === yearly.size, `${code}: licenses with a yearly cost ${r.licenses}`);
    check(
      cents(r.total) === cents(r.maintenance) + cents(r.support) + cents(r.subscriptions),
      `${code}: total`,
    );
    if (fx) {
      const converted = sum(subs, `subscriptionsIn${fx}`);
      check(cents(r[`subscriptionsIn${fx}`]) === converted, `${code}: subscriptions in ${fx}`);
    }
  }
  return found;
}

describe("license-cost-summary's run rate recomputed from its printed rows (400 computers)", () => {
  const fixture = serverFixture({ computers: 400 });
  const query = createQueryContext();
  const scenarios: [string, Record<string, unknown>, boolean][] = [
    ["whole estate", {}, false],
    ["ORG05", { organization: "ORG05" }, false],
    ["purchased in 2025", { purchasedFrom: "2025-01-01", purchasedTo: "2025-12-31" }, false],
    ["reporting currency EUR", {}, true],
  ];
  for (const [name, params, eur] of scenarios) {
    it(name, async () => {
      const run = await runReportForTest({
        server: fixture.srv,
        report: licenseCostSummary,
        params,
        query,
        ...(eur ? { reportingCurrency } : {}),
      });
      assert.deepEqual(problems(run.json, eur ? "EUR" : undefined), []);
      const running = rowsOf(run.json, "run-rate")!.reduce(
        (t: number, r: Json) => t + r.runningSubscriptions,
        0,
      );
      if (Object.keys(params).length === 0) assert.ok(running > 0, "running subscriptions");
    });
  }
});
