import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import { ShapeError } from "../../lib/api/errors.ts";
import { type HostileServer, serveHostile } from "../helpers/hostile_http.ts";

const TOKEN = "tok-one-origin-0123456789";
const STATES = "/api/sam/v1/licenses/entitlements/entitlement-states";
const OP = "licenses.entitlementStates";

/** A flat collection's first object, its `next` link spelt `href`. */
const firstState = (href: string) =>
  Response.json({
    id: "S1",
    name: "Active",
    _links: [{ href, method: "GET", rel: "next" }],
  });

/** Runs `fn` with the "other origin" (counting its hits) and the API whose answers `api` gives. */
async function withOrigins(
  api: (other: HostileServer, req: Request, url: URL) => Response | Promise<Response>,
  fn: (base: HostileServer, other: HostileServer) => Promise<void>,
) {
  const other = serveHostile(() => Response.json({ id: "S9", name: "Stolen", _links: [] }));
  const base = serveHostile((req, url) => api(other, req, url));
  try {
    await fn(base, other);
  } finally {
    await Promise.all([base.close(), other.close()]);
  }
}

const client = (baseUrl: string, extra: Record<string, unknown> = {}) =>
  createClient({ baseUrl, token: TOKEN, env: () => undefined, retries: 2, ...extra });

/** Asserts a refusal: a ShapeError naming the operation and the origin, never the token. */
function assertRefused(error: unknown, what: string) {
  assert.ok(error instanceof ShapeError, `${what}: ${error}`);
  assert.match(error.message, new RegExp(`^${OP.replace(".", "\\.")} `), what);
  assert.match(error.message, /another origin/, what);
  assert.ok(!error.message.includes(TOKEN), what);
  assert.ok(!error.message.includes("\n"), what);
}

describe("one origin: links", () => {
  it("refuses a next link the URL parser resolves to another origin; nothing reaches it", async () => {
    const spellings = (port: number, basePort: number) => [
      `\\\\127.0.0.1:${port}/x`,
      `/\\127.0.0.1:${port}/x`,
      `\\/127.0.0.1:${port}/x`,
      `\t//127.0.0.1:${port}/x`,
      `http:\\\\127.0.0.1:${port}/x`,
      `HTTP://127.0.0.1:${port}/x`,
      `http://127.0.0.1:${basePort}@127.0.0.1:${port}/x`,
      `http://localhost:${port}/x`,
    ];
    let href = "";
    await withOrigins(
      (_other, _req, url) =>
        url.pathname === STATES ? firstState(href) : new Response(null, { status: 404 }),
      async (base, other) => {
        for (const spelt of spellings(other.port, base.port)) {
          href = spelt;
          const error = await client(base.url).licenses.entitlementStates().toArray().then(
            () => undefined,
            (e) => e,
          );
          assertRefused(error, JSON.stringify(spelt));
          assert.equal(other.hits.length, 0, `${JSON.stringify(spelt)} reached the other origin`);
        }
      },
    );
  });

  it("never downgrades an https base to http on the same host", async () => {
    const calls: string[] = [];
    const fetch = ((input: URL | string) => {
      const url = new URL(String(input));
      calls.push(url.href);
      return Promise.resolve(
        url.protocol === "https:"
          ? Response.json({
            id: "S1",
            _links: [{ href: "http:api.test/x", method: "GET", rel: "next" }],
          })
          : Response.json({ id: "S2", _links: [] }),
      );
    }) as typeof globalThis.fetch;
    const error = await client("https://api.test", { fetch }).licenses.entitlementStates()
      .toArray().then(() => undefined, (e) => e);
    assertRefused(error, "http: on an https base");
    assert.deepEqual(calls.filter((c) => c.startsWith("http:")), []);
  });

  it("still follows links of its own origin, spelt any way the parser agrees on", async () => {
    await withOrigins(
      (_other, _req, url) => {
        if (url.pathname !== STATES) return new Response(null, { status: 404 });
        const second = url.searchParams.get("page_number") === "2";
        const next = second ? [] : [{
          href: `HTTP://127.0.0.1:${url.port}${STATES}?page_number=2`,
          method: "GET",
          rel: "next",
        }];
        return Response.json({ id: second ? "S2" : "S1", name: "x", _links: next });
      },
      async (base, other) => {
        const states = await client(base.url).licenses.entitlementStates().toArray();
        assert.deepEqual(states.map((s) => s.id), ["S1", "S2"]);
        assert.equal(other.hits.length, 0);
        assert.ok(base.hits.every((h) => h.authorization === `Bearer ${TOKEN}`));
      },
    );
  });
});

describe("one origin: redirects", () => {
  it("refuses a redirect to another origin, without following or retrying it", async () => {
    for (const spelt of ["http://127.0.0.1:PORT/x", "//127.0.0.1:PORT/x", "/\\127.0.0.1:PORT/x"]) {
      await withOrigins(
        (other) =>
          new Response(null, {
            status: 302,
            headers: { location: spelt.replace("PORT", String(other.port)) },
          }),
        async (base, other) => {
          const error = await client(base.url).licenses.entitlementStates().toArray().then(
            () => undefined,
            (e) => e,
          );
          assertRefused(error, `redirect to ${spelt}`);
          assert.match(error.message, /redirect/);
          assert.equal(other.hits.length, 0, `${spelt}: the redirect was followed`);
          assert.equal(base.hits.length, 1, `${spelt}: the refused redirect was retried`);
        },
      );
    }
  });

  it("follows a redirect within the base origin, token and all", async () => {
    await withOrigins(
      (_other, _req, url) =>
        url.pathname === STATES
          ? new Response(null, { status: 301, headers: { location: "/moved/states" } })
          : url.pathname === "/moved/states"
          ? Response.json({ id: "S1", name: "Active", _links: [] })
          : new Response(null, { status: 404 }),
      async (base, other) => {
        const states = await client(base.url).licenses.entitlementStates().toArray();
        assert.deepEqual(states.map((s) => s.id), ["S1"]);
        assert.deepEqual(base.hits.slice(0, 2).map((h) => h.path.split("?")[0]), [
          STATES,
          "/moved/states",
        ]);
        assert.ok(base.hits.every((h) => h.authorization === `Bearer ${TOKEN}`));
        assert.equal(other.hits.length, 0);
      },
    );
  });

  it("gives up on a redirect loop after a bounded number of hops", async () => {
    await withOrigins(
      (_other, _req, url) =>
        new Response(null, { status: 307, headers: { location: `${url.pathname}?again` } }),
      async (base) => {
        const error = await client(base.url).licenses.entitlementStates().toArray().then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof ShapeError, String(error));
        assert.match(error.message, /^licenses\.entitlementStates .*redirect/);
        assert.ok(base.hits.length <= 11, `${base.hits.length} requests`);
      },
    );
  });
});

describe("one origin: the token endpoint", () => {
  it("posts to a token endpoint on its own configured origin, and never follows a link there", async () => {
    const idp = serveHostile(() =>
      Response.json({ access_token: TOKEN, token_type: "Bearer", expires_in: 3600 })
    );
    let href = `${STATES}?page_number=2`;
    const api = serveHostile((req, url) => {
      if (req.headers.get("authorization") !== `Bearer ${TOKEN}`) {
        return Response.json({ error: { code: 401, message: "no" } }, { status: 401 });
      }
      return url.searchParams.get("page_number") === "2"
        ? Response.json({ id: "S2", name: "b", _links: [] })
        : firstState(href);
    });
    try {
      const c = () =>
        createClient({
          baseUrl: api.url,
          clientId: "reports",
          clientSecret: "secret-0123456789",
          tokenUrl: `${idp.url}/idp/api/connect/token`,
          env: () => undefined,
        });
      const states = await c().licenses.entitlementStates().toArray();
      assert.deepEqual(states.map((s) => s.id), ["S1", "S2"]);
      assert.deepEqual(idp.hits.map((h) => [h.method, h.authorization]), [["POST", null]]);

      href = `${idp.url}/idp/api/connect/token`;
      const error = await c().licenses.entitlementStates().toArray().then(
        () => undefined,
        (e) => e,
      );
      assertRefused(error, "a next link to the token endpoint's origin");
      assert.ok(idp.hits.every((h) => h.method === "POST" && h.authorization === null));
    } finally {
      await Promise.all([idp.close(), api.close()]);
    }
  });
});
