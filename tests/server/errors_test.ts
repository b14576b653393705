import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { api, getToken, withServer } from "../helpers/server.ts";

const COMPUTERS = "/api/sam/estate/v1/computers";

/** Assert the routes.md error body with a status, and return its message. */
function errorMessage(res: { status: number; body: unknown }, status: number): string {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = res.body as { error: { code: number; message: string } };
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.equal(body.error.code, status);
  assert.equal(typeof body.error.message, "string");
  return body.error.message;
}

describe("error answers", () => {
  it("400 for a filter, naming the column of a syntax error or the unknown field", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const syntax = await api(srv, `${COMPUTERS}?filter=${encodeURIComponent("status -eq")}`, {
        token,
      });
      assert.match(errorMessage(syntax, 400), /column 11/);
      const field = await api(
        srv,
        `${COMPUTERS}?filter=${encodeURIComponent("(hostname -eq x) -and (status -eq Active)")}`,
        { token },
      );
      assert.match(errorMessage(field, 400), /"hostname"/);
      const op = await api(
        srv,
        `${COMPUTERS}?filter=${encodeURIComponent("isVirtual -contains x")}`,
        { token },
      );
      assert.match(errorMessage(op, 400), /isVirtual/);
      const id = String(srv.store.first("Computer", {})!.id);
      const hidden = await api(
        srv,
        `${COMPUTERS}/${encodeURIComponent(id)}/hardware/harddrives?filter=${
          encodeURIComponent("kind -eq hard")
        }`,
        { token },
      );
      assert.match(errorMessage(hidden, 400), /"kind"/);
    });
  });

  it("400 for a filter where the operation takes none", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const res = await api(
        srv,
        "/api/sam/v1/licenses/entitlements/entitlement-states?filter=name%20-eq%20x",
        { token },
      );
      assert.match(errorMessage(res, 400), /filter/);
    });
  });

  it("400 for paging out of range or not an integer, naming the parameter", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const cases: [string, string][] = [
        ["page_size=0", "page_size"],
        ["page_size=1001", "page_size"],
        ["page_size=ten", "page_size"],
        ["page_number=0", "page_number"],
        ["page_number=-1", "page_number"],
        ["page_number=1.5", "page_number"],
      ];
      for (const [query, name] of cases) {
        const res = await api(srv, `${COMPUTERS}?${query}`, { token });
        assert.ok(errorMessage(res, 400).startsWith(name), query);
      }
      const ok = await api(srv, `${COMPUTERS}?page_size=1000&page_number=99`, { token });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body.items, []);
    });
  });

  it("400 for an unknown sort property, naming it", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const res = await api(srv, `${COMPUTERS}?sort=hostName:asc,bogus:desc`, { token });
      assert.match(errorMessage(res, 400), /"bogus"/);
    });
  });

  it("401 with a Bearer challenge without a token, with a bad one and once expired", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const none = await api(srv, COMPUTERS);
      errorMessage(none, 401);
      assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
      errorMessage(await api(srv, COMPUTERS, { token: "made-up" }), 401);
      const token = await getToken(srv);
      assert.equal((await api(srv, COMPUTERS, { token })).status, 200);
      srv.auth.expireAll();
      const expired = await api(srv, COMPUTERS, { token });
      assert.match(errorMessage(expired, 401), /expired/);
      const fresh = await getToken(srv);
      srv.auth.revoke(fresh);
      errorMessage(await api(srv, COMPUTERS, { token: fresh }), 401);
      assert.equal(srv.auth.issued, 2);
    });
  });

  it("tells the configured token lifetime in expires_in", async () => {
    await withServer({ computers: 5, tokenTtlSeconds: 1 }, async (srv) => {
      const res = await fetch(`${srv.url}/idp/api/connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_id=demo&client_secret=demo-secret",
      });
      assert.equal((await res.json()).expires_in, 1);
    });
  });

  it("accepts a fixed token when one is configured", async () => {
    await withServer({ computers: 5, token: "fixed-test-token" }, async (srv) => {
      assert.equal((await api(srv, COMPUTERS, { token: "fixed-test-token" })).status, 200);
    });
  });

  it("400 invalid_client for bad client credentials at the token endpoint", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      await assert.rejects(getToken(srv, { clientSecret: "nope" }), /400/);
      const res = await api(srv, "/idp/api/connect/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_id=demo&client_secret=nope",
      });
      assert.match(errorMessage(res, 400), /^invalid_client/);
      const get = await api(srv, "/idp/api/connect/token");
      errorMessage(get, 405);
      assert.equal(get.headers.get("allow"), "POST");
    });
  });

  it("404 for an unknown path, an unknown id and an unknown parent", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      errorMessage(await api(srv, "/api/sam/estate/v1/nothing-here", { token }), 404);
      errorMessage(await api(srv, "/somewhere-else"), 404);
      errorMessage(await api(srv, `${COMPUTERS}/no-such-computer`, { token }), 404);
      errorMessage(await api(srv, "/api/sam/v1/licenses/no-such-license", { token }), 404);
      const parent = await api(srv, `${COMPUTERS}/no-such-computer/logonhistory`, { token });
      assert.match(errorMessage(parent, 404), /no-such-computer/);
      const retrievals = await api(srv, "/api/cloud-cost/v1/connectors/nope/retrievals", {
        token,
      });
      errorMessage(retrievals, 404);
      // A collection without a documented parent answers an empty page instead.
      const upgrades = await api(srv, "/api/sam/v1/licenses/no-such-license/upgrades", { token });
      assert.equal(upgrades.status, 200);
      assert.deepEqual(upgrades.body.items, []);
    });
  });

  it("405 with Allow for a method a known path does not support", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const del = await api(srv, COMPUTERS, { token, method: "DELETE" });
      errorMessage(del, 405);
      assert.equal(del.headers.get("allow"), "GET, HEAD");
      const put = await api(srv, "/api/cloud-cost/v1/connectors", { token, method: "PUT" });
      errorMessage(put, 405);
      assert.deepEqual(put.headers.get("allow")?.split(", ").sort(), ["GET", "HEAD", "POST"]);
    });
  });

  it("500 on an unexpected failure without leaking a stack, and a request id on everything", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      srv.store.close();
      const res = await api(srv, COMPUTERS, { token, headers: { "x-request-id": "req-42" } });
      const message = errorMessage(res, 500);
      assert.equal(res.headers.get("x-request-id"), "req-42");
      assert.match(message, /req-42/);
      assert.doesNotMatch(message, /at |\.ts|sqlite|database/i);
      const other = await api(srv, "/nowhere");
      assert.match(other.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    });
  });
});
