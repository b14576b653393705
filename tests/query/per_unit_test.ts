import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { aggregate } from "../../lib/query/group_by.ts";
import { perUnit } from "../../lib/query/per_unit.ts";

describe("perUnit", () => {
  it("divides exact cents by the units of items with an amount, to the cent", () => {
    const rows = [{ paid: 0.1, qty: 3 }, { paid: 0.2, qty: null }, { paid: null, qty: 50 }];
    assert.deepEqual(aggregate(rows, { avg: perUnit((r) => r.paid, (r) => r.qty) }), { avg: 0.1 });
  });
  it("is null without units or amounts", () => {
    assert.equal(
      aggregate([{ paid: 5, qty: 0 }], { a: perUnit((r) => r.paid, (r) => r.qty) }).a,
      null,
    );
    assert.equal(aggregate([], { a: perUnit(() => 1, () => 1) }).a, null);
  });
});
