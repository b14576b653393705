import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkfifo, runCliBounded, spawnBounded } from "../helpers/bounded.ts";
import { OWNER_MARKER, ownerState, removeStaleDirs } from "../../lib/fs/owned_temp.ts";
import { outTestDir } from "../helpers/files.ts";

/** A symbolic link, made with `ln` (Deno.symlink needs every permission). */
async function link(target: string, path: string): Promise<void> {
  const { code } = await new Deno.Command("ln", { args: ["-s", target, path] }).output();
  assert.equal(code, 0, `ln -s ${target} ${path}`);
}

/**
 * A shared temp folder with traps laid by someone else: `samkit-*` folders whose owner marker is
 * a FIFO, a link to a FIFO, or a regular marker naming a FIFO (or a device) as its lock file.
 * Returns the trap folders.
 */
async function trappedTemp(tmp: string): Promise<string[]> {
  const traps = ["fifo-marker", "linked-marker", "fifo-lock", "device-lock"].map((n) =>
    `${tmp}/samkit-${n}`
  );
  for (const dir of traps) await Deno.mkdir(dir);
  await mkfifo(`${tmp}/a.fifo`);
  await mkfifo(`${traps[0]}/${OWNER_MARKER}`);
  await link(`${tmp}/a.fifo`, `${traps[1]}/${OWNER_MARKER}`);
  await Deno.writeTextFile(
    `${traps[2]}/${OWNER_MARKER}`,
    JSON.stringify({ pid: 1, lock: `${tmp}/a.fifo` }),
  );
  await Deno.writeTextFile(
    `${traps[3]}/${OWNER_MARKER}`,
    JSON.stringify({ pid: 1, lock: "/dev/zero" }),
  );
  return traps;
}

describe("a shared temp folder with a FIFO where samkit's owner marker goes", () => {
  it("is skipped by the sweep: the traps are unknown, kept, and nothing blocks", async () => {
    const tmp = await Deno.makeTempDir({ prefix: "stale-fifo-" });
    try {
      const traps = await trappedTemp(tmp);
      // In a child: a sweep that opened the FIFO would block this test process for good.
      const script = `import { removeStaleDirs, ownerState } from ${
        JSON.stringify(new URL("../../lib/fs/owned_temp.ts", import.meta.url).href)
      };
        const states = [];
        for (const d of ${JSON.stringify(traps)}) states.push(await ownerState(d));
        console.log(JSON.stringify({ states, removed: await removeStaleDirs({ dir: ${
        JSON.stringify(tmp)
      } }) }));`;
      const main = `${tmp}/probe.ts`;
      await Deno.writeTextFile(main, script);
      const r = await spawnBounded(
        new Deno.Command(Deno.execPath(), {
          args: ["run", "--no-prompt", "--allow-read", "--allow-write", "--allow-env", main],
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }),
        60,
      ).result();
      assert.equal(r.timedOut, false, "the sweep blocked on a FIFO (killed after 60 s)");
      assert.equal(r.code, 0, r.stderr);
      const { states, removed } = JSON.parse(r.stdout);
      assert.deepEqual(states, ["unknown", "unknown", "unknown", "unknown"]);
      assert.deepEqual(removed, []);
      for (const dir of traps) assert.ok((await Deno.lstat(dir)).isDirectory, `${dir} kept`);
      // In this process too, now that it is known not to block.
      assert.equal(await ownerState(traps[0]), "unknown");
      assert.deepEqual(await removeStaleDirs({ dir: tmp }), []);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  });

  it("does not stop a report: it runs and exits 0", async () => {
    const tmp = await Deno.makeTempDir({ prefix: "stale-fifo-" });
    const out = await outTestDir("stale-fifo-");
    try {
      await trappedTemp(tmp);
      const r = await runCliBounded(
        ["report", "license-cost-summary", "--format", "json", "--out", out, "--quiet"],
        { set: "report", env: { TMPDIR: tmp }, limitSeconds: 120 },
      );
      assert.equal(r.timedOut, false, "the report hung at start-up (killed after 120 s)");
      assert.equal(r.code, 0, r.stderr);
      const files = [...Deno.readDirSync(out)].map((e) => e.name);
      assert.ok(files.some((n) => n.endsWith(".json")), files.join(", "));
    } finally {
      await Deno.remove(tmp, { recursive: true });
      await Deno.remove(out, { recursive: true });
    }
  });
});
