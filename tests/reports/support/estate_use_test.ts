import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createQueryContext } from "../../../lib/query/context.ts";
import { estateUse } from "../../../reports/support/estate_use.ts";

const computers = [
  { id: "C1", organizationId: "O1" },
  { id: "C2", organizationId: "O2" },
];
const installs = [
  { applicationId: "A", computerId: "C1", isInstalled: true },
  { applicationId: "A", computerId: "C2", isInstalled: true },
  { applicationId: "A", computerId: "C2", isInstalled: false },
  { applicationId: "B", computerId: "C1", isInstalled: true },
  { applicationId: null, computerId: "C1", isInstalled: true },
];
const metrics = [
  { applicationId: "A", computerId: "C1", requirement: 1.5 },
  { applicationId: "A", computerId: "C2", requirement: 2 },
  { applicationId: "B", computerId: "C2", requirement: Number.NaN },
];

function fakeCtx() {
  const estate = {
    computers: () => computers,
    applications: () => installs,
    metrics: () => metrics,
  };
  return { client: { estate: estate as never }, query: createQueryContext() };
}

describe("estate use", () => {
  it("counts installed copies and sums the requirement per application", async () => {
    const use = await estateUse(fakeCtx());
    assert.equal(use.installations.get("A"), 2);
    assert.equal(use.installations.get("B"), 1);
    assert.equal(use.requirement.get("A"), 3.5);
    assert.equal(use.requirement.get("B"), 0);
  });

  it("keeps to one organisation's computers and to the applications asked for", async () => {
    const o1 = await estateUse(fakeCtx(), { organization: "O1" });
    assert.equal(o1.installations.get("A"), 1);
    assert.equal(o1.requirement.get("A"), 1.5);
    const onlyB = await estateUse(fakeCtx(), { applications: new Set(["B"]) });
    assert.equal(onlyB.installations.get("A") ?? 0, 0);
    assert.equal(onlyB.installations.get("B"), 1);
  });
});
