import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { simpleParser } from "mailparser";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { openBoss, PACK_QUEUE } from "../../lib/queue/boss.ts";
import { enqueuePacks } from "../../lib/queue/enqueue.ts";
import { type HistoryRun, RunHistory } from "../../lib/queue/history.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { validateTenants } from "../../lib/tenants/tenants_file.ts";
import { REPORTS } from "../../reports/mod.ts";
import { freshDatabase, testDatabaseUrl } from "./test_database.ts";
import { type GateProxy, startGateProxy } from "./gate_proxy.ts";
import { startTestSmtp, type TestSmtp } from "./smtp_server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ADMIN_URL = testDatabaseUrl("queue retry and mail tests");

/** A loopback port with nothing listening on it (yet). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Polls the history until `done` holds for the job's attempts (or fails after `ms`). */
async function waitForRuns(
  history: RunHistory,
  tenantId: string,
  done: (runs: HistoryRun[]) => boolean,
  ms: number,
  debug: () => string,
): Promise<HistoryRun[]> {
  const deadline = Date.now() + ms;
  while (true) {
    const runs = await history.runs({ tenantIds: [tenantId] });
    if (done(runs)) return runs;
    assert.ok(Date.now() < deadline, `${tenantId}: runs ${JSON.stringify(runs)}\n${debug()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(
  "queue: transient failures retried, summaries mailed",
  { skip: ADMIN_URL === null },
  () => {
    let db: { url: string; drop: () => Promise<void> };
    let dir: string;
    let secrets: string;
    let smtp: TestSmtp;
    let worker: Deno.ChildProcess;
    const workerLog: string[] = [];
    let history: RunHistory;
    let api: RunningServer;
    /** The tenant's address: nothing listens there until the first attempt has failed. */
    let up: GateProxy | undefined;
    const port = freePort();

    before(async () => {
      db = await freshDatabase(ADMIN_URL!);
      await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
      dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "queue-mail-" });
      // A secret folder of SAMKIT_SECRET_DIRS (inside /tmp, which the worker set may read).
      secrets = await Deno.makeTempDir({ prefix: "samkit-secrets-" });
      await Deno.writeTextFile(`${secrets}/omega_smtp_password`, "smtp-pw-omega\n");
      smtp = await startTestSmtp();
      // The API is ready before the run; the tenant reaches it only once `up` listens on `port`.
      api = await startServer({
        port: 0,
        computers: 120,
        seed: 7,
        now: TEST_NOW,
        quiet: true,
        clientId: "omega",
        clientSecret: "omega-secret",
      });
      const tenants = [{
        id: "omega",
        name: "Omega Ltd",
        baseUrl: `http://127.0.0.1:${port}`,
        credentials: { clientId: { env: "OMEGA_ID" }, clientSecret: { env: "OMEGA_SECRET" } },
        mail: {
          host: "127.0.0.1",
          port: smtp.port,
          tls: "none",
          to: ["cfo@omega.test"],
          user: { env: "OMEGA_SMTP_USER" },
          password: { file: "omega_smtp_password" },
        },
      }, {
        id: "nocred",
        name: "No Credential Ltd",
        baseUrl: `http://127.0.0.1:${port}`,
        credentials: { token: { env: "NOCRED_TOKEN_NOT_SET" } },
        mail: { host: "127.0.0.1", port: smtp.port, tls: "none", to: ["cfo@nocred.test"] },
      }];
      await Deno.writeTextFile(`${dir}/tenants.json`, JSON.stringify({ tenants }));
      await Deno.writeTextFile(
        `${dir}/mailed.json`,
        JSON.stringify({
          name: "mailed",
          output: `${dir}/runs`,
          reports: [{ id: "license-cost-summary", formats: ["json"] }],
          schedule: { cron: "0 6 * * 1", timezone: "Europe/London" },
          email: {
            host: "smtp.pack.example",
            from: "samkit@example.test",
            to: ["pack-default@example.test"],
            subject: "Queued {pack} {date}",
          },
        }),
      );
      worker = new Deno.Command(Deno.execPath(), {
        args: ["run", "-P=worker", "--no-prompt", "main.ts", "worker", "--concurrency", "2"]
          .concat(["--poll", "0.5", "--supervise", "1"]),
        cwd: ROOT,
        env: {
          NO_COLOR: "1",
          SAMKIT_DATABASE_URL: db.url,
          SAMKIT_SECRET_DIRS: secrets,
          OMEGA_ID: "omega",
          OMEGA_SECRET: "omega-secret",
          OMEGA_SMTP_USER: "omega-mailer",
        },
        stdout: "null",
        stderr: "piped",
      }).spawn();
      (async () => {
        for await (const chunk of worker.stderr.pipeThrough(new TextDecoderStream())) {
          workerLog.push(chunk);
        }
      })().catch(() => {});
      history = await RunHistory.open(db.url, { max: 1 });
    });

    after(async () => {
      try {
        worker?.kill("SIGTERM");
      } catch {
        // already gone
      }
      await worker?.status;
      await history?.close();
      await up?.close();
      await api?.close();
      await smtp?.close();
      await db?.drop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await Deno.remove(secrets, { recursive: true }).catch(() => {});
    });

    it("retries a tenant whose API is down for the first attempt, completes on the retry and mails its summary once; a permanent failure is not retried", async () => {
      const enqueue = new Deno.Command(Deno.execPath(), {
        args: ["run", "-P=enqueue", "--no-prompt", "main.ts", "enqueue", `${dir}/mailed.json`]
          .concat(["--tenants", `${dir}/tenants.json`, "--send", "--wait", "--timeout", "180"])
          .concat(["--retry-delay", "1"]),
        cwd: ROOT,
        env: { NO_COLOR: "1", SAMKIT_DATABASE_URL: db.url },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const debug = () => workerLog.join("");
      // The first attempt meets a port with nothing listening and fails; then the API comes up
      // there at once (the retry waits 1-2 s: the queue's shortest backoff).
      const first = await waitForRuns(
        history,
        "omega",
        (runs) => runs.length > 0 && runs[0].finished !== null,
        120_000,
        debug,
      );
      up = startGateProxy(api.url, { port });
      assert.equal(first[0].status, "failed", debug());
      assert.match(first[0].error ?? "", /fetch failed|request failed|refused/i, debug());
      assert.equal(smtp.messages.length, 0, "the failed attempt, retried, mailed nothing");

      const done = await enqueue;
      const out = new TextDecoder().decode(done.stdout);
      const all = `${out}\n${new TextDecoder().decode(done.stderr)}\n${debug()}`;
      assert.equal(done.code, 1, `nocred failed, so exit 1\n${all}`);
      const lines = out.trim().split("\n").map((l) => l.split("\t"));
      assert.deepEqual(lines.map((l) => [l[0], l[1]]), [
        ["omega", "complete"],
        ["nocred", "failed"],
      ], all);

      const omega = await history.runs({ tenantIds: ["omega"] });
      assert.deepEqual(omega.map((r) => [r.attempt, r.status]), [[0, "failed"], [1, "complete"]]);
      assert.equal(omega[1].error, null, "complete and sent");
      const nocred = await history.runs({ tenantIds: ["nocred"] });
      assert.deepEqual(nocred.map((r) => [r.attempt, r.status]), [[0, "failed"]], "not retried");
      assert.match(nocred[0].error!, /NOCRED_TOKEN_NOT_SET is not set/);

      // One message: the retry's summary, to the tenant's recipient, through the tenant's server
      // with the password read from the secret folder; the evidence folder keeps what was sent.
      assert.equal(smtp.messages.length, 1, all);
      assert.deepEqual(smtp.recipients, [["cfo@omega.test"]]);
      assert.deepEqual(smtp.logins, ["omega-mailer:smtp-pw-omega"]);
      const mail = await simpleParser(Buffer.from(smtp.messages[0]));
      assert.match(mail.subject ?? "", /^Queued mailed \d{4}-\d{2}-\d{2}$/);
      assert.equal(mail.from?.text, "samkit@example.test");
      assert.match(mail.text ?? "", /license-cost-summary|License/i);
      const kept = await Deno.readTextFile(`${omega[1].dir}/summary.eml`);
      const sent = new TextDecoder().decode(smtp.messages[0]).replaceAll("\r\n", "\n");
      assert.equal(sent, kept, "the message sent is the summary.eml kept (SMTP sends CRLF)");
      const manifest = omega[1].manifest!;
      assert.ok(manifest.files.some((f) => f.path === "summary.eml"));
    });

    it("carries the send flag into a tenant's schedule", async () => {
      const boss = await openBoss(db.url);
      try {
        const packDoc = JSON.parse(await Deno.readTextFile(`${dir}/mailed.json`));
        const pack = validatePack(packDoc, { file: "mailed.json", reports: REPORTS });
        const tenants = validateTenants(
          JSON.parse(await Deno.readTextFile(`${dir}/tenants.json`)),
          "tenants.json",
        ).filter((t) => t.id === "omega");
        await enqueuePacks(boss, {
          pack,
          packDoc,
          packFile: "mailed.json",
          tenants,
          onSchedule: true,
          send: true,
        });
        const [schedule] = await boss.getSchedules(PACK_QUEUE);
        assert.equal(schedule.key, "omega/mailed");
        assert.equal((schedule.data as { send?: boolean }).send, true);
        await boss.unschedule(PACK_QUEUE, "omega/mailed");
      } finally {
        await boss.stop({ graceful: false, close: true });
      }
    });
  },
);
