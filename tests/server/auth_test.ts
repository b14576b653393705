import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TokenAuthority } from "../../lib/server/auth.ts";
import { HttpError } from "../../lib/server/serialize.ts";

const form = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://x/idp/api/connect/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });

/** The status and message of what a call throws, or "ok". */
function outcome(fn: () => void): string {
  try {
    fn();
    return "ok";
  } catch (e) {
    return e instanceof HttpError ? `${e.status} ${e.message}` : String(e);
  }
}

describe("TokenAuthority", () => {
  it("issues a random bearer token for good client credentials", async () => {
    const auth = new TokenAuthority({ tokenTtlSeconds: 120 });
    const body = "grant_type=client_credentials&client_id=demo&client_secret=demo-secret";
    const a = await (await auth.handleTokenRequest(form(body))).json();
    const b = await (await auth.handleTokenRequest(form(body))).json();
    assert.equal(a.token_type, "Bearer");
    assert.equal(a.expires_in, 120);
    assert.ok(a.access_token.length >= 40);
    assert.notEqual(a.access_token, b.access_token);
    assert.equal(auth.issued, 2);
    assert.equal(outcome(() => auth.verify(`Bearer ${a.access_token}`)), "ok");
    assert.equal(outcome(() => auth.verify(`bearer ${b.access_token}`)), "ok");
  });

  it("accepts HTTP Basic client credentials", async () => {
    const auth = new TokenAuthority({ clientId: "me", clientSecret: "p:w" });
    const res = await auth.handleTokenRequest(
      form("grant_type=client_credentials", { authorization: `Basic ${btoa("me:p%3Aw")}` }),
    );
    assert.equal(res.status, 200);
  });

  it("refuses bad credentials and grants with 400 without echoing the secret", async () => {
    const auth = new TokenAuthority();
    const cases: [string, RegExp][] = [
      ["grant_type=client_credentials&client_id=demo&client_secret=wrong-s3cret", /invalid_client/],
      ["grant_type=client_credentials&client_id=other&client_secret=demo-secret", /invalid_client/],
      ["grant_type=client_credentials", /invalid_client/],
      ["grant_type=password&client_id=demo&client_secret=demo-secret", /unsupported_grant_type/],
      ["client_id=demo&client_secret=demo-secret", /grant_type is required/],
    ];
    for (const [body, message] of cases) {
      await assert.rejects(auth.handleTokenRequest(form(body)), (e) => {
        assert.ok(e instanceof HttpError);
        assert.equal(e.status, 400);
        assert.match(e.message, message);
        assert.ok(!e.message.includes("wrong-s3cret"));
        return true;
      });
    }
    assert.equal(auth.issued, 0);
  });

  it("answers 401 with a Bearer challenge for missing, unknown, revoked and expired tokens", () => {
    let now = 1_000_000;
    const auth = new TokenAuthority({ tokenTtlSeconds: 60, now: () => now });
    const t1 = auth.issue().access_token;
    const t2 = auth.issue().access_token;
    assert.match(outcome(() => auth.verify(null)), /^401 A bearer token is required/);
    assert.match(outcome(() => auth.verify("Basic abc")), /^401/);
    assert.match(outcome(() => auth.verify("Bearer nope")), /^401 The token is invalid/);
    assert.equal(auth.revoke(t1), true);
    assert.match(outcome(() => auth.verify(`Bearer ${t1}`)), /^401 The token is invalid/);
    now += 59_999;
    assert.equal(outcome(() => auth.verify(`Bearer ${t2}`)), "ok");
    now += 1;
    assert.match(outcome(() => auth.verify(`Bearer ${t2}`)), /^401 The token has expired/);
    try {
      auth.verify(null);
    } catch (e) {
      assert.ok(e instanceof HttpError);
      assert.match(e.headers["www-authenticate"], /^Bearer/);
    }
    assert.equal(auth.rejected, 6);
  });

  it("expires every issued token at once but keeps the fixed token valid", () => {
    const auth = new TokenAuthority({ token: "fixed-token" });
    const t = auth.issue().access_token;
    auth.expireAll();
    assert.equal(auth.active, 0);
    assert.match(outcome(() => auth.verify(`Bearer ${t}`)), /^401 The token has expired/);
    assert.equal(outcome(() => auth.verify("Bearer fixed-token")), "ok");
  });
});
