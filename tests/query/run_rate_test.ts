import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { annualRunRate, type RunRateEntry, termMonths } from "../../lib/query/run_rate.ts";

const AS_OF = new Date("2026-11-24T00:00:00Z");
const d = (iso: string) => new Date(`${iso}T00:00:00Z`);
const sub = (
  id: string,
  cost: number,
  from: string,
  to: string,
  currency = "EUR",
): RunRateEntry => ({
  license: {
    id,
    isSubscription: true,
    purchaseCurrency: currency,
    purchaseValue: cost,
    subscriptionValidFrom: d(from),
    subscriptionValidTo: d(to),
  },
  summary: null,
});
const maint = (id: string, currency: string, m: number, s: number): RunRateEntry => ({
  license: { id, isSubscription: false },
  summary: { currency, currentMaintenanceCost: m, currentSupportCost: s },
});

describe("annual run rate", () => {
  it("adds maintenance and support per currency exactly, never across currencies", () => {
    const rate = annualRunRate([
      maint("A", "EUR", 0.1, 0.2),
      maint("B", "EUR", 0.7, 0),
      maint("C", "USD", 5, 5),
    ], { asOf: AS_OF });
    assert.deepEqual(rate.byCurrency.map((r) => [r.currency, r.total, r.licenses]), [
      ["EUR", 1, 2],
      ["USD", 10, 1],
    ]);
  });

  it("annualises running subscriptions by their term in months", () => {
    const rate = annualRunRate([
      sub("Y", 1200, "2026-06-01", "2027-06-01"),
      sub("L", 1200, "2024-02-29", "2025-02-28"), // leap year: 365 days, still 12 months
      sub("T", 3000, "2025-01-01", "2028-01-01"),
      sub("M", 100, "2026-11-01", "2026-12-01"),
    ], { asOf: AS_OF });
    assert.equal(termMonths(d("2024-02-29"), d("2025-02-28")), 12);
    // Y: 1200; T: 3000 ÷ 3 = 1000; M: 100 × 12 = 1200; L ended.
    assert.deepEqual(rate.byCurrency, [{
      currency: "EUR",
      maintenance: 0,
      support: 0,
      subscriptions: 3400,
      total: 3400,
      licenses: 3,
      runningSubscriptions: 3,
    }]);
    assert.equal(rate.endedSubscriptions, 1);
    assert.equal(rate.subscriptionTermsSeen, true);
  });

  it("counts what it cannot value instead of reading it as 0", () => {
    const rate = annualRunRate([
      sub("F", 500, "2027-01-01", "2028-01-01"),
      { license: { id: "U", isSubscription: true, purchaseValue: 10 }, summary: null },
      { license: { id: "N" }, summary: null },
      { license: { id: "X" }, summary: { currentMaintenanceCost: 3 } },
    ], { asOf: AS_OF });
    assert.deepEqual(rate.byCurrency, []);
    assert.equal(rate.futureSubscriptions, 1);
    assert.equal(rate.subscriptionsWithoutTerm, 1);
    assert.equal(rate.withoutCostSummary, 3);
    assert.equal(rate.withoutCurrency, 1);
  });

  it("says when the service sends no subscription terms", () => {
    const rate = annualRunRate([maint("A", "GBP", 1, 1)], { asOf: AS_OF });
    assert.equal(rate.subscriptionTermsSeen, false);
  });
});
