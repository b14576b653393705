import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { aggregate, groupBy } from "../../lib/query/group_by.ts";
import { count, distinct, first, max, min, sum, sumMoney } from "../../lib/query/measures.ts";
import { fromMinorUnits, sumByCurrency, toMinorUnits } from "../../lib/query/money.ts";

/** A license-like row: an application, a currency and an amount with cents (or none). */
const row = fc.record({
  app: fc.constantFrom("Visio", "Project", "Office", "AutoCAD"),
  currency: fc.constantFrom("EUR", "USD", "GBP", "JPY"),
  qty: fc.integer({ min: 0, max: 5_000 }),
  cents: fc.option(fc.integer({ min: -10_000_000, max: 100_000_000 }), { nil: null }),
}).map((r) => ({ ...r, cost: r.cents === null ? null : r.cents / 100 }));

const centsOf = (v: number | null) => (v === null ? 0 : Math.round(v * 100));

describe("groupBy", () => {
  it("sum of the groups equals the whole, per currency, to the cent (property)", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 300 }), (rows) => {
        const groups = groupBy(rows, (r) => ({ app: r.app, currency: r.currency }), {
          n: count(),
          qty: sum((r) => r.qty),
          cost: sumMoney((r) => r.cost),
        });
        const whole = groupBy(rows, (r) => ({ currency: r.currency }), {
          n: count(),
          qty: sum((r) => r.qty),
          cost: sumMoney((r) => r.cost),
        });
        for (const w of whole) {
          const parts = groups.filter((g) => g.currency === w.currency);
          assert.equal(parts.reduce((n, g) => n + g.n, 0), w.n);
          assert.equal(parts.reduce((n, g) => n + g.qty, 0), w.qty);
          assert.equal(parts.reduce((c, g) => c + centsOf(g.cost), 0), centsOf(w.cost));
          const exact = rows.filter((r) => r.currency === w.currency && r.cents !== null)
            .reduce((c, r) => c + r.cents!, 0);
          assert.equal(centsOf(w.cost), exact);
        }
        assert.equal(groups.reduce((n, g) => n + g.n, 0), rows.length);
      }),
      { numRuns: 300 },
    );
  });

  it("never adds amounts of different currencies (property)", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 200 }), (rows) => {
        const totals = sumByCurrency(rows, (r) => r.cost, (r) => r.currency);
        for (const [currency, total] of totals) {
          const own = rows.filter((r) => r.currency === currency && r.cents !== null);
          assert.equal(Math.round(total * 100), own.reduce((c, r) => c + r.cents!, 0));
        }
        const withAmount = new Set(rows.filter((r) => r.cents !== null).map((r) => r.currency));
        assert.deepEqual([...totals.keys()].sort(), [...withAmount].sort());
      }),
    );
  });

  it("keeps groups in first-seen order with their key fields", () => {
    const rows = [{ a: "y", n: 1 }, { a: "x", n: 2 }, { a: "y", n: 3 }];
    assert.deepEqual(groupBy(rows, (r) => ({ a: r.a }), { n: sum((r) => r.n) }), [
      { a: "y", n: 4 },
      { a: "x", n: 2 },
    ]);
  });

  it("tells apart keys that would collide as joined text", () => {
    const rows = [{ a: "x\u0000y", b: "" }, { a: "x", b: "y" }];
    assert.equal(groupBy(rows, (r) => ({ a: r.a, b: r.b }), { n: count() }).length, 2);
  });

  it("gives the empty figures of each measure for no items", () => {
    assert.deepEqual(
      aggregate([] as { v: number }[], {
        n: count(),
        s: sum((r) => r.v),
        m: sumMoney((r) => r.v),
        d: distinct((r) => r.v),
        lo: min((r) => r.v),
        hi: max((r) => r.v),
        f: first((r) => r.v),
      }),
      { n: 0, s: 0, m: null, d: 0, lo: null, hi: null, f: null },
    );
  });
});

describe("measures", () => {
  it("sumMoney adds cents exactly where floats drift", () => {
    const rows = Array.from({ length: 1_000 }, () => ({ v: 0.1 }));
    assert.equal(aggregate(rows, { t: sumMoney((r) => r.v) }).t, 100);
    assert.notEqual(rows.reduce((t, r) => t + r.v, 0), 100);
  });

  it("sumMoney is null when no item has an amount: unknown is not zero", () => {
    assert.equal(aggregate([{ v: null }, { v: NaN }], { t: sumMoney((r) => r.v) }).t, null);
  });

  it("count with a predicate, distinct ignoring missing values, min and max of dates", () => {
    const d1 = new Date("2024-01-01T00:00:00Z");
    const d2 = new Date("2025-01-01T00:00:00Z");
    const rows = [{ k: "a", d: d2 }, { k: null, d: d1 }, { k: "a", d: null }];
    assert.deepEqual(
      aggregate(rows, {
        withK: count((r) => r.k !== null),
        ks: distinct((r) => r.k),
        lo: min((r) => r.d),
        hi: max((r) => r.d),
      }),
      { withK: 2, ks: 1, lo: d1, hi: d2 },
    );
  });
});

describe("money", () => {
  it("round-trips minor units and rejects non-finite amounts", () => {
    assert.equal(toMinorUnits(1.005), 101);
    assert.equal(toMinorUnits(-0.125), -13);
    assert.equal(toMinorUnits(-0.001), 0);
    assert.equal(toMinorUnits(Infinity), null);
    assert.equal(fromMinorUnits(toMinorUnits(19.99)), 19.99);
    assert.equal(fromMinorUnits(null), null);
  });
});
