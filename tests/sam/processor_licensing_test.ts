import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  DEFAULT_CORE_FACTORS,
  hostFigures,
  licensingRules,
  perCoreRequirement,
} from "../../lib/sam/processor_licensing.ts";
import { ParamError } from "../../lib/report/errors.ts";

const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };

describe("processor licensing", () => {
  it("spreads uneven cores over the processors before the per-processor minimum", () => {
    assert.equal(perCoreRequirement(3, 28, rule), 28); // 10 + 9 + 9
    assert.equal(perCoreRequirement(3, 20, rule), 24); // 3 × max(7, 8)
    assert.equal(perCoreRequirement(2, 17, { ...rule, corePackSize: 4 }), 20); // 17 → pack of 4
    assert.equal(perCoreRequirement(0, 17, rule), null);
    assert.equal(perCoreRequirement(2, null, rule), null);
  });

  it("reads the rules from parameters, rejecting factors that are not positive numbers", () => {
    const rules = licensingRules({ minCoresPerServer: 4 });
    assert.deepEqual(rules.rule, {
      minCoresPerProcessor: 8,
      minCoresPerServer: 4,
      corePackSize: 2,
    });
    assert.deepEqual(rules.factors, DEFAULT_CORE_FACTORS);
    assert.throws(() => licensingRules({ coreFactors: { Intel: -1 } }), ParamError);
    assert.throws(() => licensingRules({ coreFactors: [1] }), ParamError);
  });

  it("a host without hardware has blank figures, sockets from the socket map", () => {
    const rules = licensingRules({});
    const f = hostFigures(null, { socketCount: 4 }, rules);
    assert.equal(f.sockets, 4);
    assert.equal(f.perCoreRequirement, null);
    assert.equal(f.coreFactor, null);
    const hw = {
      processorCount: null,
      socketCount: 2,
      coreCount: 12,
      processorManufacturer: "AMD",
    };
    const g = hostFigures(hw, null, rules);
    assert.deepEqual([g.perCoreRequirement, g.coreFactor, g.coreFactorRequirement], [16, 0.5, 6]);
  });
});
