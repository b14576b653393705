import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { stableKey } from "../../lib/api/stable_key.ts";
import { itemKey } from "../../lib/api/integrity.ts";
import { KeySet } from "../../lib/api/key_set.ts";

/** A metric-tracking-like row: three ids and many numbers, mostly equal from row to row. */
const row = (i: number): Record<string, unknown> => {
  const r: Record<string, unknown> = {
    computerId: `C${i % 5000}`,
    metricId: `M${i % 7}`,
    applicationId: `A${(i * 7919) % 300}`,
  };
  for (let f = 0; f < 20; f++) r[`figure${f}`] = f === 3 ? i % 3 : f === 5 ? 0.5 : 0;
  r.lastUsed = new Date(Date.UTC(2026, 0, 1) + (i % 90) * 86_400_000);
  return r;
};

describe("stableKey", () => {
  it("gives equal values one key whatever their objects' key order", () => {
    const a = { x: 1, y: { p: [1, "2", null], q: new Date(0) }, z: true };
    const b = { z: true, y: { q: new Date(0), p: [1, "2", null] }, x: 1 };
    assert.equal(stableKey(a), stableKey(b));
    assert.equal(stableKey({ a: undefined, b: 1 }), stableKey({ b: 1 }));
    assert.equal(stableKey({ a: -0 }), stableKey({ a: 0 }));
  });

  it("tells apart values that differ in type, order, nesting or where a value sits", () => {
    const values = [
      null,
      {},
      [],
      "",
      0,
      false,
      { a: 1 },
      { a: "1" },
      { a: 2 },
      { b: 1 },
      { a: [1, 2] },
      { a: [2, 1] },
      { a: 1, b: 2 },
      { a: 2, b: 1 },
      { a: { b: 1 } },
      { a: new Date(1) },
      { a: 1.5 },
      [null],
      [undefined],
    ];
    assert.equal(new Set(values.map((v) => stableKey(v))).size, values.length);
  });

  it("gives 200,000 rows differing in one field or another 200,000 keys", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 200_000; i++) keys.add(stableKey(row(i)));
    assert.equal(keys.size, 200_000);
  });

  it("is a short key starting with a NUL", () => {
    const key = stableKey(row(1));
    assert.equal(key.length, 7);
    assert.equal(key.charCodeAt(0), 0);
  });
});

describe("itemKey", () => {
  it("keys an item by its id, a number id as its text", () => {
    assert.equal(itemKey({ id: "C1", hostName: "a" }, true), "C1");
    assert.equal(itemKey({ id: 7 }, true), itemKey({ id: "7" }, true));
    assert.notEqual(itemKey({ id: "C1" }, true), itemKey({ id: "C2" }, true));
  });

  it("keys an item without an id, or when ids are not used, by the whole item", () => {
    assert.equal(itemKey({ id: null, a: 1 }, true), stableKey({ a: 1, id: null }));
    assert.equal(itemKey({ id: "C1", a: 1 }, false), stableKey({ id: "C1", a: 1 }));
  });

  it("never gives an id the key of another id or of a whole item", () => {
    const item = { id: null, a: 1 };
    const hashed = itemKey(item, true);
    const ids = [hashed, `\u0001${hashed}`, `\u0001\u0001x`, "\u0001x", "x"];
    const keys = ids.map((id) => itemKey({ id }, true));
    assert.equal(new Set([...keys, hashed]).size, ids.length + 1);
  });
});

describe("KeySet", () => {
  it("holds stable keys and other keys apart, each once, as the table grows", () => {
    const keys = new KeySet();
    for (let i = 0; i < 5000; i++) {
      assert.equal(keys.add(stableKey({ n: i })), true);
      assert.equal(keys.add(`C${i}`), true);
    }
    for (let i = 0; i < 5000; i++) {
      assert.equal(keys.add(stableKey({ n: i })), false, `stable key ${i}`);
      assert.equal(keys.has(`C${i}`), true);
    }
    assert.equal(keys.size, 10_000);
    assert.equal(keys.has(stableKey({ n: 5000 })), false);
    assert.equal(keys.has("\u0000abcdef"), false);
  });
});
