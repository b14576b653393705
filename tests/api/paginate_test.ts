import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { followPages, type Page, paginate } from "../../lib/api/paginate.ts";
import { PagingIntegrityError } from "../../lib/api/errors.ts";

/** A fake collection of `total` numbered items; records the pages asked for. */
function source(
  total: number,
  options: { reportTotal?: boolean; serverPageSize?: number; delay?: (n: number) => number } = {},
) {
  const asked: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const aborted: number[] = [];
  const fetchPage = async (
    n: number,
    size: number,
    signal?: AbortSignal,
  ): Promise<Page<number>> => {
    asked.push(n);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const ms = options.delay?.(n) ?? 0;
      if (ms > 0) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, ms);
          signal?.addEventListener("abort", () => {
            clearTimeout(t);
            aborted.push(n);
            reject(signal.reason);
          });
        });
      }
      const eff = options.serverPageSize ?? size;
      const start = (n - 1) * eff;
      const items = Array.from(
        { length: Math.max(0, Math.min(eff, total - start)) },
        (_, i) => start + i,
      );
      return {
        items,
        pageNumber: n,
        pageSize: eff,
        ...(options.reportTotal === false ? {} : { totalPages: Math.ceil(total / eff) }),
      };
    } finally {
      inFlight--;
    }
  };
  return { fetchPage, asked, aborted, maxInFlight: () => maxInFlight };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("paginate", () => {
  it("stops on a short page", async () => {
    const s = source(25, { reportTotal: false });
    assert.deepEqual(await paginate({ fetchPage: s.fetchPage, pageSize: 10 }).toArray(), range(25));
    assert.deepEqual(s.asked, [1, 2, 3]);
  });

  it("stops on an empty page when the last page is full and no total is reported", async () => {
    const s = source(20, { reportTotal: false });
    assert.deepEqual(await paginate({ fetchPage: s.fetchPage, pageSize: 10 }).toArray(), range(20));
    assert.deepEqual(s.asked, [1, 2, 3]);
  });

  it("ends on the stop rule, not total_pages: a full last page is followed by an empty one", async () => {
    const s = source(20);
    assert.deepEqual(await paginate({ fetchPage: s.fetchPage, pageSize: 10 }).toArray(), range(20));
    assert.deepEqual(s.asked, [1, 2, 3]);
  });

  it("judges a short page by the page size in force, not the one asked for", async () => {
    const s = source(25, { reportTotal: false, serverPageSize: 5 });
    assert.deepEqual(
      await paginate({ fetchPage: s.fetchPage, pageSize: 1000 }).toArray(),
      range(25),
    );
  });

  it("yields pages with their numbers and restarts on each iteration", async () => {
    const s = source(3);
    const paged = paginate({ fetchPage: s.fetchPage, pageSize: 2 });
    const numbers = [];
    for await (const p of paged.pages()) numbers.push(p.pageNumber);
    assert.deepEqual(numbers, [1, 2]);
    assert.deepEqual(await paged.toArray(), [0, 1, 2]);
  });

  it("parallel mode yields the same items in the same order, with bounded concurrency", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 10 }),
        async (total, pageSize, concurrency, delays) => {
          const s = source(total, { delay: (n) => delays[n % delays.length]! });
          const items = await paginate({
            fetchPage: s.fetchPage,
            pageSize,
            parallel: { concurrency },
          }).toArray();
          assert.deepEqual(items, range(total));
          assert.ok(s.maxInFlight() <= concurrency, `${s.maxInFlight()} > ${concurrency}`);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("parallel mode falls back to sequential without total_pages", async () => {
    const s = source(30, { reportTotal: false, delay: () => 1 });
    const items = await paginate({ fetchPage: s.fetchPage, pageSize: 10, parallel: true })
      .toArray();
    assert.deepEqual(items, range(30));
    assert.equal(s.maxInFlight(), 1);
  });

  it("stopping early cancels the pages in flight", async () => {
    const s = source(100, { delay: (n) => (n === 1 ? 0 : 50) });
    for await (const _ of paginate({ fetchPage: s.fetchPage, pageSize: 10, parallel: true })) {
      break;
    }
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(s.aborted.sort(), [2, 3, 4, 5]);
  });

  it("an abort signal cancels paging", async () => {
    const c = new AbortController();
    const s = source(100, { delay: () => 20 });
    const p = paginate({ fetchPage: s.fetchPage, pageSize: 10, signal: c.signal }).toArray();
    setTimeout(() => c.abort(new DOMException("stop", "AbortError")), 30);
    await assert.rejects(p, /stop/);
    assert.ok(s.asked.length < 10);
  });
});

describe("followPages", () => {
  const link = (href: string) => [{ href, method: "GET", rel: "next" }];

  it("follows next links through flat objects and strips nothing it does not own", async () => {
    const hrefs: (string | undefined)[] = [];
    const pages = followPages({
      pageSize: 1000,
      toItem: (raw) => raw.name as string,
      fetch: (href) => {
        hrefs.push(href);
        if (href === undefined) return Promise.resolve({ name: "A", _links: link("api/m?p=2") });
        if (href === "api/m?p=2") return Promise.resolve({ name: "B", links: link("api/m?p=3") });
        return Promise.resolve({ name: "C", _links: [] });
      },
    });
    assert.deepEqual(await pages.toArray(), ["A", "B", "C"]);
    assert.deepEqual(hrefs, [undefined, "api/m?p=2", "api/m?p=3"]);
  });

  it("reads a 404 (null) as no items", async () => {
    const pages = followPages({
      pageSize: 10,
      toItem: (r) => r,
      fetch: () => Promise.resolve(null),
    });
    assert.deepEqual(await pages.toArray(), []);
  });

  it("accepts an envelope and pages it by number when it has no next link", async () => {
    const asked: number[] = [];
    const pages = followPages({
      pageSize: 2,
      toItem: (raw) => raw.id as number,
      fetch: (_href, n) => {
        asked.push(n);
        const items = [[{ id: 1 }, { id: 2 }], [{ id: 3 }]][n - 1] ?? [];
        return Promise.resolve({ items, pagination: { page_size: 2 } });
      },
    });
    assert.deepEqual(await pages.toArray(), [1, 2, 3]);
    assert.deepEqual(asked, [1, 2]);
  });

  it("stops on a next-link loop with an error naming the pages", async () => {
    let calls = 0;
    const pages = followPages({
      pageSize: 10,
      rereads: 0,
      toItem: (raw) => raw.n,
      fetch: () => Promise.resolve({ n: ++calls, _links: link("api/same") }),
    });
    await assert.rejects(
      pages.toArray(),
      (e) =>
        e instanceof PagingIntegrityError &&
        /the next link of page 2 leads back to page 2: a link loop/.test(e.message),
    );
    assert.equal(calls, 2);
  });
});
