import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { basename } from "node:path";
import {
  makeOwnedTempDir,
  OWNER_MARKER,
  ownerState,
  removeStaleDirs,
} from "../../lib/fs/owned_temp.ts";

const MODULE = new URL("../../lib/fs/owned_temp.ts", import.meta.url).href;

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

/** Starts a process that makes an owned `samkit-spool-*` folder in `tmp`, then waits. */
async function ownerProcess(tmp: string) {
  const script = `import { makeOwnedTempDir } from ${JSON.stringify(MODULE)};
    console.log(await makeOwnedTempDir({ prefix: "samkit-spool-" }));
    await new Promise(() => setInterval(() => {}, 1000));`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    env: { TMPDIR: tmp, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let line = "";
  while (!line.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    line += value;
  }
  reader.releaseLock();
  return { child, folder: line.trim() };
}

describe("stale temp folders", () => {
  it("a folder of a live process is alive and kept, even by another process's sweep", async () => {
    const tmp = await Deno.makeTempDir({ prefix: "stale-test-" });
    const { child, folder } = await ownerProcess(tmp);
    try {
      assert.ok(folder.startsWith(`${tmp}/samkit-spool-`), folder);
      assert.equal(await ownerState(folder), "alive");
      assert.deepEqual(await removeStaleDirs({ dir: tmp }), []);
      assert.ok((await names(tmp)).includes(folder.slice(tmp.length + 1)));
    } finally {
      child.kill("SIGKILL");
      await child.status;
      await child.stdout.cancel().catch(() => {});
    }
    await Deno.remove(tmp, { recursive: true });
  });

  it("the folders of a SIGKILLed process are dead and removed, its lock folder too", async () => {
    const tmp = await Deno.makeTempDir({ prefix: "stale-test-" });
    const { child, folder } = await ownerProcess(tmp);
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    assert.equal(await ownerState(folder), "dead");
    const before = await names(tmp);
    assert.equal(before.length, 2, before.join(", ")); // the spool and the owner's lock folder
    assert.ok(before.some((n) => n.startsWith("samkit-owner-")), before.join(", "));
    const removed = await removeStaleDirs({ dir: tmp });
    assert.equal(removed.length, 2, removed.join(", "));
    assert.deepEqual(await names(tmp), []);
    await Deno.remove(tmp);
  });

  it("an unmarked folder and a folder of this process are left alone", async () => {
    const tmp = await Deno.makeTempDir({ prefix: "stale-test-" });
    await Deno.mkdir(`${tmp}/samkit-spool-old`);
    const mine = await makeOwnedTempDir({ dir: tmp, prefix: "samkit-chrome-" });
    assert.ok((await names(mine)).includes(OWNER_MARKER));
    assert.equal(await ownerState(`${tmp}/samkit-spool-old`), "unknown");
    assert.deepEqual(await removeStaleDirs({ dir: tmp }), []);
    assert.deepEqual(await names(tmp), [basename(mine), "samkit-spool-old"].sort());
    await Deno.remove(tmp, { recursive: true });
  });
});
