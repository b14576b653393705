import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { idleness, readThresholds } from "../../lib/sam/idle_buckets.ts";
import { consumesLicense, isHarvestCandidate } from "../../lib/sam/reclaimable.ts";
import { ParamError } from "../../lib/report/errors.ts";

const now = new Date("2024-06-30T00:00:00Z");
const t = [30, 90, 180];

describe("idle buckets", () => {
  it("puts used installs in recent or one bucket, never-used ones apart", () => {
    assert.equal(
      idleness({ lastUsed: new Date("2024-06-20T00:00:00Z"), firstDiscovered: null }, now, t)
        .recent,
      true,
    );
    const old = idleness(
      { lastUsed: new Date("2023-01-01T00:00:00Z"), firstDiscovered: null },
      now,
      t,
    );
    assert.deepEqual([old.bucket, old.bucketLabel], [2, "Unused 180+ days"]);
    const never = idleness({ lastUsed: null, firstDiscovered: null }, now, t);
    assert.deepEqual([never.never, never.idleDays, never.bucketLabel], [
      true,
      null,
      "Never used, discovery date unknown",
    ]);
    const fresh = { lastUsed: null, firstDiscovered: new Date("2024-06-20T00:00:00Z") };
    assert.equal(idleness(fresh, now, t).bucketLabel, "Never used, discovered within 30 days");
    const aged = { lastUsed: null, firstDiscovered: new Date("2024-01-01T00:00:00Z") };
    assert.equal(idleness(aged, now, t).bucketLabel, "Never used, discovered 30+ days ago");
  });
  it("rejects thresholds that are not ascending whole days", () => {
    assert.throws(() => readThresholds([90, 30]), ParamError);
    assert.deepEqual(readThresholds(undefined), t);
  });
  it("reads license states and makes installs idle past the top threshold harvest candidates", () => {
    assert.ok(
      consumesLicense("Licensed <via upgrade & downgrade>") && !consumesLicense("Unlicensed"),
    );
    assert.ok(isHarvestCandidate(180, 180) && isHarvestCandidate(null, 180));
    assert.ok(!isHarvestCandidate(179, 180));
  });
});
