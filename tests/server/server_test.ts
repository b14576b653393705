import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "../../lib/server/server.ts";
import { EstateStore } from "../../lib/server/store.ts";
import { api, getToken, withServer } from "../helpers/server.ts";

const COMPUTERS = "/api/sam/estate/v1/computers";
const LICENSES = "/api/sam/v1/licenses";

describe("fault plan over HTTP", () => {
  it("answers a planned status with Retry-After on the Nth matching request only", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      const token = await getToken(srv);
      srv.faults.add({ match: "/computers", nth: 2, times: 2, status: 503, retryAfter: 7 });
      const statuses: number[] = [];
      for (const path of [COMPUTERS, LICENSES, COMPUTERS, COMPUTERS, COMPUTERS]) {
        const res = await api(srv, path, { token });
        statuses.push(res.status);
        if (res.status === 503) {
          assert.equal(res.headers.get("retry-after"), "7");
          assert.equal(res.body.error.code, 503);
        }
      }
      assert.deepEqual(statuses, [200, 200, 503, 503, 200]);
    });
  });

  it("drops the connection mid-body on reset", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      const token = await getToken(srv);
      srv.faults.add({ match: /\/computers$/, reset: true });
      await assert.rejects(async () => {
        const res = await fetch(srv.url + COMPUTERS, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.json();
      });
      assert.equal((await api(srv, COMPUTERS, { token })).status, 200);
    });
  });

  it("sends a truncated JSON body with 200 on truncate", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      const token = await getToken(srv);
      srv.faults.add({ match: COMPUTERS, truncate: true });
      const res = await fetch(srv.url + COMPUTERS, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.ok(text.startsWith('{"items":['));
      assert.throws(() => JSON.parse(text), SyntaxError);
    });
  });

  it("can fail the token endpoint and then serve it again", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      srv.faults.add({ match: "/idp/", status: 500 });
      await assert.rejects(getToken(srv), /500/);
      assert.ok((await getToken(srv)).length > 0);
      assert.equal(srv.auth.issued, 1);
    });
  });

  it("delays without failing when only delayMs is planned", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const handle = srv.faults.add({ delayMs: 20 });
      assert.equal((await api(srv, COMPUTERS, { token })).status, 200);
      assert.equal(handle.fired, 1);
    });
  });
});

describe("rate limit and counters", () => {
  it("answers 429 with whole-second Retry-After above the limit, token endpoint included", async () => {
    await withServer({ computers: 5, rateLimit: 3, token: "fixed" }, async (srv) => {
      const responses = await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) =>
            i % 2 ? api(srv, COMPUTERS, { token: "fixed" }) : api(srv, "/idp/api/connect/token", {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: "grant_type=client_credentials&client_id=demo&client_secret=demo-secret",
            }),
        ),
      );
      const limited = responses.filter((r) => r.status === 429);
      // 12 requests land in at most two one-second windows of 3.
      assert.ok(limited.length >= 6, `429s: ${limited.length}`);
      for (const r of limited) {
        assert.match(r.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
        assert.equal(r.body.error.code, 429);
      }
      assert.equal(srv.stats.rateLimited, limited.length);
      assert.equal(srv.stats.total, 12);
    });
  });

  it("counts requests per path, operation and status", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      srv.stats.reset();
      await api(srv, COMPUTERS, { token });
      await api(srv, `${COMPUTERS}?page_number=2`, { token });
      await api(srv, LICENSES, { token });
      await api(srv, "/api/sam/v1/nothing", { token });
      assert.equal(srv.stats.total, 4);
      assert.equal(srv.stats.path(COMPUTERS), 2);
      assert.equal(srv.stats.operation("estate.computers"), 2);
      assert.equal(srv.stats.operation("licenses.list"), 1);
      assert.equal(srv.stats.byStatus.get(200), 3);
      assert.equal(srv.stats.byStatus.get(404), 1);
    });
  });

  it("still answers correctly with latency added", async () => {
    await withServer({ computers: 5, latencyMs: 5 }, async (srv) => {
      const token = await getToken(srv);
      assert.equal((await api(srv, COMPUTERS, { token })).status, 200);
      srv.latencyMs = 0;
      assert.equal(srv.latencyMs, 0);
    });
  });
});

describe("startServer", () => {
  it("serves a given store without generating or closing it", async () => {
    const store = new EstateStore();
    store.insert("computers", { id: "only-one", hostName: "solo" });
    const srv = await startServer({ store, quiet: true });
    try {
      const token = await getToken(srv);
      const res = await api(srv, COMPUTERS, { token });
      assert.deepEqual(res.body.items.map((c: { id: string }) => c.id), ["only-one"]);
    } finally {
      await srv.close();
    }
    assert.equal(store.count("computers"), 1, "the store is still open");
    store.close();
  });

  it("keeps an estate in a db file and reuses it on the next start", async () => {
    const db = `/tmp/samkit_server_${crypto.randomUUID()}.db`;
    try {
      const first = await startServer({ db, computers: 12, seed: 3, quiet: true });
      const ids = first.store.query({ resource: "Computer", limit: 100 }).rows.map((r) => r.id);
      await first.close();
      const second = await startServer({ db, computers: 99, seed: 4, quiet: true });
      try {
        assert.equal(second.store.count("computers"), 12);
        const again = second.store.query({ resource: "Computer", limit: 100 }).rows.map((r) =>
          r.id
        );
        assert.deepEqual(again, ids);
      } finally {
        await second.close();
      }
    } finally {
      for (const suffix of ["", "-wal", "-shm"]) {
        try {
          Deno.removeSync(db + suffix);
        } catch { /* not there */ }
      }
    }
  });

  it("generates the same estate for the same seed", async () => {
    const ids = async (seed: number) => {
      const srv = await startServer({ computers: 15, seed, quiet: true });
      try {
        const token = await getToken(srv);
        return (await api(srv, `${COMPUTERS}?page_size=100`, { token })).body.items;
      } finally {
        await srv.close();
      }
    };
    assert.deepEqual(await ids(7), await ids(7));
  });

  it("stops when its signal is aborted", async () => {
    const stop = new AbortController();
    const srv = await startServer({ computers: 5, signal: stop.signal, quiet: true });
    const url = srv.url;
    stop.abort();
    await srv.close();
    await assert.rejects(fetch(url + COMPUTERS));
  });
});
