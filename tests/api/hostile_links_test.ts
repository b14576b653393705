/**
 * Collections sent as one flat object per page (entitlement states, a computer's monitors and
 * display adapters) go on only by their `next` links, so a `next` link spelt as RFC 8288 allows —
 * a relation among others (`"self next"`), with spaces around it, in any case — must be
 * followed: taking it for no link ends the read early and loses every later object without a
 * word. A `next` link whose `href` is not text cannot be followed: the read fails, naming the
 * operation and the page, rather than end there.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { PagingIntegrityError, ShapeError } from "../../lib/api/errors.ts";
import type { Link } from "../../lib/api/catalogue.ts";
import { serveHostile } from "../helpers/hostile_http.ts";

const TOKEN = "tok-hostile-links-0123456789";

/** A flat collection: its operation, path, the read, and one object of it by number. */
interface Flat {
  readonly op: string;
  readonly path: string;
  readonly read: (c: SamClient) => Promise<{ name?: string | null; links?: unknown }[]>;
  readonly object: (n: number) => Record<string, unknown>;
}

const FLATS: readonly Flat[] = [
  {
    op: "licenses.entitlementStates",
    path: "/api/sam/v1/licenses/entitlements/entitlement-states",
    read: (c) => c.licenses.entitlementStates().toArray(),
    object: (n) => ({ id: `S${n}`, name: `State ${n}` }),
  },
  {
    op: "estate.monitors",
    path: "/api/sam/estate/v1/computers/C1/hardware/monitors",
    read: (c) => c.estate.monitors("C1").toArray(),
    object: (n) => ({ computerId: "C1", name: `Monitor ${n}` }),
  },
  {
    op: "estate.displayAdapters",
    path: "/api/sam/estate/v1/computers/C1/hardware/displayadapters",
    read: (c) => c.estate.displayAdapters("C1").toArray(),
    object: (n) => ({ computerId: "C1", name: `Adapter ${n}` }),
  },
];

/** Runs `fn` with a client of a server answering `flat`'s pages 1–3, each linking on by `link`. */
async function withFlat(
  flat: Flat,
  link: (href: string) => unknown,
  fn: (client: SamClient) => Promise<void>,
) {
  const srv = serveHostile((_req, url) => {
    if (url.pathname.toLowerCase().replace(/\/$/, "") !== flat.path.toLowerCase()) {
      return new Response(null, { status: 404 });
    }
    const n = Number(url.searchParams.get("p") ?? "1");
    const next = n < 3 ? [link(`${flat.path.slice(1)}?p=${n + 1}`)] : [];
    return Response.json({ ...flat.object(n), _links: next });
  });
  try {
    await fn(createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined, retries: 0 }));
  } finally {
    await srv.close();
  }
}

describe("next links spelt as RFC 8288 allows", () => {
  const rels = ["self next", " next ", "NEXT", "next\tnext-archive", "Next"];
  for (const flat of FLATS) {
    it(`are followed to the end of ${flat.op}`, async () => {
      for (const rel of rels) {
        await withFlat(flat, (href) => ({ href, rel, method: "GET" }), async (client) => {
          const items = await flat.read(client);
          assert.equal(items.length, 3, `rel ${JSON.stringify(rel)} read ${items.length}`);
          assert.match(items[2]!.name ?? "", / 3$/);
          const links = items.flatMap((i) => (i as { links?: Link[] }).links ?? []);
          assert.deepEqual(links, [], `rel ${JSON.stringify(rel)}: the page's link kept`);
        });
      }
    });
  }

  it("do not take a relation that only contains the word for next", async () => {
    const flat = FLATS[0]!;
    for (const rel of ["nextpage", "prev-next", "self"]) {
      await withFlat(flat, (href) => ({ href, rel, method: "GET" }), async (client) => {
        assert.equal((await flat.read(client)).length, 1, rel);
      });
    }
  });
});

describe("a next link without a readable href", () => {
  for (const flat of FLATS) {
    it(`fails ${flat.op}, naming the operation and the page`, async () => {
      for (const href of [5, { path: "x" }, ["x"], true]) {
        await withFlat(flat, () => ({ href, rel: "next", method: "GET" }), async (client) => {
          const error = await flat.read(client).then(() => undefined, (e) => e);
          assert.ok(error instanceof PagingIntegrityError, `href ${JSON.stringify(href)}`);
          assert.match(error.message, new RegExp(`^${flat.op.replace(".", "\\.")} GET `));
          assert.match(error.message, /the next link of page 1 has no href to follow/);
        });
      }
    });
  }

  it("fails a HAL-style next link alike", async () => {
    const flat = FLATS[0]!;
    const srv = serveHostile(() => Response.json({ id: "S1", name: "x", _links: { next: 7 } }));
    try {
      const client = createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined });
      const error = await flat.read(client).then(() => undefined, (e) => e);
      assert.ok(error instanceof PagingIntegrityError, String(error));
      assert.match(error.message, /the next link of page 1 has no href to follow/);
    } finally {
      await srv.close();
    }
  });
});

describe("a next link to another path than the collection's", () => {
  /** Where a next link may lead instead: another collection, another parent's, the token path. */
  const elsewhere = (flat: Flat) => [
    "api/sam/v1/licenses?page_number=1",
    ...(flat.path.includes("C1") ? [flat.path.replace("C1", "C2").slice(1) + "?p=2"] : []),
    "/idp/api/connect/token?p=2",
    `${flat.path}/../../x?p=2`,
  ];
  for (const flat of FLATS) {
    it(`is not followed by ${flat.op}: the read fails naming the operation and the path`, async () => {
      for (const target of elsewhere(flat)) {
        const srv = serveHostile((_req, url) =>
          url.pathname === flat.path
            ? Response.json({
              ...flat.object(1),
              _links: [{ href: target, rel: "next", method: "GET" }],
            })
            : Response.json({ items: [{ id: "LIC1", name: "Office", computerId: "C1" }] })
        );
        try {
          const client = createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined });
          const error = await flat.read(client).then((items) => items, (e) => e);
          assert.ok(error instanceof ShapeError, `${target}: read as ${JSON.stringify(error)}`);
          assert.match(error.message, new RegExp(`^${flat.op.replace(".", "\\.")} `));
          assert.match(error.message, /next link of page 1 leads to another path/);
          const elsewhereHits = srv.hits.filter((h) => !h.path.startsWith(`${flat.path}?`));
          assert.deepEqual(elsewhereHits, [], `${target} was followed`);
        } finally {
          await srv.close();
        }
      }
    });
  }

  it("is followed when it is the collection's path spelt otherwise", async () => {
    const flat = FLATS[0]!;
    for (const spelt of [flat.path.slice(1), flat.path, `${flat.path}/`, flat.path.toUpperCase()]) {
      await withFlat(
        flat,
        (href) => ({ href: href.replace(flat.path.slice(1), spelt), rel: "next" }),
        async (client) => {
          assert.equal((await flat.read(client)).length, 3, spelt);
        },
      );
    }
  });
});
