import { describe, it } from "node:test";
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { CronError, nextRuns, runSchedule } from "../../lib/pack/schedule.ts";

describe("schedule", () => {
  it("fires at 09:00 London wall-clock time across the spring DST change", async () => {
    const clock = FakeTimers.install({
      now: Date.parse("2026-03-27T12:00:00Z"),
      toFake: ["setTimeout", "clearTimeout", "Date"],
    });
    try {
      const fired: string[] = [];
      const stop = new AbortController();
      const done = runSchedule({
        cron: "0 9 * * *",
        timezone: "Europe/London",
        signal: stop.signal,
        job: (at) => {
          fired.push(`${at.toISOString()} @ ${new Date().toISOString()}`);
          return Promise.resolve();
        },
      });
      await clock.tickAsync(4 * 24 * 3600 * 1000);
      stop.abort();
      await clock.tickAsync(1000);
      await done;
      assert.deepEqual(fired.map((f) => f.split(" @ ")[0]), [
        "2026-03-28T09:00:00.000Z", // GMT
        "2026-03-29T08:00:00.000Z", // BST from 29 March
        "2026-03-30T08:00:00.000Z",
        "2026-03-31T08:00:00.000Z",
      ]);
      // Each run started when the fake clock reached its time, not before.
      for (const f of fired) {
        const [due, ran] = f.split(" @ ");
        assert.ok(
          Date.parse(ran) >= Date.parse(due) && Date.parse(ran) - Date.parse(due) < 1000,
          f,
        );
      }
    } finally {
      clock.uninstall();
    }
  });

  it("fires once at 01:30 on the autumn day 01:30 happens twice", () => {
    const runs = nextRuns("30 1 * * *", "Europe/London", new Date("2026-10-24T12:00:00Z"), 3)
      .map((d) => d.toISOString());
    assert.deepEqual(runs, [
      "2026-10-25T00:30:00.000Z", // 01:30 BST, the first 01:30
      "2026-10-26T01:30:00.000Z", // 01:30 GMT
      "2026-10-27T01:30:00.000Z",
    ]);
  });

  it("skips a run that would overlap the one still going, with a log line", async () => {
    const clock = FakeTimers.install({
      now: Date.parse("2026-01-05T10:00:30Z"),
      toFake: ["setTimeout", "clearTimeout", "Date"],
    });
    try {
      const log: string[] = [];
      let started = 0;
      const stop = new AbortController();
      const done = runSchedule({
        cron: "* * * * *",
        timezone: "UTC",
        signal: stop.signal,
        log: (line) => log.push(line),
        job: async () => {
          started++;
          await new Promise((r) => setTimeout(r, 90_000)); // longer than the one-minute interval
        },
      });
      await clock.tickAsync(5 * 60_000);
      stop.abort();
      await clock.tickAsync(120_000);
      await done;
      const skipped = log.filter((l) => l.startsWith("skipped"));
      assert.ok(skipped.length >= 2, log.join("\n"));
      assert.ok(started >= 2 && started <= 3, `started ${started}`);
    } finally {
      clock.uninstall();
    }
  });

  it("rejects a bad cron expression with a CronError naming it", () => {
    assert.throws(() => nextRuns("61 * * * *", "UTC", new Date(), 1), (e: unknown) => {
      assert.ok(e instanceof CronError);
      assert.match((e as Error).message, /"61 \* \* \* \*"/);
      return true;
    });
  });
});
