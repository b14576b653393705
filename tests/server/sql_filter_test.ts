import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import {
  type FieldSpec,
  type FieldType,
  type ResourceName,
  RESOURCES,
  type ResourceSpec,
} from "../../lib/api/catalogue.ts";
import {
  type FilterLiteral,
  type FilterNode,
  FilterOperatorError,
  filterPredicate,
  FilterValueError,
  literalFromText,
  OPERATORS_BY_TYPE,
  parseFilter,
  toLiteral,
} from "../../lib/api/filter.ts";
import { compileFilter } from "../../lib/server/sql_filter.ts";

// A resource with one field of every type, a dotted field and a renamed column with a space.
const FIELDS: [string, FieldType][] = [
  ["id", "string"],
  ["s", "string"],
  ["n", "number"],
  ["b", "boolean"],
  ["d", "date"],
  ["tags", "strings"],
  ["status.type", "string"],
  ["renamed", "number"],
];
const fields: FieldSpec[] = FIELDS.map(([name, type]) => ({
  name,
  type,
  sensitive: false,
  hidden: false,
}));
const R: ResourceSpec = {
  name: "Computer" as ResourceName,
  fields,
  byName: new Map(fields.map((f) => [f.name, f])),
  links: null,
  table: "t",
  columnOf: (f) => (f === "renamed" ? "renamed col" : f.replaceAll(".", "_")),
};

interface Row {
  id: string;
  s: string | null;
  n: number | null;
  b: boolean | null;
  d: Date | null;
  tags: string[] | null;
  status: { type: string | null };
  renamed: number | null;
}

const db = new DatabaseSync(":memory:");
db.exec(
  `CREATE TABLE t (id TEXT, s TEXT, n REAL, b INTEGER, d TEXT, tags TEXT, status_type TEXT,
   "renamed col" REAL)`,
);
const insert = db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)");

function load(rows: readonly Row[]): void {
  db.exec("DELETE FROM t");
  for (const r of rows) {
    insert.run(
      r.id,
      r.s,
      r.n,
      r.b === null ? null : r.b ? 1 : 0,
      r.d === null ? null : r.d.toISOString(),
      r.tags === null ? null : JSON.stringify(r.tags),
      r.status.type,
      r.renamed,
    );
  }
}

/** The ids the SQL fragment selects and the ids the evaluator accepts, both sorted. */
function both(node: FilterNode, rows: readonly Row[]): { sql: string[]; js: string[] } {
  const { sql, params } = compileFilter(node, R);
  const got = db.prepare(`SELECT id FROM t WHERE ${sql}`).all(...params) as { id: string }[];
  const p = filterPredicate(node, R);
  return {
    sql: got.map((r) => r.id).sort(),
    js: rows.filter((r) => p(r as unknown as Record<string, unknown>)).map((r) => r.id).sort(),
  };
}

const at = (iso: string) => new Date(iso);
const ROWS: Row[] = [
  ["r01", "Active", 12, true, at("2021-06-01T12:00:00.000Z"), ["a", "B"], "inProgress", 2],
  ["r02", "ACTIVE", 12.5, false, at("2022-01-01T00:00:00.000Z"), [], "DONE", null],
  ["r03", "active ", -1.5, null, null, null, null, 0],
  ["r04", "", 0, true, at("2022-01-01T00:00:00.001Z"), ["%", "_"], "inprogress", 5],
  ["r05", null, null, false, at("1999-12-31T23:59:59.999Z"), ["x"], null, null],
  ["r06", "100%", 1e6, true, at("2021-06-01T12:00:00.000Z"), ["a%"], "x", 1],
  ["r07", "a_b", 3, false, null, ["A"], "", 1.5],
  ["r08", "a%b", 12, null, at("2030-05-05T05:05:05.555Z"), null, "inProgress", -2],
  ["r09", "abc_", null, true, at("0001-01-01T00:00:00.000Z"), [""], null, 3],
  ["r10", "MacBook Pro", 7, false, at("2021-06-01T12:00:00.000Z"), ["b"], "done", 4],
  ["r11", "Ünïcode É", 2, true, null, ["É"], null, null],
  ["r12", `it's "q"`, -0, null, at("2022-01-01T00:00:00.000Z"), ["it's"], "x", 0],
].map(([id, s, n, b, d, tags, type, renamed]) => ({
  id,
  s,
  n,
  b,
  d,
  tags,
  status: { type },
  renamed,
} as Row));

/** Checks SQL and evaluator agree on the fixed rows and returns the matching ids. */
function ids(text: string): string[] {
  load(ROWS);
  const { sql, js } = both(parseFilter(text), ROWS);
  assert.deepEqual(sql, js, `SQL and evaluator disagree on ${text}`);
  return sql;
}

describe("compileFilter", () => {
  it("binds values as parameters and never splices them", () => {
    const { sql, params } = compileFilter(parseFilter(`s -eq "x'); DROP TABLE t; --"`), R);
    assert.equal(sql, '("s" IS NOT NULL AND lower("s") = ?)');
    assert.deepEqual(params, ["x'); drop table t; --"]);
  });

  it("quotes column names from columnOf", () => {
    const { sql } = compileFilter(
      parseFilter("(renamed -gt 1) -and (status.type -exists true)"),
      R,
    );
    assert.match(sql, /"renamed col" > \?/);
    assert.match(sql, /"status_type" <> ''/);
    assert.match(
      compileFilter(parseFilter("isVDI -eq true"), RESOURCES.Computer).sql,
      /"isVdi" = \?/,
    );
  });

  it("validates first", () => {
    assert.throws(() => compileFilter(parseFilter("s -gt x"), R), FilterOperatorError);
    assert.throws(() => compileFilter(parseFilter("d -gt x"), R), FilterValueError);
  });

  it("compares strings ignoring case, with % and _ as plain characters", () => {
    assert.deepEqual(ids("s -eq active"), ["r01", "r02"]);
    assert.deepEqual(ids("s -ne active"), [
      "r03",
      "r04",
      "r06",
      "r07",
      "r08",
      "r09",
      "r10",
      "r11",
      "r12",
    ]);
    assert.deepEqual(ids("s -contains %"), ["r06", "r08"]);
    assert.deepEqual(ids("s -contains _"), ["r07", "r09"]);
    assert.deepEqual(ids("s -startswith a_"), ["r07"]);
    assert.deepEqual(ids("s -endswith _"), ["r09"]);
    assert.deepEqual(ids('s -endswith "B"'), ["r08", "r07"].sort());
    assert.deepEqual(ids("s -notcontains a"), ["r04", "r06", "r11", "r12"]);
    assert.deepEqual(ids("s -in [ACTIVE,'100%']"), ["r01", "r02", "r06"]);
    assert.deepEqual(ids("s -notin [ACTIVE,'100%']"), [
      "r03",
      "r04",
      "r07",
      "r08",
      "r09",
      "r10",
      "r11",
      "r12",
    ]);
    assert.deepEqual(ids(`s -eq 'IT''S "Q"'`), ["r12"]);
    assert.deepEqual(ids('s -contains ""'), ids("s -exists true").concat("r04").sort());
    assert.deepEqual(ids('s -endswith ""').length, 11);
  });

  it("folds only A-Z, in SQL as in the evaluator", () => {
    assert.deepEqual(ids("s -contains É"), ["r11"]);
    assert.deepEqual(ids("s -contains é"), []);
    assert.deepEqual(ids("s -contains Ünï"), ["r11"]);
    assert.deepEqual(ids("s -contains ünï"), []);
    assert.deepEqual(ids("s -contains 'CODE É'"), ["r11"]);
  });

  it("treats null and the empty string as not existing", () => {
    assert.deepEqual(ids("s -exists false"), ["r04", "r05"]);
    assert.deepEqual(ids("s -exists true").length, 10);
    assert.deepEqual(ids("status.type -exists false"), ["r03", "r05", "r07", "r09", "r11"]);
  });

  it("makes comparisons with null false and lets -not match them", () => {
    assert.ok(!ids("s -ne x").includes("r05"));
    assert.ok(ids("-not (s -eq x)").includes("r05"));
    assert.deepEqual(ids("-not (n -gt 0)"), ["r03", "r04", "r05", "r09", "r12"]);
  });

  it("compares numbers", () => {
    assert.deepEqual(ids("n -eq 12"), ["r01", "r08"]);
    assert.deepEqual(ids("n -eq 12.0"), ["r01", "r08"]);
    assert.deepEqual(ids("n -ne 12"), ["r02", "r03", "r04", "r06", "r07", "r10", "r11", "r12"]);
    assert.deepEqual(ids("n -gt 7"), ["r01", "r02", "r06", "r08"]);
    assert.deepEqual(ids("n -ge 7"), ["r01", "r02", "r06", "r08", "r10"]);
    assert.deepEqual(ids("n -lt 0"), ["r03"]);
    assert.deepEqual(ids("n -le 0"), ["r03", "r04", "r12"]);
    assert.deepEqual(ids("n -in [0, 3, 1E6]"), ["r04", "r06", "r07", "r12"]);
    assert.deepEqual(ids("n -notin [12]"), [
      "r02",
      "r03",
      "r04",
      "r06",
      "r07",
      "r10",
      "r11",
      "r12",
    ]);
    assert.deepEqual(ids("n -exists false"), ["r05", "r09"]);
    assert.deepEqual(ids('renamed -ge "1.5"'), ["r01", "r04", "r07", "r09", "r10"]);
  });

  it("compares booleans", () => {
    assert.deepEqual(ids("b -eq true"), ["r01", "r04", "r06", "r09", "r11"]);
    assert.deepEqual(ids("b -ne true"), ["r02", "r05", "r07", "r10"]);
    assert.deepEqual(ids("b -in [FALSE]"), ["r02", "r05", "r07", "r10"]);
    assert.deepEqual(ids("b -notin [false]"), ["r01", "r04", "r06", "r09", "r11"]);
  });

  it("compares dates by instant", () => {
    assert.deepEqual(ids("d -eq 2021-06-01T14:00:00+02:00"), ["r01", "r06", "r10"]);
    assert.deepEqual(ids('d -gt "2022-01-01T00:00:00Z"'), ["r04", "r08"]);
    assert.deepEqual(ids('d -ge "2022-01-01T00:00:00Z"'), ["r02", "r04", "r08", "r12"]);
    assert.deepEqual(ids('d -lt "2000-01-01T00:00:00Z"'), ["r05", "r09"]);
    assert.deepEqual(ids('d -le "1999-12-31T23:59:59.999Z"'), ["r05", "r09"]);
    assert.deepEqual(ids('d -ne "2022-01-01T00:00:00Z"').length, 7);
    assert.deepEqual(ids("d -in ['2022-01-01T00:00:00.001Z', 0001-01-01T00:00:00z]"), [
      "r04",
      "r09",
    ]);
    assert.deepEqual(ids("d -notin ['2021-06-01T12:00:00Z']"), [
      "r02",
      "r04",
      "r05",
      "r08",
      "r09",
      "r12",
    ]);
    assert.deepEqual(ids("d -exists false"), ["r03", "r07", "r11"]);
  });

  it("matches Sets of String by element", () => {
    assert.deepEqual(ids("tags -contains b"), ["r01", "r10"]);
    assert.deepEqual(ids("tags -contains %"), ["r04"]);
    assert.deepEqual(ids('tags -contains ""'), ["r09"]);
    assert.deepEqual(ids("tags -notcontains a"), [
      "r02",
      "r04",
      "r05",
      "r06",
      "r09",
      "r10",
      "r11",
      "r12",
    ]);
    assert.deepEqual(ids("tags -exists true").length, 9);
    assert.deepEqual(ids("tags -exists false"), ["r02", "r03", "r08"]);
  });

  it("combines with -and, -or and -not", () => {
    assert.deepEqual(
      ids("(s -contains a) -and ((n -gt 10) -or (-not (d -exists true)))"),
      ["r01", "r02", "r03", "r07", "r08"],
    );
  });
});

// ---- Random rows and random filters: SQL and the evaluator must agree ----

const STRINGS = [
  "Active",
  "active",
  "ACTIVE",
  "a",
  "A",
  "b",
  "%",
  "_",
  "a_b",
  "a%",
  "",
  " ",
  "É",
  "é",
  "it's",
  'x"y',
];
const NUMBERS = [0, -0, 1, -1, 1.5, 12, 1e6, -2.25, 3];
const DATES = [
  "2021-06-01T12:00:00.000Z",
  "2022-01-01T00:00:00.000Z",
  "2022-01-01T00:00:00.001Z",
  "1999-12-31T23:59:59.999Z",
  "0001-01-01T00:00:00.000Z",
  "9999-12-31T23:59:59.999Z",
].map((iso) => new Date(iso));

const strArb = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.string({ unit: "grapheme-ascii", maxLength: 6 }),
);
const numArb = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer({ min: -20, max: 20 }));
const dateArb = fc.oneof(
  fc.constantFrom(...DATES),
  fc.date({ min: DATES[4], max: DATES[5], noInvalidDate: true }),
);

const rowArb = (id: number): fc.Arbitrary<Row> =>
  fc.record({
    s: fc.option(strArb),
    n: fc.option(numArb),
    b: fc.option(fc.boolean()),
    d: fc.option(dateArb),
    tags: fc.option(fc.array(strArb, { maxLength: 3 })),
    type: fc.option(strArb),
    renamed: fc.option(numArb),
  }).map((r) => ({ id: `r${id}`, ...r, status: { type: r.type } }));

const rowsArb = fc.integer({ min: 0, max: 12 }).chain((count) =>
  fc.tuple(...Array.from({ length: count }, (_, i) => rowArb(i)))
);

/** A literal for a value, sometimes quoted against the builder's choice when that reads the same. */
function valueArb(type: FieldType): fc.Arbitrary<FilterLiteral> {
  switch (type) {
    case "string":
    case "strings":
      return fc.oneof(strArb.map(toLiteral), strArb.map((s) => literalFromText(s, true)));
    case "number":
      return fc.oneof(numArb.map(toLiteral), numArb.map((n) => literalFromText(String(n), true)));
    case "boolean":
      return fc.boolean().map(toLiteral);
    case "date":
      return fc.oneof(
        dateArb.map(toLiteral),
        dateArb.map((d) => literalFromText(d.toISOString().replace(".000Z", "Z"), false)),
      );
  }
}

const cmpArb: fc.Arbitrary<FilterNode> = fc.constantFrom(...fields).chain((f) =>
  fc.constantFrom(...OPERATORS_BY_TYPE[f.type]).chain((op): fc.Arbitrary<FilterNode> => {
    if (op === "exists") {
      return fc.boolean().map((b) => ({ kind: "cmp", field: f.name, op, value: toLiteral(b) }));
    }
    if (op === "in" || op === "notin") {
      return fc.array(valueArb(f.type), { minLength: 1, maxLength: 3 }).map((value) => ({
        kind: "cmp",
        field: f.name,
        op,
        value,
      }));
    }
    return valueArb(f.type).map((value) => ({ kind: "cmp", field: f.name, op, value }));
  })
);

const treeArb: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    cmpArb,
    fc.tuple(
      fc.constantFrom("and" as const, "or" as const),
      fc.array(tie("node"), { minLength: 2, maxLength: 3 }),
    )
      .map(([kind, items]): FilterNode => ({ kind, items })),
    tie("node").map((expr): FilterNode => ({ kind: "not", expr })),
  ),
})).node;

describe("compileFilter agrees with evaluateFilter", () => {
  it("on every operator of every field type over the fixed rows", () => {
    load(ROWS);
    fc.assert(
      fc.property(cmpArb, (node) => {
        const { sql, js } = both(node, ROWS);
        assert.deepEqual(sql, js);
      }),
      { numRuns: 1500 },
    );
  });

  it("on random trees over random rows", () => {
    fc.assert(
      fc.property(rowsArb, treeArb, (rows, node) => {
        load(rows);
        const { sql, js } = both(node, rows);
        assert.deepEqual(sql, js);
      }),
      { numRuns: 800 },
    );
  });
});
