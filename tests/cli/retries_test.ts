/**
 * `--retries N`: how often a read that failed with a 5xx answer (or on the network) is tried
 * again. A persistent 503 is asked exactly N + 1 times and fails the run naming the status and
 * the retries, with nothing written; a bad value is bad usage (exit 2) naming the flag and its
 * range, before any request or write. The default (4 retries with a doubling back-off) is the
 * fault matrix's and the client tests' to show.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { type FaultProxy, startFaultProxy } from "../helpers/fault_proxy.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { runCli } from "../helpers/cli.ts";
import { exists } from "../helpers/files.ts";

const ENV = { SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: "demo-secret" };
const LICENSES = /\/api\/sam\/v1\/licenses$/;

describe("--retries", () => {
  let srv: RunningServer;
  let proxy: FaultProxy;
  let tmp: string;

  before(async () => {
    srv = await startServer({ port: 0, computers: 20, seed: 1, now: TEST_NOW, quiet: true });
    proxy = startFaultProxy({ upstream: srv.url });
    tmp = await Deno.makeTempDir({ prefix: "samkit-retries-" });
  });
  after(async () => {
    await Deno.remove(tmp, { recursive: true });
    await proxy?.close();
    await srv?.close();
  });

  /** A license-cost-summary JSON run through the proxy with a persistent 503 on the licenses. */
  async function failingRun(flags: string[], cmd = "report") {
    proxy.inject({ path: LICENSES, kind: "status", status: 503, times: Infinity });
    const out = `${tmp}/${crypto.randomUUID()}`;
    const args = cmd === "report"
      ? ["report", "license-cost-summary", "--format", "json"]
      : ["explain", "--format", "json"];
    const r = await runCli([...args, "--out", out, "--base-url", proxy.url, "--quiet", ...flags], {
      env: ENV,
    });
    const asked = proxy.requests.filter((p) => LICENSES.test(new URL(p, "http://x").pathname));
    return { r, asked: asked.length, wrote: await exists(out) };
  }

  for (const n of [0, 1, 2]) {
    it(`--retries ${n} asks a failing read ${n + 1} times, then fails naming it`, async () => {
      const { r, asked, wrote } = await failingRun(["--retries", String(n)]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(asked, n + 1, `requests for the licenses: ${asked}`);
      assert.match(r.stderr, /503/);
      if (n > 0) {
        assert.match(r.stderr, new RegExp(`after ${n} ${n === 1 ? "retry" : "retries"}\\)`));
      }
      assert.equal(wrote, false, "nothing written");
    });
  }

  for (const bad of ["-1", "11", "abc", "1.5", ""]) {
    it(`--retries "${bad}" exits 2 naming the flag, with no request`, async () => {
      proxy.inject({ path: LICENSES, kind: "status", status: 503, times: 0 });
      const before = proxy.requests.length;
      const out = `${tmp}/${crypto.randomUUID()}`;
      const r = await runCli([
        "report",
        "license-cost-summary",
        "--out",
        out,
        "--base-url",
        proxy.url,
        `--retries=${bad}`,
      ], { env: ENV });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--retries must be a whole number from 0 to 10/);
      assert.equal(proxy.requests.length, before, "no request");
      assert.equal(await exists(out), false, "no output folder");
    });
  }

  it("pack takes it too: its check that the tenant answers asks once at --retries 0", async () => {
    proxy.inject({ path: LICENSES, kind: "status", status: 503, times: Infinity });
    const out = `${tmp}/${crypto.randomUUID()}`;
    const r = await runCli([
      "pack",
      "packs/weekly_audit.json",
      "--out",
      out,
      "--base-url",
      proxy.url,
      "--retries",
      "0",
      "--quiet",
    ], { set: "pack", env: ENV });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /503/);
    const asked = proxy.requests.filter((p) => LICENSES.test(new URL(p, "http://x").pathname));
    assert.equal(asked.length, 1, `requests for the licenses: ${asked.length}`);
    assert.equal(await exists(out), false, "no run folder");
    const bad = await runCli(["pack", "packs/weekly_audit.json", "--retries", "x"], {
      set: "pack",
      env: ENV,
    });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--retries must be a whole number from 0 to 10, got "x"/);
  });
});
