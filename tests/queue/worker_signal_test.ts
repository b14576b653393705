/**
 * A worker told to stop (SIGTERM, SIGINT) while its pack waits on a tenant that never answers:
 * it ends, with the signal's exit code, and the attempt's run record is settled rather than left
 * `running`. A guard kills a worker that does not end, and the test fails.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { openBoss } from "../../lib/queue/boss.ts";
import { enqueuePacks } from "../../lib/queue/enqueue.ts";
import { RunHistory } from "../../lib/queue/history.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { validateTenants } from "../../lib/tenants/tenants_file.ts";
import { REPORTS } from "../../reports/mod.ts";
import { freshDatabase, testDatabaseUrl } from "./test_database.ts";
import { spawnBounded } from "../helpers/bounded.ts";
import { outTestDir } from "../helpers/files.ts";
import { ROOT } from "../helpers/cli.ts";

const ADMIN_URL = testDatabaseUrl("worker signal tests");
const LIMIT = 180;

/** A TCP server that accepts connections and never says anything: a tenant that hangs. */
function blackHole(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      listener.close();
      for (const c of held) {
        try {
          c.close();
        } catch {
          // already closed
        }
      }
    },
  };
}

describe("a worker told to stop", { skip: ADMIN_URL === null }, () => {
  let dir: string;
  let tmp: string;
  let hole: ReturnType<typeof blackHole>;

  before(async () => {
    dir = await outTestDir("worker-signal-");
    tmp = await Deno.makeTempDir({ prefix: "worker-signal-tmp-" });
    hole = blackHole();
  });

  after(async () => {
    hole?.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} while its pack waits on a tenant that never answers: it exits, the attempt settled`, async () => {
      const tenantId = signal.toLowerCase();
      // A database of its own: the job the other test's worker left is not this worker's.
      const db = await freshDatabase(ADMIN_URL!);
      const packDoc = {
        name: "stuck",
        output: `${dir}/runs`,
        reports: [{ id: "license-cost-summary", formats: ["json"] }],
      };
      const pack = validatePack(packDoc, { file: "stuck.json", reports: REPORTS });
      const tenants = validateTenants({
        tenants: [{
          id: tenantId,
          name: "Hangs Ltd",
          baseUrl: `http://127.0.0.1:${hole.port}`,
          credentials: { token: { env: "HANGS_TOKEN" } },
        }],
      }, "tenants.json");
      const worker = spawnBounded(
        new Deno.Command(Deno.execPath(), {
          args: ["run", "-P=worker", "--no-prompt", "main.ts", "worker", "--concurrency", "1"]
            .concat(["--poll", "0.5", "--supervise", "1"]),
          cwd: ROOT,
          env: { NO_COLOR: "1", TMPDIR: tmp, SAMKIT_DATABASE_URL: db.url, HANGS_TOKEN: "t" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }),
        LIMIT,
      );
      const boss = await openBoss(db.url);
      const history = await RunHistory.open(db.url, { max: 1 });
      try {
        const [job] = await enqueuePacks(boss, {
          pack,
          packDoc,
          packFile: "stuck.json",
          tenants,
          jobOptions: { heartbeatSeconds: 10, retryDelay: 1 },
        });
        // The run folder exists and its manifest says running: the pack is waiting on the tenant.
        assert.ok(
          await worker.waitForStderr(/: run folder /),
          `the job started\n${worker.stderrSoFar()}`,
        );
        worker.child.kill(signal);
        const r = await worker.result();
        assert.equal(r.timedOut, false, `the worker stayed alive after ${signal}\n${r.stderr}`);
        assert.equal(r.code, signal === "SIGTERM" ? 143 : 130, r.stderr);
        const [run] = await history.runs({ jobIds: [job.jobId!] });
        assert.ok(run, r.stderr);
        assert.notEqual(run.status, "running", `the attempt is settled\n${r.stderr}`);
        const manifest = JSON.parse(await Deno.readTextFile(`${run.dir}/manifest.json`));
        assert.equal(manifest.status, "interrupted", r.stderr);
        assert.ok(manifest.finished, "the manifest says when it stopped");
        const staging = [...Deno.readDirSync(`${run.dir}/..`)].filter((e) =>
          e.name.startsWith(".")
        );
        assert.deepEqual(staging, [], "no staging folder left");
        const temp = [...Deno.readDirSync(tmp)].map((e) => e.name);
        assert.deepEqual(temp, [], `no temp folder left: ${temp}`);
      } finally {
        try {
          worker.child.kill("SIGKILL");
        } catch {
          // already gone
        }
        await worker.result();
        await history.close();
        await boss.stop({ graceful: false, close: true });
        await db.drop();
      }
    });
  }
});
