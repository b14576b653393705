import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { chunks } from "../../lib/query/chunks.ts";
import { crossCount } from "../../lib/query/cross_count.ts";

describe("crossCount", () => {
  it("counts items per row and column, skipping null rows", async () => {
    const items = [
      { pc: "C1", s: "ok" },
      { pc: "C1", s: "ok" },
      { pc: "C1", s: "bad" },
      { pc: null, s: "ok" },
      { pc: "C2", s: "bad" },
    ];
    const counts = await crossCount(items, (i) => i.pc, (i) => i.s);
    assert.deepEqual([...counts.keys()], ["C1", "C2"]);
    assert.deepEqual([...counts.get("C1")!], [["ok", 2], ["bad", 1]]);
    assert.deepEqual([...counts.get("C2")!], [["bad", 1]]);
  });

  it("gives an empty map for an empty source", async () => {
    assert.equal((await crossCount([], () => "r", () => "c")).size, 0);
  });
});

describe("chunks", () => {
  it("cuts an array into consecutive slices", () => {
    assert.deepEqual([...chunks([1, 2, 3, 4, 5], 2)], [[1, 2], [3, 4], [5]]);
    assert.deepEqual([...chunks([], 3)], []);
    assert.throws(() => [...chunks([1], 0)], RangeError);
  });
});
