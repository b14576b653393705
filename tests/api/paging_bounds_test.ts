/**
 * Bounded everything: one read of a collection takes at most so many pages and items, per kind
 * of collection (reference collections small, purchase ones middling, estate ones large),
 * configurable through the client's `limits` option. A service whose license list answers full
 * pages of new ids forever, or whose small reference collection hands out a fresh `next` link
 * forever, is stopped with a `PagingLimitError` naming the operation, the bound and how to raise
 * it; a `next` link back to a page already read is a loop, and an error. Hostile services come
 * from `../helpers/paging_faults.ts`.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import { PagingIntegrityError } from "../../lib/api/errors.ts";
import { paginate } from "../../lib/api/paginate.ts";
import {
  collectionKind,
  DEFAULT_PAGING_LIMITS,
  PagingLimitError,
  readLimits,
} from "../../lib/api/paging_limits.ts";
import { indexBy } from "../../lib/query/collect.ts";
import { type EndlessServiceOptions, startEndlessService } from "../helpers/paging_faults.ts";

const LICENSES = "/api/sam/v1/licenses";
const STATES = "/api/sam/v1/licenses/entitlements/entitlement-states";

/** Runs `fn` with a client of an endless service. */
async function withEndless<T>(
  options: EndlessServiceOptions,
  fn: (svc: ReturnType<typeof startEndlessService>, url: string) => Promise<T>,
): Promise<T> {
  const svc = startEndlessService(options);
  try {
    return await fn(svc, svc.url);
  } finally {
    await svc.close();
  }
}

describe("the bounds of a read, per kind of collection", () => {
  it("are far above any real estate by default: reference small, purchase middling, estate large", () => {
    assert.deepEqual(DEFAULT_PAGING_LIMITS, {
      reference: { maxPages: 1_000, maxItems: 10_000 },
      purchase: { maxPages: 10_000, maxItems: 1_000_000 },
      estate: { maxPages: 500_000, maxItems: 50_000_000 },
    });
    for (const op of ["licenses.policies", "licenses.entitlementStates", "connectors.list"]) {
      assert.equal(collectionKind(op), "reference", op);
    }
    for (const op of ["licenses.list", "licenses.costs", "licenses.maintenancePeriods"]) {
      assert.equal(collectionKind(op), "purchase", op);
    }
    for (const op of ["estate.computers", "estate.applications", "registry.applications"]) {
      assert.equal(collectionKind(op), "estate", op);
    }
  });

  it("take the client's option where given, and refuse a bound that is not a count", () => {
    assert.deepEqual(readLimits("estate", { estate: { maxItems: 20_000_000 } }), {
      kind: "estate",
      maxPages: 500_000,
      maxItems: 20_000_000,
    });
    const client = createClient({
      baseUrl: "http://127.0.0.1:9",
      token: "t",
      limits: { purchase: { maxItems: 0 } },
    });
    assert.throws(
      () => client.licenses.list(),
      /limits\.purchase\.maxItems must be a whole number of at least 1, not 0/,
    );
  });
});

describe("PagingLimitError", () => {
  it("stays on one line whatever the filter holds", () => {
    const e = new PagingLimitError({
      operation: "estate.computers",
      path: "/api/sam/estate/v1/computers",
      filter: "hostName -eq 'a\nINFO forged\u2028line'",
      kind: "estate",
      limit: "maxItems",
      max: 10,
      pages: 2,
      items: 20,
    });
    assert.doesNotMatch(e.message, /[\n\r\u2028]/);
    assert.match(e.message, /\(filter "hostName -eq 'a\\nINFO forged\\u2028line'"\)/);
  });
});

describe("a license list that answers full pages of new ids forever", () => {
  it("stops at the purchase bound on items, naming the operation, the bound and the option", async () => {
    await withEndless({ envelopePath: LICENSES }, async (svc, url) => {
      const client = createClient({
        baseUrl: url,
        token: "t",
        limits: { purchase: { maxItems: 5_000 } },
      });
      await assert.rejects(client.licenses.list().toArray(), (e) => {
        assert.ok(e instanceof PagingLimitError, String(e));
        assert.equal(e.operation, "licenses.list");
        assert.equal(e.limit, "maxItems");
        assert.equal(
          e.message,
          "licenses.list GET /api/sam/v1/licenses: read stopped at page 6 with 6,000 items: more " +
            "than maxItems 5,000 of a purchase collection; if it really is that large, raise " +
            "limits.purchase.maxItems in the client options",
        );
        return true;
      });
      assert.equal(svc.requests, 6, "stopped there, and not read again (no re-read of a bound)");
    });
  });

  it("stops at the bound on pages before asking for the page past it", async () => {
    await withEndless({ envelopePath: LICENSES }, async (svc, url) => {
      const client = createClient({
        baseUrl: url,
        token: "t",
        limits: { purchase: { maxPages: 20 } },
      });
      await assert.rejects(
        indexBy(client.licenses.list({ pageSize: 10 }), (l) => l.id),
        (e) =>
          e instanceof PagingLimitError && e.limit === "maxPages" &&
          /read stopped before page 21 \(200 items so far\): more pages than maxPages 20 of a purchase collection; .*raise limits\.purchase\.maxPages/
            .test(e.message),
      );
      assert.equal(svc.requests, 20);
    });
  });

  it("bounds the second read that verifies a read too", async () => {
    // Full pages only at the second read's size (999): the read itself ends on page 1.
    const fullPagesAt = (size: number) => size !== 1000;
    await withEndless({ envelopePath: LICENSES, fullPagesAt }, async (svc, url) => {
      const client = createClient({
        baseUrl: url,
        token: "t",
        limits: { purchase: { maxPages: 8 } },
      });
      await assert.rejects(
        client.licenses.list().toArray(),
        (e) =>
          e instanceof PagingLimitError &&
          /: second read \(verifying the read\) stopped before page 9 \(7,992 items so far\)/.test(
            e.message,
          ),
      );
      assert.equal(svc.requests, 1 + 8);
    });
  });

  it("parallel mode never asks past the bound, whatever total_pages says", async () => {
    const asked: number[] = [];
    const read = paginate<string>({
      pageSize: 2,
      parallel: { concurrency: 4 },
      limits: { kind: "estate", maxPages: 5, maxItems: 1_000 },
      fetchPage: (n) => {
        asked.push(n);
        return Promise.resolve({ pageNumber: n, items: [`${n}a`, `${n}b`], totalPages: 1_000_000 });
      },
    });
    await assert.rejects(read.toArray(), (e) => e instanceof PagingLimitError);
    assert.equal(Math.max(...asked), 5);
  });
});

describe("a small reference collection with a fresh next link forever", () => {
  it("stops at the reference bound on pages (1,000 by default), naming it", async () => {
    await withEndless({ flatPath: STATES }, async (svc, url) => {
      const client = createClient({ baseUrl: url, token: "t" });
      await assert.rejects(client.licenses.entitlementStates().toArray(), (e) => {
        assert.ok(e instanceof PagingLimitError, String(e));
        assert.equal(e.operation, "licenses.entitlementStates");
        assert.match(
          e.message,
          /read stopped before page 1,001 \(1,000 items so far\): more pages than maxPages 1,000 of a reference collection; if it really is that large, raise limits\.reference\.maxPages in the client options$/,
        );
        return true;
      });
      assert.equal(svc.requests, 1_000);
    });
  });

  it("a next link back to a page already read is a loop: an error after a few requests", async () => {
    const api = STATES.slice(1);
    // Pages 1–3 link on; page 3 links back to page 2's link.
    const nextOf = (n: number) => `${api}?page_number=${n >= 3 ? 2 : n + 1}`;
    await withEndless({ flatPath: STATES, nextOf }, async (svc, url) => {
      const client = createClient({ baseUrl: url, token: "t" });
      await assert.rejects(
        client.licenses.entitlementStates().toArray(),
        (e) =>
          e instanceof PagingIntegrityError &&
          e.operation === "licenses.entitlementStates" &&
          /the next link of page 3 leads back to page 2: a link loop/.test(e.problem),
      );
      assert.equal(svc.requests, 3 * 3, "three pages a read, three reads");
    });
  });
});
