import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import FakeTimers from "@sinonjs/fake-timers";
import {
  backoffDelay,
  defaultSleep,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  RetryAfterGate,
  RetryPolicy,
} from "../../lib/api/retry.ts";

const res = (status: number, retryAfter?: string) => ({
  kind: "response" as const,
  status,
  ...(retryAfter === undefined ? {} : { retryAfter }),
});

describe("parseRetryAfter", () => {
  it("reads whole seconds and HTTP dates", () => {
    assert.equal(parseRetryAfter("1"), 1000);
    assert.equal(parseRetryAfter(" 120 "), 120_000);
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", () => now), 5000);
    assert.equal(parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", () => now), 0);
  });

  it("ignores absent or unreadable values", () => {
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter(""), undefined);
    assert.equal(parseRetryAfter("soon"), undefined);
    assert.equal(parseRetryAfter("-3"), undefined);
  });
});

describe("backoffDelay", () => {
  it("stays between half and all of the capped exponential step", () => {
    fc.assert(
      fc.property(fc.nat(20), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, r) => {
        const cap = Math.min(30_000, 500 * 2 ** n);
        const d = backoffDelay(n, { baseMs: 500, maxMs: 30_000, random: () => r });
        assert.ok(d >= Math.floor(cap / 2) && d <= cap, `${d} for attempt ${n}`);
      }),
    );
  });
});

describe("RetryPolicy", () => {
  it("renews the token once on 401 and fails on a second 401 in a row", () => {
    const call = new RetryPolicy().begin(true);
    assert.deepEqual(call.decide(res(401)), {
      action: "retry",
      reason: "auth",
      delayMs: 0,
      fromRetryAfter: false,
    });
    assert.deepEqual(call.decide(res(401)), { action: "fail", reason: "auth" });
  });

  it("allows a new renewal after a 401 that was followed by another outcome", () => {
    const call = new RetryPolicy({ random: () => 0 }).begin(true);
    assert.equal(call.decide(res(401)).action, "retry");
    assert.equal(call.decide(res(503)).action, "retry");
    assert.equal(call.decide(res(401)).action, "retry");
  });

  it("fails at once on 403, for reads too", () => {
    assert.deepEqual(new RetryPolicy().begin(true).decide(res(403)), {
      action: "fail",
      reason: "permission",
    });
  });

  it("waits Retry-After on 429, up to maxRateLimitWaits", () => {
    const call = new RetryPolicy({ maxRateLimitWaits: 2 }).begin(false);
    assert.deepEqual(call.decide(res(429, "1")), {
      action: "retry",
      reason: "rateLimit",
      delayMs: 1000,
      fromRetryAfter: true,
    });
    assert.equal(call.decide(res(429, "2")).action, "retry");
    assert.deepEqual(call.decide(res(429, "3")), {
      action: "fail",
      reason: "rateLimit",
      retryAfterMs: 3000,
    });
  });

  it("backs off with jitter on 429 without Retry-After", () => {
    const call = new RetryPolicy({ random: () => 0.5 }).begin(true);
    const first = call.decide(res(429));
    const second = call.decide(res(429));
    assert.equal(first.action === "retry" && first.delayMs, 750);
    assert.equal(second.action === "retry" && second.delayMs, 1500);
  });

  it("refuses a Retry-After longer than maxRetryAfterMs", () => {
    const call = new RetryPolicy({ maxRetryAfterMs: 10_000 }).begin(true);
    assert.deepEqual(call.decide(res(429, "3600")), {
      action: "fail",
      reason: "rateLimit",
      retryAfterMs: 3_600_000,
    });
  });

  it("retries 500, 502, 503, 504 and network failures on reads, up to `retries`", () => {
    for (const status of RETRYABLE_STATUSES) {
      const call = new RetryPolicy({ retries: 2, random: () => 0 }).begin(true);
      assert.equal(call.decide(res(status)).action, "retry");
      assert.equal(call.decide({ kind: "network" }).action, "retry");
      assert.deepEqual(call.decide(res(status)), { action: "fail", reason: "server" });
    }
  });

  it("never retries a write on 5xx or a network failure", () => {
    const call = new RetryPolicy().begin(false);
    assert.deepEqual(call.decide(res(503)), { action: "fail", reason: "server" });
    assert.deepEqual(new RetryPolicy().begin(false).decide({ kind: "network" }), {
      action: "fail",
      reason: "network",
    });
  });

  it("does not retry other 4xx or 501", () => {
    for (const status of [400, 404, 405, 409, 422]) {
      assert.deepEqual(new RetryPolicy().begin(true).decide(res(status)), {
        action: "fail",
        reason: "client",
      });
    }
    assert.deepEqual(new RetryPolicy().begin(true).decide(res(501)), {
      action: "fail",
      reason: "server",
    });
  });
});

describe("defaultSleep", () => {
  it("waits on the (fake) clock and rejects when aborted", async () => {
    const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let done = false;
      const p = defaultSleep(1000).then(() => (done = true));
      await clock.tickAsync(999);
      assert.equal(done, false);
      await clock.tickAsync(1);
      await p;
      assert.equal(done, true);

      const c = new AbortController();
      const q = defaultSleep(60_000, c.signal);
      c.abort(new Error("stop"));
      await assert.rejects(q, /stop/);
      assert.equal(clock.countTimers(), 0, "the timer is cleared on abort");
    } finally {
      clock.uninstall();
    }
  });
});

describe("RetryAfterGate", () => {
  it("stays closed until the latest Retry-After asked for, then opens", async () => {
    let now = 0;
    const gate = new RetryAfterGate(() => now);
    assert.equal(gate.remainingMs(), 0);
    gate.close(2000);
    gate.close(500); // an earlier end does not reopen it
    now = 300;
    assert.equal(gate.remainingMs(), 1700);
    const slept: number[] = [];
    await gate.wait((ms) => (slept.push(ms), now += ms, Promise.resolve()));
    assert.deepEqual(slept, [1700]);
    assert.equal(gate.remainingMs(), 0);
    await gate.wait((ms) => (slept.push(ms), Promise.resolve()));
    assert.deepEqual(slept, [1700], "an open gate does not sleep");
  });
});
