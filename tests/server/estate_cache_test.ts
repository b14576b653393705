/**
 * Shared estates: a server started with an estate folder generates its estate once per size,
 * seed and "now", and later servers serve an in-memory copy of the saved one — the same rows as
 * a fresh generation, each copy's writes its own, a damaged entry built again, a folder that
 * cannot be written to no obstacle.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { entryName, estateCodeVersion, openCachedEstate } from "../../lib/server/estate_cache.ts";
import { startServer } from "../../lib/server/server.ts";
import { EstateStore } from "../../lib/server/store.ts";
import { DatabaseSync } from "node:sqlite";
import { api, getToken, TEST_ESTATES, TEST_NOW, withServer } from "../helpers/server.ts";

const CONNECTORS = "/api/cloud-cost/v1/connectors";

/** A fresh empty folder, removed after `fn`. */
async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "samkit_estates_" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every row of every table (estate and further reads), in rowid order. */
function rowsOf(store: EstateStore): Map<string, unknown[]> {
  const db = new DatabaseSync(":memory:");
  try {
    db.deserialize(store.serialize());
    return new Map(
      store.tables().map((
        t,
      ) => [t, db.prepare(`SELECT rowid, * FROM "${t}" ORDER BY rowid`).all()]),
    );
  } finally {
    db.close();
  }
}

describe("shared estates", () => {
  it("a second server serves the saved estate: the same rows as a fresh generation", async () => {
    await inTempDir(async (dir) => {
      const options = { computers: 30, seed: 4, now: TEST_NOW, quiet: true };
      const fresh = await startServer(options);
      const first = await startServer({ ...options, estateCache: dir });
      const second = await startServer({ ...options, estateCache: dir });
      try {
        const files = [...Deno.readDirSync(dir)].map((e) => e.name);
        assert.deepEqual(files, [entryName(options, (await estateCodeVersion())!)]);
        const expected = rowsOf(fresh.store);
        assert.ok((expected.get("computers") ?? []).length === 30);
        assert.ok((expected.get("user_meterings") ?? []).length > 0);
        assert.deepEqual(rowsOf(first.store), expected);
        assert.deepEqual(rowsOf(second.store), expected);
      } finally {
        await Promise.all([fresh.close(), first.close(), second.close()]);
      }
    });
  });

  it("reuses what the folder holds rather than generating again", async () => {
    await inTempDir(async (dir) => {
      const key = { computers: 12, seed: 1, now: TEST_NOW };
      // The entry for seed 1 holds a seed-2 estate: a server that reuses it serves seed 2's.
      const seed2 = await startServer({ ...key, seed: 2, quiet: true });
      const name = entryName(key, (await estateCodeVersion())!);
      await Deno.writeFile(`${dir}/${name}`, seed2.store.serialize());
      const srv = await startServer({ ...key, estateCache: dir, quiet: true });
      try {
        const ids = (s: typeof srv) => s.store.readColumns("ComputerDetail", ["hostName"]);
        assert.deepEqual(ids(srv), ids(seed2));
      } finally {
        await Promise.all([srv.close(), seed2.close()]);
      }
    });
  });

  it("what one server writes, another server of the same estate does not see", async () => {
    await inTempDir(async (dir) => {
      const options = { computers: 5, now: TEST_NOW, quiet: true, estateCache: dir };
      const writer = await startServer(options);
      const before = await Deno.readFile(`${dir}/${[...Deno.readDirSync(dir)][0].name}`);
      try {
        const token = await getToken(writer);
        const added = await api(writer, CONNECTORS, {
          token,
          method: "POST",
          body: {
            type: "ProviderAStore",
            connectionDetails: {
              bucketName: "b",
              reportPrefix: "p",
              reportName: "written-by-one-test",
              region: "r",
              accessKey: "k",
              secretKey: "s",
            },
          },
        });
        assert.equal(added.status, 201);
        const reader = await startServer(options);
        try {
          const list = await api(reader, CONNECTORS, { token: await getToken(reader) });
          assert.equal(list.status, 200);
          assert.ok(!JSON.stringify(list.body).includes("written-by-one-test"));
          assert.equal(reader.store.count("connectors"), writer.store.count("connectors") - 1);
        } finally {
          await reader.close();
        }
        const after = await Deno.readFile(`${dir}/${[...Deno.readDirSync(dir)][0].name}`);
        assert.deepEqual(after, before);
      } finally {
        await writer.close();
      }
    });
  });

  it("a damaged entry is built again and replaced", async () => {
    await inTempDir(async (dir) => {
      const key = { computers: 8, seed: 3, now: TEST_NOW };
      const path = `${dir}/${entryName(key, (await estateCodeVersion())!)}`;
      await Deno.writeTextFile(path, "not a database");
      let builds = 0;
      const build = async () => {
        builds++;
        const store = new EstateStore();
        const { generateEstate } = await import("../../lib/server/generator.ts");
        await store.bulkInsert((sink) => void generateEstate(key, sink));
        return store;
      };
      const first = await openCachedEstate({ dir, key, build });
      const second = await openCachedEstate({ dir, key, build });
      try {
        assert.deepEqual([first.reused, second.reused, builds], [false, true, 1]);
        assert.equal(second.store.count("computers"), 8);
      } finally {
        first.store.close();
        second.store.close();
      }
    });
  });

  it("an entry per size, seed and now", async () => {
    await inTempDir(async (dir) => {
      const base = { computers: 4, seed: 1, now: TEST_NOW, quiet: true, estateCache: dir };
      const variants = [
        base,
        { ...base, computers: 5 },
        { ...base, seed: 2 },
        { ...base, now: new Date("2025-07-01T00:00:00Z") },
      ];
      for (const options of variants) await (await startServer(options)).close();
      await (await startServer(base)).close();
      assert.equal([...Deno.readDirSync(dir)].length, 4);
    });
  });

  it("a folder that cannot be written to: the estate is generated and served", async () => {
    await inTempDir(async (dir) => {
      const blocked = `${dir}/a-file`;
      await Deno.writeTextFile(blocked, "");
      const srv = await startServer({
        computers: 6,
        now: TEST_NOW,
        quiet: true,
        estateCache: `${blocked}/estates`,
      });
      try {
        assert.equal(srv.store.count("computers"), 6);
      } finally {
        await srv.close();
      }
    });
  });

  it("test servers (withServer) keep their estates in TEST_ESTATES", async () => {
    const key = { computers: 7, seed: 31, now: TEST_NOW };
    const path = `${TEST_ESTATES}/${entryName(key, (await estateCodeVersion())!)}`;
    await Deno.remove(path).catch(() => {});
    await withServer(key, (srv) => Promise.resolve(srv.store.count("computers")));
    assert.ok((await Deno.stat(path)).size > 0, path);
    const count = await withServer(key, (srv) => Promise.resolve(srv.store.count("computers")));
    assert.equal(count, 7);
  });

  it("invalid options are refused as without a folder, and nothing is written", async () => {
    await inTempDir(async (dir) => {
      await assert.rejects(
        startServer({ computers: -1, quiet: true, estateCache: dir }),
        { name: "GenerateOptionsError" },
      );
      await assert.rejects(
        startServer({ computers: 3, now: new Date("nope"), quiet: true, estateCache: dir }),
        { name: "GenerateOptionsError" },
      );
      assert.equal([...Deno.readDirSync(dir)].length, 0);
    });
  });
});
