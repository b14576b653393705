import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  entitlementStates,
  STATE_PARAMS,
  stateCounts,
  statesOfRun,
  uncoveredText,
  UNKNOWN_STATE,
  UNKNOWN_STATE_KEY,
} from "../../lib/sam/entitlement_states.ts";
import { countColumns } from "../../reports/entitlement_state_by_computer_sections.ts";
import { ParamError } from "../../lib/report/errors.ts";
import { DETAIL_ORDER, type DetailRow } from "../../lib/sam/entitlement_detail.ts";

const API = [
  { id: "ES02", name: "Unlicensed", description: "none" },
  { id: "ES01", name: " Licensed ", description: null },
  { id: null, name: "No id", description: null },
  { id: "ES03", name: "", description: null },
];

describe("entitlement states", () => {
  it("one column per listed state, by id, named (else the id), uncovered as asked", () => {
    const states = entitlementStates(API, "unlicensed");
    assert.deepEqual(states.columns.map((s) => [s.key, s.name, s.uncovered]), [
      ["state_ES01", "Licensed", false],
      ["state_ES02", "Unlicensed", true],
      ["state_ES03", "ES03", false],
    ]);
    assert.equal(states.only, undefined);
    assert.equal(states.keyOf("ES02"), "state_ES02");
    assert.equal(states.keyOf("ES99"), UNKNOWN_STATE_KEY);
    assert.equal(states.keyOf(null), UNKNOWN_STATE_KEY);
    assert.deepEqual(states.cell("ES02"), { state: "Unlicensed", uncovered: true });
    assert.deepEqual(states.cell("ES99"), { state: "(unknown state ES99)", uncovered: false });
    assert.deepEqual(states.cell(null), { state: "(unknown state none)", uncovered: false });
  });

  it("the state parameter names one state by name or id, else is a parameter error", () => {
    assert.equal(entitlementStates(API, "", "es01").only?.key, "state_ES01");
    assert.equal(entitlementStates(API, "", "unlicensed").only?.key, "state_ES02");
    assert.throws(
      () => entitlementStates(API, "", "nope"),
      (e: Error) => e instanceof ParamError && e.message.includes("ES02 (Unlicensed)"),
    );
  });

  it("reads the state and uncoveredStates parameters (defaults, blank state is none)", () => {
    const byDefault = statesOfRun(API, {});
    assert.equal(byDefault.only, undefined);
    assert.deepEqual(byDefault.columns.filter((s) => s.uncovered).map((s) => s.id), ["ES02"]);
    assert.equal(statesOfRun(API, { state: "  " }).only, undefined);
    assert.equal(statesOfRun(API, { state: " ES01 " }).only?.key, "state_ES01");
    const none = statesOfRun(API, { uncoveredStates: "" }).columns.filter((s) => s.uncovered);
    assert.deepEqual(none, []);
    assert.deepEqual(Object.keys(STATE_PARAMS), ["state", "uncoveredStates"]);
    assert.equal(STATE_PARAMS.uncoveredStates.default, "Unlicensed,Under-licensed");
  });

  it("a computer's counts: per state, applications in all states, uncovered ones", () => {
    const columns = [...entitlementStates(API, "ES02,ES03").columns, UNKNOWN_STATE];
    const n: Record<string, number> = { state_ES01: 3, state_ES02: 2, state_unknown: 1 };
    assert.deepEqual(stateCounts(columns, (key) => n[key] ?? 0), {
      state_ES01: 3,
      state_ES02: 2,
      state_ES03: 0,
      state_unknown: 1,
      applications: 6,
      uncovered: 2,
    });
    const emphasis = countColumns(columns).map((c) => c.emphasis?.({ [c.key]: 1 }));
    assert.deepEqual(emphasis, [undefined, "bad", "bad", undefined]);
  });

  it("names the uncovered states in words", () => {
    const columns = entitlementStates(API, "ES01,ES02").columns;
    assert.equal(uncoveredText(columns), '"Licensed" and "Unlicensed"');
    assert.match(uncoveredText([]), /none of the uncoveredStates matched/);
  });

  it("orders a computer's detail rows uncovered first, then application, metric, id, state", () => {
    const row: DetailRow = {
      hostName: "PC",
      application: "B",
      metric: "m",
      metricId: "M2",
      state: "s",
      uncovered: false,
    };
    const rows = [row, { ...row, metricId: null }, { ...row, application: "A" }, {
      ...row,
      uncovered: true,
      application: "Z",
    }];
    assert.deepEqual(
      rows.sort(DETAIL_ORDER).map((r) => [r.application, r.metricId, r.uncovered]),
      [["Z", "M2", true], ["A", "M2", false], ["B", null, false], ["B", "M2", false]],
    );
  });
});
