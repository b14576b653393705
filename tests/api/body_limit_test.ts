import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import { ShapeError } from "../../lib/api/errors.ts";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../../lib/api/body_limit.ts";
import { serveHostile } from "../helpers/hostile_http.ts";
import { type BombCounter, gzipBomb } from "../helpers/gzip_bomb.ts";

const TOKEN = "tok-body-limit-0123456789";
const MiB = 1024 * 1024;

/** An endless body of JSON whitespace, `[` first, in 1 MiB chunks, counting what it sent. */
function endlessJson(counter: { sent: number }): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(" ".repeat(MiB));
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const bytes = started ? chunk.slice() : new TextEncoder().encode("[");
      started = true;
      counter.sent += bytes.byteLength;
      controller.enqueue(bytes);
    },
  }, { highWaterMark: 0 });
}

const client = (baseUrl: string, extra: Record<string, unknown> = {}) =>
  createClient({ baseUrl, token: TOKEN, env: () => undefined, ...extra });

/** Reads license L1 and returns the error it fails with. */
const readFails = (c: ReturnType<typeof client>) =>
  c.object("licenses.get", { id: "L1" }).then(() => undefined, (e) => e);

/** Asserts the refusal of a body over `limit`: named, on one line, naming the operation. */
function assertTooLarge(error: unknown, limit: number) {
  assert.ok(error instanceof ShapeError, String(error));
  assert.match(error.message, /^licenses\.get \/api\/sam\/v1\/licenses\/L1: /);
  assert.match(error.message, /maxResponseBytes/);
  assert.ok(error.message.includes(limit.toLocaleString("en-US")), error.message);
  assert.ok(!error.message.includes(TOKEN));
}

describe("maximum response body size", () => {
  it("stops a gzip bomb after the limit's worth of decompressed bytes, and never retries it", async () => {
    const counter: BombCounter = { sent: 0, expandsTo: 0 };
    const srv = serveHostile(() =>
      new Response(gzipBomb(counter), {
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
      })
    );
    try {
      const c = client(srv.url, { maxResponseBytes: 4 * MiB });
      assertTooLarge(await readFails(c), 4 * MiB);
      assert.equal(srv.hits.length, 1, "a too-large response is not retried");
      // Read up to the limit and one chunk beyond it, never the rest.
      assert.ok(c.stats.bytes <= 5 * MiB, `${c.stats.bytes} bytes counted`);
    } finally {
      await srv.close();
    }
  });

  it("has a default far above any real page, and applies it to a gzip bomb", async () => {
    assert.equal(DEFAULT_MAX_RESPONSE_BYTES, 64 * MiB);
    const counter: BombCounter = { sent: 0, expandsTo: 0 };
    const srv = serveHostile(() =>
      new Response(gzipBomb(counter), { headers: { "content-encoding": "gzip" } })
    );
    try {
      const c = client(srv.url);
      assertTooLarge(await readFails(c), DEFAULT_MAX_RESPONSE_BYTES);
      assert.equal(srv.hits.length, 1);
      assert.ok(c.stats.bytes <= DEFAULT_MAX_RESPONSE_BYTES + MiB, `${c.stats.bytes} bytes`);
    } finally {
      await srv.close();
    }
  });

  it("stops an endless chunked body at the limit", async () => {
    const counter = { sent: 0 };
    const srv = serveHostile(() => new Response(endlessJson(counter)));
    try {
      const c = client(srv.url, { maxResponseBytes: 2 * MiB });
      assertTooLarge(await readFails(c), 2 * MiB);
      assert.equal(srv.hits.length, 1);
    } finally {
      await srv.close();
    }
  });

  it("refuses a Content-Length over the limit without reading the body", async () => {
    const counter = { sent: 0 };
    const srv = serveHostile(() => {
      const body = new TextEncoder().encode(
        JSON.stringify({ id: "L1", name: "x".repeat(3 * MiB) }),
      );
      counter.sent = body.byteLength;
      return new Response(body, { headers: { "content-length": String(body.byteLength) } });
    });
    try {
      const c = client(srv.url, { maxResponseBytes: MiB });
      assertTooLarge(await readFails(c), MiB);
      assert.equal(srv.hits.length, 1);
      assert.equal(c.stats.bytes, 0, "nothing read");
    } finally {
      await srv.close();
    }
  });

  it("reads a body just under the limit", async () => {
    const srv = serveHostile(() => Response.json({ id: "L1", name: "x".repeat(MiB - 100) }));
    try {
      const license = await client(srv.url, { maxResponseBytes: MiB }).object("licenses.get", {
        id: "L1",
      });
      assert.equal(license.id, "L1");
    } finally {
      await srv.close();
    }
  });

  it("refuses a limit that is not a positive whole number of bytes", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
      assert.throws(
        () => client("http://127.0.0.1:9", { maxResponseBytes: bad }),
        /maxResponseBytes/,
      );
    }
  });
});
