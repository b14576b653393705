import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { type ResourceName, RESOURCES } from "../../lib/api/catalogue.ts";
import { OPERATIONS } from "../../lib/api/operations.ts";
import { parseFilter } from "../../lib/api/filter.ts";
import {
  arrayRowWriter,
  type Dialect,
  DIALECTS,
  itemLinksJson,
  rowWriter,
} from "../../lib/server/serialize.ts";
import { EstateStore, type StoreQuery } from "../../lib/server/store.ts";
import { generateEstate } from "../../lib/server/generator.ts";

/** Any UTF-16 code unit, lone surrogates and control characters included. */
const anyText = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
});

/** A value as SQLite hands one back. */
const storedValue = fc.oneof(
  fc.constant(null),
  anyText,
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, 1, "1", "0", "true", "false", "", "[]", '["a","b\\"c"]', "not json"),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);

/** The storage columns of a resource. */
function columnsOf(resource: ResourceName): string[] {
  const r = RESOURCES[resource];
  return [...new Set(r.fields.map((f) => r.columnOf(f.name)))];
}

describe("arrayRowWriter", () => {
  const cases = Object.values(RESOURCES).flatMap((r) =>
    DIALECTS.map((dialect) => [r.name, dialect] as [ResourceName, Dialect])
  );

  it("writes an array row exactly as rowWriter writes the same row by name, whatever the column order", () => {
    for (const [resource, dialect] of cases) {
      const all = columnsOf(resource);
      const arb = fc.record({
        order: fc.shuffledSubarray(["__rowid", ...all], { minLength: 0 }),
        values: fc.array(storedValue, { minLength: all.length + 1, maxLength: all.length + 1 }),
        tail: fc.option(fc.constant('"_links":[]'), { nil: undefined }),
      });
      fc.assert(
        fc.property(arb, ({ order, values, tail }) => {
          const row = order.map((_, i) => values[i]);
          const byName = Object.fromEntries(order.map((c, i) => [c, row[i]]));
          assert.equal(
            arrayRowWriter(resource, dialect, order)(row, tail),
            rowWriter(resource, dialect)(byName, tail),
          );
        }),
        { numRuns: 30 },
      );
    }
  });
});

describe("itemLinksJson of array rows", () => {
  it("writes the links of an array row exactly as of the same row by name", () => {
    const idText = fc.oneof(anyText, fc.constantFrom("", "C1", "a/b c"), fc.constant(null));
    for (const op of OPERATIONS.filter((o) => o.shape === "collection")) {
      const columns = ["__rowid", ...columnsOf(op.resource)];
      const arb = fc.array(idText, { minLength: columns.length, maxLength: columns.length });
      fc.assert(
        fc.property(arb, (row) => {
          const byName = Object.fromEntries(columns.map((c, i) => [c, row[i]]));
          const outcome = (f: () => unknown) => {
            try {
              return f();
            } catch (err) {
              return (err as Error).name;
            }
          };
          const path = `/api/sam/x/${op.id}`;
          assert.equal(
            outcome(() => itemLinksJson(op, row, path, undefined, columns)),
            outcome(() => itemLinksJson(op, byName, path)),
          );
        }),
        { numRuns: 20 },
      );
    }
  });
});

describe("EstateStore.queryArrays", () => {
  it("reads the rows and totals query reads, on every path (keyset, offset, sorted, -in index)", async () => {
    const store = new EstateStore();
    try {
      await store.bulkInsert((sink) => {
        generateEstate({ seed: 3, computers: 60 }, sink);
      });
      const ids = store.query({ resource: "Computer", limit: 7, noTotal: true }).rows
        .map((r) => String(r.id));
      const reads: Omit<StoreQuery, "limit" | "offset">[] = [
        { resource: "ComputerApplication" },
        { resource: "ComputerApplication", filter: parseFilter("isInstalled -eq true") },
        { resource: "ComputerApplication", sort: "applicationId:desc,computerId:asc" },
        {
          resource: "ComputerApplication",
          filter: parseFilter(`computerId -in [${ids.join(",")}]`),
        },
        { resource: "Computer", where: { id: ids[0] } },
      ];
      for (const read of reads) {
        for (const [limit, offset] of [[50, 0], [50, 50], [50, 100], [7, 3], [50, 100_000]]) {
          const objects = store.query({ ...read, limit, offset });
          const arrays = store.queryArrays({ ...read, limit, offset });
          assert.equal(arrays.total, objects.total);
          assert.equal(arrays.columns[0], "__rowid");
          assert.deepEqual(
            arrays.rows.map((row) => Object.fromEntries(arrays.columns.map((c, i) => [c, row[i]]))),
            objects.rows.map((row) => ({ ...row })),
          );
        }
      }
    } finally {
      store.close();
    }
  });
});
