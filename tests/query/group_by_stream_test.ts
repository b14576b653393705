import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { groupByStream } from "../../lib/query/group_by_stream.ts";
import { groupBy } from "../../lib/query/group_by.ts";
import { count, sumMoney } from "../../lib/query/measures.ts";

const rows = [
  { app: "Office 10", cur: "USD", cost: 0.1 },
  { app: "Office 9", cur: null, cost: null },
  { app: "Office 10", cur: "EUR", cost: 0.2 },
];

describe("groupByStream", () => {
  it("gives what groupBy gives for the same items, from an async source", async () => {
    async function* source() {
      yield* rows;
    }
    const by = (r: typeof rows[number]) => ({ cur: r.cur });
    const measures = { n: count(), cost: sumMoney((r: typeof rows[number]) => r.cost) };
    assert.deepEqual(await groupByStream(source(), by, measures), groupBy(rows, by, measures));
  });
});
