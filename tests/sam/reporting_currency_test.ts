/**
 * The reporting currency: exact conversion (independent integer arithmetic, rates that need
 * exact decimals), companions and converted totals of a real report to the cent, a currency
 * without a rate failing the CLI with exit 2 naming it and writing nothing, and outputs without
 * the option unchanged.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { convertMinorUnits, parseExactDecimal } from "../../lib/query/money.ts";
import { FxRatesFileError, parseFxRates } from "../../lib/sam/fx_rates.ts";
import { FxConverter, inReportingCurrency } from "../../lib/sam/reporting_currency.ts";
import { FactsCollector } from "../../lib/report/facts.ts";
import { runReport } from "../../lib/report/runner.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { createRenderers } from "../../lib/render/registry.ts";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { resolveParams } from "../../lib/report/params.ts";
import { clientFor, parseCsv, TEST_NOW } from "../helpers/run_report.ts";
import { withServer } from "../helpers/server.ts";
import type { ReportDefinition, Row } from "../../lib/report/model.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const RATES = "date,currency,rate\n2025-06-01,USD,1.0\n2025-06-27,USD,1.08345\n" +
  "2025-06-27,GBP,0.85713\n2025-07-01,USD,9.99\n";

/** amount (cents) ÷ rate, rounded half up on the magnitude: with strings, not the code's BigInt. */
function expectedCents(cents: number, rate: string): number {
  const [whole, frac = ""] = rate.split(".");
  const denominator = Number(whole + frac); // exact: rates here have ≤ 15 digits
  const numerator = Math.abs(cents) * 10 ** frac.length;
  const q = Math.floor(numerator / denominator);
  const up = (numerator - q * denominator) * 2 >= denominator ? 1 : 0;
  return Math.sign(cents) * (q + up);
}

const cents = (v: unknown) => Math.round(Number(v) * 100);

describe("exact conversion", () => {
  it("divides integer cents by an exact decimal rate and rounds once", () => {
    const rate = parseExactDecimal("1.08345")!;
    for (const c of [1, 5, 10, 30, 99_999, 100_000, 123_456_789, -5417, 2_000_000_000_00]) {
      assert.equal(convertMinorUnits(c, rate), expectedCents(c, "1.08345"), `${c}`);
    }
    assert.equal(convertMinorUnits(10, parseExactDecimal("3")!), 3); // 0.1/3 = 0.0333…
    assert.equal(convertMinorUnits(20, parseExactDecimal("3")!), 7); // 0.2/3 = 0.0666…
    assert.equal(convertMinorUnits(5, parseExactDecimal("2")!), 3); // 0.025 → 0.03
  });

  it("sums converted amounts in cents: 0.1 + 0.2 is 0.30, never 0.30000000000000004", async () => {
    const rates = parseFxRates(RATES, "rates.csv");
    const fx = new FxConverter({ code: "EUR", rates, source: "rates.csv" }, TEST_NOW);
    const section = {
      id: "s",
      title: "S",
      columns: [{ key: "cost", label: "Cost", type: "currency" as const }],
      rows: [
        { cost: 0.1, currency: "EUR" },
        { cost: 0.2, currency: "EUR" },
        { cost: 0.1, currency: "USD" },
        { cost: 0.2, currency: "USD" },
      ],
      facts: [{ label: "Cost", sum: "cost", perCurrency: "currency" }],
    };
    const data = inReportingCurrency({ sections: [section] }, fx);
    const collector = new FactsCollector([], data.sections);
    const rows: Row[] = [];
    for await (const row of collector.tap(data.sections[0]).rows) rows.push(row);
    assert.deepEqual(rows.map((r) => r.costInEUR), [0.1, 0.2, 0.09, 0.18]);
    const facts = [...collector.facts(), ...data.summary!()];
    assert.deepEqual(facts.map((f) => [f.label, f.value]), [
      ["Cost, all currencies (EUR)", 0.57],
      ["Cost (EUR)", 0.3],
      ["Cost (USD)", 0.3],
      ["Reporting currency", "1 EUR = 1.08345 USD (rates of 2025-06-27, rates.csv)"],
    ]);
  });

  it("uses each currency's latest rate on or before the run's day, and names a missing one", () => {
    const rates = parseFxRates(RATES, "rates.csv");
    const fx = new FxConverter({ code: "EUR", rates, source: "rates.csv" }, TEST_NOW);
    assert.equal(fx.convert(1083.45, "USD"), 1000); // 2025-06-27, not 2025-07-01 (after the run)
    assert.throws(() => fx.convert(1, "JPY"), {
      name: "MissingFxRateError",
      message: /no exchange rate for "JPY" in rates\.csv on or before 2025-06-30/,
    });
  });

  it("refuses a rates file it cannot read exactly, naming the line", () => {
    const bad = [
      ["date,currency,rate\n2025-06-27,USD,1e3\n", /line 2: rate must be a positive decimal/],
      ["date,currency,rate\n2025-06-27,USD,-1\n", /line 2: rate must be a positive decimal/],
      ["date,currency,rate\n27/06/2025,USD,1.1\n", /line 2: date must be YYYY-MM-DD/],
      ["date,currency,rate\n2025-06-27,usd,1.1\n", /line 2: currency must be a 3-letter/],
      ["date,currency,rate\n2025-06-27,USD,1.1\n2025-06-27,USD,1.2\n", /line 3: a second rate/],
    ] as const;
    for (const [text, message] of bad) {
      assert.throws(
        () => parseFxRates(text, "r.csv"),
        (e) => e instanceof FxRatesFileError && message.test(e.message),
      );
    }
  });
});

describe("a report in a reporting currency", () => {
  it("gives every money column a companion and every money total a converted one, to the cent", async () => {
    await withServer({ computers: 100 }, async (srv) => {
      const dir = await Deno.makeTempDir();
      const all = createRenderers();
      const { document } = await runReport({
        definition: licenseCostSummary as ReportDefinition,
        client: clientFor(srv),
        query: createQueryContext(),
        params: resolveParams(licenseCostSummary, {}),
        formats: ["json"],
        renderers: { json: all.json },
        outDir: dir,
        source: "test",
        version: "0",
        now: TEST_NOW,
        reportingCurrency: {
          code: "EUR",
          rates: parseFxRates(RATES, "rates.csv"),
          source: "rates.csv",
        },
      });
      const json = JSON.parse(await Deno.readTextFile(`${dir}/license-cost-summary.json`));
      const rate: Record<string, string> = { EUR: "1", USD: "1.08345", GBP: "0.85713" };
      // Each license's amounts are converted once; its cost to date adds its converted parts.
      const licenses = json.sections.find((s: { id: string }) => s.id === "licenses");
      const parts = ["purchaseCost", "accumulatedMaintenance", "accumulatedSupport"];
      let checked = 0;
      for (const row of licenses.rows) {
        for (const key of [...parts, "currentMaintenance", "currentSupport"]) {
          if (row[key] === null) continue;
          assert.equal(
            cents(row[`${key}InEUR`]),
            expectedCents(cents(row[key]), rate[row.currency]),
          );
          checked++;
        }
        const sum = parts.reduce((t, k) => t + cents(row[`${k}InEUR`]), 0);
        assert.equal(cents(row.costToDateInEUR), sum, `${row.licenseId} cost to date`);
      }
      assert.ok(checked > 100, `${checked} amounts checked`);
      // Every other figure in EUR is the sum of the licenses' converted amounts: the same cent.
      const byCurrency = new Map<string, number>();
      for (const row of licenses.rows) {
        byCurrency.set(
          row.currency,
          (byCurrency.get(row.currency) ?? 0) + cents(row.costToDateInEUR),
        );
      }
      const totals = json.sections.find((s: { id: string }) => s.id === "currency-totals");
      for (const r of totals.rows) {
        assert.equal(cents(r.costToDateInEUR), byCurrency.get(r.currency), r.currency);
      }
      const want = [...byCurrency.values()].reduce((a, b) => a + b, 0);
      const fact = document.summary.find((f) => f.label === "Cost to date, all currencies (EUR)");
      assert.equal(cents(fact?.value), want);
      assert.equal(cents(totals.totals["all currencies (EUR)"].costToDateInEUR), want);
      assert.deepEqual(json.reportingCurrency, {
        code: "EUR",
        rates: [
          { currency: "EUR", rate: "1", date: null },
          { currency: "GBP", rate: "0.85713", date: "2025-06-27" },
          { currency: "USD", rate: "1.08345", date: "2025-06-27" },
        ],
      });
      await Deno.remove(dir, { recursive: true });
    });
  });
});

/** Runs `deno task report` as the CLI does, against the embedded demo server. */
async function samkit(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=report", "--no-prompt", "main.ts", "report", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", SAM_BASE_URL: "", SAM_REGION: "", SAM_TOKEN: "", SAM_CLIENT_ID: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

describe("samkit report --reporting-currency", () => {
  it("exits 2 naming a currency without a rate, writing nothing", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/rates.csv`, "date,currency,rate\n2020-01-02,USD,1.1\n");
    const out = `${dir}/out/renewals`;
    const run = await samkit([
      "renewals",
      "--format",
      "json,csv",
      "--out",
      out,
      "--reporting-currency",
      "EUR",
      "--fx-rates",
      `${dir}/rates.csv`,
    ]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /no exchange rate for "GBP"/);
    await assert.rejects(Deno.lstat(`${dir}/out`), Deno.errors.NotFound);
    await Deno.remove(dir, { recursive: true });
  });

  it("changes nothing without the option: the same rows and bytes but for the converted column", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/rates.csv`, RATES.replace("2025-07-01", "2020-01-01"));
    const plain = await samkit(["renewals", "--format", "json,csv", "--out", `${dir}/a`]);
    const fx = await samkit([
      "renewals",
      "--format",
      "json,csv",
      "--out",
      `${dir}/b`,
      "--reporting-currency",
      "EUR",
      "--fx-rates",
      `${dir}/rates.csv`,
    ]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(fx.code, 0, fx.stderr);
    const csv = (p: string) => Deno.readTextFile(`${dir}/${p}/renewals-renewals.csv`);
    const [a, b] = [await csv("a"), await csv("b")];
    const [rowsA, rowsB] = [parseCsv(a), parseCsv(b)];
    const at = rowsB[0].indexOf("Annual cost (EUR)");
    assert.ok(at > 0);
    assert.deepEqual(rowsA, rowsB.map((r) => r.toSpliced(at, 1)));
    const ja = JSON.parse(await Deno.readTextFile(`${dir}/a/renewals.json`));
    assert.equal("reportingCurrency" in ja, false);
    assert.ok(ja.sections[0].rows.every((r: Row) => !("annualCostInEUR" in r)));
    await Deno.remove(dir, { recursive: true });
  });
});
