/**
 * Bulk loading many rows per statement keeps what one statement per row gave: every row, in the
 * order added (rowids too), storage forms, unknown columns refused with nothing loaded, reads
 * during a load seeing every row added so far, and indexes of the tables written rebuilt while
 * other tables keep theirs.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { EstateStore } from "../../lib/server/store.ts";

/** Index names of a database file, per table. */
function indexesOf(path: string): Map<string, string[]> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare(
      "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' ORDER BY name",
    ).all() as { name: string; tbl_name: string }[];
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.tbl_name, [...(out.get(r.tbl_name) ?? []), r.name]);
    return out;
  } finally {
    db.close();
  }
}

describe("EstateStore.bulkInsert", () => {
  it("keeps every row in the order added, across full batches and the rest", async () => {
    const store = new EstateStore();
    try {
      // 1,003 rows: many full batches of any batch size, and a remainder.
      const n = await store.bulkInsert((sink) => {
        for (let i = 0; i < 1003; i++) {
          sink("policies", { id: `P${i}` });
          if (i % 3 === 0) sink("entitlement_states", { id: `S${i}`, name: `state ${i}` });
        }
      });
      assert.equal(n, 1003 + 335);
      const page = store.queryArrays({ resource: "Policy", limit: 2000 });
      const id = page.columns.indexOf("id");
      assert.deepEqual(
        page.rows.map((r) => r[id]),
        Array.from({ length: 1003 }, (_, i) => `P${i}`),
      );
      assert.deepEqual(page.rows.map((r) => r[0]), Array.from({ length: 1003 }, (_, i) => i + 1));
      assert.equal(store.count("entitlement_states"), 335);
    } finally {
      store.close();
    }
  });

  it("stores values in storage form: booleans 0/1, dates ISO, lists JSON, missing as null", async () => {
    const store = new EstateStore();
    try {
      await store.bulkInsert((sink) => {
        sink("policy_fields", {
          id: "F1",
          isRequired: true,
          isComboBox: false,
          listItems: ["a", "b"],
          policyId: "POL1",
        });
        sink("computers", { id: "C1", lastScanDate: new Date(Date.UTC(2025, 0, 2)) });
      });
      const field = store.first("PolicyField", { id: "F1" })!;
      assert.equal(field.isRequired, 1);
      assert.equal(field.isComboBox, 0);
      assert.equal(field.listItems, '["a","b"]');
      assert.equal(field.name, null);
      const computer = store.readColumns("ComputerDetail", ["lastScanDate"]);
      assert.deepEqual(computer, [["2025-01-02T00:00:00.000Z"]]);
    } finally {
      store.close();
    }
  });

  it("refuses an unknown column naming table and column, and loads nothing of that load", async () => {
    const store = new EstateStore();
    try {
      await assert.rejects(
        store.bulkInsert((sink) => {
          for (let i = 0; i < 100; i++) sink("policies", { id: `P${i}` });
          sink("policies", { id: "bad", nope: 1 });
        }),
        { name: "RangeError", message: "Unknown column policies.nope" },
      );
      assert.equal(store.count("policies"), 0);
    } finally {
      store.close();
    }
  });

  it("a read during the load sees every row added so far", async () => {
    const store = new EstateStore();
    try {
      const seen: number[] = [];
      await store.bulkInsert((sink) => {
        for (let i = 0; i < 10; i++) sink("policies", { id: `P${i}` });
        seen.push(store.count("policies"));
        sink("policies", { id: "P10" });
        seen.push(store.query({ resource: "Policy", limit: 100 }).rows.length);
      });
      assert.deepEqual(seen, [10, 11]);
    } finally {
      store.close();
    }
  });

  it("rebuilds the indexes of the tables written and leaves the others' in place", async () => {
    const path = `/tmp/samkit_store_bulk_${crypto.randomUUID()}.db`;
    const store = new EstateStore({ path });
    try {
      const before = indexesOf(path);
      assert.ok((before.get("computer_applications") ?? []).length > 0);
      await store.bulkInsert((sink) => {
        for (let i = 0; i < 50; i++) sink("computers", { id: `C${i}`, hostName: `h${i}` });
      });
      assert.deepEqual(indexesOf(path), before);
      assert.equal(store.first("ComputerDetail", { id: "C7" })?.hostName, "h7");
    } finally {
      store.close();
      for (const f of [path, `${path}-wal`, `${path}-shm`]) await Deno.remove(f).catch(() => {});
    }
  });
});
