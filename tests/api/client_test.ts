import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ClientOptions, createClient, type SamClient } from "../../lib/api/client.ts";
import { type ResourceName, RESOURCES } from "../../lib/api/catalogue.ts";
import { OPERATIONS, type OperationSpec } from "../../lib/api/operations.ts";
import {
  AuthError,
  BadRequestError,
  NotFoundError,
  PermissionError,
} from "../../lib/api/errors.ts";
import { and, eq, FilterSyntaxError, FilterValidationError } from "../../lib/api/filter.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { withServer } from "../helpers/server.ts";
import FakeTimers from "@sinonjs/fake-timers";

const CREDENTIALS = { clientId: "demo", clientSecret: "demo-secret" };

/** A client of a test server that records the waits it is asked for instead of waiting. */
function clientOf(srv: RunningServer, extra: Partial<ClientOptions> = {}) {
  const sleeps: number[] = [];
  const client = createClient({
    baseUrl: srv.url,
    auth: CREDENTIALS,
    sleep: (ms, signal) => {
      sleeps.push(ms);
      signal?.throwIfAborted();
      return Promise.resolve();
    },
    random: () => 0,
    ...extra,
  });
  return { client, sleeps };
}

/** The client function of an operation. */
function fn(client: SamClient, op: OperationSpec): (...args: unknown[]) => unknown {
  const [area, name] = op.id.split(".") as [keyof SamClient, string];
  return (client[area] as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
}

const pathParams = (op: OperationSpec) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** Path parameter values that select at least one row of the operation, from the store. */
function paramsFor(srv: RunningServer, op: OperationSpec): string[] | undefined {
  const r = RESOURCES[op.resource];
  if (r.table === "") return undefined;
  const names = pathParams(op);
  if (names.length === 0) return [];
  const rows =
    srv.store.query({ resource: op.resource, where: op.fixed, limit: 200, noTotal: true })
      .rows;
  for (const row of rows) {
    const values = names.map((n) => row[r.columnOf(op.scope[n]!)]);
    if (values.every((v) => v !== null && v !== undefined && v !== "")) return values.map(String);
  }
  return undefined;
}

/** Asserts every visible field of an item has its catalogue type (or null); counts types seen. */
function checkTypes(resource: ResourceName, item: unknown, seen: Map<string, number>) {
  assert.equal(typeof item, "object");
  const obj = item as Record<string, unknown>;
  assert.equal("_links" in obj, false, `${resource}: _links left unread`);
  for (const f of RESOURCES[resource].fields) {
    if (f.hidden) continue;
    const [head, tail] = f.name.split(".");
    const value = tail === undefined
      ? obj[head!]
      : (obj[head!] as Record<string, unknown> | undefined)?.[tail];
    assert.notEqual(value, undefined, `${resource}.${f.name} missing`);
    if (value === null) continue;
    const ok = f.type === "number"
      ? typeof value === "number" && Number.isFinite(value)
      : f.type === "boolean"
      ? typeof value === "boolean"
      : f.type === "date"
      ? value instanceof Date && !Number.isNaN(value.getTime())
      : f.type === "strings"
      ? Array.isArray(value)
      : typeof value === "string";
    assert.ok(ok, `${resource}.${f.name}: ${JSON.stringify(value)} is not a ${f.type}`);
    const key = f.wire ? `${f.type}/${f.wire}` : f.type;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  if (RESOURCES[resource].links !== null && obj.links !== undefined) {
    assert.ok(Array.isArray(obj.links), `${resource}: links is not an array`);
  }
}

describe("client coverage", () => {
  it("has a client function for every operation of the table", () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "unused" });
    const missing = OPERATIONS.filter((op) => typeof fn(client, op) !== "function").map((o) =>
      o.id
    );
    assert.deepEqual(missing, []);
    assert.equal(OPERATIONS.length, 118);
  });
});

describe("client against the reference server", () => {
  it("returns normalised data of the right types from every read operation", async () => {
    await withServer({ computers: 40 }, async (srv) => {
      const { client } = clientOf(srv);
      const seen = new Map<string, number>();
      const uncovered: string[] = [];
      for (const op of OPERATIONS.filter((o) => o.method === "GET")) {
        const params = paramsFor(srv, op);
        if (!params) {
          uncovered.push(op.id);
          continue;
        }
        const result = fn(client, op)(...params);
        const items = op.shape === "object" && result instanceof Promise
          ? [await result]
          : await (result as { toArray(): Promise<unknown[]> }).toArray();
        assert.ok(items.length > 0, `${op.id}(${params.join(", ")}) returned nothing`);
        for (const item of items) checkTypes(op.resource, item, seen);
      }
      assert.deepEqual(uncovered, [], "operations whose data the estate lacks");
      for (
        const kind of [
          "number",
          "number/string",
          "boolean",
          "boolean/string",
          "date",
          "date/licenseDate",
        ]
      ) {
        assert.ok((seen.get(kind) ?? 0) > 0, `no non-null ${kind} value was checked`);
      }
    });
  });

  it("reads license quirks: quantity a number, purchaseDate a Date, booleans, links", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const { client } = clientOf(srv);
      const licenses = await client.licenses.list({ pageSize: 50 }).toArray();
      const withDate = licenses.find((l) => l.purchaseDate !== null)!;
      assert.ok(withDate.purchaseDate instanceof Date);
      assert.equal(typeof licenses.find((l) => l.quantity !== null)!.quantity, "number");
      assert.ok(withDate.links?.some((l) => l.rel === "self"));
      const detail = await client.licenses.get(withDate.id!);
      assert.equal(detail.purchaseDate?.getTime(), withDate.purchaseDate?.getTime());
      assert.ok([true, false, null].includes(detail.isSubscription));
      const computers = await client.estate.computers({ pageSize: 5 }).pages().next();
      assert.ok(computers.value!.items[0]!.lastScanDate instanceof Date);
      assert.equal(computers.value!.totalItems, srv.store.count("computers"));
    });
  });

  it("renews a token that expires mid-way through a 20,000-item collection", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const before = srv.store.count("policies");
      await srv.store.bulkInsert((sink) => {
        for (let i = 0; i < 20_000; i++) sink("policies", { id: `BULK-${i}` });
      });
      let pages = 0;
      const { client } = clientOf(srv, {
        // 20,000 policies are past a reference collection's default bound (10,000 items).
        limits: { reference: { maxItems: 30_000 } },
        onEvent: (e) => {
          if (e.type === "page" && ++pages % 7 === 0) srv.auth.expireAll();
        },
      });
      const ids = (await client.licenses.policies().toArray()).map((p) => p.id);
      assert.equal(ids.length, before + 20_000);
      assert.equal(new Set(ids).size, ids.length, "every item exactly once");
      assert.ok(srv.auth.issued >= 3, `tokens issued: ${srv.auth.issued}`);
      assert.equal(client.stats.retries, srv.auth.issued - 1);
      assert.equal(client.stats.itemsFetched, ids.length);
    });
  });

  it("renews tokens whose lifetime is shorter than a paging run", async () => {
    await withServer({ computers: 30, tokenTtlSeconds: 1 }, async (srv) => {
      const { client } = clientOf(srv, { refreshMarginMs: 0 });
      srv.latencyMs = 150;
      const items = await client.estate.applications({ pageSize: 50 }).toArray();
      assert.equal(items.length, srv.store.count("computer_applications"));
      assert.ok(srv.auth.issued >= 2);
    });
  });

  it("waits out a 429 with Retry-After: 1", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      srv.faults.add({ match: "/licenses", status: 429, retryAfter: 1 });
      const events: string[] = [];
      const { client, sleeps } = clientOf(srv, { onEvent: (e) => events.push(e.type) });
      const licenses = await client.licenses.list().toArray();
      assert.equal(licenses.length, srv.store.count("licenses"));
      // The list's second read (it has no total_items) waits out what this fake sleep skipped.
      assert.deepEqual(sleeps.slice(0, 1), [1000]);
      assert.ok(sleeps.slice(1).every((ms) => ms <= 1000), `${sleeps}`);
      assert.equal(client.stats.rateLimitWaits, 1);
      assert.ok(events.includes("rateLimit"));
    });
  });

  it("waits Retry-After: 1 on the (fake) clock before asking again", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      srv.faults.add({ match: "/licenses", status: 429, retryAfter: 1 });
      const realSetTimeout = globalThis.setTimeout;
      const realDelay = (ms: number) => new Promise((r) => realSetTimeout(r, ms));
      const path = "/api/sam/v1/licenses";
      const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const client = createClient({ baseUrl: srv.url, auth: CREDENTIALS });
        const done = client.licenses.list().toArray();
        while (client.stats.rateLimitWaits === 0) await realDelay(2);
        await clock.tickAsync(999);
        await realDelay(30);
        assert.equal(srv.stats.path(path), 1, "no second request before 1000 ms");
        await clock.tickAsync(1);
        await realDelay(30);
        assert.equal(srv.stats.path(path), 2);
        await clock.tickAsync(1000); // The list's second read (no total_items) may wait too.
        const licenses = await done;
        assert.equal(licenses.length, srv.store.count("licenses"));
        assert.equal(srv.stats.path(path), 3);
      } finally {
        clock.uninstall();
      }
    });
  });

  it("waits out the server's own rate limiter and still reads everything", async () => {
    await withServer({ computers: 30, rateLimit: 5 }, async (srv) => {
      const { client, sleeps } = clientOf(srv, {
        sleep: (ms) => {
          sleeps.push(ms);
          return new Promise((r) => setTimeout(r, Math.min(ms, 1000)));
        },
      });
      const items = await client.estate.applications({ pageSize: 20, parallel: true }).toArray();
      assert.equal(items.length, srv.store.count("computer_applications"));
      // Every 429 waits its Retry-After in full; other requests also wait at the shared gate.
      assert.ok(client.stats.rateLimitWaits > 0);
      assert.ok(sleeps.filter((ms) => ms >= 1000).length >= client.stats.rateLimitWaits);
    });
  });

  it("retries a burst of 503s on a read", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      srv.faults.add({ match: "/computers", status: 503, times: 3 });
      const { client, sleeps } = clientOf(srv);
      const computers = await client.estate.computers().toArray();
      assert.equal(computers.length, 10);
      assert.equal(client.stats.retries, 3);
      assert.equal(sleeps.length, 3);
      assert.ok(sleeps[2]! > sleeps[0]!, "backoff grows");
    });
  });

  it("retries a truncated body and a reset connection on reads", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      srv.faults.add({ match: "/computers", truncate: true });
      srv.faults.add({ match: "/computers", nth: 2, reset: true });
      const { client } = clientOf(srv);
      const computers = await client.estate.computers().toArray();
      assert.equal(computers.length, 10);
      assert.equal(client.stats.retries, 2);
    });
  });

  it("aborts on 403 at once, with a clear message", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      srv.faults.add({ match: "/licenses", status: 403, times: 5 });
      const { client } = clientOf(srv);
      const e = await client.licenses.list().toArray().catch((e) => e);
      assert.ok(e instanceof PermissionError, String(e));
      assert.match(e.message, /permission/);
      assert.match(e.message, /feature/);
      assert.equal(srv.stats.path("/api/sam/v1/licenses"), 1, "no retry");
    });
  });

  it("fails on a second 401 in a row after renewing the token once", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      srv.faults.add({ match: "/computers", status: 401, times: 2 });
      const { client } = clientOf(srv);
      const e = await client.estate.computers().toArray().catch((e) => e);
      assert.ok(e instanceof AuthError, String(e));
      assert.equal(srv.stats.path("/api/sam/estate/v1/computers"), 2);
      assert.equal(srv.auth.issued, 2, "one renewal");
      assert.ok(!e.message.includes("demo-secret"));
    });
  });

  it("refuses bad client credentials with AuthError and no secret in the message", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const { client } = clientOf(srv, {
        auth: { clientId: "demo", clientSecret: "wrong-secret-value" },
      });
      const e = await client.estate.computers().toArray().catch((e) => e);
      assert.ok(e instanceof AuthError, String(e));
      assert.match(e.message, /client credentials/);
      assert.ok(!e.message.includes("wrong-secret-value"));
    });
  });

  it("rejects a malformed filter before any request is sent", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const { client } = clientOf(srv);
      await client.estate.computers().toArray(); // Warm: token fetched, counters settled.
      const before = srv.stats.total;
      assert.throws(
        () => client.estate.computers({ filter: "(status -eq Active" }),
        (e: unknown) => e instanceof FilterSyntaxError && typeof e.column === "number",
      );
      assert.throws(
        () => client.estate.computers({ filter: "isVirtual -gt 1" }),
        FilterValidationError,
      );
      assert.throws(
        () => client.licenses.list({ filter: "quantity -contains x" }),
        FilterValidationError,
      );
      assert.throws(() => client.estate.computers({ sort: "hostName:sideways" }), TypeError);
      assert.throws(
        // @ts-expect-error: only Q1 operations take a filter.
        () => client.connectors.list({ filter: "name -eq x" }),
        /does not take a filter/,
      );
      // @ts-expect-error: Q2 collections take no filter either.
      assert.throws(() => client.licenses.entitlementStates({ filter: "name -eq x" }), TypeError);
      assert.equal(srv.stats.total, before, "no request reached the server");
    });
  });

  it("sends text and built filters that the server applies", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      const { client } = clientOf(srv);
      const all = await client.estate.computers().toArray();
      const active = all.filter((c) => c.status === "Active" && c.isVirtual === true);
      const viaText = await client.estate.computers({
        filter: "(status -eq Active) -and (isVirtual -eq true)",
      }).toArray();
      const viaTree = await client.estate.computers({
        filter: and(eq("status", "Active"), eq("isVirtual", true)),
      }).toArray();
      assert.deepEqual(viaText.map((c) => c.id), active.map((c) => c.id));
      assert.deepEqual(viaTree.map((c) => c.id), active.map((c) => c.id));
      const sorted = await client.estate.computers({ sort: "hostName:desc" }).toArray();
      const names = sorted.map((c) => c.hostName ?? "");
      assert.deepEqual(names, [...names].sort().reverse());
    });
  });

  it("parallel mode yields the same items in the same order as sequential", async () => {
    await withServer({ computers: 60 }, async (srv) => {
      const { client } = clientOf(srv);
      const sequential = await client.estate.applications({ pageSize: 37 }).toArray();
      const parallel = await client.estate.applications({
        pageSize: 37,
        parallel: { concurrency: 5 },
      }).toArray();
      assert.ok(sequential.length > 37 * 5);
      assert.deepEqual(parallel, sequential);
    });
  });

  it("caps the page size at 1000", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const { client } = clientOf(srv);
      const page = await client.estate.computers({ pageSize: 5000 }).pages().next();
      assert.equal(page.value!.pageSize, 1000);
    });
  });

  it("abort cancels paging and sends nothing more", async () => {
    await withServer({ computers: 40 }, async (srv) => {
      srv.latencyMs = 40;
      const { client } = clientOf(srv);
      const c = new AbortController();
      let pages = 0;
      const p = (async () => {
        for await (
          const _ of client.estate.applications({ pageSize: 5, signal: c.signal }).pages()
        ) {
          if (++pages === 2) c.abort(new DOMException("user cancelled", "AbortError"));
        }
      })();
      await assert.rejects(p, /user cancelled/);
      const sent = srv.stats.path("/api/sam/estate/v1/computers-applications");
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(srv.stats.path("/api/sam/estate/v1/computers-applications"), sent);
      assert.ok(sent <= 3);
    });
  });

  it("reads flat collections by following next links, and a 404 as none", async () => {
    await withServer({ computers: 40 }, async (srv) => {
      const { client } = clientOf(srv);
      const states = await client.licenses.entitlementStates().toArray();
      assert.equal(states.length, srv.store.count("entitlement_states"));
      assert.ok(states.every((s) => !s.links?.some((l) => l.rel === "next")));
      const row = srv.store.query({ resource: "Monitor", limit: 1 }).rows[0]!;
      const monitors = await client.estate.monitors(String(row.computerId)).toArray();
      assert.equal(
        monitors.length,
        srv.store.query({ resource: "Monitor", where: { computerId: row.computerId }, limit: 1 })
          .total,
      );
      assert.deepEqual(await client.estate.displayAdapters("NO-SUCH-COMPUTER").toArray(), []);
    });
  });

  it("encodes path parameters and reports a 404 for an unknown object", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const { client } = clientOf(srv);
      const e = await client.estate.computer("a/b c").catch((e) => e);
      assert.ok(e instanceof NotFoundError);
      assert.equal(srv.stats.path("/api/sam/estate/v1/computers/a%2Fb%20c"), 1);
    });
  });

  it("reads the registry under either prefix spelling", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const a = await clientOf(srv).client.registry.applications().toArray();
      const b = await clientOf(srv, { registryPrefix: "software-registry" }).client.registry
        .applications().toArray();
      assert.ok(a.length > 0);
      assert.deepEqual(b, a);
    });
  });

  it("adds, validates, tests and updates connectors, never echoing secrets", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const { client } = clientOf(srv);
      const details = {
        bucketName: "cost-bucket",
        reportPrefix: "cur/",
        reportName: "client-test-report",
        region: "eu-1",
        accessKey: "AKIA-CLIENT-TEST",
        secretKey: "SECRET-CLIENT-TEST",
      };
      assert.deepEqual(
        await client.connectors.validateReportName({
          type: "ProviderAStore",
          name: "client-test-report",
        }),
        { unique: true },
      );
      const tested = await client.connectors.test({
        type: "ProviderAStore",
        connectionDetails: details,
      });
      assert.equal(typeof tested.status.code, "string");
      const added = await client.connectors.add({
        type: "ProviderAStore",
        connectionDetails: details,
      });
      assert.ok(added.createdAt instanceof Date);
      assert.equal(JSON.stringify(added).includes("SECRET-CLIENT-TEST"), false);
      assert.deepEqual(
        await client.connectors.validateReportName({
          type: "ProviderAStore",
          name: "client-test-report",
        }),
        { unique: false },
      );
      const updated = await client.connectors.updateCredentials(added.id!, {
        accessKey: "AKIA-NEW",
        secretKey: "SECRET-NEW-VALUE",
      });
      assert.equal(updated.id, added.id);
      assert.ok(updated.status.updatedAt instanceof Date);
      const listed = await client.connectors.list().toArray();
      assert.ok(listed.some((c) => c.id === added.id));
      assert.ok(Array.isArray(await client.connectors.retrievals(added.id!).toArray()));

      const bad = await client.connectors.add({
        type: "ProviderAStore",
        connectionDetails: { ...details, bucketName: "" },
      }).catch((e) => e);
      assert.ok(bad instanceof BadRequestError, String(bad));
      assert.ok(!bad.message.includes("SECRET-CLIENT-TEST"));
      assert.ok(!bad.message.includes("AKIA-CLIENT-TEST"));
    });
  });

  it("never retries a connector write on 503", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      srv.faults.add({ match: "/connectors", status: 503, times: 3 });
      const { client } = clientOf(srv);
      const e = await client.connectors.add({
        type: "ProviderAStore",
        connectionDetails: {
          bucketName: "b",
          reportPrefix: "p",
          reportName: "r-503",
          region: "eu",
          accessKey: "AK-503",
          secretKey: "SK-503",
        },
      }).catch((e) => e);
      assert.equal(e?.status, 503);
      assert.equal(srv.stats.path("/api/cloud-cost/v1/connectors"), 1);
    });
  });

  it("counts requests, items and bytes, and names its source", async () => {
    await withServer({ computers: 12 }, async (srv) => {
      const { client } = clientOf(srv);
      const items = await client.estate.computers({ pageSize: 5 }).toArray();
      assert.equal(client.source, srv.url);
      assert.equal(client.stats.itemsFetched, items.length);
      assert.equal(client.stats.requests, 1 + 3, "one token request and three pages");
      assert.ok(client.stats.bytes > 0);
    });
  });
});
