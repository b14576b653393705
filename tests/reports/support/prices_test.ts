import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createQueryContext } from "../../../lib/query/context.ts";
import {
  costAt,
  licensePrices,
  type PriceLine,
  priceShortfall,
  pricesPaid,
  pricingLine,
  unitPrice,
} from "../../../reports/support/prices.ts";

const line = (currency: string, units: number, cents: number, licenses = 1): PriceLine => ({
  currency,
  licenses,
  units,
  cents,
});

describe("prices paid", () => {
  it("prices in the currency of most units, ties to the first code", () => {
    const lines = new Map([["USD", line("USD", 10, 150000)], ["EUR", line("EUR", 10, 100000)]]);
    assert.equal(pricingLine(lines)?.currency, "EUR");
    lines.set("GBP", line("GBP", 11, 1));
    assert.equal(pricingLine(lines)?.currency, "GBP");
    assert.equal(pricingLine(undefined), undefined);
  });

  it("averages amount over units to the cent, and costs a shortfall at that average", () => {
    assert.equal(unitPrice(line("GBP", 3, 10000)), 33.33);
    assert.equal(costAt(2, line("GBP", 3, 10000)), 66.67);
    const lines = new Map([["GBP", line("GBP", 3, 10000)]]);
    assert.deepEqual(priceShortfall(2, lines), {
      currency: "GBP",
      unitPrice: 33.33,
      shortfallCost: 66.67,
    });
    assert.deepEqual(priceShortfall(0, lines).shortfallCost, null);
    assert.deepEqual(priceShortfall(2, undefined), {
      currency: null,
      unitPrice: null,
      shortfallCost: null,
    });
  });

  it("lists every currency in code order and marks the pricing one", () => {
    const lines = new Map([["USD", line("USD", 2, 1000)], ["GBP", line("GBP", 3, 10000)]]);
    assert.deepEqual(pricesPaid(lines).map((r) => [r.currency, r.amountPaid, r.pricing]), [
      ["GBP", 100, true],
      ["USD", 10, false],
    ]);
    assert.deepEqual(pricesPaid(undefined), []);
  });

  it("sums licenses per application and currency; only priced licenses count as paid", async () => {
    const licenses = [
      {
        applicationId: "A",
        organizationId: "O1",
        quantity: 10,
        purchaseCurrency: "EUR",
        purchaseValue: 1000,
      },
      {
        applicationId: "A",
        organizationId: "O1",
        quantity: 3,
        purchaseCurrency: " EUR ",
        purchaseValue: 0.1,
      },
      {
        applicationId: "A",
        organizationId: "O2",
        quantity: 5,
        purchaseCurrency: "USD",
        purchaseValue: 20,
      },
      {
        applicationId: "A",
        organizationId: "O1",
        quantity: 2,
        purchaseCurrency: "EUR",
        purchaseValue: null,
      },
      {
        applicationId: "B",
        organizationId: "O1",
        quantity: 0,
        purchaseCurrency: "EUR",
        purchaseValue: 5,
      },
      {
        applicationId: null,
        organizationId: "O1",
        quantity: 7,
        purchaseCurrency: "EUR",
        purchaseValue: 5,
      },
    ];
    const ctx = {
      client: { licenses: { list: () => licenses as never } },
      query: createQueryContext(),
    };
    const all = await licensePrices(ctx);
    assert.deepEqual([...all.quantity], [["A", 20], ["B", 0]]);
    assert.deepEqual(all.prices.get("A")?.get("EUR"), line("EUR", 13, 100010, 2));
    assert.deepEqual(all.prices.get("A")?.get("USD"), line("USD", 5, 2000));
    assert.equal(all.prices.has("B"), false);
    const o1 = await licensePrices(ctx, { organization: "O1" });
    assert.deepEqual([...o1.quantity], [["A", 15], ["B", 0]]);
    assert.deepEqual([...o1.prices.get("A")!.keys()], ["EUR"]);
  });
});
