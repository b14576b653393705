import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PageBodyCache } from "../../lib/server/page_cache.ts";
import { handleRead, Router } from "../../lib/server/router.ts";
import { EstateStore } from "../../lib/server/store.ts";
import { generateEstate } from "../../lib/server/generator.ts";
import type { Dialect } from "../../lib/server/serialize.ts";

/** A store with a small generated estate. */
async function estate(): Promise<EstateStore> {
  const store = new EstateStore();
  await store.bulkInsert((sink) => {
    generateEstate({ seed: 9, computers: 25 }, sink);
  });
  return store;
}

/** The body of a GET through the generic handler. */
async function get(store: EstateStore, target: string, dialect: Dialect = "spec"): Promise<string> {
  const url = new URL(`http://x${target}`);
  const found = new Router(undefined, { dialect }).resolve("GET", url.pathname);
  if (found.kind !== "match") throw new Error(`no route for ${target}`);
  return await handleRead({ op: found.op, params: found.params, url, store, dialect }).text();
}

const APPS = "/api/sam/estate/v1/computers-applications";

describe("PageBodyCache", () => {
  it("answers for the generation a body was kept in, and drops the oldest beyond its limit", () => {
    const cache = new PageBodyCache(5);
    cache.remember(1, "a", new Uint8Array(2));
    cache.remember(1, "b", new Uint8Array(2));
    assert.equal(cache.lookup(1, "a")?.length, 2);
    assert.equal(cache.lookup(2, "a"), undefined, "another generation finds nothing");
    cache.remember(1, "c", new Uint8Array(2));
    assert.equal(cache.lookup(1, "a"), undefined, "the oldest went first");
    assert.equal(cache.size, 4);
    cache.remember(1, "huge", new Uint8Array(6));
    assert.equal(cache.lookup(1, "huge"), undefined, "a body over the limit is not kept");
    cache.remember(2, "d", new Uint8Array(1));
    assert.equal(cache.size, 1, "a new generation drops every older body");
  });
});

describe("collection pages answered again", () => {
  it("are the bytes a fresh server writes, each query apart from the others", async () => {
    const warm = await estate();
    const fresh = await estate();
    const targets = [
      `${APPS}?page_size=50&page_number=1`,
      `${APPS}?page_size=7&page_number=2`,
      `${APPS}?page_number=2&page_size=7`,
      `${APPS}?page_size=7&page_number=3`,
      `${APPS}?page_size=7&page_number=2&filter=${encodeURIComponent("usedCount -ge 1")}`,
      `${APPS}?page_size=7&page_number=2&sort=${encodeURIComponent("usedCount:desc")}`,
    ];
    try {
      for (const target of [...targets, ...targets]) {
        assert.equal(await get(warm, target), await get(fresh, target), target);
        fresh.update("computers", { id: "\u0000none" }, { id: "\u0000none" }); // fresh stays cold
      }
    } finally {
      warm.close();
      fresh.close();
    }
  });

  it("still refuse a bad query, however often a good one was answered", async () => {
    const store = await estate();
    try {
      await get(store, `${APPS}?page_size=3`);
      await assert.rejects(() =>
        get(store, `${APPS}?page_size=3&filter=${encodeURIComponent("nope -eq")}`)
      );
      await assert.rejects(() => get(store, `${APPS}?page_size=0`));
    } finally {
      store.close();
    }
  });
});

describe("collection pages through the page body cache", () => {
  it("serves the same bytes warm as cold, across filters, sorts, page sizes and dialects", async () => {
    const warm = await estate();
    const targets = [
      `${APPS}?page_size=7&page_number=2`,
      `${APPS}?page_size=50&page_number=1`,
      `${APPS}?page_size=9&page_number=3&filter=${encodeURIComponent("isInstalled -eq true")}`,
      `${APPS}?page_size=11&page_number=2&sort=${encodeURIComponent("applicationId:desc")}`,
      "/api/sam/estate/v1/computers?page_size=4&page_number=2",
      "/api/sam/softwareregistry/v1/applications?page_size=5",
      "/api/sam/software-registry/v1/applications?page_size=5",
    ];
    try {
      for (const dialect of ["spec", "real"] as const) {
        for (const target of targets) {
          const fresh = await estate();
          try {
            const cold = await get(fresh, target, dialect).catch((e) => String(e));
            assert.equal(await get(warm, target, dialect).catch((e) => String(e)), cold, target);
            assert.equal(await get(warm, target, dialect).catch((e) => String(e)), cold, target);
          } finally {
            fresh.close();
          }
        }
      }
    } finally {
      warm.close();
    }
  });

  it("is dropped when the store changes: an update and an insert show on the next read", async () => {
    const store = await estate();
    try {
      const target = `${APPS}?page_size=5&page_number=1`;
      const before = JSON.parse(await get(store, target));
      assert.deepEqual(JSON.parse(await get(store, target)), before, "answered again, unchanged");
      const first = before.items[0];
      store.update("computer_applications", {
        computerId: first.computerId,
        applicationId: first.applicationId,
      }, {
        averageUsedTime: "99:99:99",
      });
      const after = JSON.parse(await get(store, target));
      assert.equal(after.items[0].averageUsedTime, "99:99:99");
      store.insert("computer_applications", { computerId: "CNEW", applicationId: "ANEW" });
      const all = JSON.parse(await get(store, `${APPS}?page_size=1000`));
      assert.equal(all.items.at(-1).computerId, "CNEW");
      assert.equal(all.pagination.total_items, before.pagination.total_items + 1);
      const again = JSON.parse(await get(store, target));
      assert.equal(again.pagination.total_items, before.pagination.total_items + 1);
    } finally {
      store.close();
    }
  });

  it("keeps the links of each path apart (a computer's applications link under that computer)", async () => {
    const store = await estate();
    try {
      const ids = JSON.parse(await get(store, "/api/sam/estate/v1/computers?page_size=2")).items
        .map((c: { id: string }) => c.id);
      for (const id of ids) {
        const page = JSON.parse(
          await get(store, `/api/sam/estate/v1/computers/${id}/applications?page_size=3`),
        );
        for (const item of page.items) assert.equal(item.computerId, id);
        const again = JSON.parse(
          await get(store, `/api/sam/estate/v1/computers/${id}/applications?page_size=3`),
        );
        assert.deepEqual(again, page);
      }
    } finally {
      store.close();
    }
  });
});
