import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PairKeys } from "../../lib/query/pair_keys.ts";

describe("pair keys", () => {
  it("gives one pair one number and different pairs different numbers", () => {
    const keys = new PairKeys();
    const pairs: [string | null, string | null][] = [];
    for (let c = 0; c < 300; c++) for (const a of ["A1", "A2", null, ""]) pairs.push([`C${c}`, a]);
    pairs.push([null, "A1"], ["", "A1"], ["A1", "C1"]);
    const numbers = pairs.map(([c, a]) => keys.key(c, a));
    assert.equal(new Set(numbers).size, pairs.length);
    assert.deepEqual(pairs.map(([c, a]) => keys.key(c, a)), numbers, "asked again: same numbers");
    assert.ok(numbers.every(Number.isSafeInteger));
  });
  it("finds only pairs whose ids were both numbered", () => {
    const keys = new PairKeys();
    const k = keys.key("C1", "A1");
    keys.key("C2", "A2");
    assert.equal(keys.find("C1", "A1"), k);
    assert.notEqual(keys.find("C1", "A2"), undefined, "both ids known: the pair has its number");
    assert.equal(keys.find("C3", "A1"), undefined);
    assert.equal(keys.find("C1", "A3"), undefined);
  });
});
