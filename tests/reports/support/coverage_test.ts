import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { asc, sortBy } from "../../../lib/query/sort.ts";
import { coverage, coverages, round6, shortfallsFirst } from "../../../reports/support/coverage.ts";

describe("license coverage", () => {
  it("gives the surplus against requirement and installations, and the shortfall", () => {
    assert.deepEqual(coverage({ licensed: 5, requirement: 7.5, installations: 8 }), {
      licensed: 5,
      installations: 8,
      requirement: 7.5,
      vsRequirement: -2.5,
      vsInstallations: -3,
      shortfall: 2.5,
      gap: -2.5,
    });
    assert.equal(coverage({ licensed: 9, requirement: 7.5, installations: 0 }).shortfall, 0);
  });

  it("rounds requirement noise away, so it never shows as a shortfall", () => {
    assert.equal(round6(0.1 + 0.2), 0.3);
    const c = coverage({ licensed: 0.3, requirement: 0.1 + 0.2, installations: 0 });
    assert.equal(c.requirement, 0.3);
    assert.equal(c.shortfall, 0);
  });

  it("positions applications with licenses (of those asked for) or a requirement", () => {
    const usage = {
      licensed: new Map([["A", 2], ["B", 0], ["C", 4]]),
      installations: new Map<string | null, number>([["B", 4]]),
      requirement: new Map<string | null, number>([["D", 1.5], ["E", 0], [null, 3]]),
    };
    assert.deepEqual(coverages(usage).map((c) => c.id), ["A", "C", "D"]);
    assert.deepEqual(coverages(usage, new Set(["C", "D"])).map((c) => c.id), ["C", "D"]);
  });

  it("orders shortfalls first, the largest first, then by the next comparator", () => {
    const rows = [
      { n: "a", gap: 2 },
      { n: "b", gap: -1 },
      { n: "c", gap: -5 },
      { n: "d", gap: 0 },
      { n: "e", gap: -1 },
    ];
    assert.deepEqual(
      sortBy(rows, shortfallsFirst, asc("n")).map((r) => r.n),
      ["c", "b", "e", "a", "d"],
    );
  });
});
