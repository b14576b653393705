import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as samkit from "../../sam.ts";
import * as sam from "../../lib/sam/mod.ts";

describe("the SAM domain layer from the sam entry point", () => {
  it("licensing rules answer the same through sam.ts as in lib/sam", () => {
    const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };
    assert.equal(samkit.perCoreRequirement(2, 12, rule), 16);
    assert.equal(
      samkit.coreFactorRequirement(
        40,
        samkit.coreFactorOf("GenuineIntel", {
          Intel: 0.5,
          default: 1,
        }),
      ),
      20,
    );
    assert.equal(samkit.perCoreRequirement, sam.perCoreRequirement);
  });

  it("entitlement states, scope, idle and connector rules are exported", () => {
    const states = [{ id: "ES02", name: "Unlicensed", description: null }];
    assert.deepEqual([...samkit.matchStates("unlicensed, ES09", states as never)], ["ES02"]);
    for (
      const name of [
        "computersInScope",
        "entitlementStates",
        "idleness",
        "connectorStatus",
        "licenseCosts",
        "readHistory",
        "reportElp",
        "optimizeLicensePosition",
      ]
    ) {
      assert.equal(typeof (samkit as Record<string, unknown>)[name], "function", name);
    }
  });

  it("a name two rules share is exported under names that say whose it is", () => {
    assert.notEqual(samkit.positionPublisherRows, samkit.costPublisherRows);
    assert.notEqual(samkit.portfolioMoneyRows, samkit.trendMoneyRows);
    assert.equal(samkit.NO_PUBLISHER, "(no publisher)");
  });
});
