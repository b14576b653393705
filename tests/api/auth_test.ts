import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { clientCredentials, createAuth, staticToken } from "../../lib/api/auth.ts";
import { createRequest } from "../../lib/api/request.ts";
import { AuthError } from "../../lib/api/errors.ts";
import { TOKEN_PATH } from "../../lib/api/operations.ts";

/** A fake API: a token endpoint issuing numbered tokens, and /api/x that checks them. */
function fakeApi(
  options: { ttl?: number; accept?: (token: string) => boolean; tokenStatus?: number } = {},
) {
  const forms: URLSearchParams[] = [];
  const seen: string[] = [];
  let issued = 0;
  const fetch = (async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input));
    if (url.pathname === TOKEN_PATH) {
      assert.equal(
        new Headers(init.headers).get("content-type"),
        "application/x-www-form-urlencoded",
      );
      forms.push(new URLSearchParams(String(init.body)));
      await new Promise((r) => setTimeout(r, 5));
      if (options.tokenStatus) {
        return Response.json({
          error: {
            code: options.tokenStatus,
            message: "invalid_client: client authentication failed.",
          },
        }, { status: options.tokenStatus });
      }
      issued++;
      return Response.json({
        access_token: `tok-${issued}`,
        token_type: "Bearer",
        expires_in: options.ttl ?? 3600,
      });
    }
    const token = new Headers(init.headers).get("authorization")?.replace(/^Bearer /, "") ?? "";
    seen.push(token);
    if (options.accept && !options.accept(token)) {
      return Response.json({ error: { code: 401, message: "expired" } }, { status: 401 });
    }
    return Response.json({ ok: token });
  }) as typeof globalThis.fetch;
  return { fetch, forms, seen, issued: () => issued };
}

describe("clientCredentials", () => {
  it("posts a client-credentials form and sends the token it gets", async () => {
    const api = fakeApi();
    const request = createRequest({
      baseUrl: "http://api.test",
      fetch: api.fetch,
      auth: clientCredentials({ clientId: "reports", clientSecret: "s3cr3t-value" }),
    });
    const res = await request({ path: "/api/x" });
    assert.deepEqual(res.body, { ok: "tok-1" });
    assert.equal(api.forms[0]!.get("grant_type"), "client_credentials");
    assert.equal(api.forms[0]!.get("client_id"), "reports");
    assert.equal(api.forms[0]!.get("client_secret"), "s3cr3t-value");
  });

  it("shares one token fetch between concurrent requests and caches the token", async () => {
    const api = fakeApi();
    const request = createRequest({
      baseUrl: "http://api.test",
      fetch: api.fetch,
      auth: clientCredentials({ clientId: "c", clientSecret: "s3cr3t-value" }),
    });
    await Promise.all(Array.from({ length: 10 }, () => request({ path: "/api/x" })));
    await request({ path: "/api/x" });
    assert.equal(api.issued(), 1);
    assert.deepEqual(new Set(api.seen), new Set(["tok-1"]));
  });

  it("renews the token shortly before expires_in runs out", async () => {
    const api = fakeApi({ ttl: 600 });
    let now = 0;
    const request = createRequest({
      baseUrl: "http://api.test",
      fetch: api.fetch,
      auth: clientCredentials({
        clientId: "c",
        clientSecret: "s3cr3t-value",
        refreshMarginMs: 60_000,
        now: () => now,
      }),
    });
    await request({ path: "/api/x" });
    now = 539_000;
    await request({ path: "/api/x" });
    assert.equal(api.issued(), 1, "still fresh 61 s before expiry");
    now = 541_000;
    await request({ path: "/api/x" });
    assert.equal(api.issued(), 2, "renewed inside the margin");
  });

  it("gets a new token after a 401 and retries once", async () => {
    const api = fakeApi({ accept: (t) => t !== "tok-1" });
    const request = createRequest({
      baseUrl: "http://api.test",
      fetch: api.fetch,
      auth: clientCredentials({ clientId: "c", clientSecret: "s3cr3t-value" }),
    });
    const res = await request({ path: "/api/x" });
    assert.deepEqual(res.body, { ok: "tok-2" });
    assert.deepEqual(api.seen, ["tok-1", "tok-2"]);
    assert.equal(request.stats.retries, 1);
  });

  it("fails bad credentials with AuthError naming the client, never the secret", async () => {
    const api = fakeApi({ tokenStatus: 400 });
    const request = createRequest({
      baseUrl: "http://api.test",
      fetch: api.fetch,
      auth: clientCredentials({ clientId: "reports", clientSecret: "s3cr3t-value" }),
    });
    const e = await request({ path: "/api/x" }).catch((e) => e);
    assert.ok(e instanceof AuthError, String(e));
    assert.match(e.message, /refused the client credentials of client "reports"/);
    assert.match(e.message, /invalid_client/);
    assert.ok(!e.message.includes("s3cr3t-value"));
    assert.equal(api.seen.length, 0, "no API call without a token");
  });
});

describe("createAuth", () => {
  it("picks the source from options, then from the environment", () => {
    assert.equal(createAuth({ clientId: "a", clientSecret: "b" }).kind, "clientCredentials");
    assert.equal(createAuth({ token: "t" }).kind, "static");
    assert.equal(createAuth({ tokenProvider: () => Promise.resolve("t") }).kind, "provider");
    const auth = staticToken("x1234");
    assert.equal(createAuth(auth), auth);
    const env = (vars: Record<string, string>) => (n: string) => vars[n];
    assert.equal(
      createAuth(undefined, env({ SAM_CLIENT_ID: "a", SAM_CLIENT_SECRET: "b" })).kind,
      "clientCredentials",
    );
    assert.equal(createAuth(undefined, env({ SAM_TOKEN: "t" })).kind, "static");
    assert.equal(createAuth(undefined, env({})).kind, "none");
  });

  it("keeps its secrets for redaction", () => {
    assert.deepEqual(clientCredentials({ clientId: "a", clientSecret: "b-secret" }).secrets, [
      "b-secret",
    ]);
  });
});
