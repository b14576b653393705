import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { RunningServer } from "../../lib/server/server.ts";
import { withServer } from "../helpers/server.ts";
import { type CliRun, runCli } from "../helpers/cli.ts";

const TOKEN = "tok-cli-403-0123456789";

/** Runs samkit as a user would, the token from the environment; returns code and output. */
const samkit = (set: string, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { set, env: { SAM_TOKEN: TOKEN, SAM_CONNECTORS_PREFIX: "", ...env } });

/**
 * Runs `report <id>` to JSON in a fresh folder against `url`; returns the run and what the
 * folder held afterwards (the folder itself is removed).
 */
async function report(id: string, url: string): Promise<CliRun & { written: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "samkit-api-errors-" });
  try {
    const args = ["report", id, "--format", "json", "--out", dir, "--base-url", url, "--quiet"];
    const r = await samkit("report", args);
    const written = [];
    for await (const e of Deno.readDir(dir)) written.push(e.name);
    return { ...r, written };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A service in front of the reference server that refuses `denied` with 403 and the spec's error
 * body, its message echoing the bearer token (as a careless service might); forwards the rest.
 */
async function withDenyingService(
  denied: RegExp,
  fn: (url: string, srv: RunningServer) => Promise<void>,
) {
  await withServer({ computers: 8, token: TOKEN }, async (srv) => {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      async (req) => {
        const url = new URL(req.url);
        if (denied.test(url.pathname)) {
          const auth = req.headers.get("authorization") ?? "";
          const message = `Access denied for ${auth} (token ${auth.slice(7)}).`;
          return Response.json({ error: { code: 403, message } }, { status: 403 });
        }
        const body = req.method === "GET" ? undefined : await req.arrayBuffer();
        return await fetch(srv.url + url.pathname + url.search, {
          method: req.method,
          headers: req.headers,
          body,
        });
      },
    );
    try {
      await fn(`http://127.0.0.1:${server.addr.port}`, srv);
    } finally {
      await server.shutdown();
    }
  });
}

describe("the CLI on a 403", () => {
  it("names the operation, its path and the scope to grant, exit 1, no token", async () => {
    await withDenyingService(/^\/api\/sam\/v1\/licenses$/, async (url) => {
      const r = await report("license-cost-summary", url);
      assert.equal(r.code, 1, r.stderr);
      assert.ok(
        r.stderr.includes(
          "samkit: permission denied (403) for licenses.list (GET /api/sam/v1/licenses): the " +
            "token needs the scope sam.license.r; ask your tenant administrator to grant it to " +
            "the API client.",
        ),
        r.stderr,
      );
      assert.ok(!(r.stdout + r.stderr).includes(TOKEN), r.stderr);
    });
  });

  it("says which scope a computer read needs", async () => {
    await withDenyingService(/^\/api\/sam\/estate\/v1\/computers$/, async (url) => {
      const r = await report("stale-computers", url);
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /samkit: permission denied \(403\) for estate\.computers \(GET \/api\/sam\/estate\/v1\/computers\): the token needs the scope sam\.computer\.r;/,
      );
      assert.ok(!(r.stdout + r.stderr).includes(TOKEN), r.stderr);
    });
  });
});

describe("connectors when the connector path answers 404", () => {
  const GUESS = /samkit's guess/;
  const check = (r: { code: number; stdout: string; stderr: string }, path: string) => {
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stderr.includes(`GET ${path} answered 404`), r.stderr);
    assert.match(r.stderr, /SAM_CONNECTORS_PREFIX/);
    assert.ok(!(r.stdout + r.stderr).includes(TOKEN), r.stderr);
  };

  it("`connectors list` says its default path is a guess and how to set it", async () => {
    await withServer({ computers: 5, token: TOKEN }, async (srv) => {
      srv.faults.add({ match: "/connectors", status: 404, times: 5 });
      const r = await samkit("connectors", ["connectors", "list", "--base-url", srv.url]);
      check(r, "/api/cloud-cost/v1/connectors");
      assert.match(r.stderr, GUESS);
      assert.match(r.stderr, /Set SAM_CONNECTORS_PREFIX to the connector API's path prefix/);
    });
  });

  it("`connectors list` names SAM_CONNECTORS_PREFIX when the prefix came from it", async () => {
    await withServer({ computers: 5, token: TOKEN }, async (srv) => {
      const r = await samkit("connectors", ["connectors", "list", "--base-url", srv.url], {
        SAM_CONNECTORS_PREFIX: "/api/not-here/v1",
      });
      check(r, "/api/not-here/v1/connectors");
      assert.match(r.stderr, /The prefix \/api\/not-here\/v1 comes from SAM_CONNECTORS_PREFIX/);
    });
  });

  it("the connector-health report says the same, and writes nothing", async () => {
    await withServer({ computers: 5, token: TOKEN }, async (srv) => {
      srv.faults.add({ match: "/connectors", status: 404, times: 5 });
      const r = await report("connector-health", srv.url);
      check(r, "/api/cloud-cost/v1/connectors");
      assert.match(r.stderr, GUESS);
      assert.deepEqual(r.written, []);
    });
  });
});
