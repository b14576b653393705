import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { FaultPlan, RateLimiter, ServerStats } from "../../lib/server/faults.ts";

describe("FaultPlan", () => {
  it("fires on the Nth matching request from now, for `times` requests", () => {
    const plan = new FaultPlan();
    const handle = plan.add({ match: "/computers", nth: 2, times: 2, status: 503 });
    const fired = ["/a/computers", "/other", "/a/computers", "/a/computers", "/a/computers"]
      .map((p) => plan.take(p)?.action ?? "-");
    assert.deepEqual(fired, ["-", "-", "status", "status", "-"]);
    assert.equal(handle.seen, 3);
    assert.equal(handle.fired, 2);
    assert.equal(handle.pending, false);
    assert.equal(plan.pending, 0);
  });

  it("matches by pattern and tells each kind of fault apart", () => {
    const plan = new FaultPlan();
    plan.add({ match: /\/licenses$/, reset: true });
    plan.add({ match: /\/licenses$/, truncate: true });
    plan.add({ match: /\/licenses$/, delayMs: 5 });
    plan.add({ match: /\/licenses$/ });
    assert.equal(plan.take("/api/sam/v1/licenses/L1"), undefined);
    const actions = [1, 2, 3, 4].map(() => plan.take("/api/sam/v1/licenses")?.action);
    assert.deepEqual(actions, ["reset", "truncate", "delay", "status"]);
  });

  it("forgets every fault on clear and refuses nonsense counts", () => {
    const plan = new FaultPlan();
    plan.add({ status: 500, times: Infinity });
    assert.equal(plan.take("/x")?.action, "status");
    plan.clear();
    assert.equal(plan.take("/x"), undefined);
    assert.throws(() => plan.add({ nth: 0 }), /nth/);
    assert.throws(() => plan.add({ times: 0 }), /times/);
  });
});

describe("RateLimiter", () => {
  it("admits N requests per second and gives whole seconds to wait", () => {
    let now = 10_000;
    const limiter = new RateLimiter(3, () => now);
    assert.deepEqual([1, 2, 3, 4].map(() => limiter.admit()), [0, 0, 0, 1]);
    now = 10_999;
    assert.equal(limiter.admit(), 1);
    now = 11_000;
    assert.equal(limiter.admit(), 0);
  });

  it("is off at 0", () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) assert.equal(limiter.admit(), 0);
  });
});

describe("ServerStats", () => {
  it("counts requests per path, operation and status, and resets", () => {
    const stats = new ServerStats();
    stats.record("/a");
    stats.record("/a");
    stats.recordOperation("estate.computers");
    stats.status(200);
    assert.equal(stats.total, 2);
    assert.equal(stats.path("/a"), 2);
    assert.equal(stats.operation("estate.computers"), 1);
    assert.equal(stats.byStatus.get(200), 1);
    stats.reset();
    assert.equal(stats.total, 0);
    assert.equal(stats.path("/a"), 0);
  });
});
