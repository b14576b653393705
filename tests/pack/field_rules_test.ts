import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { checkFields, type FieldRule } from "../../lib/pack/field_rules.ts";

const fail = (field: string, problem: string): never => {
  throw new Error(`${field}: ${problem}`);
};

const RULES: FieldRule<string>[] = [
  { field: "a", check: (v, { fail }) => typeof v === "number" ? v : fail("expected a number") },
  { field: "b", check: (v, { checked }) => v ?? (checked.a as number) * 2 },
  { field: "c", check: (v, { context }) => v === undefined ? undefined : `${context}:${v}` },
];

describe("checkFields", () => {
  it("refuses an unknown field before any rule runs", () => {
    assert.throws(() => checkFields({ a: "x", z: 1 }, RULES, { at: "s", context: "", fail }), {
      message: "s.z: unknown field",
    });
  });

  it("reports the first bad field in table order, under the object's path", () => {
    const rules: FieldRule<null>[] = [
      { field: "late", check: (_, { fail }) => fail("late is bad") },
      { field: "early", check: (_, { fail }) => fail("early is bad") },
    ];
    assert.throws(
      () => checkFields({ early: 1, late: 1 }, rules, { at: "", context: null, fail }),
      {
        message: "late: late is bad",
      },
    );
  });

  it("gives a rule the values of the rules before it and the shared context", () => {
    const checked = checkFields({ a: 4, c: "x" }, RULES, { at: "", context: "ctx", fail });
    assert.deepEqual(checked, { a: 4, b: 8, c: "ctx:x" });
  });

  it("leaves out a field whose rule returns undefined", () => {
    const checked = checkFields({ a: 1 }, RULES, { at: "", context: "", fail });
    assert.equal("c" in checked, false);
  });

  it("lets fields outside the table through when named as also known", () => {
    const options = { at: "", context: "", fail, alsoKnown: ["note"] };
    assert.deepEqual(checkFields({ a: 1, note: "n" }, RULES, options), { a: 1, b: 2 });
  });

  it("lets onUnknown refuse an unknown field its own way", () => {
    const onUnknown = (key: string, f: typeof fail) => f("", `no ${key} here`);
    assert.throws(
      () => checkFields({ pass: 1 }, RULES, { at: "s", context: "", fail, onUnknown }),
      { message: ": no pass here" },
    );
  });

  it("refuses a value that is not an object with the problem given", () => {
    const options = { at: "x", context: "", fail, notObject: "expected a JSON object" };
    assert.throws(() => checkFields([], RULES, options), { message: "x: expected a JSON object" });
    assert.throws(() => checkFields(null, RULES, { at: "y", context: "", fail }), {
      message: "y: expected an object",
    });
  });
});
