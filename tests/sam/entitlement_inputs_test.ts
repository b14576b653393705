import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { entitlementInputs } from "../../lib/sam/entitlement_inputs.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { ParamError } from "../../lib/report/errors.ts";

function fakeCtx(params: Record<string, unknown>) {
  const paged = <T>(items: T[]) => ({ toArray: () => Promise.resolve(items) });
  const client = {
    licenses: { entitlementStates: () => [{ id: "ES02", name: "Unlicensed", description: null }] },
    registry: { applications: () => [{ id: "APP1", name: "Visio" }] },
    estate: {
      computers: () => [
        { id: "C2", hostName: "b", organizationId: "ORG01" },
        { id: "C1", hostName: "a", organizationId: "ORG02" },
      ],
    },
    organizations: { tree: () => paged([{ id: "ORG01", name: "Contoso", children: [] }]) },
  };
  return { client, query: createQueryContext(), params } as never;
}

describe("entitlement inputs", () => {
  it("reads states with the parameters, registry, computers in scope and org names", async () => {
    const inputs = await entitlementInputs(fakeCtx({ organization: "ORG01" }));
    assert.deepEqual(inputs.states.columns.map((s) => [s.key, s.uncovered]), [
      ["state_ES02", true],
    ]);
    assert.equal(inputs.registry.get("APP1")?.name, "Visio");
    assert.deepEqual(inputs.computers.map((c) => c.id), ["C2"]);
    assert.equal(inputs.orgNames.get("ORG01"), "Contoso");
  });

  it("a state that names no state is a parameter error", async () => {
    await assert.rejects(entitlementInputs(fakeCtx({ state: "nope" })), ParamError);
  });
});
