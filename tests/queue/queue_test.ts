import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { type Manifest, sha256File } from "../../lib/pack/manifest.ts";
import { openBoss } from "../../lib/queue/boss.ts";
import { enqueuePacks } from "../../lib/queue/enqueue.ts";
import { RunHistory } from "../../lib/queue/history.ts";
import { waitForJobs } from "../../lib/queue/wait_jobs.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { validateTenants } from "../../lib/tenants/tenants_file.ts";
import { REPORTS } from "../../reports/mod.ts";
import { freshDatabase, testDatabaseUrl } from "./test_database.ts";
import { startGateProxy } from "./gate_proxy.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ADMIN_URL = testDatabaseUrl("queue tests");
const TENANTS = ["alpha", "beta", "gamma"];

/** A worker process with its stderr kept (printed when a test fails). */
interface WorkerProcess {
  readonly child: Deno.ChildProcess;
  readonly log: string[];
}

function spawnWorker(url: string, env: Record<string, string>, tmp: string): WorkerProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=worker", "--no-prompt", "main.ts", "worker", "--concurrency", "1"]
      .concat(["--poll", "0.5", "--supervise", "1"]),
    cwd: ROOT,
    env: { ...env, NO_COLOR: "1", TMPDIR: tmp, SAMKIT_DATABASE_URL: url },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) log.push(chunk);
  })().catch(() => {});
  return { child, log };
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

/** The manifest lists exactly the files in its folder, each with its checksum. */
async function assertHonest(dir: string): Promise<Manifest> {
  const manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`)) as Manifest;
  const onDisk = (await names(dir)).filter((n) => n !== "manifest.json");
  assert.deepEqual(manifest.files.map((f) => f.path), onDisk, `${dir}: listed = on disk`);
  for (const f of manifest.files) {
    assert.equal(await sha256File(`${dir}/${f.path}`), f.sha256, `${dir}/${f.path}`);
  }
  return manifest;
}

describe("packs as jobs on PostgreSQL", { skip: ADMIN_URL === null }, () => {
  let db: { url: string; drop: () => Promise<void> };
  let dir: string;
  let tmp: string;
  const servers: RunningServer[] = [];
  const workers: WorkerProcess[] = [];
  const env: Record<string, string> = {};
  let history: RunHistory;

  before(async () => {
    db = await freshDatabase(ADMIN_URL!);
    await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
    dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "queue-" });
    tmp = await Deno.makeTempDir({ prefix: "queue-tmp-" });
    const entries = [];
    for (const [i, id] of [...TENANTS, "delta"].entries()) {
      const secret = `${id}-secret`;
      const srv = await startServer({
        port: 0,
        computers: 200,
        seed: i + 1,
        now: TEST_NOW,
        quiet: true,
        clientId: id,
        clientSecret: secret,
      });
      servers.push(srv);
      const upper = id.toUpperCase();
      env[`${upper}_CLIENT_ID`] = id;
      env[`${upper}_CLIENT_SECRET`] = secret;
      entries.push({
        id,
        name: `${id[0].toUpperCase()}${id.slice(1)} Ltd`,
        baseUrl: srv.url,
        credentials: {
          clientId: { env: `${upper}_CLIENT_ID` },
          clientSecret: { env: `${upper}_CLIENT_SECRET` },
        },
        maxConcurrency: 4,
      });
    }
    // delta's service refuses everything: 403 on every request, the token endpoint included.
    servers[3].faults.add({ status: 403, times: 1_000_000 });
    await Deno.writeTextFile(`${dir}/tenants.json`, JSON.stringify({ tenants: entries }));
    await Deno.writeTextFile(
      `${dir}/light.json`,
      JSON.stringify({
        name: "light",
        output: `${dir}/runs`,
        reports: [
          { id: "license-cost-summary", formats: ["json"] },
          { id: "stale-computers", formats: ["json", "csv"] },
        ],
      }),
    );
    workers.push(spawnWorker(db.url, env, tmp), spawnWorker(db.url, env, tmp));
    history = await RunHistory.open(db.url, { max: 1 });
  });

  after(async () => {
    for (const w of workers) {
      try {
        w.child.kill("SIGTERM");
      } catch {
        // already gone
      }
      await w.child.status;
    }
    await history?.close();
    for (const s of servers) await s.close();
    await db?.drop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  });

  it("runs every tenant's pack once, one at a time per tenant; the 403 tenant fails alone and is reported", async () => {
    const enqueue = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=enqueue", "--no-prompt", "main.ts", "enqueue", `${dir}/light.json`]
        .concat(["--tenants", `${dir}/tenants.json`, "--wait", "--timeout", "120"])
        .concat(["--heartbeat", "10", "--retry-delay", "1"]),
      cwd: ROOT,
      env: { NO_COLOR: "1", SAMKIT_DATABASE_URL: db.url },
    }).output();
    const out = new TextDecoder().decode(enqueue.stdout);
    const err = new TextDecoder().decode(enqueue.stderr);
    const debug = `${out}\n${err}\n${workers.map((w) => w.log.join("")).join("\n")}`;
    assert.equal(enqueue.code, 1, `delta failed, so exit 1\n${debug}`);
    const lines = out.trim().split("\n").map((l) => l.split("\t"));
    assert.deepEqual(lines.map((l) => [l[0], l[1]]), [
      ["alpha", "complete"],
      ["beta", "complete"],
      ["gamma", "complete"],
      ["delta", "failed"],
    ], debug);
    assert.match(
      lines[3].slice(2).join(" "),
      /\(.*\b403\b.*\)$/,
      `the failure says why: ${lines[3]}`,
    );

    const runs = await history.runs({ pack: "light" });
    for (const id of [...TENANTS, "delta"]) {
      const mine = runs.filter((r) => r.tenantId === id);
      assert.equal(mine.length, 1, `${id}: one attempt, no retry\n${debug}`);
      const folders = (await names(`${dir}/runs/${id}/light`)).filter((n) => !n.startsWith("."));
      assert.equal(folders.length, 1, `${id}: one run folder`);
      assert.equal(mine[0].dir, `${dir}/runs/${id}/light/${folders[0]}`);
      const manifest = await assertHonest(mine[0].dir!);
      assert.deepEqual(mine[0].manifest, manifest, `${id}: the history keeps the manifest`);
    }
    for (const id of TENANTS) {
      const run = runs.find((r) => r.tenantId === id)!;
      assert.equal(run.status, "complete");
      assert.ok(run.figures!.length > 0, `${id}: figures kept`);
      assert.ok(run.manifest!.source.startsWith("http://127.0.0.1:"), run.manifest!.source);
    }
    const delta = runs.find((r) => r.tenantId === "delta")!;
    assert.equal(delta.status, "failed");
    assert.ok(delta.manifest!.reports.every((r) => r.status === "failed"));
  });

  it("never runs a tenant's pack twice at once", async () => {
    const url = db.url;
    const boss = await openBoss(url);
    try {
      const packDoc = JSON.parse(await Deno.readTextFile(`${dir}/light.json`));
      const pack = validatePack(packDoc, { file: "light.json", reports: REPORTS });
      const tenants = validateTenants(
        JSON.parse(await Deno.readTextFile(`${dir}/tenants.json`)),
        "tenants.json",
      ).filter((t) => t.id === "beta");
      const jobs = [
        ...await enqueuePacks(boss, { pack, packDoc, packFile: "light.json", tenants }),
        ...await enqueuePacks(boss, { pack, packDoc, packFile: "light.json", tenants }),
      ];
      const ends = await waitForJobs(boss, history, jobs.map((j) => j.jobId!), 120_000, 250);
      assert.deepEqual(ends.map((e) => e.run?.status), ["complete", "complete"]);
      const [a, b] = ends.map((e) => e.run!).sort((x, y) => +x.started - +y.started);
      assert.ok(+a.finished! <= +b.started, `overlap: ${a.finished} > ${b.started}`);
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
  });

  it("finishes a killed worker's pack on the other worker, with honest manifests and no duplicate evidence", async () => {
    // Two reports: the kill lands after the first, while the second (every computer, as PDF and
    // XLSX) is under way: held at the gate on its per-computer entitlements, the read only it
    // makes. The retry then runs both again.
    const packDoc = {
      name: "heavy",
      output: `${dir}/runs`,
      reports: [
        { id: "license-cost-summary", formats: ["pdf", "json", "csv"] },
        { id: "entitlement-state-by-computer", formats: ["pdf", "xlsx", "json"] },
      ],
    };
    const pack = validatePack(packDoc, { file: "heavy.json", reports: REPORTS });
    const gate = startGateProxy(servers[2].url, {
      hold: /\/licenses\/entitlements\/computers/,
    });
    const tenants = validateTenants(
      JSON.parse(await Deno.readTextFile(`${dir}/tenants.json`)),
      "tenants.json",
    ).filter((t) => t.id === "gamma").map((t) => ({ ...t, baseUrl: gate.url }));
    const boss = await openBoss(db.url);
    try {
      // Retried at once when the supervisor finds the killed worker's heartbeat gone (10 s is
      // the shortest heartbeat pg-boss allows): the wait is for that event, not for a delay.
      const [job] = await enqueuePacks(boss, {
        pack,
        packDoc,
        packFile: "heavy.json",
        tenants,
        jobOptions: { heartbeatSeconds: 10, retryDelay: 0, retryBackoff: false },
      });
      // The first attempt has finished a report and waits at the gate in the second: kill it.
      const ended = waitForJobs(boss, history, [job.jobId!], 120_000, 100);
      const held = await Promise.race([gate.holding.then(() => true), ended.then(() => false)]);
      assert.ok(held, "the second report read per-computer entitlements through the gate");
      const first = (await history.runs({ jobIds: [job.jobId!] }))[0];
      const m = JSON.parse(await Deno.readTextFile(`${first.dir}/manifest.json`)) as Manifest;
      assert.equal(m.status, "running");
      assert.deepEqual([m.reports[0].id, m.reports[0].status], ["license-cost-summary", "ok"]);
      const pid = Number(first.worker.split(":").at(-1));
      const victim = workers.find((w) => w.child.pid === pid)!;
      assert.ok(victim, `the worker ${first.worker} is one of ours`);
      victim.child.kill("SIGKILL");
      assert.equal((await victim.child.status).signal, "SIGKILL");
      gate.open();
      const survivor = workers.find((w) => w !== victim)!;

      const [end] = await ended;
      const debug = survivor.log.join("");
      assert.equal(end.state, "completed", debug);
      const attempts = await history.runs({ jobIds: [job.jobId!] });
      assert.deepEqual(attempts.map((r) => [r.attempt, r.status]), [
        [0, "abandoned"],
        [1, "complete"],
      ], debug);
      assert.equal(attempts[1].worker.split(":").at(-1), String(survivor.child.pid));
      const dead = await assertHonest(attempts[0].dir!);
      assert.equal(dead.status, "abandoned");
      assert.equal(dead.finished, null);
      assert.deepEqual(attempts[0].manifest, dead);
      const done = await assertHonest(attempts[1].dir!);
      assert.equal(done.status, "complete");
      assert.ok(done.reports.every((r) => r.status === "ok"));
      // The tenant's pack folder: the abandoned attempt and the complete one, no staging left.
      const folders = await names(join(`${dir}/runs/gamma/heavy`));
      assert.deepEqual(
        folders,
        [attempts[0].dir!, attempts[1].dir!].map((d) => d.split("/").at(-1)).sort(),
      );
      const complete = attempts.filter((r) => r.status === "complete");
      assert.equal(complete.length, 1, "one complete run of the job in the history");
    } finally {
      await boss.stop({ graceful: false, close: true });
      await gate.close();
    }
  });
  it("reads the portfolio across tenants from the history, not the SAM API", async () => {
    const out = `${dir}/portfolio`;
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=report", "--no-prompt", "main.ts", "report", "portfolio"]
        .concat(["--param", "pack=light", "--format", "json", "--out", out, "--quiet"]),
      cwd: ROOT,
      env: { NO_COLOR: "1", SAMKIT_DATABASE_URL: db.url },
    }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    const doc = JSON.parse(await Deno.readTextFile(`${out}/portfolio.json`));
    const section = (id: string) => doc.sections.find((s: { id: string }) => s.id === id);
    const compliance = section("compliance").rows;
    assert.deepEqual(
      compliance.map((r: Record<string, unknown>) => [r.tenant, r.status]),
      [["Alpha Ltd", "complete"], ["Beta Ltd", "complete"], ["Delta Ltd", "failed"], [
        "Gamma Ltd",
        "complete",
      ]],
    );
    const spend = section("cost-to-date");
    const firstRuns = section("cost-to-date-first-runs");
    const tenants = new Set(
      [...spend.rows, ...firstRuns.rows].map((r: { tenant: string }) => r.tenant),
    );
    assert.deepEqual([...tenants].sort(), ["Alpha Ltd", "Beta Ltd", "Gamma Ltd"]);
    // The comparison's totals are over the same tenants on both sides.
    for (
      const [currency, t] of Object.entries(spend.totals as Record<string, Record<string, number>>)
    ) {
      assert.ok(
        Math.abs(t.value - t.previous - t.change) < 0.005,
        `${currency}: ${JSON.stringify(t)}`,
      );
    }
    for (const r of firstRuns.rows) assert.equal(r.previous, undefined);
    // beta ran three times on an unchanged estate: a previous run, and no movement.
    for (const r of spend.rows.filter((r: { tenant: string }) => r.tenant === "Beta Ltd")) {
      assert.equal(r.change, 0);
      assert.equal(r.previous, r.value);
    }
    // One totals line per currency, never one across currencies.
    assert.ok(
      !("All" in spend.totals) || !("value" in spend.totals.All),
      JSON.stringify(spend.totals),
    );
  });
});
