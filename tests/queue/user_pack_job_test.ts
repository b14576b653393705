/**
 * A pack naming a user's report module, run by the queue: enqueued from a project made by
 * `deno task init` and run by a worker started there (the project's own tasks and permission
 * sets), the job loads the module from the pack file's folder and the run's manifest has the
 * user's report, its files verifying.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { ROOT } from "../helpers/cli.ts";
import { type Manifest, verifyManifest } from "../../lib/pack/manifest.ts";
import { freshDatabase, testDatabaseUrl } from "./test_database.ts";

const ADMIN_URL = testDatabaseUrl("user pack job tests");
const dec = new TextDecoder();

describe("a queued pack naming a user's report module", { skip: ADMIN_URL === null }, () => {
  let db: { url: string; drop: () => Promise<void> };
  let tmp: string;
  let project: string;
  let server: RunningServer;
  let worker: Deno.ChildProcess;
  const workerLog: string[] = [];
  const env = { NO_COLOR: "1", ACME_ID: "acme", ACME_SECRET: "acme-secret" };

  before(async () => {
    db = await freshDatabase(ADMIN_URL!);
    tmp = await Deno.makeTempDir({ prefix: "samkit-user-queue-" });
    project = join(tmp, "sam-reports");
    const init = await new Deno.Command(Deno.execPath(), {
      args: ["task", "init", project],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(init.code, 0, dec.decode(init.stderr));
    server = await startServer({
      port: 0,
      computers: 120,
      now: TEST_NOW,
      quiet: true,
      clientId: "acme",
      clientSecret: "acme-secret",
    });
    await Deno.writeTextFile(
      join(project, "tenants.json"),
      JSON.stringify({
        tenants: [{
          id: "acme",
          name: "Acme Ltd",
          baseUrl: server.url,
          credentials: { clientId: { env: "ACME_ID" }, clientSecret: { env: "ACME_SECRET" } },
        }],
      }),
    );
    await Deno.writeTextFile(
      join(project, "packs/queued.json"),
      JSON.stringify({
        name: "queued",
        reports: [
          { id: "stale-computers", formats: ["json"] },
          { report: "../reports/servers_by_os.ts", formats: ["json", "csv"] },
        ],
      }),
    );
    worker = new Deno.Command(Deno.execPath(), {
      args: ["task", "worker", "--concurrency", "1", "--poll", "0.5", "--supervise", "1"],
      cwd: project,
      env: { ...env, SAMKIT_DATABASE_URL: db.url },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    (async () => {
      for await (const c of worker.stderr.pipeThrough(new TextDecoderStream())) workerLog.push(c);
    })().catch(() => {});
  });

  after(async () => {
    try {
      worker?.kill("SIGTERM");
    } catch {
      // already gone
    }
    await worker?.status;
    await server?.close();
    await db?.drop();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  });

  it("the project's worker runs it: the user's report is in the manifest, which verifies", async () => {
    const enqueue = await new Deno.Command(Deno.execPath(), {
      args: ["task", "enqueue", "./packs/queued.json", "--tenants", "tenants.json"]
        .concat(["--wait", "--timeout", "120"]),
      cwd: project,
      env: { ...env, SAMKIT_DATABASE_URL: db.url },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = dec.decode(enqueue.stdout);
    const debug = `${out}\n${dec.decode(enqueue.stderr)}\n${workerLog.join("")}`;
    assert.equal(enqueue.code, 0, debug);
    assert.match(out, /^acme\tcomplete\t/m, debug);
    const path = out.match(/ (\/\S+\/manifest\.json)$/m)?.[1];
    assert.ok(path, debug);
    const manifest = JSON.parse(await Deno.readTextFile(path)) as Manifest;
    assert.deepEqual(manifest.reports.map((r) => [r.id, r.status]), [
      ["stale-computers", "ok"],
      ["servers-by-os", "ok"],
    ], debug);
    assert.ok(path.startsWith(join(project, "out")), `written in the project: ${path}`);
    assert.deepEqual(await verifyManifest(dirname(path)), []);
  });
});
