/**
 * The output folder check leaves nothing behind unless something is written: the folders it
 * creates go again while empty, a folder that was already there is never removed, and a folder
 * holding a file is kept with every folder above it.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ensureWritableDir } from "../../lib/report/output_dir.ts";
import { OutputError } from "../../lib/report/errors.ts";
import { exists } from "../helpers/files.ts";

describe("ensureWritableDir", () => {
  it("remembers the folders it created and removes them while they are empty", async () => {
    const root = await Deno.makeTempDir();
    try {
      const out = await ensureWritableDir(`${root}/a/b/c`);
      assert.deepEqual(out.created, [`${root}/a`, `${root}/a/b`, `${root}/a/b/c`]);
      assert.ok(await exists(`${root}/a/b/c`), "created to prove it writable");
      assert.deepEqual([...Deno.readDirSync(`${root}/a/b/c`)], [], "the probe is gone");
      await out.removeIfEmpty();
      assert.equal(await exists(`${root}/a`), false);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });

  it("keeps a created folder that holds a file, and the folders above it", async () => {
    const root = await Deno.makeTempDir();
    try {
      {
        await using out = await ensureWritableDir(`${root}/a/b`);
        await Deno.writeTextFile(`${out.dir}/report.json`, "{}");
      }
      assert.equal(await Deno.readTextFile(`${root}/a/b/report.json`), "{}");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });

  it("never removes a folder that was there before, even when it is empty", async () => {
    const root = await Deno.makeTempDir();
    try {
      await Deno.mkdir(`${root}/kept`);
      {
        await using out = await ensureWritableDir(`${root}/kept/new`);
        assert.deepEqual(out.created, [`${root}/kept/new`]);
      }
      assert.equal(await exists(`${root}/kept/new`), false);
      assert.ok(await exists(`${root}/kept`));
      await using again = await ensureWritableDir(`${root}/kept`);
      assert.deepEqual(again.created, []);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });

  it("a failed check (a file in the way) creates nothing", async () => {
    const root = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${root}/file`, "x");
      await assert.rejects(ensureWritableDir(`${root}/file/under`), OutputError);
      assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["file"]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});
