/**
 * Queue benchmark: 20 tenant packs (20 reference servers, one per tenant) drained by one worker
 * process and by four, on this machine, in several rounds (one worker then four, then four
 * then one, and so on, so both see the same machine load); the median wall time of each, and the median of the rounds'
 * ratios with their range. Needs PostgreSQL: `SAMKIT_BENCH_DATABASE_URL` (else
 * `SAMKIT_TEST_DATABASE_URL`), a role that may CREATE DATABASE. `SAMKIT_BENCH_QUEUE_ROUNDS` sets
 * the rounds (default 5).
 *
 * Workers are started as `deno` found on PATH (what the bench permission set allows to run), not
 * `Deno.execPath()`: where Deno was installed from npm that is a different file
 * (`…/node_modules/deno/deno`) and the run permission refuses it.
 *
 * @module
 */

import pg from "pg";
import { startServer } from "../lib/server/server.ts";
import { openBoss } from "../lib/queue/boss.ts";
import { enqueuePacks } from "../lib/queue/enqueue.ts";
import { RunHistory } from "../lib/queue/history.ts";
import { waitForJobs } from "../lib/queue/wait_jobs.ts";
import { validatePack } from "../lib/pack/pack_file.ts";
import { validateTenants } from "../lib/tenants/tenants_file.ts";
import { REPORTS } from "../reports/mod.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const TENANTS = 20;
const PACK = {
  name: "bench",
  reports: [
    { id: "license-cost-summary", formats: ["json", "csv"] },
    { id: "stale-computers", formats: ["json"] },
    { id: "license-position", formats: ["json"] },
  ],
};

async function withDatabase<T>(admin: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `samkit_bench_${Date.now()}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** Drains 20 packs with `workers` worker processes; the wall time in ms. */
async function drain(admin: string, workers: number, baseUrls: string[], out: string) {
  return await withDatabase(admin, async (url) => {
    const boss = await openBoss(url);
    const history = await RunHistory.open(url, { max: 1 });
    const procs = Array.from({ length: workers }, () =>
      new Deno.Command("deno", {
        args: ["run", "-P=worker", "--no-prompt", "main.ts", "worker", "--concurrency", "1"]
          .concat(["--poll", "0.5", "--quiet"]),
        cwd: ROOT,
        env: {
          NO_COLOR: "1",
          SAMKIT_DATABASE_URL: url,
          BENCH_ID: "demo",
          BENCH_SECRET: "demo-secret",
        },
        stdout: "null",
        stderr: "null",
      }).spawn());
    try {
      const tenants = validateTenants({
        tenants: baseUrls.map((baseUrl, i) => ({
          id: `t${i + 1}`,
          name: `Tenant ${i + 1}`,
          baseUrl,
          credentials: { clientId: { env: "BENCH_ID" }, clientSecret: { env: "BENCH_SECRET" } },
        })),
      }, "bench");
      const packDoc = { ...PACK, output: `${out}/w${workers}` };
      const pack = validatePack(packDoc, { file: "bench", reports: REPORTS });
      await new Promise((r) => setTimeout(r, 1500)); // the workers start and poll
      const t0 = performance.now();
      const jobs = await enqueuePacks(boss, { pack, packDoc, packFile: "bench", tenants });
      const ends = await waitForJobs(boss, history, jobs.map((j) => j.jobId!), 600_000, 100);
      const ms = performance.now() - t0;
      const bad = ends.filter((e) => e.run?.status !== "complete");
      if (bad.length) throw new Error(`${bad.length} packs did not complete`);
      return ms;
    } finally {
      for (const p of procs) p.kill("SIGTERM");
      await Promise.all(procs.map((p) => p.status));
      await history.close();
      await boss.stop({ graceful: false, close: true });
    }
  });
}

/** The median of some numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function roundsOf(value: string | undefined): number {
  const n = Number(value ?? 5);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`SAMKIT_BENCH_QUEUE_ROUNDS: expected a whole number ≥ 1, got ${value}`);
  }
  return n;
}

/**
 * Runs the benchmark and prints one worker's median time, four workers' and the median ratio
 * of the rounds with its range.
 *
 * @example
 * ```ts ignore
 * import { benchQueue } from "./queue_bench.ts";
 * await benchQueue();
 * ```
 */
export async function benchQueue(): Promise<void> {
  const admin = Deno.env.get("SAMKIT_BENCH_DATABASE_URL") ??
    Deno.env.get("SAMKIT_TEST_DATABASE_URL");
  if (!admin) {
    console.log("queue: skipped: set SAMKIT_BENCH_DATABASE_URL (or SAMKIT_TEST_DATABASE_URL)");
    return;
  }
  const rounds = roundsOf(Deno.env.get("SAMKIT_BENCH_QUEUE_ROUNDS"));
  const servers = await Promise.all(
    Array.from(
      { length: TENANTS },
      (_, i) => startServer({ port: 0, computers: 300, seed: i + 1, quiet: true }),
    ),
  );
  const out = await Deno.makeTempDir({ dir: "/tmp", prefix: "samkit-queue-bench-" });
  try {
    const urls = servers.map((s) => s.url);
    const ones: number[] = [];
    const fours: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // ABBA order: a load that drifts over the run weighs on both sides alike.
      const order = round % 2 ? [4, 1] : [1, 4];
      for (const workers of order) {
        const ms = await drain(admin, workers, urls, `${out}/r${round}`);
        (workers === 1 ? ones : fours).push(ms);
      }
    }
    const ratios = ones.map((one, i) => one / fours[i]);
    const one = median(ones);
    const four = median(fours);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const x = (r: number) => `${r.toFixed(2)}x`;
    console.log(
      `queue: ${TENANTS} tenant packs (${PACK.reports.length} reports each), median of ` +
        `${rounds} rounds`,
    );
    console.log(`  1 worker : ${s(one)}  (${(TENANTS / one * 60_000).toFixed(1)} packs/min)`);
    console.log(`  4 workers: ${s(four)}  (${(TENANTS / four * 60_000).toFixed(1)} packs/min)`);
    console.log(
      `  speed-up : ${x(median(ratios))} (rounds ${x(Math.min(...ratios))}-` +
        `${x(Math.max(...ratios))}) on ${navigator.hardwareConcurrency} cores`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await benchQueue();
