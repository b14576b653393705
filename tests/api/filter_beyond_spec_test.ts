/**
 * Filters the spec does not allow but the public service takes (`/dcc`), and filter fields
 * samkit's catalogue does not know: sent for the server to judge, never a silently wider result.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import type { ClientEvent } from "../../lib/api/request.ts";
import { withServer } from "../helpers/server.ts";

/** A client whose fetch records each request's query and may drop the `filter` parameter. */
function recordingClient(baseUrl: string, options: { dropFilter?: boolean } = {}) {
  const queries: URLSearchParams[] = [];
  const events: ClientEvent[] = [];
  const client = createClient({
    baseUrl,
    clientId: "demo",
    clientSecret: "demo-secret",
    onEvent: (e) => events.push(e),
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.startsWith("/api/")) queries.push(new URLSearchParams(url.search));
      if (options.dropFilter) url.searchParams.delete("filter");
      return fetch(url, init);
    },
  });
  return { client, queries, events };
}

describe("filters beyond the spec", () => {
  it("a filter on /dcc is sent, and the server's answer is the matching clusters", async () => {
    await withServer({ computers: 400 }, async (srv) => {
      const { client, queries } = recordingClient(srv.url);
      const all = await client.estate.dataCenterClusters().toArray();
      const drs = all.filter((c) => c.isVendorDRS === true).map((c) => c.id).sort();
      assert.ok(drs.length > 0 && drs.length < all.length, `DRS ${drs.length} of ${all.length}`);
      const got = await client.estate.dataCenterClusters({ filter: "isVendorDRS -eq true" })
        .toArray();
      assert.deepEqual(got.map((c) => c.id).sort(), drs);
      assert.equal(queries.at(-1)?.get("filter"), "isVendorDRS -eq true");
    });
  });

  it("a server that ignores the /dcc filter cannot widen the result: the client applies it too", async () => {
    await withServer({ computers: 400 }, async (srv) => {
      const plain = recordingClient(srv.url);
      const drs = (await plain.client.estate.dataCenterClusters().toArray())
        .filter((c) => c.isVendorDRS === true).map((c) => c.id).sort();
      const { client } = recordingClient(srv.url, { dropFilter: true });
      const streamed: string[] = [];
      const paged = client.estate.dataCenterClusters({ filter: "isVendorDRS -eq true" });
      for await (const c of paged) streamed.push(c.id!);
      assert.deepEqual(streamed.sort(), drs);
      assert.deepEqual((await paged.toArray()).map((c) => c.id).sort(), drs);
    });
  });

  it("an unknown field is sent as written with a filterWarning event, not refused", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const { client, queries, events } = recordingClient(srv.url);
      // The reference server knows only its catalogue, so it refuses the field: the point is
      // that the client sent it rather than refusing it locally.
      await assert.rejects(
        client.licenses.list({ filter: "seatCount -gt 5" }).toArray(),
        /400|seatCount/,
      );
      assert.equal(queries.at(-1)?.get("filter"), "seatCount -gt 5");
      const warning = events.find((e) => e.type === "filterWarning");
      assert.ok(warning && warning.type === "filterWarning");
      assert.equal(warning.op, "licenses.list");
      assert.equal(warning.field, "seatCount");
      assert.match(warning.message, /License has no field "seatCount".*server to judge/);
    });
  });

  it("a wrong operator or value on a known field is still refused before any request", async () => {
    await withServer({ computers: 20 }, (srv) => {
      const { client, queries } = recordingClient(srv.url);
      assert.throws(() => client.estate.computers({ filter: "isVirtual -gt 5" }), /isVirtual/);
      assert.throws(
        () => client.estate.computers({ filter: 'lastScanDate -le "yesterday"' }),
        /lastScanDate/,
      );
      assert.equal(queries.length, 0);
      return Promise.resolve();
    });
  });
});
