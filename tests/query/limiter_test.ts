import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdaptiveLimiter } from "../../lib/query/limiter.ts";
import { backOffOnPressure } from "../../lib/query/context.ts";

/** A fake monotonic clock and tasks that take a set time on it. */
function fakeClock() {
  let now = 0;
  return {
    now: () => now,
    /** A task that "takes" `ms`: the clock moves when it ends. */
    task: (ms: number) => async () => {
      await Promise.resolve();
      now += ms;
    },
  };
}

/** Runs `n` rounds of `limiter.limit` tasks at once, each taking `ms` on the fake clock. */
async function rounds(
  limiter: AdaptiveLimiter,
  clock: ReturnType<typeof fakeClock>,
  n: number,
  ms: number,
) {
  const seen: number[] = [];
  for (let r = 0; r < n; r++) {
    const width = limiter.limit;
    await Promise.all(Array.from({ length: width }, () => limiter.run(clock.task(ms))));
    seen.push(limiter.limit);
  }
  return seen;
}

describe("AdaptiveLimiter (adaptive limit)", () => {
  it("starts small and grows while latency holds at its minimum", async () => {
    const clock = fakeClock();
    const limiter = new AdaptiveLimiter({ max: 64, initial: 2, now: clock.now });
    assert.equal(limiter.limit, 2);
    const seen = await rounds(limiter, clock, 4, 0);
    assert.ok(seen.every((l, i) => l > (i === 0 ? 2 : seen[i - 1])), `limits ${seen}`);
  });

  it("never exceeds the user's cap", async () => {
    const clock = fakeClock();
    const limiter = new AdaptiveLimiter({ max: 10, initial: 2, now: clock.now });
    const seen = await rounds(limiter, clock, 8, 0);
    assert.equal(Math.max(...seen), 10);
    assert.equal(limiter.limit, 10);
  });

  it("does not grow when its limit is not in use", async () => {
    // A fake clock: on the real one a busy machine's latency jitter eases the limit down.
    const clock = fakeClock();
    const limiter = new AdaptiveLimiter({ max: 64, initial: 4, now: clock.now });
    for (let i = 0; i < 20; i++) await limiter.run(clock.task(1));
    assert.equal(limiter.limit, 4);
  });

  it("halves on a 429 or 503 and counts a burst from one round trip once", async () => {
    const clock = fakeClock();
    const limiter = new AdaptiveLimiter({ max: 64, initial: 32, now: clock.now });
    limiter.backOff();
    limiter.backOff(); // the same burst: ignored until a later task settles
    assert.equal(limiter.limit, 16);
    await limiter.run(clock.task(1));
    limiter.backOff();
    assert.equal(limiter.limit, 8);
  });

  it("eases down when latency rises past the tolerance", async () => {
    const clock = fakeClock();
    const limiter = new AdaptiveLimiter({ max: 64, initial: 20, tolerance: 2, now: clock.now });
    await limiter.run(clock.task(20)); // the minimum: 20 ms
    await rounds(limiter, clock, 1, 100); // five times it
    assert.equal(limiter.limit, 18);
  });

  it("never goes below the floor", async () => {
    const clock = fakeClock();
    const limiter = new AdaptiveLimiter({ max: 8, min: 2, initial: 8, now: clock.now });
    for (let i = 0; i < 6; i++) {
      limiter.backOff();
      await limiter.run(clock.task(1000 * (i + 1)));
    }
    assert.equal(limiter.limit, 2);
  });
});

describe("backOffOnPressure", () => {
  it("halves the limit on a 429 wait or a 503 retry, not on other retries, and passes every event on", () => {
    const limiter = new AdaptiveLimiter({ max: 64, initial: 32, now: () => 0 });
    const passed: string[] = [];
    const onEvent = backOffOnPressure(limiter, (e) => passed.push(e.type));
    const retry = { type: "retry", method: "GET", path: "/x", attempt: 1, delayMs: 0 } as const;
    onEvent({ ...retry, reason: "server", status: 500 });
    assert.equal(limiter.limit, 32, "a 500 is a fault, not pressure");
    onEvent({ ...retry, reason: "server", status: 503 });
    assert.equal(limiter.limit, 16);
    assert.deepEqual(passed, ["retry", "retry"]);
  });

  it("halves on a 429 without Retry-After and leaves a Retry-After to the shared gate", () => {
    const limiter = new AdaptiveLimiter({ max: 64, initial: 32, now: () => 0 });
    const onEvent = backOffOnPressure(limiter);
    const wait = { type: "rateLimit", method: "GET", path: "/x", wait: 1, delayMs: 1000 } as const;
    onEvent({ ...wait, fromRetryAfter: true });
    assert.equal(limiter.limit, 32);
    onEvent({ ...wait, fromRetryAfter: false });
    assert.equal(limiter.limit, 16);
  });
});
