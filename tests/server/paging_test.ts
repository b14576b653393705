import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { expandPath, operation } from "../../lib/api/operations.ts";
import { api, getToken, sampleParams, withServer } from "../helpers/server.ts";

const COMPUTERS = "/api/sam/estate/v1/computers";

interface Link {
  href: string;
  method: string;
  rel: string;
}

const rel = (links: Link[], name: string) => links.find((l) => l.rel === name);

describe("paging", () => {
  it("returns every item exactly once across pages of any size", async () => {
    await withServer({ computers: 137 }, async (srv) => {
      const token = await getToken(srv);
      for (const size of [1, 10, 50, 136, 137, 1000]) {
        const ids: string[] = [];
        for (let page = 1;; page++) {
          const res = await api(srv, `${COMPUTERS}?page_size=${size}&page_number=${page}`, {
            token,
          });
          assert.equal(res.status, 200);
          assert.equal(res.body.pagination.total_items, 137);
          assert.equal(res.body.pagination.total_pages, Math.ceil(137 / size));
          ids.push(...res.body.items.map((c: { id: string }) => c.id));
          if (res.body.items.length < size) break;
        }
        assert.equal(ids.length, 137, `size ${size}`);
        assert.equal(new Set(ids).size, 137, `size ${size}`);
      }
    });
  });

  it("leads through everything by next links, keeping filter, sort and page size", async () => {
    await withServer({ computers: 120 }, async (srv) => {
      const token = await getToken(srv);
      const filter = "(isVirtual -eq false) -or (isServer -eq true)";
      const all = await api(
        srv,
        `${COMPUTERS}?page_size=1000&filter=${encodeURIComponent(filter)}&sort=hostName:desc`,
        { token },
      );
      const expected = all.body.items.map((c: { id: string }) => c.id);
      assert.ok(expected.length > 10);
      let href: string | undefined =
        `api/sam/estate/v1/computers?page_size=7&filter=${encodeURIComponent(filter)}` +
        "&sort=hostName:desc";
      const seen: string[] = [];
      let previous: string | undefined;
      while (href) {
        const res = await api(srv, `/${href}`, { token });
        assert.equal(res.status, 200, href);
        const links = res.body._links as Link[];
        seen.push(...res.body.items.map((c: { id: string }) => c.id));
        const self = new URL(rel(links, "self")!.href, "http://x/");
        assert.equal(self.searchParams.get("filter"), filter);
        assert.equal(self.searchParams.get("sort"), "hostName:desc");
        assert.equal(self.searchParams.get("page_size"), "7");
        if (previous) assert.equal(rel(links, "previous")?.href, previous);
        else assert.equal(rel(links, "previous"), undefined);
        assert.equal(
          new URL(rel(links, "last")!.href, "http://x/").searchParams.get("page_number"),
          String(Math.ceil(expected.length / 7)),
        );
        previous = rel(links, "self")!.href;
        href = rel(links, "next")?.href;
      }
      assert.deepEqual(seen, expected);
    });
  });

  it("sorts stably: ties keep insertion order across pages", async () => {
    await withServer({ computers: 90 }, async (srv) => {
      const token = await getToken(srv);
      const whole = await api(srv, `${COMPUTERS}?page_size=1000&sort=status:asc`, { token });
      const paged: string[] = [];
      for (let page = 1; page <= 9; page++) {
        const res = await api(
          srv,
          `${COMPUTERS}?page_size=10&page_number=${page}&sort=status:asc`,
          {
            token,
          },
        );
        paged.push(...res.body.items.map((c: { id: string }) => c.id));
      }
      assert.deepEqual(paged, whole.body.items.map((c: { id: string }) => c.id));
      const statuses = whole.body.items.map((c: { status: string | null }) => c.status ?? "");
      assert.deepEqual(statuses, [...statuses].sort());
    });
  });

  it("gives an empty items array past the last page", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      const token = await getToken(srv);
      const res = await api(srv, `${COMPUTERS}?page_size=5&page_number=3`, { token });
      assert.deepEqual(res.body.items, []);
      assert.equal(rel(res.body._links, "next"), undefined);
      assert.ok(rel(res.body._links, "previous"));
      const none = await api(
        srv,
        `${COMPUTERS}?filter=${encodeURIComponent('hostName -eq "no such host"')}`,
        { token },
      );
      assert.deepEqual(none.body.items, []);
      assert.equal(none.body.pagination.total_items, 0);
    });
  });

  it("serves a flat collection one object per page, read whole by following next", async () => {
    await withServer({}, async (srv) => {
      const token = await getToken(srv);
      for (
        const id of ["estate.displayAdapters", "estate.monitors", "licenses.entitlementStates"]
      ) {
        const op = operation(id);
        const params = sampleParams(srv, op);
        assert.ok(params, id);
        const where = Object.fromEntries(
          Object.entries(op.scope).map(([param, field]) => [field, params[param]]),
        );
        const expected = srv.store.query({ resource: op.resource, where, limit: 1 }).total;
        assert.ok(expected >= 1, id);
        let href: string | undefined = expandPath(op, params).slice(1);
        let count = 0;
        while (href) {
          const res = await api(srv, `/${href}`, { token });
          assert.equal(res.status, 200, href);
          assert.equal("items" in res.body, false);
          const links = res.body._links as Link[];
          assert.ok(rel(links, "self") && rel(links, "first") && rel(links, "last"), id);
          assert.equal(rel(links, "previous") !== undefined, count > 0, id);
          count++;
          href = rel(links, "next")?.href;
        }
        assert.equal(count, expected, id);
        const past = await api(srv, `${expandPath(op, params)}?page_number=${expected + 1}`, {
          token,
        });
        assert.equal(past.status, 404, id);
      }
    });
  });

  it("lets connector pages exceed 1000 items and sends only page_number and page_size", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const res = await api(srv, "/api/cloud-cost/v1/connectors?page_size=5000", { token });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.pagination, { page_number: 1, page_size: 5000 });
      assert.ok(Array.isArray(res.body.links));
      assert.equal("_links" in res.body, false);
    });
  });
});
