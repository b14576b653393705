/**
 * A figure renamed since an earlier run ("Total cost" → "Cost to date", its totals key
 * `totalCost` → `costToDate`) still compares with that run: one change with its previous value,
 * not a figure gone and a new one.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compareFigures, currentFigures, type Figure } from "../../lib/pack/figures.ts";
import { headlineOf } from "../../lib/pack/headline.ts";

const fig = (key: string, value: number, currency = "EUR"): Figure => ({
  key,
  report: key.split("|")[0],
  label: key.split("|").at(-1)!,
  value,
  type: "currency",
  currency,
});

describe("figures renamed since an earlier run", () => {
  it("compare under today's name, facts and totals alike", () => {
    const previous = [
      fig("license-cost-summary|fact|Total cost (EUR)", 100),
      fig("license-cost-summary|fact|Total cost, all currencies (EUR)", 150),
      fig("license-cost-summary|total|licenses|totalCost|EUR", 100),
      fig("license-cost-summary|fact|Licenses without a cost summary", 3),
    ];
    const current = [
      fig("license-cost-summary|fact|Cost to date (EUR)", 120),
      fig("license-cost-summary|fact|Cost to date, all currencies (EUR)", 170),
      fig("license-cost-summary|total|licenses|costToDate|EUR", 120),
      fig("license-cost-summary|fact|Licenses without a cost summary", 3),
    ];
    const changes = compareFigures(current, previous);
    assert.deepEqual(changes.map((c) => [c.key, c.previous, c.delta]), [
      ["license-cost-summary|fact|Cost to date (EUR)", 100, 20],
      ["license-cost-summary|fact|Cost to date, all currencies (EUR)", 150, 20],
      ["license-cost-summary|total|licenses|costToDate|EUR", 100, 20],
      ["license-cost-summary|fact|Licenses without a cost summary", 3, 0],
    ]);
  });

  it("give an earlier run's headline its cost to date", () => {
    const old = currentFigures([fig("license-cost-summary|fact|Total cost (USD)", 42, "USD")]);
    assert.deepEqual(headlineOf(old).costToDate, { USD: 42 });
    assert.equal(old[0].label, "Cost to date (USD)");
  });
});
