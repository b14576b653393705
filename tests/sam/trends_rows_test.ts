import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { convertedRows, moneyRows } from "../../lib/sam/trends_rows.ts";
import type { History, HistoryRun } from "../../lib/sam/trends_history.ts";

const run = (
  day: number,
  shortfallCost: Record<string, number>,
  compared: string[],
): HistoryRun => ({
  run: `2026-01-0${day}T000000Z`,
  started: new Date(Date.UTC(2026, 0, day)),
  manifest: {} as HistoryRun["manifest"],
  headline: {
    shortfallCost,
    costToDate: {},
    runRate: {},
    remainingPurchaseNeed: {},
    optimisation: {},
    unpricedShortfalls: null,
    positionsShort: null,
    uncoveredInstalls: null,
    staleComputers: null,
  },
  rates: null,
  notes: [],
  compared,
});

describe("trends money rows", () => {
  it("show 0 where the report ran with nothing in the currency, and blank where it did not run", () => {
    const history: History = {
      source: "x",
      runs: [
        run(1, { EUR: 120 }, ["license-position", "license-cost-summary"]),
        run(2, {}, ["license-position", "license-cost-summary"]), // every EUR shortfall closed
        run(3, {}, ["license-cost-summary"]), // license-position failed or differed
      ],
      skipped: [],
    };
    const rows = moneyRows(history, "EUR");
    assert.deepEqual(rows.map((r) => r.shortfallCost), [120, 0, null]);
    assert.deepEqual(rows.map((r) => r.costToDate), [0, 0, 0]);
  });
});

describe("trends rows in a reporting currency", () => {
  const COMPARED = ["license-position", "license-cost-summary"];
  const inEur = (day: number, shortfallCost: number | null, rates: string): HistoryRun => {
    const r = run(day, {}, COMPARED);
    const converted = {
      currency: "EUR",
      shortfallCost,
      remainingPurchaseNeed: null,
      moneySaved: null,
      costToDate: 1000 + day,
      runRate: null,
    };
    return { ...r, headline: { ...r.headline, converted }, rates };
  };

  it("show each run's totals with its own rates, 0 where the report ran with none, blank for a run without the currency", () => {
    const history: History = {
      source: "x",
      runs: [
        inEur(1, 500.25, "1 EUR = 1.1 USD (rates of 2026-01-01, fx.csv)"),
        run(2, { EUR: 120 }, COMPARED), // no reporting currency in this run
        inEur(3, null, "1 EUR = 1.2 USD (rates of 2026-01-02, fx.csv)"), // no priced shortfall
      ],
      skipped: [],
    };
    const rows = convertedRows(history, "EUR");
    assert.deepEqual(
      rows.map((r) => [r.costToDate, r.shortfallCost, r.remainingPurchaseNeed, r.rates]),
      [
        [1001, 500.25, null, "1 EUR = 1.1 USD (rates of 2026-01-01, fx.csv)"],
        [null, null, null, null],
        [1003, 0, null, "1 EUR = 1.2 USD (rates of 2026-01-02, fx.csv)"],
      ],
    );
    assert.deepEqual(convertedRows(history, "USD").map((r) => r.costToDate), [null, null, null]);
  });
});
