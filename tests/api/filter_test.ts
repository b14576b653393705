import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { RESOURCES } from "../../lib/api/catalogue.ts";
import {
  and,
  COMPARISON_OPERATORS,
  contains,
  endsWith,
  eq,
  evaluateFilter,
  exists,
  FilterFieldError,
  type FilterLiteral,
  type FilterNode,
  FilterOperatorError,
  filterPredicate,
  FilterSyntaxError,
  FilterValidationError,
  FilterValueError,
  ge,
  gt,
  isIn,
  isSafeUnquoted,
  le,
  literalFromText,
  lt,
  MAX_FILTER_DEPTH,
  ne,
  not,
  notContains,
  notIn,
  or,
  parseFilter,
  positionOf,
  printFilter,
  startsWith,
  toLiteral,
  validateFilter,
} from "../../lib/api/filter.ts";
import { readDate, unquotedProblem } from "../../lib/api/filter_literal.ts";

const word = (text: string) => literalFromText(text, false);
const quoted = (text: string) => literalFromText(text, true);

/** The FilterSyntaxError a parse throws (fails the test when it parses). */
function syntaxError(text: string): FilterSyntaxError {
  try {
    parseFilter(text);
  } catch (e) {
    if (e instanceof FilterSyntaxError) return e;
    throw e;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be rejected`);
}

describe("parseFilter: the examples of routes.md", () => {
  it("parses a lone comparison without parentheses", () => {
    assert.deepEqual(parseFilter("status -eq Quarantined"), {
      kind: "cmp",
      field: "status",
      op: "eq",
      value: { type: "string", value: "Quarantined", text: "Quarantined", quoted: false },
    });
  });

  it("parses two parenthesised operands joined by -and, typing true as a Boolean", () => {
    assert.deepEqual(
      parseFilter("(manufacturer -contains Microsoft) -and (isEndOfLife -eq true)"),
      {
        kind: "and",
        items: [
          { kind: "cmp", field: "manufacturer", op: "contains", value: word("Microsoft") },
          {
            kind: "cmp",
            field: "isEndOfLife",
            op: "eq",
            value: { type: "boolean", value: true, text: "true", quoted: false },
          },
        ],
      },
    );
  });

  it("parses a nested -or group with a quoted date", () => {
    const tree = parseFilter(
      '(hostName -contains MacBook) -and ((status -eq Quarantined) -or (lastScanDate -le "2022-01-01T00:00:00Z"))',
    );
    assert.deepEqual(tree, {
      kind: "and",
      items: [
        { kind: "cmp", field: "hostName", op: "contains", value: word("MacBook") },
        {
          kind: "or",
          items: [
            { kind: "cmp", field: "status", op: "eq", value: word("Quarantined") },
            {
              kind: "cmp",
              field: "lastScanDate",
              op: "le",
              value: {
                type: "date",
                value: new Date(Date.UTC(2022, 0, 1)),
                text: "2022-01-01T00:00:00Z",
                quoted: true,
              },
            },
          ],
        },
      ],
    });
  });
});

describe("parseFilter: operators and values", () => {
  it("parses every comparison operator, in any letter case", () => {
    for (const op of COMPARISON_OPERATORS) {
      const value = op === "in" || op === "notin" ? "[a,b]" : op === "exists" ? "true" : "a";
      for (const spelling of [op, op.toUpperCase(), op[0].toUpperCase() + op.slice(1)]) {
        const tree = parseFilter(`field -${spelling} ${value}`);
        assert.equal(tree.kind, "cmp");
        if (tree.kind === "cmp") assert.equal(tree.op, op);
      }
    }
  });

  it("parses -AND, -Or and -NOT case-insensitively", () => {
    const tree = parseFilter("(a -eq 1) -AND (-NOT ((b -eq 2) -Or (c -eq 3)))");
    assert.deepEqual(tree, and(eq("a", 1), not(or(eq("b", 2), eq("c", 3)))));
  });

  it("parses -in lists with quoted and unquoted elements and spaces", () => {
    assert.deepEqual(parseFilter(`status -in [ Active , "In stock",'x',12 ]`), {
      kind: "cmp",
      field: "status",
      op: "in",
      value: [word("Active"), quoted("In stock"), quoted("x"), word("12")],
    });
    assert.deepEqual(parseFilter("status -notin [Active,Quarantined]"), {
      kind: "cmp",
      field: "status",
      op: "notin",
      value: [word("Active"), word("Quarantined")],
    });
  });

  it("parses -exists with an unquoted boolean", () => {
    assert.deepEqual(parseFilter("ipAddress -exists true"), exists("ipAddress"));
    assert.deepEqual(parseFilter("ipAddress -exists false"), exists("ipAddress", false));
  });

  it("parses double- and single-quoted strings", () => {
    const dbl = parseFilter('name -eq "Acme Corp"');
    const sgl = parseFilter("name -eq 'Acme Corp'");
    assert.deepEqual(dbl, sgl);
    assert.deepEqual(dbl, { kind: "cmp", field: "name", op: "eq", value: quoted("Acme Corp") });
  });

  it("unescapes backslash escapes and doubled quotes alike", () => {
    const value = (text: string) => {
      const t = parseFilter(`name -eq ${text}`);
      return t.kind === "cmp" && !Array.isArray(t.value) ? (t.value as FilterLiteral).text : "";
    };
    assert.equal(value(String.raw`"say \"hi\""`), 'say "hi"');
    assert.equal(value(`"say ""hi"""`), 'say "hi"');
    assert.equal(value(String.raw`'it\'s'`), "it's");
    assert.equal(value(`'it''s'`), "it's");
    assert.equal(value(String.raw`"C:\\temp\\x"`), String.raw`C:\temp\x`);
    assert.equal(value(`"it's"`), "it's");
    assert.equal(value(`'say "hi"'`), 'say "hi"');
    assert.equal(value(`""`), "");
    assert.equal(value(`""""`), '"');
  });

  it("types unquoted values by their look: Number, then Date, then Boolean, else String", () => {
    assert.deepEqual(word("12"), { type: "number", value: 12, text: "12", quoted: false });
    assert.deepEqual(word("-1.50"), { type: "number", value: -1.5, text: "-1.50", quoted: false });
    assert.equal(word("2e3").value, 2000);
    assert.equal(word("2022-01-01t00:00:00z").type, "date");
    assert.equal(word("2022-01-01T01:00:00+01:00").type, "date");
    assert.equal(
      (word("2022-01-01T01:00:00+01:00").value as Date).getTime(),
      Date.UTC(2022, 0, 1),
    );
    assert.deepEqual(word("FALSE"), {
      type: "boolean",
      value: false,
      text: "FALSE",
      quoted: false,
    });
    assert.equal(word("Active").type, "string");
  });

  it("types a quoted value as a String, except a quoted RFC 3339 date-time", () => {
    assert.equal(quoted("12").type, "string");
    assert.equal(quoted("true").type, "string");
    assert.equal(quoted("2022-01-01T00:00:00Z").type, "date");
  });

  it("rejects impossible dates and leap seconds as dates", () => {
    assert.equal(readDate("2022-02-30T00:00:00Z"), undefined);
    assert.equal(readDate("2024-02-29T00:00:00Z"), Date.UTC(2024, 1, 29));
    assert.equal(readDate("2022-01-01T23:59:60Z"), undefined);
    assert.equal(readDate("0099-01-01T00:00:00Z"), new Date("0099-01-01T00:00:00Z").getTime());
    assert.equal(readDate("9999-12-31T23:59:59-01:00"), undefined);
    assert.equal(readDate("2022-01-01T00:00:00.123999Z"), Date.UTC(2022, 0, 1, 0, 0, 0, 123));
  });

  it("drops redundant parentheses without a trace", () => {
    assert.deepEqual(parseFilter("((status -eq Active))"), parseFilter("status -eq Active"));
    assert.deepEqual(
      parseFilter("(((a -eq 1)) -and ((b -eq 2)))"),
      parseFilter("(a -eq 1) -and (b -eq 2)"),
    );
  });

  it("keeps grouping: nested -and stays nested, a chain stays one node", () => {
    assert.deepEqual(
      parseFilter("((a -eq 1) -and (b -eq 2)) -and (c -eq 3)"),
      and(and(eq("a", 1), eq("b", 2)), eq("c", 3)),
    );
    assert.deepEqual(
      parseFilter("(a -eq 1) -and (b -eq 2) -and (c -eq 3)"),
      and(eq("a", 1), eq("b", 2), eq("c", 3)),
    );
  });

  it("accepts -not at the top, inside groups and doubled", () => {
    assert.deepEqual(parseFilter("-not (a -eq 1)"), not(eq("a", 1)));
    assert.deepEqual(parseFilter("-not (-not (a -eq 1))"), not(not(eq("a", 1))));
    assert.deepEqual(
      parseFilter("(-not (a -eq 1)) -or (b -eq 2)"),
      or(not(eq("a", 1)), eq("b", 2)),
    );
  });

  it("reads negative numbers and dotted field names", () => {
    assert.deepEqual(parseFilter("status.type -eq inProgress"), eq("status.type", "inProgress"));
    assert.deepEqual(parseFilter("quantity -gt -5"), gt("quantity", -5));
  });

  it("records positions for nodes, operators and literals", () => {
    const tree = parseFilter("(a -eq 1) -and (bb -in [x, 'y'])");
    assert.equal(tree.kind, "and");
    if (tree.kind !== "and") return;
    assert.deepEqual(positionOf(tree), { column: 1, endColumn: 33 });
    const second = tree.items[1];
    assert.deepEqual(positionOf(second), { column: 17, endColumn: 32, operatorColumn: 20 });
    if (second.kind === "cmp" && Array.isArray(second.value)) {
      assert.deepEqual(positionOf(second.value), { column: 24, endColumn: 32 });
      assert.deepEqual(positionOf(second.value[1]), { column: 28, endColumn: 31 });
    } else assert.fail("expected a list comparison");
    assert.equal(positionOf(eq("a", 1)), undefined);
  });
});

describe("parseFilter: errors", () => {
  const cases: [string, string, number, RegExp][] = [
    ["rejects an unclosed quote at its opening column", 'status -eq "Active', 12, /closing "/],
    ["rejects an unclosed single quote", "status -eq 'Act", 12, /closing '/],
    ["rejects a missing value at the end of input", "status -eq", 11, /a value after "-eq"/],
    ["rejects a missing value before a parenthesis", "(status -eq )", 13, /a value/],
    ["rejects an unknown operator", "status -equals Active", 8, /a comparison operator/],
    ["rejects a missing operator", "status Active", 8, /an operator after "status"/],
    [
      "rejects a bare left operand of -and",
      "status -eq Active -and (x -eq 1)",
      1,
      /expected "\("/,
    ],
    [
      "rejects a bare right operand of -and",
      "(status -eq Active) -and x -eq 1",
      26,
      /expected "\("/,
    ],
    ["rejects an unclosed group", "((status -eq Active)", 21, /expected "\)"/],
    ["rejects a stray closing parenthesis", "(status -eq Active))", 20, /end of input/],
    ["rejects an unquoted value starting with a digit", "id -eq 12abc", 8, /start with a digit/],
    ["rejects an impossible unquoted date", "d -eq 2022-02-30T00:00:00Z", 7, /digit/],
    ["rejects an unquoted value starting with a hyphen", "id -eq -x", 8, /hyphen/],
    ["rejects a plus sign in an unquoted value, at the plus", "name -eq a+b", 11, /"\+"/],
    [
      "rejects mixed -and and -or at one level",
      "(a -eq 1) -and (b -eq 2) -or (c -eq 3)",
      26,
      /mixing/,
    ],
    ["rejects -not without parentheses", "-not a -eq 1", 6, /"\(" after "-not"/],
    ["rejects an unwrapped -not chained by -and", "-not (a -eq 1) -and (b -eq 1)", 1, /"\("/],
    ["rejects an empty list", "a -in []", 8, /list cannot be empty/],
    ["rejects a list after -eq", "a -eq [1]", 7, /only after -in/],
    ["rejects -in without a list", "a -in x", 7, /"\[" after "-in"/],
    ["rejects a missing comma in a list", "a -in [x y]", 10, /"," or "]"/],
    ["rejects a trailing comma in a list", "a -in [x,]", 10, /a value in the list/],
    ["rejects -exists with a non-boolean", "a -exists yes", 11, /true or false/],
    ["rejects -exists with a quoted boolean", "a -exists 'true'", 11, /true or false/],
    ["rejects an unknown escape at the backslash", String.raw`a -eq "x\y"`, 9, /backslash/],
    ["rejects a field that is not a name", "1a -eq x", 1, /a field name/],
    ["rejects a quoted field", '"a" -eq x', 1, /a field name.*not quoted/],
    ["rejects empty input", "", 1, /a filter expression/],
    ["rejects blank input at its end", "   ", 4, /a filter expression/],
    ["rejects two groups without a connective", "(a -eq 1) (b -eq 2)", 11, /end of input/],
    ["rejects an operator where a comparison belongs", "-eq x", 1, /a comparison/],
  ];
  for (const [name, text, column, pattern] of cases) {
    it(`${name} (column ${column})`, () => {
      const e = syntaxError(text);
      assert.equal(e.column, column, e.message);
      assert.match(e.message, pattern);
      assert.ok(e.message.startsWith(`filter error at column ${column}: expected `), e.message);
    });
  }

  it("formats the message with expected, found and a caret under the column", () => {
    const e = syntaxError("status -eq");
    assert.equal(e.expected, 'a value after "-eq"');
    assert.equal(e.found, "end of input");
    assert.equal(
      e.message,
      'filter error at column 11: expected a value after "-eq", found end of input\n' +
        "  status -eq\n" +
        "            ^",
    );
    assert.equal(e.name, "FilterSyntaxError");
    assert.ok(e instanceof Error);
  });

  it("counts columns in characters, not UTF-16 units", () => {
    assert.equal(syntaxError('name -eq "😀" x').column, 14);
  });

  it("limits nesting depth with a syntax error, not a stack overflow", () => {
    const deep = "(".repeat(MAX_FILTER_DEPTH + 1) + "a -eq 1" + ")".repeat(MAX_FILTER_DEPTH + 1);
    assert.equal(syntaxError(deep).column, MAX_FILTER_DEPTH + 1);
    const ok = "(".repeat(MAX_FILTER_DEPTH) + "a -eq 1" + ")".repeat(MAX_FILTER_DEPTH);
    assert.deepEqual(parseFilter(ok), eq("a", 1));
    const nots = "-not (".repeat(MAX_FILTER_DEPTH + 1) + "a -eq 1" +
      ")".repeat(MAX_FILTER_DEPTH + 1);
    assert.ok(syntaxError(nots) instanceof FilterSyntaxError);
  });

  it("keeps the value of a sensitive field out of the message", () => {
    for (
      const text of [
        'licenseKeys -eq "ABCD-SECRET',
        "licenseKeys -eq SECRET+X (",
        "secretKey -eq 'SECRET\\n'",
      ]
    ) {
      const e = syntaxError(text);
      assert.ok(!e.message.includes("SECRET"), e.message);
      assert.ok(!e.found.includes("SECRET"), e.found);
    }
  });
});

describe("printFilter", () => {
  it("prints canonical form: lone comparison bare, operands parenthesised, lower-case operators", () => {
    assert.equal(printFilter(parseFilter("((STATUS -EQ Active))")), "STATUS -eq Active");
    assert.equal(
      printFilter(parseFilter("(a -EQ 1) -AND (-NOT ((b -eq 'x y') -OR (c -in [ 1 , \"z\" ])))")),
      '(a -eq 1) -and (-not ((b -eq "x y") -or (c -in [1,"z"])))',
    );
  });

  it("double-quotes with backslash escapes, whatever quoting the source used", () => {
    assert.equal(
      printFilter(parseFilter(`name -eq 'it''s "x" \\\\'`)),
      String.raw`name -eq "it's \"x\" \\"`,
    );
  });

  it("keeps unquoted values as written and quoted dates quoted", () => {
    assert.equal(printFilter(parseFilter("n -eq 1.50")), "n -eq 1.50");
    assert.equal(printFilter(parseFilter("b -eq TRUE")), "b -eq TRUE");
    assert.equal(
      printFilter(parseFilter("d -le '2022-01-01T00:00:00Z'")),
      'd -le "2022-01-01T00:00:00Z"',
    );
  });
});

describe("filter builder", () => {
  it("builds the spec's example and prints it", () => {
    const tree = and(
      contains("hostName", "MacBook"),
      or(eq("status", "Quarantined"), le("lastScanDate", new Date(Date.UTC(2022, 0, 1)))),
    );
    assert.equal(
      printFilter(tree),
      '(hostName -contains MacBook) -and ((status -eq Quarantined) -or (lastScanDate -le "2022-01-01T00:00:00.000Z"))',
    );
    assert.deepEqual(parseFilter(printFilter(tree)), tree);
  });

  it("maps JS values to literals", () => {
    assert.deepEqual(toLiteral(new Date(Date.UTC(2024, 1, 3, 4, 5, 6))), {
      type: "date",
      value: new Date(Date.UTC(2024, 1, 3, 4, 5, 6)),
      text: "2024-02-03T04:05:06.000Z",
      quoted: true,
    });
    assert.deepEqual(toLiteral(-0), { type: "number", value: 0, text: "0", quoted: false });
    assert.equal(toLiteral(1e21).text, "1e+21");
    assert.equal(toLiteral(1e21).value, 1e21);
    assert.deepEqual(toLiteral(false), {
      type: "boolean",
      value: false,
      text: "false",
      quoted: false,
    });
  });

  it("quotes strings that would not read back unquoted", () => {
    for (const s of ["Active", "a.b", "x-y", "under_score", "%50", "LON-"]) {
      assert.equal(toLiteral(s).quoted, false, s);
      assert.equal(toLiteral(s).type, "string", s);
    }
    for (
      const s of [
        "",
        "12",
        "1abc",
        "-x",
        "a b",
        "a+b",
        "true",
        "2022-01-01T00:00:00Z",
        "(x)",
        "a,b",
        "é",
        "it's",
      ]
    ) {
      assert.equal(toLiteral(s).quoted, true, s);
      assert.equal(toLiteral(s).type === "date" || toLiteral(s).type === "string", true, s);
    }
  });

  it("builds every comparison", () => {
    const d = new Date(Date.UTC(2024, 0, 1));
    const texts = [
      eq("a", "x"),
      ne("a", 1),
      gt("a", 2),
      ge("a", d),
      lt("a", 3),
      le("a", 4),
      contains("a", "x"),
      notContains("a", "y"),
      startsWith("a", "LON-"),
      endsWith("a", ".com"),
      isIn("a", ["x", 2, true]),
      notIn("a", ["y"]),
      exists("a"),
      exists("a", false),
    ].map(printFilter);
    assert.deepEqual(texts, [
      "a -eq x",
      "a -ne 1",
      "a -gt 2",
      'a -ge "2024-01-01T00:00:00.000Z"',
      "a -lt 3",
      "a -le 4",
      "a -contains x",
      "a -notcontains y",
      "a -startswith LON-",
      "a -endswith .com",
      "a -in [x,2,true]",
      "a -notin [y]",
      "a -exists true",
      "a -exists false",
    ]);
  });

  it("refuses what cannot be written", () => {
    assert.throws(() => eq("bad field", 1), RangeError);
    assert.throws(() => eq("a", Number.NaN), RangeError);
    assert.throws(() => eq("a", Infinity), RangeError);
    assert.throws(() => eq("a", new Date(Number.NaN)), RangeError);
    assert.throws(() => eq("a", new Date(Date.UTC(10000, 0, 1))), RangeError);
    assert.throws(() => isIn("a", []), RangeError);
    assert.throws(() => and(eq("a", 1)), RangeError);
    assert.throws(() => or(), RangeError);
  });
});

// ---- Property tests ----

const fieldArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}(\.[A-Za-z_][A-Za-z0-9_]{0,5})?$/);

/** Unquoted words as a user might write them, valid by rule 5. */
const wordArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z_.%*@#:\/\\][A-Za-z0-9_.%*@#:\/\\-]{0,10}$/),
  fc.constantFrom("true", "FALSE", "True", "1.50", "-0", "007", "2e3", "-1E-2"),
  fc.constantFrom("2022-01-01T00:00:00Z", "2022-01-01t00:00:00.5z", "2022-06-30T23:59:59+02:00"),
).filter((w) => unquotedProblem(w) === undefined);

const literalArb: fc.Arbitrary<FilterLiteral> = fc.oneof(
  wordArb.map((w) => literalFromText(w, false)),
  fc.string({ unit: "binary", maxLength: 12 }).map((s) => literalFromText(s, true)),
  fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.date({
      min: new Date("0000-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59Z"),
      noInvalidDate: true,
    }),
  ).map(toLiteral),
);

const cmpArb: fc.Arbitrary<FilterNode> = fc.oneof(
  fc.record({
    kind: fc.constant("cmp" as const),
    field: fieldArb,
    op: fc.constantFrom(
      "eq",
      "ne",
      "gt",
      "ge",
      "lt",
      "le",
      "contains",
      "notcontains",
      "startswith",
      "endswith",
    ) as fc.Arbitrary<"eq">,
    value: literalArb,
  }).map((r) => ({ ...r })),
  fc.record({
    kind: fc.constant("cmp" as const),
    field: fieldArb,
    op: fc.constantFrom("in", "notin") as fc.Arbitrary<"in">,
    value: fc.array(literalArb, { minLength: 1, maxLength: 4 }),
  }).map((r) => ({ ...r })),
  fc.tuple(fieldArb, fc.constantFrom("true", "false", "TRUE", "False")).map(([field, b]) => ({
    kind: "cmp" as const,
    field,
    op: "exists" as const,
    value: literalFromText(b, false),
  })),
);

const treeArb: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    cmpArb,
    fc.record({
      kind: fc.constantFrom("and" as const, "or" as const),
      items: fc.array(tie("node"), { minLength: 2, maxLength: 4 }),
    }).map((r) => ({ ...r })),
    fc.record({ kind: fc.constant("not" as const), expr: tie("node") }).map((r) => ({ ...r })),
  ),
})).node;

/** Text made of grammar pieces, to reach deep parser paths. */
const soupArb = fc.array(
  fc.constantFrom(
    "(",
    ")",
    "[",
    "]",
    ",",
    " ",
    " ",
    "-and",
    "-or",
    "-not",
    "-eq",
    "-IN",
    "-exists",
    "-foo",
    "a",
    "b.c",
    "1",
    "-1",
    "12x",
    '"x',
    "'",
    '"',
    "\\",
    '""',
    "true",
    "2022-01-01T00:00:00Z",
    "x+y",
    "\n",
    "😀",
    "\ud800",
  ),
  { maxLength: 30 },
).map((parts) => parts.join(""));

function parsesOrSyntaxError(text: string): void {
  let tree: FilterNode;
  try {
    tree = parseFilter(text);
  } catch (e) {
    assert.ok(e instanceof FilterSyntaxError, `threw ${e}`);
    assert.ok(e.column >= 1 && e.column <= text.length + 1, `column ${e.column}`);
    return;
  }
  assert.deepEqual(parseFilter(printFilter(tree)), tree);
}

describe("filter properties", () => {
  it("parse(print(t)) deep-equals t for arbitrary trees", () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        assert.deepEqual(parseFilter(printFilter(tree)), tree);
      }),
      { numRuns: 1500 },
    );
  });

  it("printing is a fixed point: print(parse(print(t))) equals print(t)", () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const text = printFilter(tree);
        assert.equal(printFilter(parseFilter(text)), text);
      }),
    );
  });

  it("arbitrary strings parse or throw FilterSyntaxError, nothing else", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), parsesOrSyntaxError), {
      numRuns: 3000,
    });
  });

  it("grammar soup parses or throws FilterSyntaxError, nothing else", () => {
    fc.assert(fc.property(soupArb, parsesOrSyntaxError), { numRuns: 5000 });
  });

  it("isSafeUnquoted strings read back as the same unquoted string", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (s) => {
        if (!isSafeUnquoted(s)) return;
        assert.deepEqual(parseFilter(`f -eq ${s}`), {
          kind: "cmp",
          field: "f",
          op: "eq",
          value: { type: "string", value: s, text: s, quoted: false },
        });
      }),
    );
  });
});

// ---- Validation ----

function validationError(text: string, resource = RESOURCES.Computer): FilterValidationError {
  try {
    validateFilter(parseFilter(text), resource);
  } catch (e) {
    if (e instanceof FilterValidationError) return e;
    throw e;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be invalid for ${resource.name}`);
}

describe("validateFilter", () => {
  it("accepts the routes.md examples against their resources", () => {
    validateFilter(parseFilter("status -eq Quarantined"), RESOURCES.Computer);
    validateFilter(
      parseFilter("(manufacturer -contains Microsoft) -and (isEndOfLife -eq true)"),
      RESOURCES.RegistryApplication,
    );
    validateFilter(
      parseFilter(
        '(hostName -contains MacBook) -and ((status -eq Quarantined) -or (lastScanDate -le "2022-01-01T00:00:00Z"))',
      ),
      RESOURCES.Computer,
    );
  });

  it("names an unknown field, its column and close matches", () => {
    const e = validationError("(status -eq Active) -and (hostname -eq x)");
    assert.ok(e instanceof FilterFieldError);
    assert.equal(e.field, "hostname");
    assert.equal(e.column, 27);
    assert.deepEqual(e.suggestions, ["hostName"]);
    assert.match(
      e.message,
      /^filter error at column 27: Computer has no field "hostname"; did you mean "hostName"\?$/,
    );
    assert.deepEqual((validationError("lastScan -eq x") as FilterFieldError).suggestions, [
      "lastScanDate",
    ]);
    assert.deepEqual((validationError("zzzzzz -eq x") as FilterFieldError).suggestions, []);
  });

  it("treats hidden storage fields as unknown", () => {
    const e = validationError("kind -eq hard", RESOURCES.Drive);
    assert.ok(e instanceof FilterFieldError);
    assert.ok(!e.suggestions.includes("kind"));
    assert.ok(validationError("policyId -eq x", RESOURCES.PolicyField) instanceof FilterFieldError);
  });

  it("applies the spec's operator table by field type", () => {
    const ok: [string, string][] = [
      ["hostName -contains x", "Computer"],
      ["hostName -startswith x", "Computer"],
      ["hostName -endswith x", "Computer"],
      ["hostName -notcontains x", "Computer"],
      ["hostName -exists true", "Computer"],
      ["hostName -in [a,b]", "Computer"],
      ["isVirtual -eq true", "Computer"],
      ["isVirtual -ne false", "Computer"],
      ["isVirtual -in [true]", "Computer"],
      ["lastScanDate -gt 2022-01-01T00:00:00Z", "Computer"],
      ["lastScanDate -exists false", "Computer"],
      ["lastScanDate -notin ['2022-01-01T00:00:00Z']", "Computer"],
      ["quantity -ge 2", "License"],
      ["quantity -exists true", "License"],
      ["listItems -contains x", "PolicyFieldDetail"],
      ["listItems -exists true", "PolicyFieldDetail"],
    ];
    for (const [text, r] of ok) {
      validateFilter(parseFilter(text), RESOURCES[r as keyof typeof RESOURCES]);
    }
    const bad: [string, string, number][] = [
      ["hostName -gt x", "Computer", 10],
      ["hostName -le x", "Computer", 10],
      ["isVirtual -gt true", "Computer", 11],
      ["isVirtual -contains x", "Computer", 11],
      ["isVirtual -exists true", "Computer", 11],
      ["lastScanDate -contains x", "Computer", 14],
      ["lastScanDate -startswith x", "Computer", 14],
      ["quantity -endswith 1", "License", 10],
      ["listItems -eq x", "PolicyFieldDetail", 11],
    ];
    for (const [text, r, column] of bad) {
      const e = validationError(text, RESOURCES[r as keyof typeof RESOURCES]);
      assert.ok(e instanceof FilterOperatorError, text);
      assert.equal(e.column, column, text);
    }
  });

  it("rejects values that cannot be read as the field's type, at the value's column", () => {
    const cases: [string, string, number][] = [
      ["lastScanDate -le abc", "Computer", 18],
      ['lastScanDate -le "2022-02-30T00:00:00Z"', "Computer", 18],
      ["lastScanDate -le 12", "Computer", 18],
      ['quantity -gt "x"', "License", 14],
      ["quantity -in [1, x]", "License", 18],
      ["isVirtual -eq yes", "Computer", 15],
      ["isVirtual -eq 1", "Computer", 15],
    ];
    for (const [text, r, column] of cases) {
      const e = validationError(text, RESOURCES[r as keyof typeof RESOURCES]);
      assert.ok(e instanceof FilterValueError, text);
      assert.equal(e.column, column, text);
    }
    assert.match(validationError("lastScanDate -le abc").message, /"abc" is not an RFC 3339/);
  });

  it("reads values by the field: quoted numbers, quoted dates, any text for strings", () => {
    validateFilter(parseFilter('quantity -gt "12"'), RESOURCES.License);
    validateFilter(parseFilter('purchaseDate -lt "2022-01-01T00:00:00Z"'), RESOURCES.License);
    validateFilter(parseFilter("purchaseValue -eq 1.5"), RESOURCES.LicenseDetail);
    validateFilter(parseFilter('isSubscription -eq "true"'), RESOURCES.LicenseDetail);
    validateFilter(parseFilter("id -eq 42"), RESOURCES.Computer);
    validateFilter(parseFilter("hostName -eq 2022-01-01T00:00:00Z"), RESOURCES.Computer);
  });

  it("keeps a sensitive field's value out of a value error", () => {
    const e = validationError("securityCode -gt SECRET", RESOURCES.ComputerDetail);
    assert.ok(e instanceof FilterOperatorError);
    assert.ok(!e.message.includes("SECRET"));
  });

  it("reports no column for built trees", () => {
    try {
      validateFilter(eq("nope", 1), RESOURCES.Computer);
      assert.fail("expected an error");
    } catch (e) {
      assert.ok(e instanceof FilterFieldError);
      assert.equal(e.column, undefined);
      assert.match(e.message, /^filter error: Computer has no field "nope"/);
    }
  });
});

// ---- Evaluation ----

describe("evaluateFilter", () => {
  const C = RESOURCES.Computer;
  const pc = {
    id: "c1",
    hostName: "LON-MacBook-01",
    status: "Active",
    ipAddress: "",
    domain: null,
    isVirtual: false,
    lastScanDate: new Date("2021-06-01T12:00:00Z"),
  };
  const test = (text: string) => evaluateFilter(parseFilter(text), pc, C);

  it("compares strings ignoring case", () => {
    assert.equal(test("status -eq ACTIVE"), true);
    assert.equal(test("status -ne active"), false);
    assert.equal(test("hostName -contains macbook"), true);
    assert.equal(test("hostName -notcontains MACBOOK"), false);
    assert.equal(test("hostName -startswith lon-"), true);
    assert.equal(test("hostName -endswith -01"), true, "a String field reads the text -01");
    assert.equal(test('hostName -endswith "-01"'), true);
    assert.equal(test("status -in [quarantined,ACTIVE]"), true);
    assert.equal(test("status -notin [quarantined,ACTIVE]"), false);
  });

  it("makes every comparison with null false except -exists false; -not negates", () => {
    assert.equal(test("domain -eq x"), false);
    assert.equal(test("domain -ne x"), false);
    assert.equal(test("domain -notcontains x"), false);
    assert.equal(test("domain -notin [x]"), false);
    assert.equal(test("domain -exists false"), true);
    assert.equal(test("domain -exists true"), false);
    assert.equal(test("-not (domain -eq x)"), true);
    assert.equal(test("model -eq x"), false, "missing counts as null");
    assert.equal(test("model -exists false"), true);
  });

  it("treats the empty string as not existing", () => {
    assert.equal(test("ipAddress -exists true"), false);
    assert.equal(test("ipAddress -exists false"), true);
    assert.equal(test("hostName -exists true"), true);
  });

  it("compares dates by instant and booleans as booleans", () => {
    assert.equal(test('lastScanDate -le "2022-01-01T00:00:00Z"'), true);
    assert.equal(test("lastScanDate -eq 2021-06-01T14:00:00+02:00"), true);
    assert.equal(test('lastScanDate -gt "2021-06-01T12:00:00.001Z"'), false);
    assert.equal(test("isVirtual -eq FALSE"), true);
    assert.equal(test("isVirtual -in [true]"), false);
  });

  it("evaluates the nested routes.md example", () => {
    assert.equal(
      test(
        '(hostName -contains MacBook) -and ((status -eq Quarantined) -or (lastScanDate -le "2022-01-01T00:00:00Z"))',
      ),
      true,
    );
  });

  it("throws validation errors when given a resource", () => {
    assert.throws(() => test("hostName -gt x"), FilterOperatorError);
  });

  it("reads numbers of license resources sent as strings", () => {
    const p = filterPredicate(parseFilter("quantity -ge 10"), RESOURCES.License);
    assert.equal(p({ quantity: 12 }), true);
    assert.equal(p({ quantity: "12" }), true);
    assert.equal(p({ quantity: 9.5 }), false);
    assert.equal(p({ quantity: null }), false);
  });

  it("walks dotted fields into nested objects", () => {
    const p = filterPredicate(parseFilter("status.type -eq INPROGRESS"), RESOURCES.CloudConnector);
    assert.equal(p({ status: { type: "inProgress" } }), true);
    assert.equal(p({ status: null }), false);
  });

  it("matches Sets of String by element", () => {
    const p = (t: string) => filterPredicate(parseFilter(t), RESOURCES.PolicyFieldDetail);
    assert.equal(p("listItems -contains B")({ listItems: ["a", "b"] }), true);
    assert.equal(p("listItems -contains ab")({ listItems: ["a", "b"] }), false);
    assert.equal(p("listItems -notcontains c")({ listItems: ["a", "b"] }), true);
    assert.equal(p("listItems -exists true")({ listItems: [] }), false);
    assert.equal(p("listItems -exists false")({ listItems: null }), true);
  });

  it("without a resource, reads values as the item's run-time type", () => {
    const item = { n: 5, s: "Abc", d: new Date("2022-01-01T00:00:00Z"), b: true };
    const ev = (t: string) => evaluateFilter(parseFilter(t), item);
    assert.equal(ev("n -gt 4"), true);
    assert.equal(ev('n -eq "5"'), true);
    assert.equal(ev("s -eq abc"), true);
    assert.equal(ev("s -gt a"), false, "operator that does not apply is false");
    assert.equal(ev('d -eq "2022-01-01T00:00:00.000Z"'), true);
    assert.equal(ev("d -eq abc"), false, "unreadable value is false");
    assert.equal(ev("b -eq true"), true);
    assert.equal(ev("missing -exists false"), true);
    assert.equal(ev("-not (missing -eq 1)"), true);
  });
});
