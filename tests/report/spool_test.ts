import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  decodeRow,
  encodeRow,
  memorySection,
  SpoolDisposedError,
  spoolReport,
  spoolSection,
} from "../../lib/report/spool.ts";
import { computeTotals, groupedRows, roundTo } from "../../lib/report/totals.ts";
import type { Column, Row, Section } from "../../lib/report/model.ts";
import { listDir, removeTempDirs, tempDir } from "../render/helpers.ts";

after(removeTempDirs);

const columns: Column[] = [
  { key: "host", label: "Host", type: "text" },
  { key: "seen", label: "Last seen", type: "datetime" },
  { key: "cost", label: "Cost", type: "currency" },
];

async function collect(rows: AsyncIterable<Row>): Promise<Row[]> {
  const out: Row[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/** An async source that counts how often it is iterated. */
function countingSource(rows: Row[]): { iterable: AsyncIterable<Row>; reads: () => number } {
  let reads = 0;
  return {
    iterable: {
      async *[Symbol.asyncIterator]() {
        reads++;
        for (const row of rows) {
          await Promise.resolve();
          yield row;
        }
      },
    },
    reads: () => reads,
  };
}

describe("spoolSection", () => {
  it("reads the source once and every re-read yields identical rows with dates as Date", async () => {
    const dir = await tempDir();
    const rows: Row[] = [
      { host: "a", seen: new Date("2024-01-05T10:00:00Z"), cost: 1.5, currency: "EUR" },
      { host: 'b "quoted"\nline', seen: null, cost: 2, currency: "USD", extra: true },
      { host: "c", seen: new Date(Number.NaN), cost: null, currency: "EUR" },
    ];
    const source = countingSource(rows);
    const section = await spoolSection(
      { id: "hosts", title: "Hosts", columns, rows: source.iterable },
      { dir },
    );
    const first = await collect(section.rows());
    const second = await collect(section.rows());
    assert.equal(source.reads(), 1);
    assert.equal(section.rowCount, 3);
    assert.deepEqual(first, second);
    assert.ok(first[0].seen instanceof Date);
    assert.equal((first[0].seen as Date).toISOString(), "2024-01-05T10:00:00.000Z");
    assert.ok(first[2].seen instanceof Date && Number.isNaN(first[2].seen.getTime()));
    assert.deepEqual(first[1], rows[1]);
    await section.dispose();
    assert.deepEqual(await listDir(dir), []);
    await assert.rejects(collect(section.rows()), SpoolDisposedError);
  });

  it("accepts a synchronous iterable source", async () => {
    const dir = await tempDir();
    function* gen() {
      yield { host: "x", cost: 1 };
    }
    const section = await spoolSection({ id: "s", title: "S", columns, rows: gen() }, { dir });
    assert.deepEqual(await collect(section.rows()), [{ host: "x", cost: 1 }]);
    await section.dispose();
  });

  it("keeps currency totals per currency, exact to the cent", async () => {
    const dir = await tempDir();
    const rows: Row[] = [];
    for (let i = 0; i < 1000; i++) rows.push({ cost: 0.1, currency: "EUR" });
    rows.push({ cost: 0.2, currency: "USD" }, { cost: 0.1, currency: "USD" });
    rows.push({ cost: 7, currency: null });
    const section = await spoolSection({
      id: "c",
      title: "C",
      columns,
      rows,
      totals: { sum: ["cost"], perCurrency: "currency" },
    }, { dir });
    assert.deepEqual(section.totals, {
      "(none)": { cost: 7, rows: 1 },
      EUR: { cost: 100, rows: 1000 },
      USD: { cost: 0.3, rows: 2 },
    });
    assert.equal("All" in section.totals, false);
    await section.dispose();
  });

  it("gives an All line with zero sums for an empty section", async () => {
    const dir = await tempDir();
    const section = await spoolSection(
      { id: "e", title: "E", columns, rows: [], totals: { sum: ["cost"] } },
      { dir },
    );
    assert.equal(section.rowCount, 0);
    assert.deepEqual(section.totals, { All: { cost: 0, rows: 0 } });
    assert.deepEqual(await collect(section.rows()), []);
    await section.dispose();
  });

  it("removes the spool file when the source fails and leaves nothing behind", async () => {
    const dir = await tempDir();
    const failing: AsyncIterable<Row> = {
      async *[Symbol.asyncIterator]() {
        yield { host: "a" };
        throw new Error("connection reset");
      },
    };
    await assert.rejects(
      spoolSection({ id: "f", title: "F", columns, rows: failing }, { dir }),
      /connection reset/,
    );
    assert.deepEqual(await listDir(dir), []);
  });

  it("stops on abort and removes the spool file", async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    const source: AsyncIterable<Row> = {
      async *[Symbol.asyncIterator]() {
        yield { host: "a" };
        controller.abort(new Error("cancelled by user"));
        yield { host: "b" };
      },
    };
    await assert.rejects(
      spoolSection({ id: "a", title: "A", columns, rows: source }, {
        dir,
        signal: controller.signal,
      }),
      /cancelled by user/,
    );
    assert.deepEqual(await listDir(dir), []);
  });

  it("keeps contiguous groups in arrival order", async () => {
    const dir = await tempDir();
    const rows = [{ v: "Zeta", n: 1 }, { v: "Zeta", n: 2 }, { v: "Alpha", n: 3 }];
    const section = await spoolSection(
      { id: "g", title: "G", columns, rows, group: { by: "v" } },
      { dir },
    );
    assert.deepEqual(await collect(section.rows()), rows);
    await section.dispose();
  });

  it("sorts scattered groups stably by group value with an external merge sort", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ v: fc.constantFrom("b", "a", "c", null), n: fc.integer() }), {
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 7 }),
        async (records, runSize) => {
          const rows: Row[] = records.map((r) => ({ ...r }));
          const dir = await tempDir();
          try {
            const section = await spoolSection(
              { id: "p", title: "P", columns, rows, group: { by: "v" } },
              { dir, runSize },
            );
            const got = await collect(section.rows());
            assert.equal(got.length, rows.length);
            // Each group's rows are together and keep their arrival order.
            const order = [...new Set(got.map((r) => r.v))];
            assert.equal(order.length, new Set(rows.map((r) => r.v)).size);
            const expected = order.flatMap((v) => rows.filter((r) => r.v === v));
            assert.deepEqual(got, expected);
            // Same as the in-memory wrapper.
            const memory = memorySection({
              id: "p",
              title: "P",
              columns,
              rows,
              group: { by: "v" },
            });
            assert.deepEqual(await collect(memory.rows()), got);
            await section.dispose();
            assert.deepEqual(await listDir(dir), []);
          } finally {
            await Deno.remove(dir, { recursive: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("row encoding", () => {
  it("round-trips every cell value kind", () => {
    fc.assert(fc.property(
      fc.dictionary(
        fc.string({ maxLength: 6 }).filter((k) => k !== "__proto__"),
        fc.oneof(
          fc.string(),
          fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
          fc.boolean(),
          fc.constant(null),
          fc.date({ noInvalidDate: true }),
        ),
      ),
      (row) => {
        assert.deepEqual(decodeRow(encodeRow(row as Row)), { ...row });
      },
    ));
  });
});

describe("memorySection", () => {
  it("rejects an async row source", () => {
    const rows: AsyncIterable<Row> = {
      async *[Symbol.asyncIterator]() {
        yield {};
      },
    };
    assert.throws(() => memorySection({ id: "m", title: "M", columns, rows }), TypeError);
  });
});

describe("spoolReport", () => {
  it("spools sections in order, then computes the summary, and disposes every file", async () => {
    const dir = await tempDir();
    let consumed = 0;
    const source = (n: number): AsyncIterable<Row> => ({
      async *[Symbol.asyncIterator]() {
        for (let i = 0; i < n; i++) {
          consumed++;
          yield { n: i };
        }
      },
    });
    const sections: Section[] = [
      { id: "one", title: "One", columns, rows: source(2) },
      { id: "two", title: "Two", columns, rows: source(3) },
    ];
    const spooled = await spoolReport({
      sections,
      summary: () => [{ label: "Rows read", value: consumed, type: "integer" }],
    }, { dir });
    assert.deepEqual(spooled.sections.map((s) => [s.id, s.rowCount]), [["one", 2], ["two", 3]]);
    assert.equal(spooled.summary[0].value, 5);
    assert.equal((await listDir(dir)).length, 2);
    await spooled.dispose();
    assert.deepEqual(await listDir(dir), []);
  });

  it("removes already spooled sections when a later section fails", async () => {
    const dir = await tempDir();
    const bad: AsyncIterable<Row> = {
      // deno-lint-ignore require-yield
      async *[Symbol.asyncIterator]() {
        throw new Error("boom");
      },
    };
    await assert.rejects(
      spoolReport({
        sections: [
          { id: "ok", title: "OK", columns, rows: [{ n: 1 }] },
          { id: "bad", title: "Bad", columns, rows: bad },
        ],
      }, { dir }),
      /boom/,
    );
    assert.deepEqual(await listDir(dir), []);
  });
});

describe("totals", () => {
  it("rounds half away from zero after removing binary noise", () => {
    assert.equal(roundTo(1.005, 2), 1.01);
    assert.equal(roundTo(-1.005, 2), -1.01);
    assert.equal(roundTo(0.1 + 0.2, 2), 0.3);
  });

  it("sums currency columns exactly to the cent for any list of cent amounts", () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 200 }),
      (cents) => {
        const totals = computeTotals(
          cents.map((c) => ({ cost: c / 100 })),
          { sum: ["cost"] },
          columns,
        );
        const exact = cents.reduce((a, b) => a + b, 0);
        assert.equal(Math.round(totals.All.cost * 100), exact);
        assert.equal(totals.All.cost, exact / 100);
      },
    ));
  });

  it("reports group subtotals per currency as groups close", async () => {
    const rows: Row[] = [
      { v: "A", cost: 1.1, currency: "EUR" },
      { v: "A", cost: 2.2, currency: "USD" },
      { v: "A", cost: 3.3, currency: "EUR" },
      { v: "B", cost: 5, currency: "EUR" },
    ];
    const ends = [];
    for await (
      const event of groupedRows(rows, {
        group: { by: "v" },
        totalsSpec: { sum: ["cost"], perCurrency: "currency" },
        columns,
      })
    ) {
      if (event.kind === "end") ends.push([event.value, event.rows, event.totals]);
    }
    assert.deepEqual(ends, [
      ["A", 3, { EUR: { cost: 4.4, rows: 2 }, USD: { cost: 2.2, rows: 1 } }],
      ["B", 1, { EUR: { cost: 5, rows: 1 } }],
    ]);
  });
});
