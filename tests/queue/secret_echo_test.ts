/**
 * An SMTP server whose refusal echoes the credentials it was sent (user and password, the
 * password one that no redaction pattern recognises): neither reaches stderr, the worker's log,
 * `enqueue --wait`, the run-history row in PostgreSQL, nor the run folder's manifest and
 * summary.json — on the queue and on `pack --send`.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { freshDatabase, testDatabaseUrl } from "./test_database.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ADMIN_URL = testDatabaseUrl("secret echo tests");

/** Matches no redaction pattern: only its value can remove it. */
const PASSWORD = "hunter2-plain";
const USER = "echo-mailer";

/** An SMTP server that refuses every login with a reply quoting the user and password. */
async function startEchoSmtp(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(new Error(`no such login ${auth.username} with ${auth.password}`));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as { port: number }).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Every file under a folder, as text. */
async function readTree(dir: string): Promise<string> {
  let all = "";
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) all += await readTree(path);
    else if (/\.(json|eml|txt)$/.test(e.name)) all += await Deno.readTextFile(path);
  }
  return all;
}

function assertClean(text: string, where: string): void {
  assert.ok(!text.includes(PASSWORD), `the SMTP password reached ${where}:\n${text}`);
  assert.ok(!text.includes(USER), `the SMTP user reached ${where}:\n${text}`);
}

const packDoc = (dir: string, email: Record<string, unknown>) =>
  JSON.stringify({
    name: "echoed",
    output: `${dir}/runs`,
    reports: [{ id: "license-cost-summary", formats: ["json"] }],
    email: {
      from: "samkit@example.test",
      to: ["cfo@example.test"],
      subject: "Echoed {pack} {date}",
      ...email,
    },
  });

describe("secrets echoed by an SMTP server", () => {
  let smtp: { port: number; close: () => Promise<void> };
  let dir: string;

  before(async () => {
    smtp = await startEchoSmtp();
    await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
    dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "secret-echo-" });
  });

  after(async () => {
    await smtp?.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  });

  it("pack --send: the refusal is reported without the password or user", async () => {
    const packFile = `${dir}/pack.json`;
    await Deno.writeTextFile(
      packFile,
      packDoc(dir, { host: "127.0.0.1", port: smtp.port, tls: "none" }),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=pack", "--no-prompt", "main.ts", "pack", packFile, "--send"],
      cwd: ROOT,
      env: { NO_COLOR: "1", SAMKIT_SMTP_USER: USER, SAMKIT_SMTP_PASSWORD: PASSWORD },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    const stdout = dec.decode(out.stdout);
    const stderr = dec.decode(out.stderr);
    assert.equal(out.code, 1, `the mail failed, so exit 1\n${stdout}\n${stderr}`);
    assert.match(stderr, /email not sent: .*no such login <redacted> with <redacted>/, stderr);
    assertClean(stdout + stderr, "pack's output");
    assertClean(await readTree(`${dir}/runs`), "the run folder");
  });
});

describe(
  "secrets echoed by an SMTP server, on the queue",
  { skip: ADMIN_URL === null },
  () => {
    let db: { url: string; drop: () => Promise<void> };
    let dir: string;
    let secrets: string;
    let smtp: { port: number; close: () => Promise<void> };
    let api: RunningServer;
    let worker: Deno.ChildProcess;
    let workerDone: Promise<string>;

    before(async () => {
      db = await freshDatabase(ADMIN_URL!);
      smtp = await startEchoSmtp();
      api = await startServer({
        port: 0,
        computers: 60,
        seed: 7,
        now: TEST_NOW,
        quiet: true,
        clientId: "echo",
        clientSecret: "echo-client-secret",
      });
      await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
      dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "secret-echo-q-" });
      secrets = await Deno.makeTempDir({ prefix: "samkit-secrets-" });
      await Deno.writeTextFile(`${secrets}/echo_smtp_password`, `${PASSWORD}\n`);
      await Deno.writeTextFile(
        `${dir}/tenants.json`,
        JSON.stringify({
          tenants: [{
            id: "echo",
            name: "Echo Ltd",
            baseUrl: api.url,
            credentials: { clientId: { env: "ECHO_ID" }, clientSecret: { env: "ECHO_SECRET" } },
            mail: {
              host: "127.0.0.1",
              port: smtp.port,
              tls: "none",
              to: ["cfo@echo.test"],
              user: { env: "ECHO_SMTP_USER" },
              password: { file: "echo_smtp_password" },
            },
          }],
        }),
      );
      await Deno.writeTextFile(`${dir}/pack.json`, packDoc(dir, { host: "smtp.pack.example" }));
      worker = new Deno.Command(Deno.execPath(), {
        args: ["run", "-P=worker", "--no-prompt", "main.ts", "worker", "--poll", "0.5"],
        cwd: ROOT,
        env: {
          NO_COLOR: "1",
          SAMKIT_DATABASE_URL: db.url,
          SAMKIT_SECRET_DIRS: secrets,
          ECHO_ID: "echo",
          ECHO_SECRET: "echo-client-secret",
          ECHO_SMTP_USER: USER,
        },
        stdout: "null",
        stderr: "piped",
      }).spawn();
      workerDone = (async () => {
        let log = "";
        for await (const chunk of worker.stderr.pipeThrough(new TextDecoderStream())) log += chunk;
        return log;
      })();
    });

    after(async () => {
      try {
        worker?.kill("SIGTERM");
      } catch {
        // already gone
      }
      await worker?.status;
      await api?.close();
      await smtp?.close();
      await db?.drop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await Deno.remove(secrets, { recursive: true }).catch(() => {});
    });

    it("keeps the password and user out of enqueue --wait, the worker's log, pack_runs and the run folder", async () => {
      const enqueue = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-P=enqueue", "--no-prompt", "main.ts", "enqueue", `${dir}/pack.json`]
          .concat(["--tenants", `${dir}/tenants.json`, "--send", "--wait", "--timeout", "180"]),
        cwd: ROOT,
        env: { NO_COLOR: "1", SAMKIT_DATABASE_URL: db.url },
        stdout: "piped",
        stderr: "piped",
      }).output();
      worker.kill("SIGTERM");
      const log = await workerDone;
      const dec = new TextDecoder();
      const waited = `${dec.decode(enqueue.stdout)}\n${dec.decode(enqueue.stderr)}`;
      assert.equal(enqueue.code, 1, `the summary was not sent, so exit 1\n${waited}\n${log}`);
      // The refusal is there, without what it echoed.
      assert.match(waited, /^echo\tcomplete\t.*email not sent: .*no such login <redacted>/m);
      assert.match(log, /email not sent: .*no such login <redacted> with <redacted>/, log);
      assertClean(waited, "enqueue --wait");
      assertClean(log, "the worker's log");

      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          "SELECT row_to_json(r)::text AS row FROM samkit.pack_runs r",
        );
        assert.equal(rows.length, 1);
        assert.match(rows[0].row, /no such login <redacted>/);
        assertClean(rows[0].row, "the pack_runs row");
      } finally {
        await client.end();
      }
      assertClean(await readTree(`${dir}/runs`), "the run folder");
    });
  },
);
