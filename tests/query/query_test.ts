import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdaptiveLimiter } from "../../lib/query/limiter.ts";
import { fanOut } from "../../lib/query/fan_out.ts";
import { RunCache } from "../../lib/query/cache.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { groupReduce, indexBy, leftJoin, topN } from "../../lib/query/collect.ts";

const tick = () => new Promise((r) => setTimeout(r, 1));

describe("AdaptiveLimiter", () => {
  it("never runs more tasks at once than its limit", async () => {
    const limiter = new AdaptiveLimiter({ max: 3 });
    let active = 0, peak = 0;
    await Promise.all(Array.from({ length: 20 }, () =>
      limiter.run(async () => {
        peak = Math.max(peak, ++active);
        await tick();
        active--;
      })));
    assert.equal(peak, 3);
  });

  it("halves on back-off down to the floor, then grows back one per task in use", async () => {
    const limiter = new AdaptiveLimiter({ max: 8, initial: 8 });
    limiter.backOff();
    assert.equal(limiter.limit, 4);
    for (let i = 0; i < 3; i++) {
      await limiter.run(() => Promise.resolve()); // settles the previous decrease
      limiter.backOff();
    }
    assert.equal(limiter.limit, 1, "never below the floor");
    for (let i = 0; i < 3; i++) await limiter.run(() => Promise.resolve());
    assert.equal(limiter.limit, 2, "one task at a time fills a limit of 1, not of 2");
  });
});

describe("fanOut", () => {
  it("yields results in input order even when later calls finish first", async () => {
    const delays = [30, 1, 15, 2, 8];
    const out: number[] = [];
    for await (const [d] of fanOut(delays, (d) => new Promise((r) => setTimeout(() => r(d), d)))) {
      out.push(d);
    }
    assert.deepEqual(out, delays);
  });

  it("reads its input lazily, bounded by the window", async () => {
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield i;
      }
    }
    for await (const [i] of fanOut(source(), (i) => Promise.resolve(i), { concurrency: 2 })) {
      if (i === 0) break;
    }
    assert.ok(pulled < 10, `pulled ${pulled} items for one result`);
  });

  it("surfaces a failing call in order and stops", async () => {
    const seen: number[] = [];
    await assert.rejects(async () => {
      for await (
        const [n] of fanOut(
          [1, 2, 3],
          (n) => n === 2 ? Promise.reject(new Error("boom")) : Promise.resolve(n),
        )
      ) {
        seen.push(n);
      }
    }, /boom/);
    assert.deepEqual(seen, [1]);
  });
});

describe("RunCache", () => {
  it("shares one load between concurrent askers", async () => {
    const cache = new RunCache();
    let loads = 0;
    const values = await Promise.all(
      [1, 2, 3].map(() => cache.get("k", async () => (await tick(), ++loads))),
    );
    assert.deepEqual(values, [1, 1, 1]);
    assert.equal(cache.hits, 2);
  });

  it("forgets a failed load so a later ask retries", async () => {
    const cache = new RunCache();
    await assert.rejects(cache.get("k", () => Promise.reject(new Error("no"))));
    await tick();
    assert.equal(await cache.get("k", () => Promise.resolve(7)), 7);
  });
});

describe("query context", () => {
  it("fan-out makes one call per distinct key", async () => {
    const q = createQueryContext({ maxConcurrency: 4 });
    const calls: string[] = [];
    const out: string[] = [];
    for await (
      const [id, v] of q.fanOut(["a", "b", "a", "c", "b"], (id) => id, async (id) => {
        calls.push(id);
        await tick();
        return id.toUpperCase();
      })
    ) out.push(`${id}${v}`);
    assert.deepEqual(out, ["aA", "bB", "aA", "cC", "bB"]);
    assert.deepEqual(calls.sort(), ["a", "b", "c"]);
  });

  it("all() reads a collection once per run", async () => {
    const q = createQueryContext();
    let reads = 0;
    const load = () => (reads++, [1, 2, 3]);
    assert.deepEqual(await q.all("x", load), [1, 2, 3]);
    await q.all("x", load);
    assert.equal(reads, 1);
  });
});

describe("collect helpers", () => {
  it("indexBy, groupReduce, leftJoin and topN agree with a plain computation", async () => {
    const rows = [{ id: "a", v: "X", n: 2 }, { id: "b", v: "Y", n: 7 }, { id: "c", v: "X", n: 5 }];
    const idx = await indexBy(rows, (r) => r.id);
    assert.equal(idx.get("b")?.n, 7);
    const sums = await groupReduce(rows, (r) => r.v, () => 0, (a, r) => a + r.n);
    assert.deepEqual([...sums], [["X", 7], ["Y", 7]]);
    const joined = [];
    for await (const [l, r] of leftJoin([{ k: "a" }, { k: "z" }], idx, (x) => x.k)) {
      joined.push([l.k, r?.n]);
    }
    assert.deepEqual(joined, [["a", 2], ["z", undefined]]);
    assert.deepEqual((await topN(rows, 2, (r) => r.n)).map((r) => r.id), ["b", "c"]);
  });
});
