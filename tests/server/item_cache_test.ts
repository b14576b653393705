import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ItemTextCache } from "../../lib/server/item_cache.ts";
import { handleRead, Router } from "../../lib/server/router.ts";
import { EstateStore } from "../../lib/server/store.ts";
import { generateEstate } from "../../lib/server/generator.ts";
import type { Dialect } from "../../lib/server/serialize.ts";

/** A store with a small generated estate. */
async function estate(): Promise<EstateStore> {
  const store = new EstateStore();
  await store.bulkInsert((sink) => {
    generateEstate({ seed: 5, computers: 30 }, sink);
  });
  return store;
}

/** The body of a GET through the generic handler. */
async function get(store: EstateStore, target: string, dialect: Dialect = "spec") {
  const url = new URL(`http://x${target}`);
  const found = new Router(undefined, { dialect }).resolve("GET", url.pathname);
  if (found.kind !== "match") throw new Error(`no route for ${target}`);
  return await handleRead({ op: found.op, params: found.params, url, store, dialect }).text();
}

const APPS = "/api/sam/estate/v1/computers-applications";

describe("ItemTextCache", () => {
  it("answers only when every rowid is kept, for the generation it was kept in", () => {
    const cache = new ItemTextCache();
    const decode = (items?: readonly string[]) => items && [...items];
    assert.deepEqual(decode(cache.remember(1, "k", [1, 2], ["a", "é"])), ["a", "é"]);
    assert.deepEqual(decode(cache.lookup(1, "k", [2, 1])), ["é", "a"]);
    cache.remember(1, "k", [3, 4], ["xy", "z"]);
    assert.deepEqual(decode(cache.lookup(1, "k", [4, 3, 1])), ["z", "xy", "a"]);
    assert.equal(cache.lookup(1, "k", [1, 5]), undefined);
    assert.equal(cache.lookup(1, "other", [1]), undefined);
    assert.equal(cache.lookup(2, "k", [1]), undefined);
    cache.remember(2, "k", [3], ["c"]);
    assert.equal(cache.lookup(2, "k", [1]), undefined, "a new generation drops the old texts");
    assert.equal(cache.size, 1);
  });

  it("keeps what fits and no more until the store changes", () => {
    const cache = new ItemTextCache(5);
    const written = cache.remember(0, "k", [1, 2], ["abc", "def"]);
    assert.equal(written.length, 2, "every text is written, kept or not");
    assert.equal(cache.size, 3);
    assert.ok(cache.lookup(0, "k", [1]));
    assert.equal(cache.lookup(0, "k", [2]), undefined);
    cache.remember(0, "j", [5], ["x"]);
    assert.equal(cache.size, 4);
    cache.remember(1, "k", [2], ["def"]);
    assert.equal(cache.lookup(1, "k", [1]), undefined);
    assert.ok(cache.lookup(1, "k", [2]));
  });
});

describe("collection pages through the item text cache", () => {
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

  it("is dropped when the store changes: an update shows on the next read", async () => {
    const store = await estate();
    try {
      const target = `${APPS}?page_size=5&page_number=1`;
      const before = JSON.parse(await get(store, target));
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
