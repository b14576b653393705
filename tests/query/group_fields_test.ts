import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { groupByFields } from "../../lib/query/group_fields.ts";
import { count, sumMoney } from "../../lib/query/measures.ts";

const rows = [
  { app: "Office 10", cur: "USD", cost: 0.1 },
  { app: "Office 9", cur: null, cost: null },
  { app: "Office 10", cur: "EUR", cost: 0.2 },
  { app: "Office 10", cur: "USD", cost: 0.2 },
];

describe("groupByFields", () => {
  it("groups by the named fields and sorts by them in turn (naturally, missing last)", () => {
    const got = groupByFields(rows, ["app", "cur"], { n: count(), cost: sumMoney((r) => r.cost) });
    assert.deepEqual(got, [
      { app: "Office 9", cur: null, n: 1, cost: null },
      { app: "Office 10", cur: "EUR", n: 1, cost: 0.2 },
      { app: "Office 10", cur: "USD", n: 2, cost: 0.3 },
    ]);
  });
});
