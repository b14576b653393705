import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { chunks } from "../../lib/query/chunks.ts";

describe("chunks", () => {
  it("cuts an array into consecutive slices", () => {
    assert.deepEqual([...chunks([1, 2, 3, 4, 5], 2)], [[1, 2], [3, 4], [5]]);
    assert.deepEqual([...chunks([], 3)], []);
    assert.throws(() => [...chunks([1], 0)], RangeError);
  });
});
