import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { moneyRows } from "../../reports/support/trends_rows.ts";
import type { History, HistoryRun } from "../../reports/support/trends_history.ts";

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
    spend: {},
    runRate: {},
    optimisedExposure: {},
    unpricedShortfalls: null,
    positionsShort: null,
    uncoveredInstalls: null,
    staleComputers: null,
  },
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
    assert.deepEqual(rows.map((r) => r.spend), [0, 0, 0]);
  });
});
