import { describe, it } from "node:test";
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { createRequest, type RequestOptions } from "../../lib/api/request.ts";
import { staticToken, tokenProvider } from "../../lib/api/auth.ts";
import {
  ApiError,
  AuthError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
} from "../../lib/api/errors.ts";

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

/** A fetch that answers from a script, one handler per call (the last one repeats). */
function scripted(...handlers: Handler[]) {
  const calls: { url: URL; init: RequestInit }[] = [];
  const fetch = ((input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push({ url, init });
    const h = handlers[Math.min(calls.length - 1, handlers.length - 1)]!;
    return Promise.resolve(h(url, init));
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => () =>
  Response.json(body, { status, headers });
const error = (status: number, message: string, headers: Record<string, string> = {}) =>
  json({ error: { code: status, message } }, status, headers);

function setup(fetch: typeof globalThis.fetch, extra: Partial<RequestOptions> = {}) {
  const sleeps: number[] = [];
  const request = createRequest({
    baseUrl: "http://api.test",
    auth: staticToken("static-token-123"),
    fetch,
    sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
    random: () => 0,
    ...extra,
  });
  return { request, sleeps };
}

describe("request", () => {
  it("sends the bearer token, JSON accept header and query, and parses the body", async () => {
    const { fetch, calls } = scripted(json({ items: [1] }));
    const { request } = setup(fetch);
    const res = await request({ path: "/api/x", query: { page_size: 5, skip: undefined } });
    assert.deepEqual(res.body, { items: [1] });
    const headers = new Headers(calls[0]!.init.headers);
    assert.equal(headers.get("authorization"), "Bearer static-token-123");
    assert.equal(headers.get("accept"), "application/json");
    assert.equal(calls[0]!.url.href, "http://api.test/api/x?page_size=5");
    assert.equal(request.stats.requests, 1);
    assert.ok(request.stats.bytes > 0);
  });

  it("resolves link hrefs with or without a leading slash against the base URL", async () => {
    const { fetch, calls } = scripted(json({}));
    const { request } = setup(fetch, { baseUrl: "http://api.test/tenant" });
    await request({ path: "api/sam/v1/licenses?page_number=2" });
    await request({ path: "/api/sam/v1/licenses" });
    assert.equal(calls[0]!.url.href, "http://api.test/tenant/api/sam/v1/licenses?page_number=2");
    assert.equal(calls[1]!.url.href, "http://api.test/tenant/api/sam/v1/licenses");
  });

  it("refuses to send the token to another origin", async () => {
    const { fetch, calls } = scripted(json({}));
    const { request } = setup(fetch);
    await assert.rejects(request({ path: "https://evil.test/api/x" }), /another origin/);
    assert.equal(calls.length, 0);
  });

  it("maps statuses to named errors with the body's message and the request id", async () => {
    const cases: [number, new (...a: never[]) => ApiError][] = [
      [400, BadRequestError],
      [404, NotFoundError],
      [409, ConflictError],
      [405, ApiError],
    ];
    for (const [status, cls] of cases) {
      const { fetch } = scripted(error(status, `nope ${status}`, { "x-request-id": "rid-7" }));
      const { request } = setup(fetch);
      const e = await request({ path: "/api/x", query: { filter: "secret" } }).catch((e) => e);
      assert.ok(e instanceof cls, `${status} → ${e?.name}`);
      assert.equal(e.status, status);
      assert.equal(e.path, "/api/x", "no query string in the path");
      assert.equal(e.requestId, "rid-7");
      assert.equal(e.code, status);
      assert.match(e.message, new RegExp(`GET /api/x → ${status}: nope ${status}`));
    }
  });

  it("waits the HTTP-date Retry-After of a 429 through the injected sleep", async () => {
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    const { fetch, calls } = scripted(
      error(429, "slow down", { "retry-after": "Wed, 21 Oct 2015 07:28:07 GMT" }),
      json({ ok: true }),
    );
    const { request, sleeps } = setup(fetch, { now: () => now });
    const res = await request({ path: "/api/x" });
    assert.deepEqual(res.body, { ok: true });
    assert.deepEqual(sleeps, [7000]);
    assert.equal(calls.length, 2);
    assert.equal(request.stats.rateLimitWaits, 1);
  });

  it("holds every request of the client at a Retry-After one of them received", async () => {
    const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let answered429 = 0;
      const fetched: string[] = [];
      const fetch = ((input: URL | string) => {
        const path = new URL(String(input)).pathname;
        fetched.push(path);
        if (path === "/api/a" && answered429 === 0) {
          answered429++;
          return Promise.resolve(error(429, "slow down", { "retry-after": "2" })());
        }
        return Promise.resolve(json({ path })());
      }) as typeof globalThis.fetch;
      const request = createRequest({
        baseUrl: "http://api.test",
        auth: staticToken("static-token-123"),
        fetch,
        timeoutMs: 0,
        monotonic: () => clock.now,
      });
      const a = request({ path: "/api/a" });
      await clock.tickAsync(0); // a's 429 arrives and closes the gate for 2 s
      const b = request({ path: "/api/b" });
      await clock.tickAsync(1999);
      assert.deepEqual(fetched, ["/api/a"], "b waits at the gate instead of asking");
      await clock.tickAsync(1);
      assert.deepEqual((await a).body, { path: "/api/a" });
      assert.deepEqual((await b).body, { path: "/api/b" });
      assert.deepEqual(fetched.sort(), ["/api/a", "/api/a", "/api/b"]);
      assert.equal(answered429, 1);
      assert.equal(request.stats.rateLimitWaits, 1, "only a met the 429");
    } finally {
      clock.uninstall();
    }
  });

  it("gives up on 429 after maxRateLimitWaits with RateLimitError", async () => {
    const { fetch, calls } = scripted(error(429, "slow down", { "retry-after": "1" }));
    const { request, sleeps } = setup(fetch, { maxRateLimitWaits: 3 });
    const e = await request({ path: "/api/x" }).catch((e) => e);
    assert.ok(e instanceof RateLimitError);
    assert.equal(e.waits, 3);
    assert.deepEqual(sleeps, [1000, 1000, 1000]);
    assert.equal(calls.length, 4);
  });

  it("times out an attempt on the fake clock and retries the read", async () => {
    const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let n = 0;
      const fetch = ((_u: URL, init: RequestInit) => {
        n++;
        if (n === 1) {
          return new Promise<Response>((_, reject) =>
            init.signal!.addEventListener("abort", () => reject(init.signal!.reason))
          );
        }
        return Promise.resolve(Response.json({ ok: n }));
      }) as unknown as typeof globalThis.fetch;
      const { request, sleeps } = setup(fetch, { timeoutMs: 5000 });
      const p = request({ path: "/api/x" });
      await clock.tickAsync(5000);
      const res = await p;
      assert.deepEqual(res.body, { ok: 2 });
      assert.equal(sleeps.length, 1, "one backoff before the retry");
      assert.equal(clock.countTimers(), 0, "no time-out timer left behind");
    } finally {
      clock.uninstall();
    }
  });

  it("reports a time-out after the retries as a NetworkError that says so", async () => {
    const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const fetch = ((_u: URL, init: RequestInit) =>
        new Promise<Response>((_, reject) =>
          init.signal!.addEventListener("abort", () =>
            reject(init.signal!.reason))
        )) as unknown as typeof globalThis.fetch;
      const { request } = setup(fetch, { timeoutMs: 100, retries: 1 });
      const p = request({ path: "/api/x" }).catch((e) => e);
      await clock.tickAsync(250);
      const e = await p;
      assert.ok(e instanceof NetworkError);
      assert.equal(e.timedOut, true);
      assert.match(e.message, /timed out after 100 ms/);
    } finally {
      clock.uninstall();
    }
  });

  it("treats invalid JSON in a 200 as a network failure and retries the read", async () => {
    const { fetch, calls } = scripted(() => new Response('{"items": [', { status: 200 }), json({}));
    const { request } = setup(fetch);
    await request({ path: "/api/x" });
    assert.equal(calls.length, 2);
    assert.equal(request.stats.retries, 1);
  });

  it("never retries a POST on 503", async () => {
    const { fetch, calls } = scripted(error(503, "busy"), json({}));
    const { request } = setup(fetch);
    const e = await request({ method: "POST", path: "/api/x", body: { a: 1 } }).catch((e) => e);
    assert.ok(e instanceof ServerError);
    assert.match(e.message, /not idempotent/);
    assert.equal(calls.length, 1);
  });

  it("aborts a pending 429 wait and sends nothing more", async () => {
    const { fetch, calls } = scripted(error(429, "slow", { "retry-after": "30" }), json({}));
    const c = new AbortController();
    const request = createRequest({
      baseUrl: "http://api.test",
      fetch,
      sleep: (_ms, signal) =>
        new Promise((_, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason));
          queueMicrotask(() => c.abort(new DOMException("cancelled", "AbortError")));
        }),
    });
    await assert.rejects(request({ path: "/api/x", signal: c.signal }), /cancelled/);
    assert.equal(calls.length, 1);
  });

  it("fails 403 at once with a message naming the missing permission or feature", async () => {
    const { fetch, calls } = scripted(error(403, "Forbidden."));
    const { request } = setup(fetch);
    const e = await request({ path: "/api/x" }).catch((e) => e);
    assert.ok(e instanceof PermissionError);
    assert.match(e.message, /permission/);
    assert.match(e.message, /feature/);
    assert.equal(calls.length, 1);
  });

  it("fails a static token's second 401 with AuthError and no secret in the message", async () => {
    const { fetch, calls } = scripted(error(401, "Token static-token-123 has expired."));
    const { request } = setup(fetch);
    const e = await request({ path: "/api/x" }).catch((e) => e);
    assert.ok(e instanceof AuthError);
    assert.equal(calls.length, 2);
    assert.ok(!e.message.includes("static-token-123"), e.message);
    assert.match(e.message, /static token/);
  });

  it("asks a token provider for a new token after a 401", async () => {
    let n = 0;
    const auth = tokenProvider(() => Promise.resolve(`provided-${++n}`));
    const { fetch, calls } = scripted(error(401, "expired"), json({ ok: true }));
    const { request } = setup(fetch, { auth });
    await request({ path: "/api/x" });
    const sent = calls.map((c) => new Headers(c.init.headers).get("authorization"));
    assert.deepEqual(sent, ["Bearer provided-1", "Bearer provided-2"]);
  });

  it("reports events for requests, retries and rate-limit waits", async () => {
    const events: string[] = [];
    const { fetch } = scripted(
      error(503, "busy"),
      error(429, "slow", { "retry-after": "1" }),
      json({}),
    );
    const { request } = setup(fetch, { onEvent: (e) => events.push(e.type) });
    await request({ path: "/api/x" });
    assert.deepEqual(events, ["request", "retry", "request", "rateLimit", "request"]);
  });
});
