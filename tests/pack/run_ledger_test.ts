/**
 * A run's manifest once it is final: the last word. Work abandoned at a stop (still running in
 * the background) can neither move a file into the sealed run folder nor write `running` over
 * the final manifest; the synchronous settle of a process about to exit writes `interrupted`
 * and removes the staging folder.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { EvidenceFolder, SealedFolderError, stagingOf } from "../../lib/pack/evidence_folder.ts";
import { interruptLiveRunsSync, RunLedger } from "../../lib/pack/run_ledger.ts";
import type { PackFile } from "../../lib/pack/pack_file.ts";
import type { Manifest } from "../../lib/pack/manifest.ts";
import { outTestDir } from "../helpers/files.ts";

const PACK: PackFile = {
  name: "ledger",
  output: "unused",
  reports: [
    { id: "license-cost-summary", params: {}, formats: ["json"] },
    { id: "stale-computers", params: {}, formats: ["json"] },
  ],
};

function onDisk(dir: string): Manifest {
  return JSON.parse(Deno.readTextFileSync(`${dir}/manifest.json`)) as Manifest;
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

describe("a run's manifest once final", () => {
  it("is settled synchronously as interrupted at exit; later writes and moves change nothing", async () => {
    const root = await outTestDir("ledger-");
    try {
      const started = new Date("2026-11-22T06:05:00Z");
      const folder = await EvidenceFolder.create(`${root}/ledger`, started);
      const ledger = new RunLedger({ pack: PACK, folder, started });
      await ledger.write("running");
      await Deno.writeTextFile(`${folder.staged}/license-cost-summary.json`, "{}\n");
      assert.deepEqual(await ledger.settle(0, { status: "ok" }), ["license-cost-summary.json"]);
      await Deno.writeTextFile(`${folder.staged}/stale-computers.json`, "{}\n"); // not yet moved

      const at = new Date("2026-11-22T06:07:00Z");
      assert.deepEqual(interruptLiveRunsSync(at), [folder.dir]);
      const settled = onDisk(folder.dir);
      assert.equal(settled.status, "interrupted");
      assert.equal(settled.finished, at.toISOString());
      assert.deepEqual(settled.files.map((f) => f.path), ["license-cost-summary.json"]);
      assert.equal(exists(stagingOf(folder.dir)), false, "the staging folder is gone");
      assert.deepEqual(interruptLiveRunsSync(), [], "settled once");

      // The work left behind goes on: nothing it does reaches the folder or the manifest.
      assert.deepEqual(await ledger.settle(1, { status: "ok" }), []);
      assert.equal((await ledger.write("running")).status, "interrupted");
      await Deno.writeTextFile(`${root}/late.json`, "{}\n");
      await assert.rejects(() => folder.adopt(`${root}/late.json`, "late.json"), SealedFolderError);
      assert.deepEqual(onDisk(folder.dir), settled);
      assert.deepEqual(
        [...Deno.readDirSync(folder.dir)].map((e) => e.name).sort(),
        ["license-cost-summary.json", "manifest.json"],
      );
      await folder.close();
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });

  it("a final status written while a `running` write is queued stays the last word", async () => {
    const root = await outTestDir("ledger-");
    try {
      const started = new Date("2026-11-22T06:05:00Z");
      const folder = await EvidenceFolder.create(`${root}/ledger`, started);
      const ledger = new RunLedger({ pack: PACK, folder, started });
      const writes = [
        ledger.write("running"),
        ledger.write("complete", new Date("2026-11-22T06:06:00Z")),
        ledger.checkpoint(),
        ledger.write("running"),
      ];
      await Promise.allSettled(writes);
      assert.equal(onDisk(folder.dir).status, "complete");
      assert.equal(folder.sealed, true);
      assert.deepEqual(interruptLiveRunsSync(), [], "a finished run is not in progress");
      await folder.close();
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});
