import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { countKeys, idleCounts, idleInstalls } from "../../lib/sam/idle_installs.ts";
import { countColumns } from "../../reports/unused_software_sections.ts";
import type { FilterOptions } from "../../lib/api/client.ts";
import { THRESHOLDS_PARAM } from "../../lib/sam/idle_buckets.ts";

const now = new Date("2024-06-30T00:00:00Z");
const day = (d: string) => new Date(`${d}T00:00:00Z`);
const install = (computerId: string, applicationId: string | null, lastUsed: Date | null) => ({
  computerId,
  applicationId,
  isInstalled: true,
  lastUsed,
  firstDiscovered: day("2020-01-01"),
});
const estate = [
  install("C1", "A1", day("2024-06-20")), // recent
  install("C1", "A2", day("2024-05-01")), // 30–89
  install("C2", "A1", day("2023-01-01")), // 180+, licensed: a harvest candidate
  install("C2", "A2", null), // never used
  install("C3", null, null), // no application: skipped
  { ...install("C3", "A1", null), isInstalled: false }, // not installed: skipped
];

function fakeCtx(filter?: string) {
  const asked: FilterOptions[] = [];
  const applications = (options: FilterOptions) => (asked.push(options), estate);
  const ctx = {
    client: { estate: { applications } } as never,
    filter,
    signal: AbortSignal.any([]),
    now,
  };
  return { ctx, asked };
}
const rules = {
  thresholds: [30, 90, 180],
  isLicensed: (i: { computerId: string | null }) => i.computerId === "C2",
};

describe("idle installs", () => {
  it("reads installed applications with idleness and license state", async () => {
    const { ctx, asked } = fakeCtx();
    const all = await Array.fromAsync(idleInstalls(ctx, rules));
    assert.deepEqual(all.map((i) => [i.computerId, i.applicationId, i.bucketLabel]), [
      ["C1", "A1", ""],
      ["C1", "A2", "Unused 30–89 days"],
      ["C2", "A1", "Unused 180+ days"],
      ["C2", "A2", "Never used, discovered 30+ days ago"],
    ]);
    assert.deepEqual(all.map((i) => i.candidate), [false, false, true, true]);
    assert.deepEqual(all.map((i) => i.licensed), [false, false, true, true]);
    assert.equal(asked[0].sort, undefined);
    const filter = JSON.stringify(asked[0].filter);
    assert.ok(filter.includes("isInstalled") && !filter.includes("lastUsed"), filter);
  });
  it("makes every install idle past the top threshold a harvest candidate, licensed or not", async () => {
    const { ctx } = fakeCtx();
    const all = await Array.fromAsync(idleInstalls(ctx, { ...rules, isLicensed: () => false }));
    assert.deepEqual(all.map((i) => [i.applicationId, i.candidate]), [
      ["A1", false],
      ["A2", false],
      ["A1", true],
      ["A2", true],
    ]);
    const counts = await idleCounts(all, rules.thresholds);
    assert.deepEqual(counts.map((c) => [c.id, c.candidates]), [["A1", 1], ["A2", 1]]);
  });
  it("narrows to installs idle past the first threshold, in computer order", async () => {
    const { ctx, asked } = fakeCtx("computerId -eq C2");
    const idle = await Array.fromAsync(idleInstalls(ctx, rules, true));
    assert.deepEqual(idle.map((i) => [i.computerId, i.applicationId]), [
      ["C1", "A2"],
      ["C2", "A1"],
      ["C2", "A2"],
    ]);
    assert.equal(asked[0].sort, undefined, "no sort is sent; the order is made here");
    const filter = JSON.stringify(asked[0].filter);
    assert.ok(filter.includes("lastUsed") && filter.includes("C2"), filter);
  });
  it("counts installs per application by bucket, and in all", async () => {
    const { ctx } = fakeCtx();
    const counts = await idleCounts(idleInstalls(ctx, rules), rules.thresholds);
    assert.deepEqual(counts, [
      {
        id: "A1",
        installations: 2,
        recent: 1,
        idle30: 0,
        idle90: 0,
        idle180: 1,
        never: 0,
        candidates: 1,
      },
      {
        id: "A2",
        installations: 2,
        recent: 0,
        idle30: 1,
        idle90: 0,
        idle180: 0,
        never: 1,
        candidates: 1,
      },
    ]);
    assert.deepEqual(countKeys([30, 90]), countColumns([30, 90]).map((c) => c.key));
    assert.equal(countColumns([30, 90])[3].label, "Unused 90+ days");
    assert.equal(countColumns([30])[3].emphasis?.({ never: 1 }), "warn");
    assert.deepEqual(THRESHOLDS_PARAM.default, [30, 90, 180]);
  });
});
