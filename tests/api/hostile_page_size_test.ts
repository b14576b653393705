/**
 * A service that pages at the size asked for but reports another `page_size`: its maximum
 * (1,000, as a "maximum items per page in force" may be read), or a size larger than it uses.
 * Spec 4.1 rule 3 ends a read on a page with fewer items than the *requested* size, so a page
 * that is full at the size asked for is not the last, whatever `page_size` says: the read goes
 * on and gets every item. It used to take the reported size as the one in force, stop after the
 * first page, and fail every read below 1,000 a page (or, with no count to check, return the
 * first page). A service that caps the size (reports less than asked, and pages at it) and one
 * that ignores the size asked (pages at the larger size it reports) are still read whole.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { serveHostile } from "../helpers/hostile_http.ts";

const TOKEN = "tok-hostile-page-size-0123456789";
const ITEMS = 23;

/** A collection read at page size `size`, and whether its envelopes state `total_items`. */
const READS: [
  string,
  (c: SamClient, size: number) => Promise<{ id?: string | null }[]>,
  boolean,
][] = [
  ["licenses.list", (c, size) => c.licenses.list({ pageSize: size }).toArray(), false],
  ["estate.computers", (c, size) => c.estate.computers({ pageSize: size }).toArray(), true],
  [
    "estate.userDiscoveries",
    (c, size) => c.estate.userDiscoveries({ pageSize: size }).toArray(),
    true,
  ],
  ["registry.families", (c, size) => c.registry.families({ pageSize: size }).toArray(), false],
];

/**
 * A service holding {@link ITEMS} items that pages at `uses(asked)` items a page and reports
 * `reports(asked)` as its `page_size`.
 */
function service(
  counted: boolean,
  uses: (asked: number) => number,
  reports: (asked: number) => number,
) {
  return serveHostile((_req, url) => {
    const asked = Number(url.searchParams.get("page_size") ?? "100");
    const n = Number(url.searchParams.get("page_number") ?? "1");
    const size = uses(asked);
    const ids = Array.from({ length: ITEMS }, (_, i) => `X${i + 1}`).slice(
      (n - 1) * size,
      n * size,
    );
    const items = ids.map((id) => ({ id, name: id, hostName: id, userName: id, quantity: 1 }));
    const pagination = {
      page_number: n,
      page_size: reports(asked),
      ...(counted ? { total_items: ITEMS } : {}),
    };
    return Response.json({ items, pagination });
  });
}

async function readAll(
  read: (c: SamClient, size: number) => Promise<{ id?: string | null }[]>,
  srv: { url: string },
  size: number,
) {
  const client = createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined });
  return (await read(client, size)).map((i) => i.id);
}

const ALL = Array.from({ length: ITEMS }, (_, i) => `X${i + 1}`);

describe("a page_size reported larger than the size a service pages at", () => {
  for (const [op, read, counted] of READS) {
    it(`does not end ${op} early: every item is read`, async () => {
      for (const reported of [1000, 11]) {
        const srv = service(counted, (asked) => asked, () => reported);
        try {
          assert.deepEqual(await readAll(read, srv, 5), ALL, `page_size ${reported}`);
        } finally {
          await srv.close();
        }
      }
    });
  }
});

describe("a page_size a service really pages at", () => {
  for (const [op, read, counted] of READS) {
    it(`reads ${op} whole when the service caps it or ignores the size asked`, async () => {
      for (const size of [4, 8]) {
        const srv = service(counted, () => size, () => size);
        try {
          assert.deepEqual(await readAll(read, srv, 6), ALL, `paged at ${size}, asked 6`);
        } finally {
          await srv.close();
        }
      }
    });
  }
});
