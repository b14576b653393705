import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { asc, compareText, desc, orderBy, sortBy } from "../../lib/query/sort.ts";
import { rank } from "../../lib/query/rank.ts";
import { daysSince } from "../../lib/query/dates.ts";

describe("sort", () => {
  it("orders names with numbers naturally and is total", () => {
    assert.deepEqual(["Office 10", "office 2", "Office 2"].sort(compareText), [
      "office 2",
      "Office 2",
      "Office 10",
    ]);
  });

  it("puts missing values last ascending and first descending", () => {
    const rows = [{ n: 2 }, { n: null }, { n: 1 }];
    assert.deepEqual(sortBy(rows, asc((r) => r.n)).map((r) => r.n), [1, 2, null]);
    assert.deepEqual(sortBy(rows, desc((r) => r.n)).map((r) => r.n), [null, 2, 1]);
  });

  it("breaks ties with the next comparator and keeps input order after that (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ a: fc.constantFrom("x", "y"), b: fc.integer({ min: 0, max: 3 }) })),
        (rows) => {
          const indexed = rows.map((r, i) => ({ ...r, i }));
          const sorted = sortBy(indexed, asc((r) => r.a), desc((r) => r.b));
          const cmp = orderBy<typeof indexed[number]>(asc((r) => r.a), desc((r) => r.b));
          for (let k = 1; k < sorted.length; k++) {
            const c = cmp(sorted[k - 1], sorted[k]);
            assert.ok(c < 0 || (c === 0 && sorted[k - 1].i < sorted[k].i));
          }
        },
      ),
    );
  });
});

describe("rank", () => {
  it("numbers the top items from 1 in the comparator's order", () => {
    const rows = [{ app: "a", cost: 5 }, { app: "b", cost: 9 }, { app: "c", cost: 7 }];
    assert.deepEqual(rank(rows, desc((r) => r.cost), { top: 2 }), [
      { rank: 1, app: "b", cost: 9 },
      { rank: 2, app: "c", cost: 7 },
    ]);
    assert.equal(rank(rows, desc((r) => r.cost)).length, 3);
  });
});

describe("daysSince", () => {
  it("counts whole days, never negative, null when missing or invalid", () => {
    const now = new Date("2024-01-31T12:00:00Z");
    assert.equal(daysSince(new Date("2024-01-01T00:00:00Z"), now), 30);
    assert.equal(daysSince(new Date("2024-02-05T00:00:00Z"), now), 0);
    assert.equal(daysSince(null, now), null);
    assert.equal(daysSince(new Date("nope"), now), null);
  });
});
