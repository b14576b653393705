import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "../../lib/server/server.ts";

describe("startServer start-up", () => {
  it("rejects an unknown dialect before generating or writing any estate", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-startup-" });
    const db = `${dir}/estate.db`;
    try {
      await assert.rejects(
        // deno-lint-ignore no-explicit-any
        () => startServer({ db, computers: 5, quiet: true, dialect: "bogus" as any }),
        (err: unknown) =>
          err instanceof RangeError &&
          /dialect must be "spec" or "real", not "bogus"/.test(err.message),
      );
      assert.equal(await Deno.stat(db).then(() => true, () => false), false, "no database file");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("serves an estate it generated into a database file, and reuses it on the next start", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-startup-" });
    const db = `${dir}/estate.db`;
    try {
      const first = await startServer({ db, computers: 5, seed: 2, quiet: true });
      const computers = first.store.count("computers");
      await first.close();
      const second = await startServer({ db, computers: 50, seed: 9, quiet: true });
      assert.equal(computers, 5);
      assert.equal(second.store.count("computers"), 5, "the estate in the file is reused");
      await second.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
