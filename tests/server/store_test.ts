import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { RESOURCES } from "../../lib/api/catalogue.ts";
import { OPERATIONS } from "../../lib/api/operations.ts";
import { parseFilter } from "../../lib/api/filter.ts";
import { EstateStore, SortError } from "../../lib/server/store.ts";

describe("EstateStore schema", () => {
  it("has one table per catalogue table with the union of the columns of its resources", () => {
    const store = new EstateStore();
    try {
      const expected = new Set(
        Object.values(RESOURCES).map((r) => r.table).filter((t) => t !== ""),
      );
      assert.deepEqual(new Set(store.tables()), expected);
      const cols = store.columns("computers").map((c) => c.name);
      for (const r of [RESOURCES.Computer, RESOURCES.ComputerDetail]) {
        for (const f of r.fields) assert.ok(cols.includes(r.columnOf(f.name)), f.name);
      }
      assert.ok(!cols.includes("isVDI"), "Computer.isVDI is stored in isVdi");
      assert.deepEqual(store.columns("connectors").find((c) => c.name === "status_type"), {
        name: "status_type",
        type: "string",
      });
    } finally {
      store.close();
    }
  });

  it("indexes every column an operation selects on (scope, fixed, parent)", () => {
    const path = `/tmp/samkit_store_${crypto.randomUUID()}.db`;
    new EstateStore({ path }).close();
    const db = new DatabaseSync(path);
    try {
      const indexed = new Map<string, string[][]>();
      const list = db.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'")
        .all() as { name: string; tbl_name: string }[];
      for (const ix of list) {
        const cols = (db.prepare(`PRAGMA index_info("${ix.name}")`).all() as { name: string }[])
          .map((c) => c.name);
        indexed.set(ix.tbl_name, [...(indexed.get(ix.tbl_name) ?? []), cols]);
      }
      for (const op of OPERATIONS) {
        const r = RESOURCES[op.resource];
        for (const field of [...Object.values(op.scope), ...Object.keys(op.fixed)]) {
          const col = r.columnOf(field);
          assert.ok(
            (indexed.get(r.table) ?? []).some((cols) => cols.includes(col)),
            `${op.id}: ${r.table}.${col} is indexed`,
          );
        }
        if (op.parent) {
          const p = RESOURCES[op.parent.resource];
          const col = p.columnOf(op.parent.field);
          assert.ok(
            (indexed.get(p.table) ?? []).some((cols) => cols[0] === col),
            `${op.id}: parent ${p.table}.${col} leads an index`,
          );
        }
      }
    } finally {
      db.close();
      Deno.removeSync(path);
      for (const suffix of ["-wal", "-shm"]) {
        try {
          Deno.removeSync(path + suffix);
        } catch { /* not created */ }
      }
    }
  });
});

describe("EstateStore rows", () => {
  it("stores booleans as 0/1, dates in toISOString form and string arrays as JSON", () => {
    const store = new EstateStore();
    try {
      store.insert("computers", {
        id: "C1",
        isPortable: true,
        isVdi: false,
        lastScanDate: "2024-01-02T03:04:05Z",
        biosDate: new Date(Date.UTC(2020, 0, 1)),
      });
      store.insert("policy_fields", { id: "F1", policyId: "P1", listItems: ["a", "b"] });
      const c = store.query({ resource: "ComputerDetail", limit: 1 }).rows[0];
      assert.equal(c.isPortable, 1);
      assert.equal(c.isVdi, 0);
      assert.equal(c.lastScanDate, "2024-01-02T03:04:05.000Z");
      assert.equal(c.biosDate, "2020-01-01T00:00:00.000Z");
      assert.equal(c.hostName, null);
      const f = store.query({ resource: "PolicyFieldDetail", limit: 1 }).rows[0];
      assert.equal(f.listItems, '["a","b"]');
    } finally {
      store.close();
    }
  });

  it("rejects a row with a column the table does not have", () => {
    const store = new EstateStore();
    try {
      assert.throws(() => store.insert("computers", { id: "C1", nope: 1 }), /computers\.nope/);
      assert.throws(() => store.insert("nowhere", { id: "C1" }), /Unknown table "nowhere"/);
    } finally {
      store.close();
    }
  });

  it("bulk-loads in one transaction and rolls back everything on failure", async () => {
    const store = new EstateStore();
    try {
      const n = await store.bulkInsert((sink) => {
        for (let i = 0; i < 1000; i++) sink("environment_variables", { computerId: `C${i % 7}` });
      });
      assert.equal(n, 1000);
      assert.equal(store.count("environment_variables"), 1000);
      await assert.rejects(
        store.bulkInsert((sink) => {
          sink("policies", { id: "P1" });
          throw new Error("generator broke");
        }),
        /generator broke/,
      );
      assert.equal(store.count("policies"), 0);
      store.clear();
      assert.equal(store.count("environment_variables"), 0);
    } finally {
      store.close();
    }
  });

  it("updates rows matched by columns and reports how many changed", () => {
    const store = new EstateStore();
    try {
      store.insert("connectors", { id: "K1", accessKey: "old" });
      store.insert("connectors", { id: "K2", accessKey: "old" });
      assert.equal(store.update("connectors", { id: "K1" }, { accessKey: "new" }), 1);
      assert.equal(store.first("CloudConnector", { id: "K1" })?.accessKey, "new");
      assert.equal(store.first("CloudConnector", { id: "K2" })?.accessKey, "old");
    } finally {
      store.close();
    }
  });
});

describe("EstateStore.query", () => {
  const load = () => {
    const store = new EstateStore();
    const names = ["delta", "alpha", "charlie", "bravo", "echo", "alpha"];
    names.forEach((hostName, i) =>
      store.insert("computers", {
        id: `C${i}`,
        hostName,
        status: i % 2 ? "Active" : "Quarantined",
        processorValueUnit: i * 10,
        lastScanDate: new Date(Date.UTC(2024, 0, 1 + i)),
      })
    );
    return store;
  };

  it("returns rows in insertion order by default with the total of all matches", () => {
    const store = load();
    try {
      const { rows, total } = store.query({ resource: "Computer", limit: 4, offset: 1 });
      assert.deepEqual(rows.map((r) => r.id), ["C1", "C2", "C3", "C4"]);
      assert.equal(total, 6);
    } finally {
      store.close();
    }
  });

  it("selects by equality on fields, including a null selection", () => {
    const store = load();
    try {
      const active = store.query({ resource: "Computer", where: { status: "Active" }, limit: 10 });
      assert.deepEqual(active.rows.map((r) => r.id), ["C1", "C3", "C5"]);
      assert.equal(active.total, 3);
      const none = store.query({ resource: "Computer", where: { domain: null }, limit: 10 });
      assert.equal(none.total, 6);
      assert.throws(
        () => store.query({ resource: "Computer", where: { nope: "x" }, limit: 1 }),
        /no field "nope"/,
      );
    } finally {
      store.close();
    }
  });

  it("sorts by several properties and breaks ties in insertion order", () => {
    const store = load();
    try {
      const { rows } = store.query({
        resource: "Computer",
        sort: "hostName:asc,lastScanDate:desc",
        limit: 10,
      });
      assert.deepEqual(rows.map((r) => r.id), ["C5", "C1", "C3", "C2", "C0", "C4"]);
      const desc = store.query({
        resource: "ComputerDetail",
        sort: "processorValueUnit:desc",
        limit: 2,
      });
      assert.deepEqual(desc.rows.map((r) => r.id), ["C5", "C4"]);
    } finally {
      store.close();
    }
  });

  it("rejects a sort on an unknown or hidden property, naming it", () => {
    const store = load();
    try {
      assert.throws(
        () => store.query({ resource: "Computer", sort: "hostname:asc", limit: 1 }),
        (e) => e instanceof SortError && /"hostname"/.test(e.message),
      );
      assert.throws(
        () => store.query({ resource: "Drive", sort: "kind", limit: 1 }),
        (e) => e instanceof SortError && /"kind"/.test(e.message),
      );
      assert.throws(
        () => store.query({ resource: "Computer", sort: "hostName:up", limit: 1 }),
        (e) => e instanceof SortError && /asc or desc/.test(e.message),
      );
    } finally {
      store.close();
    }
  });

  it("applies a parsed filter and counts only matching rows", () => {
    const store = load();
    try {
      const { rows, total } = store.query({
        resource: "Computer",
        filter: parseFilter(
          '(hostName -startswith a) -and (lastScanDate -ge "2024-01-03T00:00:00Z")',
        ),
        limit: 10,
      });
      assert.deepEqual(rows.map((r) => r.id), ["C5"]);
      assert.equal(total, 1);
    } finally {
      store.close();
    }
  });

  it("pages through every row exactly once, continuing from the previous page", () => {
    const store = new EstateStore();
    try {
      for (let i = 0; i < 95; i++) store.insert("policies", { id: `P${i}` });
      const seen: string[] = [];
      for (let offset = 0; offset < 95; offset += 10) {
        const { rows, total } = store.query({ resource: "Policy", limit: 10, offset });
        assert.equal(total, 95);
        seen.push(...rows.map((r) => String(r.id)));
      }
      assert.deepEqual(seen, Array.from({ length: 95 }, (_, i) => `P${i}`));
      // A write between pages is seen: continuations are dropped with the counts.
      store.insert("policies", { id: "late" });
      assert.equal(store.query({ resource: "Policy", limit: 10, offset: 90 }).rows.length, 6);
    } finally {
      store.close();
    }
  });

  it("loads 200,000 rows in one bulk insert", async () => {
    const store = new EstateStore();
    try {
      const n = await store.bulkInsert((sink) => {
        for (let i = 0; i < 200_000; i++) {
          sink("computer_applications", {
            computerId: `C${i % 5000}`,
            applicationId: `A${i % 300}`,
            isInstalled: i % 3 === 0,
            firstDiscovered: "2023-05-01T00:00:00.000Z",
            usedCount: i,
          });
        }
      });
      assert.equal(n, 200_000);
      const one = store.query({
        resource: "ComputerApplication",
        where: { computerId: "C42" },
        limit: 100,
      });
      assert.equal(one.total, 40);
    } finally {
      store.close();
    }
  });
});
