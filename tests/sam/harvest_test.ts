import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { harvestUnits, type InstallUsage } from "../../lib/sam/harvest.ts";

const install = (computerId: string): InstallUsage => ({
  computerId,
  applicationId: "APP",
  lastUsed: null,
  firstDiscovered: null,
  idleDays: null,
});

describe("harvest units", () => {
  it("a host's unit holds its own install and its guests' in install order", () => {
    const installs = new Map(["VM2", "H1", "VM1", "X"].map((c) => [c, install(c)]));
    const computers = new Map([
      ["VM1", { id: "VM1", hostComputerId: "H1" }],
      ["VM2", { id: "VM2", hostComputerId: "H1" }],
      ["H1", { id: "H1", hostComputerId: "H1" }],
    ]);
    const units = harvestUnits({
      rows: [{ computerId: "H1", requirement: 8, physicalHost: 1 }, {
        computerId: "X",
        requirement: 2,
      }],
      installs,
      computers,
      perUser: false,
    });
    assert.deepEqual(
      units.map((u) => [u.kind, u.holder, u.frees, u.installs.map((i) => i.computerId)]),
      [["host", "H1", 8, ["VM2", "H1", "VM1"]], ["install", "X", 2, ["X"]]],
    );
  });
  it("a user's unit holds the installs of every computer they use most, in install order", () => {
    const ids = Array.from({ length: 40 }, (_, i) => `C${String(i).padStart(2, "0")}`);
    const installs = new Map(ids.toReversed().map((c) => [c, install(c)]));
    const computers = new Map(
      ids.map((c, i) => [c, { id: c, mostFrequentUser: i % 3 === 0 ? null : `U${i % 3}` }]),
    );
    const units = harvestUnits({
      rows: ids.map((c) => ({ computerId: c, requirement: 1 })),
      installs,
      computers,
      perUser: true,
    });
    const expected = (holder: string) =>
      [...installs.values()].filter((i) =>
        (computers.get(i.computerId)?.mostFrequentUser ?? i.computerId) === holder
      ).map((i) => i.computerId);
    for (const u of units) {
      assert.deepEqual(u.installs.map((i) => i.computerId), expected(u.holder), u.holder);
    }
    assert.deepEqual(units.filter((u) => u.holder.startsWith("U")).map((u) => u.frees), [13, 13]);
  });
});
