/**
 * Every read accounts for itself: a collection read whose pages state no `total_items` (an
 * estate collection a proxy stripped them from, here) is verified by a second read at another
 * page size, compared as a whole multiset of item keys. A page cut short, an item removed
 * between two page reads and an item skipped at a page boundary on every read all fail with a
 * `PagingIntegrityError` naming the operation and the counts, or end in a re-read that gets the
 * collection as it is; a report over such a read fails and writes nothing. Hostile paging comes
 * from `../helpers/paging_faults.ts` in front of the reference server.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import { PagingIntegrityError } from "../../lib/api/errors.ts";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { staleComputers } from "../../reports/stale_computers.ts";
import { runCli } from "../helpers/cli.ts";
import type { Envelope } from "../helpers/fault_pages.ts";
import {
  boundarySkip,
  cutTo,
  type PageRewrite,
  startPagingProxy,
  withoutTotals,
} from "../helpers/paging_faults.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { TEST_NOW } from "../helpers/server.ts";

const TOKEN = "read-accounting-token";
const COMPUTERS = 200;
const computersPath = /^\/api\/sam\/estate\/v1\/computers$/;

let srv: RunningServer;
let truth: string[];

before(async () => {
  srv = await startServer({
    port: 0,
    computers: COMPUTERS,
    seed: 3,
    now: TEST_NOW,
    quiet: true,
    token: TOKEN,
  });
  const client = createClient({ baseUrl: srv.url, token: TOKEN });
  truth = (await client.estate.computers().toArray()).map((c) => c.id!);
  assert.equal(truth.length, COMPUTERS);
});

after(async () => {
  await srv.close();
});

/** Runs `fn` with a client whose computers pages go through `rewrite`. */
async function throughProxy<T>(
  rewrite: PageRewrite,
  fn: (client: ReturnType<typeof createClient>, sizes: ReadonlyMap<number, number>) => Promise<T>,
): Promise<T> {
  const proxy = startPagingProxy({ upstream: srv.url, path: computersPath, rewrite });
  try {
    return await fn(createClient({ baseUrl: proxy.url, token: TOKEN }), proxy.bySize);
  } finally {
    await proxy.close();
  }
}

/** The ids of computers read. */
const idsOf = (items: readonly { id?: string | null }[]) => items.map((c) => c.id!);

/** Page `n` of `size` items of `items`, without counts (offset paging over a list). */
function pageOf(items: readonly unknown[], n: number, size: number, like: Envelope): Envelope {
  return withoutTotals({ ...like, items: items.slice((n - 1) * size, n * size) });
}

describe("an estate collection without total_items is verified by a second read", () => {
  it("a page cut short once is read again: the whole collection comes back", async () => {
    await throughProxy(
      (page, r) => r.seen === 0 ? cutTo(withoutTotals(page), 99) : withoutTotals(page),
      async (client, sizes) => {
        const items = await client.estate.computers().toArray();
        assert.deepEqual(idsOf(items).sort(), [...truth].sort());
        assert.ok((sizes.get(999) ?? 0) >= 1, "a second read at another page size was made");
      },
    );
  });

  it("a page cut short on every read at its page size fails, naming the operation and counts", async () => {
    await throughProxy(
      (page, r) => r.pageSize === 1000 ? cutTo(withoutTotals(page), 99) : withoutTotals(page),
      async (client) => {
        await assert.rejects(client.estate.computers().toArray(), (e) => {
          assert.ok(e instanceof PagingIntegrityError, String(e));
          assert.equal(e.operation, "estate.computers");
          assert.equal(e.reads, 3);
          assert.match(
            e.message,
            /^estate\.computers GET \/api\/sam\/estate\/v1\/computers: paging inconsistent after 3 reads, at page 1: a second read at page size 999 holds 200 items, the read at page size 1000 held 99; item "[^"]+" \(page 1 of the second read\) was not in the read \(read 99 items, 0 duplicates\)$/,
          );
          return true;
        });
      },
    );
  });

  it("a short page that links to a next page ends the read (spec 4.1 rule 3), and the second read at another size shows the cut", async () => {
    await throughProxy(
      (page, r) => r.pageNumber === 2 ? cutTo(withoutTotals(page), 30) : withoutTotals(page),
      async (client, sizes) => {
        await assert.rejects(client.estate.computers({ pageSize: 50 }).toArray(), (e) => {
          assert.ok(e instanceof PagingIntegrityError, String(e));
          return true;
        });
        assert.ok((sizes.get(49) ?? 0) > 0, "the second read, at page size 49, was made");
      },
    );
  });

  it("an item removed between two page reads: a re-read gets the collection as it now is", async () => {
    let removed = false;
    await throughProxy(
      async (page, r) => {
        if (!removed) {
          removed = true; // The first item goes once page 1 is answered.
          return withoutTotals(page);
        }
        return pageOf((await r.all()).slice(1), r.pageNumber, r.pageSize, page);
      },
      async (client) => {
        const items = await client.estate.computers({ pageSize: 50 }).toArray();
        assert.deepEqual(idsOf(items), truth.slice(1));
      },
    );
  });

  it("the same removal fails a streaming read, which cannot take back what it handed out", async () => {
    let removed = false;
    await throughProxy(
      async (page, r) => {
        if (!removed) {
          removed = true;
          return withoutTotals(page);
        }
        return pageOf((await r.all()).slice(1), r.pageNumber, r.pageSize, page);
      },
      async (client) => {
        const seen: string[] = [];
        const read = async () => {
          for await (const c of client.estate.computers({ pageSize: 50 })) seen.push(c.id!);
        };
        await assert.rejects(read(), (e) => {
          assert.ok(e instanceof PagingIntegrityError, String(e));
          // Item 50 moved onto page 1 after it was read: the second read names it.
          assert.match(
            e.problem,
            new RegExp(
              `^a second read at page size 49 holds 199 items, as many as the read at page ` +
                `size 50, but not the same ones; item "${truth[50]}" \\(page 2 of the second ` +
                `read\\) was not in the read$`,
            ),
          );
          return true;
        });
        assert.equal(seen.length, 199);
        assert.ok(!seen.includes(truth[50]!), "the read itself lost item 50");
      },
    );
  });

  it("an item skipped at a page boundary on every read fails, naming the skipped item", async () => {
    await throughProxy(
      async (page, r) =>
        withoutTotals({ ...page, items: boundarySkip(await r.all(), r.pageNumber, r.pageSize) }),
      async (client) => {
        await assert.rejects(client.estate.computers({ pageSize: 50 }).toArray(), (e) => {
          assert.ok(e instanceof PagingIntegrityError, String(e));
          assert.equal(e.reads, 3);
          assert.match(
            e.problem,
            new RegExp(
              `^a second read at page size 49 holds 199 items, as many as the read at page ` +
                `size 50, but not the same ones; item "${truth[50]}" \\(page 2 of the second ` +
                `read\\) was not in the read$`,
            ),
          );
          return true;
        });
      },
    );
  });

  it("the same skip with total_items kept fails on the count, with no second read", async () => {
    await throughProxy(
      async (page, r) => ({
        ...page,
        items: boundarySkip(await r.all(), r.pageNumber, r.pageSize),
      }),
      async (client, sizes) => {
        await assert.rejects(
          client.estate.computers({ pageSize: 50 }).toArray(),
          (e) =>
            e instanceof PagingIntegrityError &&
            /total_items is 200 but 199 items were read/.test(e.problem),
        );
        assert.equal(sizes.get(49), undefined);
      },
    );
  });

  it("a faithful read without totals costs one second read and nothing else", async () => {
    await throughProxy((page) => withoutTotals(page), async (client, sizes) => {
      const items = await client.estate.computers({ pageSize: 50 }).toArray();
      assert.deepEqual(idsOf(items), truth);
      // 200 items: 5 pages of 50 (the last empty), 5 of 49 (the last short).
      assert.deepEqual([...sizes].sort(), [[49, 5], [50, 5]]);
    });
  });
});

describe("a report over a read that does not account for itself", () => {
  const persistentCut: PageRewrite = (page, r) =>
    r.pageSize === 1000 ? cutTo(withoutTotals(page), 99) : withoutTotals(page);

  it("fails in the runner and writes nothing", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-read-accounting-" });
    try {
      await throughProxy(persistentCut, async (client) => {
        await assert.rejects(
          runReportForTest({ server: srv, report: staleComputers, client, dir }),
          (e) => e instanceof PagingIntegrityError && e.operation === "estate.computers",
        );
      });
      assert.deepEqual([...Deno.readDirSync(dir)], [], "no output files");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("exits non-zero from the CLI, naming the operation and counts, with no output files", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-read-accounting-cli-" });
    try {
      const proxy = startPagingProxy({
        upstream: srv.url,
        path: computersPath,
        rewrite: persistentCut,
      });
      const run = await runCli(
        [
          "report",
          "stale-computers",
          "--format",
          "json,csv",
          "--out",
          dir,
          "--base-url",
          proxy.url,
          "--quiet",
        ],
        { env: { SAM_TOKEN: TOKEN } },
      ).finally(() => proxy.close());
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /estate\.computers GET \/api\/sam\/estate\/v1\/computers/);
      assert.match(run.stderr, /holds 200 items, the read at page size 1000 held 99/);
      assert.deepEqual([...Deno.readDirSync(dir)], [], "no output files");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
