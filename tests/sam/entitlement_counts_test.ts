import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  computerCounts,
  hasUncovered,
  stateFacts,
  stateTotals,
} from "../../lib/sam/entitlement_counts.ts";
import { entitlementStates } from "../../lib/sam/entitlement_states.ts";

const API = [
  { id: "ES01", name: "Licensed", description: null },
  { id: "ES02", name: "Unlicensed", description: "none" },
];
const computers = [
  { id: "C1", hostName: "b", organizationId: "ORG01", operatingSystem: "Linux" },
  { id: "C2", hostName: "a", organizationId: null, operatingSystem: null },
  { id: "C3", hostName: "c", organizationId: "ORG09", operatingSystem: null },
];
const entitlements = [
  { computerId: "C1", entitlementStateId: "ES01" },
  { computerId: "C1", entitlementStateId: "ES02" },
  { computerId: "C3", entitlementStateId: "ES02" },
  { computerId: "C3", entitlementStateId: "ES02" },
  { computerId: "C9", entitlementStateId: "ES02" },
  { computerId: null, entitlementStateId: "ES01" },
];
const licenses = (items: unknown[]) => ({ computerEntitlements: () => items }) as never;
const names = new Map([["ORG01", "Contoso"]]);

describe("entitlement counts", () => {
  it("counts per computer in scope and state, uncovered computers first", async () => {
    const states = entitlementStates(API, "Unlicensed");
    const { columns, rows } = await computerCounts(
      licenses(entitlements),
      computers as never,
      states,
      names,
    );
    assert.deepEqual(columns.map((c) => c.key), ["state_ES01", "state_ES02"]);
    assert.deepEqual(rows.map((r) => [r.id, r.state_ES01, r.state_ES02, r.uncovered]), [
      ["C1", 1, 1, 1],
      ["C3", 0, 2, 2],
      ["C2", 0, 0, 0],
    ]);
    assert.deepEqual(rows.map((r) => r.organization), ["Contoso", "ORG09", "(no organization)"]);
    assert.deepEqual(rows.map(hasUncovered), [true, true, false]);
  });

  it("adds the unknown-state column only when such a state is seen", async () => {
    const states = entitlementStates(API, "Unlicensed");
    const odd = [...entitlements, { computerId: "C2", entitlementStateId: "ES77" }];
    const { columns, rows } = await computerCounts(
      licenses(odd),
      computers as never,
      states,
      names,
    );
    assert.deepEqual(columns.map((c) => c.key), ["state_ES01", "state_ES02", "state_unknown"]);
    assert.equal(rows.find((r) => r.id === "C2")?.state_unknown, 1);
  });

  it("keeps only computers with an application in the state asked for", async () => {
    const states = entitlementStates(API, "Unlicensed", "Licensed");
    const { rows } = await computerCounts(
      licenses(entitlements),
      computers as never,
      states,
      names,
    );
    assert.deepEqual(rows.map((r) => r.id), ["C1"]);
  });

  it("totals per state and a headline fact per state", async () => {
    const states = entitlementStates(API, "Unlicensed");
    const { columns, rows } = await computerCounts(
      licenses(entitlements),
      computers as never,
      states,
      names,
    );
    const totals = stateTotals(columns, rows, undefined);
    assert.deepEqual(totals.map((t) => [t.stateId, t.uncovered, t.computers, t.installations]), [
      ["ES01", false, 1, 1],
      ["ES02", true, 2, 3],
    ]);
    assert.deepEqual(stateTotals(columns, rows, columns[1]).map((t) => t.stateId), ["ES02"]);
    const facts = stateFacts(totals);
    assert.deepEqual(facts.map((f) => f.label), ["Licensed", "Unlicensed"]);
    assert.equal(facts[1].where?.(totals[1]), true);
    assert.equal(facts[1].where?.(totals[0]), false);
  });
});
