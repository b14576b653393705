/**
 * A collection envelope whose `items` is `null`: the spec (2.2, 4.1 rule 1) says `items` is always
 * an array, empty when nothing matches, never null — a null is a service that failed to fill the
 * page, not an empty collection. Read as none, it ended a read early (a license list with no
 * total to check against came back empty, twice, and a report wrote an empty estate); now it
 * fails the read naming the operation, on every kind of collection read.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { ShapeError } from "../../lib/api/errors.ts";
import { serveHostile } from "../helpers/hostile_http.ts";

const TOKEN = "tok-hostile-null-items-0123456789";

/** A collection read, and the page (from 1) whose `items` is null. */
const READS: [string, (c: SamClient) => Promise<unknown[]>, number][] = [
  ["licenses.list", (c) => c.licenses.list({ pageSize: 2 }).toArray(), 1],
  ["estate.computers", (c) => c.estate.computers({ pageSize: 2 }).toArray(), 2],
  ["registry.families", (c) => c.registry.families({ pageSize: 2 }).toArray(), 2],
  ["licenses.entitlementStates", (c) => c.licenses.entitlementStates().toArray(), 1],
  ["licenses.computerTransfer", (c) => c.licenses.computerTransfer("A1", "C1").toArray(), 1],
];

/** Full pages of two items (ids by page), `items: null` on page `nullPage`. */
function pages(nullPage: number) {
  return serveHostile((_req, url) => {
    const n = Number(url.searchParams.get("page_number") ?? "1");
    const items = n === nullPage ? null : n < 3 ? [1, 2].map((i) => item(`X${n}-${i}`)) : [];
    return Response.json({ items, pagination: { page_number: n, page_size: 2 } });
  });
}

/** An object every resource read above knows a field of. */
const item = (id: string) => ({
  id,
  name: id,
  hostName: id,
  quantity: 1,
  computerId: "C1",
  toApplicationId: "A1",
});

describe("an envelope whose items is null", () => {
  for (const [op, read, nullPage] of READS) {
    it(`fails ${op}, naming the operation (null on page ${nullPage})`, async () => {
      const srv = pages(nullPage);
      try {
        const client = createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined });
        const error = await read(client).then((items) => items, (e) => e);
        assert.ok(error instanceof ShapeError, `read as ${JSON.stringify(error)}`);
        assert.match(error.message, new RegExp(`^${op.replace(".", "\\.")} `));
        assert.match(error.message, /items is null/);
      } finally {
        await srv.close();
      }
    });
  }

  it("is still read as an empty collection when items is an empty array", async () => {
    const srv = serveHostile(() => Response.json({ items: [], pagination: { page_size: 2 } }));
    try {
      const client = createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined });
      for (const [op, read] of READS) assert.deepEqual(await read(client), [], op);
    } finally {
      await srv.close();
    }
  });
});
