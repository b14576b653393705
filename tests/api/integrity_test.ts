import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type Page, paginate } from "../../lib/api/paginate.ts";
import { itemKey, PageChecker, stableKey } from "../../lib/api/integrity.ts";
import { PagingIntegrityError, ShapeError } from "../../lib/api/errors.ts";
import { createClient } from "../../lib/api/client.ts";
import { groupReduce, indexBy, toArray } from "../../lib/query/collect.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { withServer } from "../helpers/server.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { entitlementStateByComputer } from "../../reports/entitlement_state_by_computer.ts";

const CREDENTIALS = { clientId: "demo", clientSecret: "demo-secret" };
const clientOptions = (srv: RunningServer) => ({ baseUrl: srv.url, auth: CREDENTIALS });

interface Item {
  readonly id: string;
}

const item = (n: number): Item => ({ id: `C${String(n).padStart(4, "0")}` });
const ids = (items: readonly Item[]) => items.map((i) => i.id);

/** What a fault may do to one page answer, and to the store before it is read. */
interface Fault {
  /** Changes the store before page `n` is read (drift between two page reads). */
  readonly before?: (store: Item[], n: number) => void;
  /** Changes the page answered. */
  readonly page?: (page: Page<Item>, store: readonly Item[], size: number) => Page<Item>;
}

/**
 * A fake estate collection of `total` items with totals on every page, whose answers go wrong
 * as `fault` says: in the first read only (`transient`), or in every read.
 */
function faulty(total: number, fault: Fault, persistent: boolean) {
  const store = Array.from({ length: total }, (_, i) => item(i + 1));
  let reads = 0;
  const asked: number[] = [];
  const fetchPage = (n: number, size: number): Promise<Page<Item>> => {
    if (n === 1) reads++;
    asked.push(n);
    const on = persistent || reads === 1;
    if (on) fault.before?.(store, n);
    const page: Page<Item> = {
      items: store.slice((n - 1) * size, n * size),
      pageNumber: n,
      pageSize: size,
      totalPages: Math.ceil(store.length / size),
      totalItems: store.length,
    };
    return Promise.resolve(on && fault.page ? fault.page(page, store, size) : page);
  };
  return { fetchPage, store, asked, reads: () => reads };
}

const FAULTS: Record<string, Fault> = {
  "a short middle page": {
    page: (p) => (p.pageNumber === 2 ? { ...p, items: p.items.slice(0, 2) } : p),
  },
  "an item removed between two page reads": {
    before: (store, n) => void (n === 2 && store.splice(0, 1)),
  },
  "an item inserted between two page reads": {
    before: (store, n) => void (n === 2 && store.unshift({ id: `N${store.length}` })),
  },
  "an item repeated on two pages": {
    page: (p, store, size) =>
      p.pageNumber === 2 ? { ...p, items: [store[size - 1]!, ...p.items.slice(1)] } : p,
  },
  "a page answered with another page number": {
    page: (p, store, size) =>
      p.pageNumber === 3 ? { ...p, pageNumber: 2, items: store.slice(size, 2 * size) } : p,
  },
  "total_pages higher than the truth": { page: (p) => ({ ...p, totalPages: 9 }) },
  "a page longer than page_size": {
    page: (p) => (p.pageNumber === 2 ? { ...p, items: [...p.items, item(999)] } : p),
  },
};

const MODES = [
  ["sequential", undefined],
  ["parallel", { concurrency: 3 }],
] as const;

for (const [mode, parallel] of MODES) {
  describe(`paging faults, ${mode}`, () => {
    for (const [name, fault] of Object.entries(FAULTS)) {
      it(`toArray re-reads after ${name} once and returns the consistent items`, async () => {
        const s = faulty(23, fault, false);
        const items = await paginate({ fetchPage: s.fetchPage, pageSize: 5, parallel }).toArray();
        assert.deepEqual(ids(items), ids(s.store));
        assert.equal(new Set(ids(items)).size, s.store.length);
        assert.equal(s.reads(), 2);
      });

      it(`toArray throws PagingIntegrityError with counts after 3 reads on persistent ${name}`, async () => {
        const s = faulty(23, fault, true);
        const read = paginate({
          fetchPage: s.fetchPage,
          pageSize: 5,
          parallel,
          source: { operation: "estate.computers", path: "/api/sam/estate/v1/computers" },
        }).toArray();
        const error = await read.then(() => undefined, (e) => e);
        assert.ok(error instanceof PagingIntegrityError, String(error));
        assert.equal(error.reads, 3);
        assert.equal(s.reads(), 3);
        assert.equal(error.operation, "estate.computers");
        assert.ok(error.pageNumber >= 1 && error.pageNumber <= 6, `page ${error.pageNumber}`);
        assert.ok(error.expectedItems !== undefined && error.expectedItems >= 20);
        assert.ok(error.readItems > 0);
        assert.match(error.message, /^estate\.computers GET \/api\/sam\/estate\/v1\/computers: /);
        assert.match(
          error.message,
          /after 3 reads, at page \d: .+ \(read \d+ of \d+ items, \d+ dup/,
        );
      });

      it(`streaming throws PagingIntegrityError at once on ${name}, even when transient`, async () => {
        const s = faulty(23, fault, false);
        const seen: string[] = [];
        const read = async () => {
          for await (const i of paginate({ fetchPage: s.fetchPage, pageSize: 5, parallel })) {
            seen.push(i.id);
          }
        };
        await assert.rejects(read(), (e) => e instanceof PagingIntegrityError && e.reads === 1);
        assert.equal(s.reads(), 1);
        assert.ok(seen.length <= 25);
      });
    }

    it("streaming throws before handing out a repeated item", async () => {
      const s = faulty(23, FAULTS["an item repeated on two pages"]!, false);
      const seen: string[] = [];
      const read = async () => {
        for await (const i of paginate({ fetchPage: s.fetchPage, pageSize: 5, parallel })) {
          seen.push(i.id);
        }
      };
      await assert.rejects(read(), /page 2: an item was repeated \(1 so far\)/);
      assert.deepEqual(seen, ids(s.store.slice(0, 5)));
    });

    it("a total_pages lower than the truth is read past by the stop rule, without error", async () => {
      const s = faulty(23, { page: (p) => ({ ...p, totalPages: 2 }) }, true);
      const items = await paginate({ fetchPage: s.fetchPage, pageSize: 5, parallel }).toArray();
      assert.deepEqual(ids(items), ids(s.store));
      assert.equal(s.reads(), 1);
      assert.deepEqual(s.asked.toSorted((a, b) => a - b), [1, 2, 3, 4, 5]);
    });

    it("a total_pages lower than the truth with a total_items that disagrees fails", async () => {
      const s = faulty(23, { page: (p) => ({ ...p, totalPages: 2, totalItems: 10 }) }, true);
      await assert.rejects(
        paginate({ fetchPage: s.fetchPage, pageSize: 5, parallel }).toArray(),
        (e) => e instanceof PagingIntegrityError && e.expectedItems === 10 && e.readItems > 10,
      );
    });
  });
}

describe("PageChecker", () => {
  const page = (n: number, items: number[], extra: Partial<Page<number>> = {}): Page<number> => ({
    pageNumber: n,
    items,
    pageSize: 2,
    ...extra,
  });

  it("accepts a consistent read and counts it", () => {
    const c = new PageChecker<number>({ pageSize: 2 });
    assert.equal(c.check(page(1, [1, 2], { totalItems: 3, totalPages: 2 }), 1), undefined);
    assert.equal(c.check(page(2, [3], { totalItems: 3, totalPages: 2 }), 2), undefined);
    assert.equal(c.finish(), undefined);
    assert.equal(c.readItems, 3);
  });

  it("names a changed total_items with the page and counts", () => {
    const c = new PageChecker<number>({ pageSize: 2 });
    c.check(page(1, [1, 2], { totalItems: 5 }), 1);
    assert.deepEqual(c.check(page(2, [3, 4], { totalItems: 4 }), 2), {
      problem: "total_items changed from 5 to 4",
      pageNumber: 2,
      readItems: 4,
      expectedItems: 5,
      duplicates: 0,
    });
  });

  it("names a read that stopped before total_pages", () => {
    const c = new PageChecker<number>({ pageSize: 2 });
    c.check(page(1, [1, 2], { totalPages: 3 }), 1);
    c.check(page(2, [3], { totalPages: 3 }), 2);
    assert.equal(
      c.finish()?.problem,
      "the read stopped at short page 2 of 3 announced (total_pages)",
    );
  });

  it("counts repeats across pages; equal items on one page only when told they are ids", () => {
    const strict = new PageChecker<number>({ pageSize: 2 });
    assert.equal(strict.check(page(1, [7, 7]), 1)?.duplicates, 1);
    const rows = new PageChecker<number>({ pageSize: 2, sameOnPage: true });
    assert.equal(rows.check(page(1, [7, 7]), 1), undefined);
    assert.equal(rows.check(page(2, [7, 8]), 2)?.problem, "an item was repeated (1 so far)");
  });

  it("names a changed page_size and a wrong page_number", () => {
    const c = new PageChecker<number>({ pageSize: 2 });
    c.check(page(1, [1, 2]), 1);
    assert.equal(
      c.check(page(2, [3], { pageSize: 3 }), 2)?.problem,
      "page_size changed from 2 to 3",
    );
    const d = new PageChecker<number>({ pageSize: 2 });
    assert.equal(
      d.check(page(1, [1, 2]), 2)?.problem,
      "page_number 1 was answered for page 2",
    );
  });

  it("stableKey ignores key order and tells different values apart", () => {
    assert.equal(stableKey({ a: 1, b: { c: [1, 2] } }), stableKey({ b: { c: [1, 2] }, a: 1 }));
    assert.notEqual(stableKey({ a: 1 }), stableKey({ a: "1" }));
    assert.notEqual(stableKey([1, 2]), stableKey([2, 1]));
  });

  it("an id-less item's key leaves out its hypermedia links, nothing else", () => {
    const self = (href: string) => [{ href, method: "GET", rel: "self" }];
    const row = { computerId: "C1", applicationId: "A1", requirement: 1 };
    assert.equal(
      itemKey({ ...row, links: self("/computers/C1/metering") }, false),
      itemKey({ ...row, links: self("https://eu.example/computers/C1/metering") }, false),
    );
    assert.notEqual(
      itemKey({ ...row, links: [] }, false),
      itemKey({ ...row, requirement: 2 }, false),
    );
    assert.notEqual(itemKey({ ...row, nested: { links: 1 } }, false), itemKey(row, false));
  });
});

describe("collect helpers re-read an inconsistent Paged collection", () => {
  const shortMiddle = FAULTS["a short middle page"]!;

  it("indexBy, groupReduce and toArray (as read or copied) return the consistent result after one re-read", async () => {
    for (
      const run of [
        async (p: AsyncIterable<Item>) => [...(await indexBy(p, (i) => i.id)).keys()],
        async (
          p: AsyncIterable<Item>,
        ) => [...(await groupReduce(p, (i) => i.id, () => 0, (a) => a + 1)).keys()],
        async (p: AsyncIterable<Item>) => ids(await toArray(p)),
        async (p: AsyncIterable<Item>) => ids(await toArray(p, (i) => ({ ...i }))),
      ]
    ) {
      const s = faulty(23, shortMiddle, false);
      const keys = await run(paginate({ fetchPage: s.fetchPage, pageSize: 5 }));
      assert.deepEqual(keys, ids(s.store));
      assert.equal(s.reads(), 2);
    }
  });

  it("indexBy gives up after 3 reads on a persistent fault, saying so", async () => {
    const s = faulty(23, shortMiddle, true);
    await assert.rejects(
      indexBy(paginate({ fetchPage: s.fetchPage, pageSize: 5 }), (i) => i.id),
      (e) => e instanceof PagingIntegrityError && e.reads === 3 && /after 3 reads/.test(e.message),
    );
    assert.equal(s.reads(), 3);
  });
});

/**
 * A fake license-side collection: `total` items, no `total_items` (and `total_pages` only when
 * `totalPages`), whose store may change or whose answers may lie as `fault` says (the faults
 * below act once).
 */
function untotalled(total: number, fault: Fault, options: { totalPages?: boolean } = {}) {
  const store = Array.from({ length: total }, (_, i) => item(i + 1));
  const asked: number[] = [];
  const fetchPage = (n: number, size: number): Promise<Page<Item>> => {
    asked.push(n);
    fault.before?.(store, n);
    const page: Page<Item> = {
      items: store.slice((n - 1) * size, n * size),
      pageNumber: n,
      pageSize: size,
      ...(options.totalPages ? { totalPages: Math.ceil(store.length / size) } : {}),
    };
    return Promise.resolve(fault.page ? fault.page(page, store, size) : page);
  };
  return { fetchPage, store, asked };
}

/** Page `n` answered as `change` says, the first time only. */
function once(n: number, change: NonNullable<Fault["page"]>): Fault {
  let done = false;
  return {
    page: (p, store, size) => {
      if (p.pageNumber !== n || done) return p;
      done = true;
      return change(p, store, size);
    },
  };
}

/** The item with id `id` removed from the store just before page `n` is first read. */
function removedBefore(n: number, id: string): Fault {
  return {
    before: (store, page) => {
      const at = store.findIndex((i) => i.id === id);
      if (page === n && at >= 0) store.splice(at, 1);
    },
  };
}

const UNTOTALLED_FAULTS: Record<string, { total: number; size: number; fault: () => Fault }> = {
  "a one-off short first page of a one-page collection (310 of 311)": {
    total: 311,
    size: 1000,
    fault: () => once(1, (p) => ({ ...p, items: p.items.toSpliced(150, 1) })),
  },
  "a one-off short middle page": {
    total: 23,
    size: 5,
    fault: () => once(2, (p) => ({ ...p, items: p.items.slice(0, 3) })),
  },
  "an item of page 1 removed between two page reads": {
    total: 23,
    size: 5,
    fault: () => removedBefore(2, "C0001"),
  },
  "an item of page 2 removed between two later page reads (the count stays right)": {
    total: 23,
    size: 5,
    fault: () => removedBefore(3, "C0006"),
  },
  "an item duplicated across pages": {
    total: 23,
    size: 5,
    fault: () =>
      once(2, (p, store, size) => ({ ...p, items: [store[size - 1]!, ...p.items.slice(1)] })),
  },
};

describe("reads without total_items are verified by a second read at another page size, compared whole", () => {
  for (const [name, { total, size, fault }] of Object.entries(UNTOTALLED_FAULTS)) {
    it(`toArray returns the collection as it is after ${name}`, async () => {
      const s = untotalled(total, fault());
      const read = paginate({ fetchPage: s.fetchPage, pageSize: size, verifyUntotalled: true });
      const items = await read.toArray();
      assert.deepEqual(ids(items), ids(s.store));
      const pages = Math.floor(s.store.length / size) + 1;
      assert.ok(s.asked.length > 2 * pages, `read again after the fault: ${s.asked}`);
    });

    it(`a streaming read throws PagingIntegrityError naming the collection after ${name}`, async () => {
      const s = untotalled(total, fault());
      const source = { operation: "licenses.list", path: "/api/sam/v1/licenses" };
      const paged = paginate({
        fetchPage: s.fetchPage,
        pageSize: size,
        verifyUntotalled: true,
        source,
      });
      const read = async () => {
        for await (const _ of paged);
      };
      await assert.rejects(read(), (e) => {
        assert.ok(e instanceof PagingIntegrityError, String(e));
        assert.match(
          e.message,
          /^licenses\.list GET \/api\/sam\/v1\/licenses: paging inconsistent after 1 read, at page \d+: /,
        );
        assert.match(
          e.problem,
          /^a second read at page size \d+ holds \d+ items|^an item was repeated/,
        );
        return true;
      });
    });
  }

  it("without verification the same faults go unseen: the tests above can fail", async () => {
    for (const [name, { total, size, fault }] of Object.entries(UNTOTALLED_FAULTS)) {
      if (name.includes("duplicated")) continue; // The duplicate check sees that one anyway.
      const s = untotalled(total, fault());
      const items = await paginate({ fetchPage: s.fetchPage, pageSize: size }).toArray();
      assert.notDeepEqual(ids(items), ids(s.store), name);
    }
  });

  it("a removal from a page already read leaves the count right: only the pages tell", async () => {
    const s = untotalled(23, removedBefore(3, "C0006"));
    const items = await paginate({ fetchPage: s.fetchPage, pageSize: 5 }).toArray();
    assert.equal(items.length, s.store.length, "the read counts what the collection now holds");
    assert.ok(ids(items).includes("C0006") && !ids(items).includes("C0011"));
  });

  it("a short page with total_pages after it fails on the pages announced, before a second read", async () => {
    const s = untotalled(23, once(2, (p) => ({ ...p, items: p.items.slice(0, 3) })), {
      totalPages: true,
    });
    const read = paginate({
      fetchPage: s.fetchPage,
      pageSize: 5,
      verifyUntotalled: true,
      rereads: 0,
    });
    await assert.rejects(read.toArray(), /stopped at short page 2 of 5 announced/);
    assert.deepEqual(s.asked, [1, 2]);
  });

  it("costs a read at one item less per page, none with total_items", async () => {
    const one = untotalled(311, {});
    await paginate({ fetchPage: one.fetchPage, pageSize: 1000, verifyUntotalled: true }).toArray();
    assert.deepEqual(one.asked, [1, 1]);
    const five = untotalled(23, {});
    await paginate({ fetchPage: five.fetchPage, pageSize: 5, verifyUntotalled: true }).toArray();
    assert.deepEqual(five.asked, [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6]);
    const counted = faulty(23, {}, false);
    await paginate({ fetchPage: counted.fetchPage, pageSize: 5, verifyUntotalled: true }).toArray();
    assert.deepEqual(counted.asked, [1, 2, 3, 4, 5]);
  });

  it("reads again with the read's concurrency, comparing in order", async () => {
    const s = untotalled(23, {});
    let inFlight = 0, most = 0;
    const fetchPage = async (n: number, size: number) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 6 - n));
      inFlight--;
      return { ...(await s.fetchPage(n, size)), totalPages: 5 };
    };
    const parallel = { concurrency: 3 };
    const items = await paginate({ fetchPage, pageSize: 5, parallel, verifyUntotalled: true })
      .toArray();
    assert.deepEqual(ids(items), ids(s.store));
    assert.equal(s.asked.length, 11);
    assert.equal(most, 3);
  });

  it("a page answered in another order the second time is the same page", async () => {
    let calls = 0;
    const fetchPage = (n: number): Promise<Page<Item>> =>
      Promise.resolve({
        pageNumber: n,
        items: ++calls === 1 ? [item(1), item(2)] : [item(2), item(1)],
      });
    const items = await paginate({ fetchPage, pageSize: 10, verifyUntotalled: true }).toArray();
    assert.deepEqual(ids(items), ["C0001", "C0002"]);
    assert.equal(calls, 2);
  });

  it("stopping early reads nothing again", async () => {
    const s = untotalled(23, {});
    for await (
      const _ of paginate({ fetchPage: s.fetchPage, pageSize: 5, verifyUntotalled: true })
    ) break;
    assert.deepEqual(s.asked, [1]);
  });

  it("a persistent difference fails after 3 reads with the counts", async () => {
    let calls = 0;
    const fetchPage = (n: number): Promise<Page<Item>> =>
      Promise.resolve({ pageNumber: n, items: [item(1), item(++calls + 1)] });
    const read = paginate({ fetchPage, pageSize: 10, verifyUntotalled: true }).toArray();
    await assert.rejects(read, (e) => {
      assert.ok(e instanceof PagingIntegrityError);
      assert.equal(e.reads, 3);
      assert.equal(
        e.message,
        "collection: paging inconsistent after 3 reads, at page 1: a second read at page size " +
          "9 holds 2 items, as many as the read at page size 10, but not the same ones; an item " +
          "without an id (page 1 of the second read) was not in the read (read 2 items, 0 " +
          "duplicates)",
      );
      return true;
    });
  });
});

/** Rewrites a JSON answer: `null` keeps it, else the body to send instead. */
type Rewrite = (body: Record<string, unknown>, url: URL, count: number) => unknown;

/** A fetch that lets `rewrite` change JSON answers of paths matching `match`. */
function rewriting(match: RegExp, rewrite: Rewrite): typeof fetch {
  let count = 0;
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!match.test(url.pathname) || res.status !== 200) return res;
    const body = await res.json();
    const next = rewrite(body, url, ++count);
    return new Response(JSON.stringify(next === null ? body : next), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
}

const pageOf = (url: URL) => Number(url.searchParams.get("page_number") ?? "1");

describe("client integrity against the reference server", () => {
  const clientOf = (srv: RunningServer, fetchFn: typeof fetch) =>
    createClient({ baseUrl: srv.url, auth: CREDENTIALS, fetch: fetchFn, pageSize: 100 });

  it("re-reads computers after a short middle page in the first read, in both modes", async () => {
    await withServer({ computers: 400 }, async (srv) => {
      const truth = ids(await clientOf(srv, fetch).estate.computers().toArray() as Item[]);
      for (const parallel of [false, true]) {
        let reads = 0;
        const fetchFn = rewriting(/\/computers$/, (body, url) => {
          if (pageOf(url) === 1) reads++;
          if (reads > 1 || pageOf(url) !== 2) return null;
          return { ...body, items: (body.items as unknown[]).slice(0, 40) };
        });
        const got = await clientOf(srv, fetchFn).estate.computers({ parallel }).toArray();
        assert.deepEqual(ids(got as Item[]), truth);
        assert.equal(truth.length, 400);
        assert.equal(reads, 2);
      }
    });
  });

  it("fails a persistent repeat with PagingIntegrityError naming operation, path and filter", async () => {
    await withServer({ computers: 400 }, async (srv) => {
      let first: unknown;
      const fetchFn = rewriting(/\/computers$/, (body, url) => {
        const items = body.items as unknown[];
        if (pageOf(url) === 1) first = items[0];
        return pageOf(url) === 3 ? { ...body, items: [first, ...items.slice(1)] } : null;
      });
      const read = clientOf(srv, fetchFn).estate.computers({ filter: "hostName -ne x" }).toArray();
      await assert.rejects(read, (e) => {
        assert.ok(e instanceof PagingIntegrityError);
        assert.equal(e.operation, "estate.computers");
        assert.equal(e.path, "/api/sam/estate/v1/computers");
        assert.equal(e.filter, "hostName -ne x");
        assert.deepEqual([e.pageNumber, e.duplicates, e.reads], [3, 1, 3]);
        assert.match(
          e.message,
          /^estate\.computers GET \/api\/sam\/estate\/v1\/computers \(filter "hostName -ne x"\): paging inconsistent after 3 reads, at page 3: an item was repeated/,
        );
        return true;
      });
    });
  });

  it("a costs summary answered {items: 'oops'} is a ShapeError naming the operation", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const fetchFn = rewriting(/\/costs-summary$/, () => ({ items: "oops" }));
      const client = clientOf(srv, fetchFn);
      const [license] = await client.licenses.list({ pageSize: 1 }).pages().next().then((r) =>
        r.value!.items
      );
      await assert.rejects(client.licenses.costsSummary(license!.id!), (e) => {
        assert.ok(e instanceof ShapeError);
        assert.equal(e.operation, "licenses.costsSummary");
        assert.equal(
          e.message,
          `licenses.costsSummary /api/sam/v1/licenses/${license!.id}/costs-summary: the response ` +
            `has none of the fields of LicenseCostSummary; received {"items":"oops"}`,
        );
        return true;
      });
    });
  });

  it("an object for another id than asked is a ShapeError; a sensitive value stays redacted", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const fetchFn = rewriting(/\/computers\/[^/]+$/, () => ({
        id: "C-OTHER",
        securityCode: "S3CRET-VALUE",
        hostName: "h",
      }));
      const client = clientOf(srv, fetchFn);
      const [c] = await clientOf(srv, fetch).estate.computers({ pageSize: 1 }).pages().next()
        .then((r) => r.value!.items);
      await assert.rejects(client.estate.computer(c!.id!), (e) => {
        assert.ok(e instanceof ShapeError);
        assert.match(e.message, /is for id "C-OTHER", not the id asked for/);
        assert.match(e.message, /"securityCode":"<redacted>"/);
        assert.doesNotMatch(e.message, /S3CRET/);
        return true;
      });
    });
  });

  it("items not an array and a pagination number that is not a number are ShapeErrors", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const cases: [Rewrite, RegExp][] = [
        [(b) => ({ ...b, items: "oops" }), /items is not an array; received/],
        [
          (b) => ({ ...b, pagination: { ...(b.pagination as object), total_items: "many" } }),
          /pagination\.total_items is not a whole number/,
        ],
        [(b) => ({ ...b, items: [{ nothing: 1 }] }), /item 1 of page 1 has none of the fields/],
      ];
      for (const [rewrite, message] of cases) {
        const client = clientOf(srv, rewriting(/\/computers$/, rewrite));
        await assert.rejects(client.estate.computers().toArray(), (e) => {
          assert.ok(e instanceof ShapeError, String(e));
          assert.match(e.message, /^estate\.computers \/api\/sam\/estate\/v1\/computers: /);
          assert.match(e.message, message);
          return true;
        });
      }
    });
  });
});

describe("reports over inconsistent paging", () => {
  it("a transient short page: the computers index is re-read and the report is unchanged", async () => {
    await withServer({ computers: 400 }, async (srv) => {
      const plain = await runReportForTest({ server: srv, report: entitlementStateByComputer });
      let reads = 0;
      const fetchFn = rewriting(/\/computers$/, (body, url) => {
        if (pageOf(url) === 1) reads++;
        if (reads > 1 || pageOf(url) !== 2) return null;
        return { ...body, items: (body.items as unknown[]).slice(0, 10) };
      });
      const client = createClient({ ...clientOptions(srv), fetch: fetchFn, pageSize: 100 });
      const run = await runReportForTest({
        server: srv,
        report: entitlementStateByComputer,
        client,
      });
      assert.ok(reads >= 2, "the faulty read was read again");
      assert.deepEqual(run.json.sections, plain.json.sections);
    });
  });

  it("a persistent inconsistency fails the report and writes nothing", async () => {
    await withServer({ computers: 400 }, async (srv) => {
      const fetchFn = rewriting(/\/computers$/, (body, url) => {
        const items = body.items as unknown[];
        return pageOf(url) === 2 ? { ...body, items: items.slice(0, 10) } : null;
      });
      const client = createClient({ ...clientOptions(srv), fetch: fetchFn, pageSize: 100 });
      const dir = await Deno.makeTempDir({ prefix: "samkit-integrity-" });
      try {
        await assert.rejects(
          runReportForTest({ server: srv, report: entitlementStateByComputer, client, dir }),
          (e) => e instanceof PagingIntegrityError && e.reads === 3 && e.readItems === 110,
        );
        assert.deepEqual([...Deno.readDirSync(dir)], []);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  });
});
