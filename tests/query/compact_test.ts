import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compactItem } from "../../lib/query/compact.ts";

describe("compact items", () => {
  it("copies a plain object with the same fields in the same order and the same values", () => {
    const links = [{ rel: "self" }];
    const when = new Date("2026-01-01T00:00:00Z");
    const item: Record<string, unknown> = {};
    for (const k of ["z", "a", "m", "links", "when", "none", "gone"]) item[k] = k;
    Object.assign(item, { links, when, none: null, gone: undefined });
    delete item.m;
    const copy = compactItem(item);
    assert.notEqual(copy, item);
    assert.deepEqual(Object.entries(copy), Object.entries(item));
    assert.notEqual(copy.links, links, "nested arrays are copied");
    assert.deepEqual(copy.links, links);
    assert.equal(copy.when, when);
    assert.ok("gone" in copy);
  });
  it("leaves out hypermedia links (a list of objects with an href) at every depth", () => {
    const self = { href: "api/sam/estate/v1/computers/C1", method: "GET", rel: "self" };
    const item = { id: "C1", links: [self], disks: [{ id: "D1", links: [self] }], n: 1 };
    assert.deepEqual(compactItem(item), { id: "C1", disks: [{ id: "D1" }], n: 1 });
    for (const links of [[], [{ rel: "self" }], "text", [self, 1]]) {
      assert.deepEqual(compactItem({ id: "C1", links }), { id: "C1", links }, "not links: kept");
    }
  });
  it("keeps every text value as it was, shared or not (repeated, distinct, short, long)", () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      model: `ThinkPad T14 Gen ${i % 4}`,
      hostName: `DE-LT-${String(i).padStart(8, "0")}`,
      short: `S${i % 3}`,
      long: "x".repeat(300 + (i % 2)),
    }));
    const copies = items.map((item) => compactItem(item));
    assert.deepEqual(copies, items);
  });
  it("keeps dates, class instances, null-prototype objects and awkward keys as they are", () => {
    const odd = [
      new Date(0),
      new Map(),
      Object.create(null),
      JSON.parse('{"__proto__": 1, "a": 2}'),
      { 0: "x", a: 1 },
    ];
    for (const value of odd) assert.equal(compactItem(value), value);
    assert.equal(compactItem(null), null);
    assert.equal(compactItem("text"), "text");
  });
  it("copies items of many interleaved shapes each with its own fields and order", () => {
    const shapes = [["a", "b"], ["b", "a"], ["a", "c"], ["a", "b", "c"], ["c"], ["x", "y"]];
    for (let round = 0; round < 3; round++) {
      for (const [i, keys] of [...shapes, ...shapes.toReversed()].entries()) {
        const item = Object.fromEntries(keys.map((k) => [k, `${k}${i}`]));
        assert.deepEqual(Object.entries(compactItem(item)), Object.entries(item));
      }
    }
  });
});
