import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { computersInScope, inScope, ORGANIZATION_PARAM } from "../../lib/sam/computers_in_scope.ts";
import { createQueryContext } from "../../lib/query/context.ts";

const pcs = [
  { id: "C3", hostName: "b", organizationId: "ORG01" },
  { id: "C2", hostName: null, organizationId: "ORG02" },
  { id: "C1", hostName: "b", organizationId: "ORG01" },
  { id: null, hostName: "a", organizationId: "ORG01" },
];

describe("computers in scope", () => {
  it("keeps computers with an id, by host name (none first) then id", () => {
    assert.deepEqual(inScope(pcs).map((c) => c.id), ["C2", "C1", "C3"]);
  });

  it("keeps only the organisation asked for", () => {
    assert.deepEqual(inScope(pcs, "ORG01").map((c) => c.id), ["C1", "C3"]);
    assert.deepEqual(inScope(pcs, "ORG09"), []);
  });

  it("reads the computers once per run, with the run's filter", async () => {
    const asked: unknown[] = [];
    const ctx = {
      client: {
        estate: { computers: (o?: unknown) => (asked.push(o), pcs as never) },
        organizations: { tree: () => ({ toArray: () => Promise.resolve([]) }) },
      },
      query: createQueryContext(),
      filter: "isServer -eq true",
    };
    const got = await computersInScope(ctx as never, "ORG02");
    assert.deepEqual(got.map((c) => c.id), ["C2"]);
    await computersInScope(ctx as never, undefined);
    assert.deepEqual(asked, [{ filter: "isServer -eq true" }]);
    assert.equal(ORGANIZATION_PARAM.type, "string");
  });
});
