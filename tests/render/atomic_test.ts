import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  atomicFile,
  isTempName,
  openAtomicText,
  withAtomicFile,
  writeAtomic,
} from "../../lib/render/atomic.ts";
import { listDir, removeTempDirs, tempDir } from "./helpers.ts";

after(removeTempDirs);

describe("atomic", () => {
  it("writes under a temp name in the same folder and renames on commit", async () => {
    const dir = await tempDir();
    const target = join(dir, "out.txt");
    const file = atomicFile(target);
    assert.equal(file.target, target);
    assert.ok(file.path.startsWith(`${target}.tmp-`));
    assert.ok(isTempName(file.path));
    await Deno.writeTextFile(file.path, "done");
    assert.deepEqual(await listDir(dir), [file.path.slice(dir.length + 1)]);
    assert.equal(await file.commit(), target);
    assert.deepEqual(await listDir(dir), ["out.txt"]);
    assert.equal(await Deno.readTextFile(target), "done");
  });

  it("replaces an existing file only when the new one is complete", async () => {
    const dir = await tempDir();
    const target = join(dir, "r.json");
    await writeAtomic(target, "old");
    const out = await openAtomicText(target);
    await out.write("new");
    assert.equal(await Deno.readTextFile(target), "old");
    await out.commit();
    assert.equal(await Deno.readTextFile(target), "new");
  });

  it("removes the temp file on abort and on a failed write", async () => {
    const dir = await tempDir();
    const target = join(dir, "x.bin");
    await assert.rejects(
      withAtomicFile(target, async (tmp) => {
        await Deno.writeFile(tmp, new Uint8Array([1, 2, 3]));
        throw new Error("disk full");
      }),
      /disk full/,
    );
    assert.deepEqual(await listDir(dir), []);
    const out = await openAtomicText(target);
    await out.write("partial");
    await out.abort();
    await out.abort();
    assert.deepEqual(await listDir(dir), []);
  });

  it("streams many small writes into one file and refuses writes after close", async () => {
    const dir = await tempDir();
    const out = await openAtomicText(join(dir, "big.txt"));
    for (let i = 0; i < 20_000; i++) await out.write(`line ${i} — ü\n`);
    await out.close();
    await assert.rejects(out.write("late"));
    const path = await out.commit();
    const lines = (await Deno.readTextFile(path)).split("\n");
    assert.equal(lines.length, 20_001);
    assert.equal(lines[19_999], "line 19999 — ü");
  });
});
