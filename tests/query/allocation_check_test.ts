import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { allocationCheck } from "../../lib/query/elp/allocation_check.ts";
import { computeElp } from "../../lib/query/elp/position.ts";

describe("allocationCheck", () => {
  // The scope {IT, IT-EU}: 6 units, 4 required, position 2.
  const lines = computeElp({
    licenses: [{ applicationId: "A", metricId: "M", quantity: 6 }],
    transfers: [],
    requirements: [{ applicationId: "A", metricId: "M", requirement: 4 }],
  });
  const scope = new Set(["IT", "IT-EU"]);
  const row = (organizationId: string, coverage: number, requirement: number) => ({
    applicationId: "A",
    metricId: "M",
    organizationId,
    coverage,
    requirement,
    compliance: coverage - requirement,
  });

  it("sums the allocation rows of every organisation of the scope, and no other", () => {
    const rows = [row("IT", 5, 3), row("IT-EU", 1, 1), row("HR", 50, 40)];
    assert.deepEqual(allocationCheck(lines, rows, scope), []);
  });

  it("names each figure that differs with the scope's sum", () => {
    const diff = allocationCheck(lines, [row("IT", 5, 3), row("IT-EU", 0, 1)], scope);
    assert.deepEqual(diff.map((d) => [d.figure, d.samkit, d.service]), [
      ["Entitlements", 6, 5],
      ["Position", 2, 1],
    ]);
    assert.match(diff[0].explanation, /allocations to organisations/);
  });

  it("says the service allocates nothing to the scope when only other organisations have rows", () => {
    const diff = allocationCheck(lines, [row("HR", 6, 4)], scope);
    assert.deepEqual(diff.map((d) => [d.figure, d.samkit, d.service]), [
      ["Entitlements", 6, null],
      ["Requirement", 4, null],
      ["Position", 2, null],
    ]);
    assert.match(diff[0].explanation, /allocates nothing/);
  });

  it("lists a metric only the service allocates to the scope, and skips applications without rows", () => {
    const other = { ...row("IT", 0, 2), metricId: "USERS" };
    const diff = allocationCheck(lines, [row("IT", 6, 4), other], scope);
    assert.deepEqual(diff.map((d) => [d.metricId, d.figure, d.samkit, d.service]), [
      ["USERS", "Requirement", null, 2],
      ["USERS", "Position", null, -2],
    ]);
    assert.deepEqual(allocationCheck(lines, [], scope), []);
  });
});
