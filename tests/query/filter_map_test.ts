import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { filterMap } from "../../lib/query/filter_map.ts";

describe("filterMap", () => {
  it("keeps the non-null results in source order, from sync and async sources", async () => {
    const pick = (n: number) => (n % 2 ? n * 10 : n === 4 ? undefined : null);
    assert.deepEqual(await filterMap([1, 2, 3, 4, 5], pick), [10, 30, 50]);
    async function* numbers() {
      yield* [5, 4, 3];
    }
    assert.deepEqual(await filterMap(numbers(), pick), [50, 30]);
  });

  it("keeps zero and empty strings, and gives an empty array for an empty source", async () => {
    assert.deepEqual(await filterMap([0, 1], (n) => (n ? "" : 0)), [0, ""]);
    assert.deepEqual(await filterMap([], (n) => n), []);
  });
});
