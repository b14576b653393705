/**
 * The reference estate's compliance allocation agrees with samkit's scoped ELP: for every
 * organisation of the tree (with its descendants), samkit's own scoping (`org_scope.ts`: license
 * entitlements by organisation, transfers received by the holder's organisation and charged to
 * the allocations they draw on) run over the generated rows, cross-checked with the generated
 * `compliance_allocations` rows (`allocation_check.ts`), finds no difference — and an altered
 * allocation row is found.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { collectEstate } from "../../lib/server/generator.ts";
import { ORGANIZATIONS } from "../../lib/server/generator_catalogue.ts";
import { organizationSubtree, scopeElpInputs } from "../../lib/query/elp/org_scope.ts";
import type { OrgAllocation, OrgScopeInputs } from "../../lib/query/elp/org_scope.ts";
import { computeElp } from "../../lib/query/elp/position.ts";
import { allocationCheck, type ServiceAllocation } from "../../lib/query/elp/allocation_check.ts";
import type { CrossCheckDifference } from "../../lib/query/elp/cross_check.ts";

type Row = Record<string, unknown>;
type Estate = Map<string, Row[]>;

const ESTATES: readonly (readonly [number, number])[] = [
  [1, 400],
  [5, 400],
  [7, 400],
  [1, 3000],
  [5, 3000],
  [7, 3000],
];
const TREE = ORGANIZATIONS.map((o) => ({ id: o.id, parentId: o.parentId }));

/** The rows samkit's organisation scope reads, as the service would serve them. */
function scopeInputs(estate: Estate): OrgScopeInputs {
  const rows = (table: string) => (estate.get(table) ?? []) as never[];
  return {
    licenses: rows("licenses"),
    allocations: rows("entitlements") as OrgAllocation[],
    transfers: [...rows("computer_transfers"), ...rows("user_transfers")],
    requirements: rows("metric_tracking"),
  };
}

/** Every difference samkit's allocation cross-check lists for organisation `org`'s scope. */
function differences(
  estate: Estate,
  org: string,
  allocations: readonly ServiceAllocation[],
): CrossCheckDifference[] {
  const orgOf = new Map((estate.get("computers") ?? []).map((c) => [c.id, c.organizationId]));
  const scope = organizationSubtree(TREE, org)!;
  const inputs = scopeElpInputs(
    scopeInputs(estate),
    scope,
    (id) => orgOf.get(id) as string | undefined,
  );
  return allocationCheck(computeElp(inputs), allocations, scope);
}

describe("reference estate: compliance allocation = samkit's scoped ELP, every organisation", () => {
  for (const [seed, computers] of ESTATES) {
    it(`seed ${seed}, ${computers} computers: the allocation cross-check finds no difference`, () => {
      const estate = collectEstate({ seed, computers });
      const allocations = (estate.get("compliance_allocations") ?? []) as never[];
      assert.ok(allocations.length > 0, "the estate has allocation rows");
      const found = ORGANIZATIONS.flatMap((o) =>
        differences(estate, o.id, allocations).map((d) =>
          `${o.id} ${d.applicationId}|${d.metricId} ${d.figure}: ${d.samkit} vs ${d.service}`
        )
      );
      assert.deepEqual(found, []);
      const negative = allocations.filter((a: Row) => Number(a.coverage) < 0);
      assert.deepEqual(negative, [], "no organisation has negative coverage");
    });
  }

  it("an allocation row with altered coverage is listed for its organisation's scope", () => {
    const estate = collectEstate({ seed: 1, computers: 400 });
    const allocations =
      (estate.get("compliance_allocations") ?? []) as never[] as ServiceAllocation[];
    const target = allocations.find((a) => a.organizationId === "ORG06" && a.coverage! > 0)!;
    assert.ok(target, "an allocation row of ORG06 with coverage");
    const altered = allocations.map((a) => a === target ? { ...a, coverage: a.coverage! - 2 } : a);
    const found = differences(estate, "ORG06", altered)
      .filter((d) => d.applicationId === target.applicationId && d.metricId === target.metricId)
      .map((d) => [d.figure, Number(d.samkit) - Number(d.service)]);
    assert.deepEqual(found, [["Entitlements", 2]]);
    assert.equal(differences(estate, "ORG05", altered).length, 1, "ORG05's scope holds ORG06");
    assert.deepEqual(differences(estate, "ORG02", altered), [], "ORG02's scope does not");
  });
});
