/**
 * An output folder swapped for a symbolic link while a run writes: the run's later files are
 * refused (the folder is re-checked by its real path before every write), and nothing lands
 * where the link points. The swap happens while the service holds a request of the run, so the
 * run is mid-way, by an event rather than a clock.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { outTestDir } from "../helpers/files.ts";
import { spawnCliBounded } from "../helpers/bounded.ts";
import { holdingProxy } from "../helpers/holding_proxy.ts";
import { checkWriteTarget, FolderChangedError, holdDir } from "../../lib/fs/held_dirs.ts";
import { writeAtomic } from "../../lib/render/atomic.ts";

const LIMIT = 180;
const TOKEN = "swap-token";

/** A symbolic link, made with `ln` (Deno.symlink needs every permission). */
async function link(target: string, path: string): Promise<void> {
  const { code } = await new Deno.Command("ln", { args: ["-s", target, path] }).output();
  assert.equal(code, 0, `ln -s ${target} ${path}`);
}

/** Everything below `dir`, relative. */
function tree(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(`${dir}/${prefix}`)) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory) out.push(...tree(dir, rel));
  }
  return out.sort();
}

let server: RunningServer;
let dir: string;
let elsewhere: string;

before(async () => {
  server = await startServer({
    port: 0,
    computers: 60,
    seed: 5,
    now: TEST_NOW,
    quiet: true,
    token: TOKEN,
  });
  dir = await outTestDir("out-swap-");
  // Where the link points: a place the task may write (so only the re-check can refuse it).
  elsewhere = await Deno.makeTempDir({ prefix: "out-swap-elsewhere-" });
});

after(async () => {
  await server?.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.remove(elsewhere, { recursive: true }).catch(() => {});
});

describe("an output folder swapped for a symbolic link mid-run", () => {
  it("report: the files are refused with the folder named, nothing is written through the link", async () => {
    const proxy = holdingProxy(server.url, /licenses/);
    const out = `${dir}/report-out`;
    const child = spawnCliBounded(
      ["report", "license-cost-summary", "--format", "json,csv", "--out", out]
        .concat(["--base-url", proxy.url, "--quiet"]),
      { set: "report", env: { SAM_TOKEN: TOKEN }, limitSeconds: LIMIT },
    );
    try {
      await Promise.race([proxy.held, child.result()]);
      // The folder is checked and made; the run waits on the service. Swap it for a link.
      await Deno.rename(out, `${out}.real`);
      await link(elsewhere, out);
      proxy.release();
      const r = await child.result();
      assert.equal(r.timedOut, false, r.stderr);
      assert.notEqual(r.code, 0, r.stderr);
      assert.match(r.stderr, /output folder .*report-out changed while the run wrote into it/);
      assert.match(r.stderr, /symbolic link/);
      assert.deepEqual(tree(elsewhere), [], "nothing written through the link");
      assert.deepEqual(tree(`${out}.real`), [], "nor into the folder moved away");
    } finally {
      try {
        child.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.result();
      await proxy.close();
    }
  });

  it("pack: a run folder swapped for a link gets no file and no manifest through it", async () => {
    const proxy = holdingProxy(server.url, /connectors/);
    const packFile = `${dir}/swapped.json`;
    await Deno.writeTextFile(
      packFile,
      JSON.stringify({
        name: "swapped",
        output: `${dir}/runs`,
        reports: [
          { id: "license-cost-summary", formats: ["json"] },
          { id: "connector-health", formats: ["json"] },
        ],
      }),
    );
    const child = spawnCliBounded(
      ["pack", packFile, "--base-url", proxy.url, "--quiet"],
      { set: "pack", env: { SAM_TOKEN: TOKEN }, limitSeconds: LIMIT },
    );
    try {
      await Promise.race([proxy.held, child.result()]);
      const packDir = `${dir}/runs/swapped`;
      const [run] = [...Deno.readDirSync(packDir)].map((e) => e.name).filter((n) =>
        !n.startsWith(".")
      );
      await Deno.rename(`${packDir}/${run}`, `${packDir}/moved-away`);
      await link(elsewhere, `${packDir}/${run}`);
      proxy.release();
      const r = await child.result();
      assert.equal(r.timedOut, false, r.stderr);
      assert.notEqual(r.code, 0, r.stderr);
      assert.match(r.stderr, /run folder .* changed while the run wrote into it/);
      assert.deepEqual(tree(elsewhere), [], "nothing written through the link");
    } finally {
      try {
        child.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.result();
      await proxy.close();
    }
  });
});

describe("a held folder", () => {
  it("refuses a write once it was replaced by another folder, or a sub-folder by a link", async () => {
    const root = await outTestDir("held-");
    try {
      const out = `${root}/out`;
      await Deno.mkdir(`${out}/sub`, { recursive: true });
      using _held = holdDir(out, "output folder");
      checkWriteTarget(`${out}/sub/a.csv`);
      await writeAtomic(`${out}/a.csv`, "a\n");

      await Deno.rename(`${out}/sub`, `${out}/sub.away`);
      await link(elsewhere, `${out}/sub`);
      assert.throws(() => checkWriteTarget(`${out}/sub/a.csv`), /outside it/);
      await assert.rejects(() => writeAtomic(`${out}/sub/b.csv`, "b\n"), FolderChangedError);

      await Deno.rename(out, `${root}/out.away`);
      await Deno.mkdir(out);
      assert.throws(
        () => checkWriteTarget(`${out}/c.csv`),
        /output folder .*out changed while the run wrote into it \(it was replaced by another folder\)/,
      );
      assert.deepEqual(tree(elsewhere), []);
      assert.deepEqual(tree(out), []);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});
