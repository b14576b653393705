/**
 * SIGTERM and SIGINT end a pack (and a schedule) promptly wherever it waits, with the run record
 * settled: exit 143 or 130, the manifest `interrupted` with its finishing time and exactly the
 * finished files, no staging folder and no temp folder left. Each child has a guard that kills
 * it, and fails the test, if it does not end by itself.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { outTestDir } from "../helpers/files.ts";
import { spawnCliBounded } from "../helpers/bounded.ts";
import { holdingProxy } from "../helpers/holding_proxy.ts";
import { type Manifest, sha256File } from "../../lib/pack/manifest.ts";

const LIMIT = 180;
const TOKEN = "signals-token";

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

let server: RunningServer;
let dir: string;

before(async () => {
  server = await startServer({
    port: 0,
    computers: 60,
    seed: 3,
    now: TEST_NOW,
    quiet: true,
    token: TOKEN,
  });
  dir = await outTestDir("signals-");
});

after(async () => {
  await server?.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
});

describe("a pack told to stop while the service stops answering mid-run", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal}: exits ${signal === "SIGTERM" ? 143 : 130}; the manifest says interrupted and lists the finished report's files`, async () => {
      const proxy = holdingProxy(server.url, /connectors/);
      const tmp = await Deno.makeTempDir({ prefix: "signals-tmp-" });
      const name = `stopped-${signal.toLowerCase()}`;
      const packFile = `${dir}/${name}.json`;
      await Deno.writeTextFile(
        packFile,
        JSON.stringify({
          name,
          output: `${dir}/runs`,
          reports: [
            { id: "license-cost-summary", formats: ["json", "csv"] },
            { id: "connector-health", formats: ["json"] },
          ],
        }),
      );
      const child = spawnCliBounded(
        ["pack", packFile, "--base-url", proxy.url, "--quiet"],
        { set: "pack", env: { SAM_TOKEN: TOKEN, TMPDIR: tmp }, limitSeconds: LIMIT },
      );
      try {
        // The first report is done and the second waits on the service: now stop the run.
        await Promise.race([proxy.held, child.result()]);
        child.child.kill(signal);
        const r = await child.result();
        assert.equal(r.timedOut, false, `the pack ignored ${signal}\n${r.stderr}`);
        assert.equal(r.signal, null, "it ended by itself, not by the signal's default");
        assert.equal(r.code, signal === "SIGTERM" ? 143 : 130, r.stderr);

        const packDir = `${dir}/runs/${name}`;
        const runs = await names(packDir);
        assert.equal(runs.length, 1, `one run folder and no staging folder: ${runs}`);
        const run = `${packDir}/${runs[0]}`;
        assert.equal(r.stdout.trim(), `${run}/manifest.json`);
        const manifest = JSON.parse(await Deno.readTextFile(`${run}/manifest.json`)) as Manifest;
        assert.equal(manifest.status, "interrupted");
        assert.ok(manifest.finished, "the manifest says when it stopped");
        assert.deepEqual(manifest.reports.map((x) => [x.id, x.status]), [
          ["license-cost-summary", "ok"],
          ["connector-health", "skipped"],
        ]);
        const onDisk = (await names(run)).filter((n) => n !== "manifest.json");
        assert.deepEqual(manifest.files.map((f) => f.path), onDisk, "listed = on disk");
        assert.ok(onDisk.length >= 2, `the finished report's files: ${onDisk}`);
        for (const f of manifest.files) {
          assert.equal(await sha256File(`${run}/${f.path}`), f.sha256, f.path);
        }
        assert.deepEqual(await names(tmp), [], "no temp folder left");
      } finally {
        try {
          child.child.kill("SIGKILL");
        } catch {
          // already gone
        }
        await child.result();
        await proxy.close();
        await Deno.remove(tmp, { recursive: true });
      }
    });
  }

  it("a second signal ends it at once, the run still settled", async () => {
    const proxy = holdingProxy(server.url, /connectors/);
    const tmp = await Deno.makeTempDir({ prefix: "signals-tmp-" });
    const packFile = `${dir}/twice.json`;
    await Deno.writeTextFile(
      packFile,
      JSON.stringify({
        name: "twice",
        output: `${dir}/runs`,
        reports: [
          { id: "license-cost-summary", formats: ["json"] },
          { id: "connector-health", formats: ["json"] },
        ],
      }),
    );
    const child = spawnCliBounded(
      ["pack", packFile, "--base-url", proxy.url, "--quiet"],
      { set: "pack", env: { SAM_TOKEN: TOKEN, TMPDIR: tmp }, limitSeconds: LIMIT },
    );
    try {
      await Promise.race([proxy.held, child.result()]);
      child.child.kill("SIGTERM");
      await child.waitForStderr("SIGTERM: stopping");
      try {
        child.child.kill("SIGTERM");
      } catch {
        // it may have ended already
      }
      const r = await child.result();
      assert.equal(r.timedOut, false, r.stderr);
      assert.equal(r.code, 143, r.stderr);
      const runs = await names(`${dir}/runs/twice`);
      assert.equal(runs.length, 1, `no staging folder: ${runs}`);
      const manifest = JSON.parse(
        await Deno.readTextFile(`${dir}/runs/twice/${runs[0]}/manifest.json`),
      ) as Manifest;
      assert.equal(manifest.status, "interrupted");
      assert.deepEqual(await names(tmp), [], "no temp folder left");
    } finally {
      try {
        child.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.result();
      await proxy.close();
      await Deno.remove(tmp, { recursive: true });
    }
  });
});

describe("a schedule told to stop while it sleeps until the next run", () => {
  it("SIGTERM: exits 143 at once", async () => {
    const packFile = `${dir}/yearly.json`;
    await Deno.writeTextFile(
      packFile,
      JSON.stringify({
        name: "yearly",
        output: `${dir}/runs`,
        reports: [{ id: "license-cost-summary", formats: ["json"] }],
        schedule: { cron: "0 6 1 1 *", timezone: "UTC" },
      }),
    );
    const child = spawnCliBounded(
      ["schedule", packFile, "--base-url", server.url],
      { set: "pack", env: { SAM_TOKEN: TOKEN }, limitSeconds: LIMIT },
    );
    try {
      assert.ok(await child.waitForStderr("next run at"), child.stderrSoFar());
      child.child.kill("SIGTERM");
      const r = await child.result();
      assert.equal(r.timedOut, false, `the schedule ignored SIGTERM\n${r.stderr}`);
      assert.equal(r.code, 143, r.stderr);
    } finally {
      try {
        child.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.result();
    }
  });
});
