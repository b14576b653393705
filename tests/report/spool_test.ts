import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  memorySection,
  SpoolDisposedError,
  spoolReport,
  spoolSection,
} from "../../lib/report/spool.ts";
import { decodeRow, encodeRow, RowCodec } from "../../lib/report/row_codec.ts";
import {
  compareGroupValues,
  computeTotals,
  GroupArrival,
  groupedRows,
  roundTo,
} from "../../lib/report/totals.ts";
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

/** What the spool file held before sorting rows without parsing them: the stable sort of the
 * encoded rows by their decoded group value (when the groups arrive scattered). */
function referenceSpool(rows: Row[], by: string): string {
  const codec = new RowCodec();
  const lines = rows.map((row) => codec.encode(row));
  const arrival = new GroupArrival();
  for (const row of rows) arrival.add(row[by]);
  const value = (line: string) => codec.decode(line)[by] ?? null;
  if (arrival.scattered) lines.sort((a, b) => compareGroupValues(value(a), value(b)));
  return lines.map((line) => `${line}\n`).join("");
}

/** Group values of every kind; invalid dates are left out (they compare as NaN). */
const groupValue = fc.oneof(
  fc.constantFrom(null, undefined, 0, -0, 1, 10, 2.5, -3, Number.NaN, Number.POSITIVE_INFINITY),
  fc.constantFrom("a9", "a10", "B", "b", "1", "", "Ärger", "z"),
  fc.boolean(),
  fc.constantFrom(0, 86_400_000, 1_700_000_000_000).map((t) => new Date(t)),
);

/** A signal that aborts at its `at`-th check. */
function abortAtCheck(at: number): AbortSignal {
  let checks = 0;
  return {
    aborted: false,
    throwIfAborted() {
      if (++checks >= at) throw new Error("cancelled while sorting");
    },
  } as unknown as AbortSignal;
}

describe("spoolSection sorting scattered groups", () => {
  it("writes exactly the bytes the stable sort by decoded group value gives", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(groupValue, fc.integer()), { maxLength: 40 }),
        fc.integer({ min: 1, max: 50 }),
        async (records, runSize) => {
          const rows = records.map(([v, n]): Row => (v === undefined ? { n } : { v, n }));
          const dir = await tempDir();
          try {
            const section = await spoolSection(
              { id: "k", title: "K", columns, rows, group: { by: "v" } },
              { dir, runSize },
            );
            assert.equal(await Deno.readTextFile(section.path), referenceSpool(rows, "v"));
            await section.dispose();
            assert.deepEqual(await listDir(dir), []);
          } finally {
            await Deno.remove(dir, { recursive: true });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("orders null, undefined, number, Date, boolean and text groups as compareGroupValues", async () => {
    const dir = await tempDir();
    const values = [
      "b",
      null,
      10,
      new Date(5),
      true,
      "a10",
      undefined,
      2,
      "a9",
      false,
      new Date(1),
    ];
    const rows: Row[] = [];
    for (let round = 0; round < 3; round++) {
      values.forEach((v, i) =>
        rows.push(v === undefined ? { n: round * 100 + i } : { v, n: round })
      );
    }
    const section = await spoolSection(
      { id: "o", title: "O", columns, rows, group: { by: "v" } },
      { dir, runSize: 4 },
    );
    const got = (await collect(section.rows())).map((r) => r.v ?? null);
    const order = [2, 10, new Date(1), new Date(5), false, true, "a9", "a10", "b", null];
    assert.deepEqual(got, order.flatMap((v) => v === null ? Array(6).fill(null) : [v, v, v]));
    assert.equal(await Deno.readTextFile(section.path), referenceSpool(rows, "v"));
    await section.dispose();
  });

  it("keeps rows with invalid dates together, in arrival order", async () => {
    const dir = await tempDir();
    const rows: Row[] = [
      { v: new Date(Number.NaN), n: 1 },
      { v: "x", n: 2 },
      { v: new Date("not a date"), n: 3 },
      { v: new Date(0), n: 4 },
      { v: new Date(Number.NaN), n: 5 },
      { v: "x", n: 6 },
    ];
    const section = await spoolSection(
      { id: "i", title: "I", columns, rows, group: { by: "v" } },
      { dir, runSize: 2 },
    );
    const got = (await collect(section.rows())).map((r) => r.n);
    const invalid = got.filter((n) => [1, 3, 5].includes(n as number));
    assert.deepEqual(invalid, [1, 3, 5]);
    const first = got.indexOf(1);
    assert.deepEqual(got.slice(first, first + 3), [1, 3, 5]);
    assert.deepEqual(got.filter((n) => n === 2 || n === 6), [2, 6]);
    assert.equal(got.length, 6);
    await section.dispose();
  });

  it("sorts without parsing rows: JSON.parse runs once per distinct group, not per row", async () => {
    const dir = await tempDir();
    const rows: Row[] = [];
    for (let i = 0; i < 3000; i++) rows.push({ v: ["c", "a", "b"][i % 3], n: i });
    const parse = JSON.parse;
    let parses = 0;
    JSON.parse = (...args: Parameters<typeof parse>) => {
      parses++;
      return parse(...args);
    };
    let section;
    try {
      section = await spoolSection(
        { id: "j", title: "J", columns, rows, group: { by: "v" } },
        { dir, runSize: 100 },
      );
    } finally {
      JSON.parse = parse;
    }
    assert.ok(parses <= 3, `${parses} JSON.parse calls`);
    assert.equal(await Deno.readTextFile(section.path), referenceSpool(rows, "v"));
    await section.dispose();
  });

  it("keeps long multi-byte rows intact across reads, runs and the merge", async () => {
    const dir = await tempDir();
    const long = (i: number) => `é€😀${i}`.repeat(40_000 + i); // ~0.5 MB, split across reads
    const rows: Row[] = [];
    for (let i = 0; i < 12; i++) rows.push({ v: ["β", "α", "γ"][i % 3], text: long(i), n: i });
    const section = await spoolSection(
      { id: "u", title: "U", columns, rows, group: { by: "v" } },
      { dir, runSize: 5 },
    );
    const got = await collect(section.rows());
    assert.deepEqual(got.map((r) => r.n), [1, 4, 7, 10, 0, 3, 6, 9, 2, 5, 8, 11]);
    for (const row of got) assert.equal(row.text, long(row.n as number));
    assert.equal(await Deno.readTextFile(section.path), referenceSpool(rows, "v"));
    await section.dispose();
  });

  it("removes the spool and every run file when aborted while sorting", async () => {
    const rows: Row[] = [];
    for (let i = 0; i < 60; i++) rows.push({ v: i % 4, n: i });
    for (let extra = 1; extra <= 40; extra++) {
      const dir = await tempDir();
      const spooling = spoolSection(
        { id: "x", title: "X", columns, rows, group: { by: "v" } },
        { dir, runSize: 7, signal: abortAtCheck(rows.length + extra) },
      );
      const section = await spooling.catch((error: Error) => {
        assert.match(error.message, /cancelled while sorting/);
        return undefined;
      });
      if (section) {
        assert.equal(await Deno.readTextFile(section.path), referenceSpool(rows, "v"));
        await section.dispose();
      }
      assert.deepEqual(await listDir(dir), []);
    }
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
