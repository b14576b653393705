/**
 * A script that imports only the client entry point (examples/stale_computers.ts) runs against
 * the reference server with network access to that server and samkit's environment variables,
 * nothing more, and prints the rows a full read filtered here gives. The same permissions stop
 * a script that loads a renderer package, so they are narrow enough to show it.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../client.ts";
import { TEST_NOW, withServer } from "../helpers/server.ts";

const ROOT = new URL("../../", import.meta.url);

/** Every environment variable samkit's client reads. */
const SAMKIT_VARIABLES = [
  "SAM_BASE_URL",
  "SAM_REGION",
  "SAM_HOST",
  "SAM_CLIENT_ID",
  "SAM_CLIENT_SECRET",
  "SAM_TOKEN",
  "SAM_REGISTRY_PREFIX",
  "SAM_CONNECTORS_PREFIX",
];

const DAYS = 30;

async function runScoped(script: string | URL, port: number, baseUrl: string, extra: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      `--allow-net=127.0.0.1:${port}`,
      `--allow-env=${SAMKIT_VARIABLES.join(",")}`,
      ...extra,
      script instanceof URL ? script.pathname : script,
      "--days",
      String(DAYS),
      "--now",
      TEST_NOW.toISOString(),
    ],
    cwd: ROOT,
    env: {
      NO_COLOR: "1",
      SAM_BASE_URL: baseUrl,
      SAM_CLIENT_ID: "demo",
      SAM_CLIENT_SECRET: "demo-secret",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

describe("a client-only script", () => {
  it("runs with --allow-net for the server and --allow-env for samkit's variables only", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = createClient({
        baseUrl: srv.url,
        auth: { clientId: "demo", clientSecret: "demo-secret" },
      });
      const cutoff = TEST_NOW.getTime() - DAYS * 86_400_000;
      const expected: { hostName: string; scanned: Date }[] = [];
      for await (const c of client.estate.computers()) {
        if (c.status === "Active" && c.lastScanDate && c.lastScanDate.getTime() <= cutoff) {
          expected.push({ hostName: c.hostName ?? c.id ?? "", scanned: c.lastScanDate });
        }
      }
      expected.sort((a, b) =>
        a.scanned.getTime() - b.scanned.getTime() || (a.hostName < b.hostName ? -1 : 1)
      );
      assert.ok(expected.length > 0, "the estate has stale computers to show");

      const run = await runScoped("examples/stale_computers.ts", srv.port, srv.url, []);
      assert.equal(run.stderr, "");
      assert.equal(run.code, 0);
      assert.deepEqual(
        run.stdout.trimEnd().split("\n"),
        expected.map((e) => `${e.hostName}\t${e.scanned.toISOString().slice(0, 10)}`),
      );
    });
  });

  it("the same permissions stop a script that loads a renderer package at start-up", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-heavy-" });
    try {
      const script = `${dir}/heavy.ts`;
      await Deno.writeTextFile(script, 'import "exceljs";\nconsole.log("loaded");\n');
      const run = await runScoped(script, 9, "http://127.0.0.1:9", [
        `--config=${new URL("deno.json", ROOT).pathname}`,
      ]);
      assert.notEqual(run.code, 0);
      assert.doesNotMatch(run.stdout, /loaded/);
      assert.match(run.stderr, /NotCapable|Requires/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
