import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DETAIL_BATCH, detailRows } from "../../lib/sam/entitlement_detail.ts";
import { entitlementStates } from "../../lib/sam/entitlement_states.ts";
import { createQueryContext } from "../../lib/query/context.ts";

const API = [
  { id: "ES01", name: "Licensed", description: null },
  { id: "ES02", name: "Unlicensed", description: null },
];
const all = [
  { computerId: "C2", applicationId: "APP1", metricId: "MET01", entitlementStateId: "ES01" },
  { computerId: "C1", applicationId: "APP2", metricId: "MET01", entitlementStateId: "ES01" },
  { computerId: "C1", applicationId: "APP1", metricId: "MET01", entitlementStateId: "ES02" },
  { computerId: "C1", applicationId: null, metricId: null, entitlementStateId: "ES01" },
];

function fakeCtx() {
  const filters: string[] = [];
  const metricReads: string[] = [];
  const paged = <T>(items: T[]) => ({ toArray: () => Promise.resolve(items) });
  const client = {
    licenses: {
      computerEntitlements: (o: { filter: string }) => (filters.push(o.filter), all),
    },
    registry: {
      metrics: (id: string) => (metricReads.push(id), paged([{ id: "MET01", name: "Installs" }])),
    },
  };
  return { ctx: { client, query: createQueryContext() } as never, filters, metricReads };
}

describe("entitlement detail rows", () => {
  it("rows per computer in the given order, uncovered first, labelled", async () => {
    const { ctx, filters, metricReads } = fakeCtx();
    const registry = new Map([["APP1", { id: "APP1", name: "Visio" }]]);
    const computers = [{ id: "C2", hostName: null }, { id: "C1", hostName: "pc1" }];
    const rows = await Array.fromAsync(
      detailRows(ctx, computers, entitlementStates(API, "Unlicensed"), registry as never),
    );
    assert.deepEqual(rows.map((r) => [r.hostName, r.state, r.uncovered]), [
      ["C2", "Licensed", false],
      ["pc1", "Unlicensed", true],
      ["pc1", "Licensed", false],
      ["pc1", "Licensed", false],
    ]);
    assert.equal(rows[1].metric, "Installs");
    assert.equal(filters.length, 1);
    assert.deepEqual(metricReads.sort(), ["APP1", "APP2"]);
  });

  it("asks for the one state and reads a batch of computers per request", async () => {
    const { ctx, filters } = fakeCtx();
    const computers = Array.from({ length: DETAIL_BATCH + 1 }, (_, i) => ({
      id: `C${i + 1}`,
      hostName: null,
    }));
    const states = entitlementStates(API, "Unlicensed", "ES02");
    const rows = await Array.fromAsync(detailRows(ctx, computers, states, new Map()));
    assert.deepEqual(rows.map((r) => [r.hostName, r.state]), [["C1", "Unlicensed"]]);
    assert.equal(filters.length, 2);
    assert.ok(filters.every((f) => f.includes("ES02")));
  });
});
