import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import { ShapeError } from "../../lib/api/errors.ts";
import { MAX_JSON_DEPTH } from "../../lib/api/json_depth.ts";
import { serveHostile } from "../helpers/hostile_http.ts";

const TOKEN = "tok-deep-json-0123456789";
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

const client = (baseUrl: string) => createClient({ baseUrl, token: TOKEN, env: () => undefined });

/** Serves `body` as JSON to every request while `fn` runs. */
async function serving(body: string, fn: (url: string, hits: () => number) => Promise<void>) {
  const srv = serveHostile(() =>
    new Response(body, { headers: { "content-type": "application/json" } })
  );
  try {
    await fn(srv.url, () => srv.hits.length);
  } finally {
    await srv.close();
  }
}

function assertTooDeep(error: unknown, operation: string) {
  assert.ok(error instanceof ShapeError, String(error));
  assert.ok(error.message.startsWith(`${operation} `), error.message);
  assert.match(error.message, /nested deeper than/);
  assert.doesNotMatch(error.message, /call stack/);
}

describe("deep JSON", () => {
  it("refuses a 100,000-deep field of an object read, naming the operation", async () => {
    await serving(`{"id":"L1","extraField":${nested(100_000)}}`, async (url, hits) => {
      const error = await client(url).object("licenses.get", { id: "L1" }).then(
        () => undefined,
        (e) => e,
      );
      assertTooDeep(error, "licenses.get");
      assert.equal(hits(), 1, "not retried");
    });
  });

  it("refuses a deep item of a collection page, naming the operation", async () => {
    const body = `{"items":[{"id":"L1","extraField":${
      nested(100_000)
    }}],"pagination":{"page_number":1}}`;
    await serving(body, async (url) => {
      const error = await client(url).licenses.list().toArray().then(() => undefined, (e) => e);
      assertTooDeep(error, "licenses.list");
    });
  });

  it("counts brackets inside strings as text", async () => {
    const text = "[{".repeat(MAX_JSON_DEPTH * 2);
    await serving(JSON.stringify({ id: "L1", vendor: text }), async (url) => {
      const license = await client(url).object("licenses.get", { id: "L1" });
      assert.equal(license.vendor, text);
    });
  });

  it("reads JSON nested up to the limit", async () => {
    const depth = MAX_JSON_DEPTH - 1; // the object itself is one level
    await serving(`{"id":"L1","tags":${nested(depth)}}`, async (url) => {
      const license = await client(url).object("licenses.get", { id: "L1" });
      assert.equal(license.id, "L1");
    });
  });
});
