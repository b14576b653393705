import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeRow, encodeRow, RowCodec } from "../../lib/report/row_codec.ts";
import type { Row } from "../../lib/report/model.ts";

/** A row's entries as a comparable list (keys in order, dates by time, undefined kept apart). */
const entries = (row: Row) =>
  Object.entries(row).map(([k, v]) => [k, v instanceof Date ? `date:${v.getTime()}` : v]);

describe("row codec", () => {
  it("reads back every row as the object encoding does, whatever the mix of shapes", () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date(),
    );
    const key = fc.constantFrom("host", "app", "n", "at", "note", "0", "__proto__x", "a b");
    const row = fc.dictionary(key, value, { maxKeys: 5 });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), (rows) => {
        const codec = new RowCodec();
        const lines = rows.map((r) => codec.encode(r as Row));
        lines.forEach((line, i) => {
          const expected = decodeRow(encodeRow(rows[i] as Row));
          assert.deepEqual(entries(codec.decode(line)), entries(expected));
        });
      }),
      { numRuns: 2000 },
    );
  });
  it("writes rows of the first row's shape as arrays and others as objects", () => {
    const codec = new RowCodec();
    const at = new Date(Date.UTC(2026, 0, 2));
    assert.equal(codec.encode({ host: "a", at, n: 1 }), `["a",{"$d":${at.getTime()}},1]`);
    assert.equal(
      codec.encode({ at, host: "b", n: 2 }),
      `{"at":{"$d":${at.getTime()}},"host":"b","n":2}`,
    );
    assert.equal(
      codec.encode({ host: "c", at: null, n: undefined } as unknown as Row),
      `{"host":"c","at":null}`,
    );
    assert.equal(
      codec.encode({ host: "d", at: new Date(Number.NaN), n: 3 }),
      `["d",{"$d":null},3]`,
    );
    assert.ok(Number.isNaN((codec.decode(`["d",{"$d":null},3]`).at as Date).getTime()));
  });
  it("keeps objects for a section whose keys an array could not rebuild in order", () => {
    const codec = new RowCodec();
    assert.equal(codec.encode({ 1: "x", b: 2 }), `{"1":"x","b":2}`);
    assert.equal(codec.encode({ 1: "y", b: 3 }), `{"1":"y","b":3}`);
  });
});
