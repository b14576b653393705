/**
 * `--page-size N`: a run that asks for smaller pages reads every page and writes what a run at the
 * client's default writes; a bad value is bad usage (exit 2) naming the flag and its range, before
 * any request or write; a pack's snapshot made at a page size re-renders without the flag.
 *
 * The estate (220 computers, seed 1) is the fault matrix's: at 100 a page its computers are three
 * pages and the computers' entitlements four; at the default 1,000 each is one page.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { type FaultProxy, startFaultProxy } from "../helpers/fault_proxy.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { runCli } from "../helpers/cli.ts";

const COMPUTERS = 220;
const REPORT = "entitlement-state-by-computer";
const COMPUTERS_PATH = "/api/sam/estate/v1/computers";
const ENV = { SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: "demo-secret" };

/** The `page_size` and `page_number` of each request for `path` among `requests`. */
function pagesOf(requests: readonly string[], path: string): { size: number; page: number }[] {
  return requests.map((r) => new URL(r, "http://x")).filter((u) => u.pathname === path)
    .map((u) => ({
      size: Number(u.searchParams.get("page_size")),
      page: Number(u.searchParams.get("page_number")),
    }));
}

/** Every `page_size` asked for among `requests`. */
function sizesOf(requests: readonly string[]): number[] {
  const sizes = requests.map((r) => new URL(r, "http://x").searchParams.get("page_size"))
    .filter((s) => s !== null).map(Number);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

describe("--page-size", () => {
  let srv: RunningServer;
  let proxy: FaultProxy;
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-page-size-" });
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    srv = await startServer({ port: 0, computers: COMPUTERS, seed: 1, now: TEST_NOW, quiet: true });
    proxy = startFaultProxy({ upstream: srv.url });
  });
  after(async () => {
    for (const dir of dirs) await Deno.remove(dir, { recursive: true });
    await proxy?.close();
    await srv?.close();
  });

  /** A JSON run through the proxy: its JSON (generated-at set aside) and the requests it made. */
  async function jsonRun(extra: string[]): Promise<{ json: string; requests: string[] }> {
    const out = await tempDir();
    proxy.inject(undefined);
    const args = ["report", REPORT, "--format", "json", "--out", out, "--base-url", proxy.url];
    const r = await runCli([...args, "--quiet", ...extra], { env: ENV });
    assert.equal(r.code, 0, r.stderr);
    const json = (await Deno.readTextFile(`${out}/${REPORT}.json`))
      .replace(/"generatedAt":"[^"]*"/, '"generatedAt":"(run time)"');
    return { json, requests: [...proxy.requests] };
  }

  it("writes the JSON a default run writes, reading pages of N items", async () => {
    const whole = await jsonRun([]);
    const paged = await jsonRun(["--page-size", "100"]);
    assert.equal(paged.json, whole.json, "the same JSON, byte for byte");
    const rows = JSON.parse(paged.json).sections.find((s: { id: string }) => s.id === "computers");
    assert.equal(rows.rows.length, COMPUTERS);
    // Pages of 100 (99 for the second read that verifies a license collection), three of them
    // for the computers; the default run asks for 1,000 (and 999) and reads one.
    assert.deepEqual(sizesOf(paged.requests), [99, 100]);
    assert.deepEqual(
      pagesOf(paged.requests, COMPUTERS_PATH),
      [1, 2, 3].map((page) => ({
        size: 100,
        page,
      })),
    );
    assert.deepEqual(sizesOf(whole.requests), [999, 1000]);
    assert.deepEqual(pagesOf(whole.requests, COMPUTERS_PATH), [{ size: 1000, page: 1 }]);
  });

  it("refuses a value outside 1 to 1000, naming the flag, before any request or write", async () => {
    const runs = [
      ...["0", "1001", "abc", "1.5"].map((v) => ["report", REPORT, "--page-size", v]),
      ["explain", "--page-size", "0"],
      ["pack", "packs/weekly_audit.json", "--page-size", "1001"],
    ];
    proxy.inject(undefined);
    const parent = await tempDir();
    const results = await Promise.all(runs.map((args, i) => {
      const out = `${parent}/out-${i}`;
      return runCli([...args, "--out", out, "--base-url", proxy.url, "--quiet"], {
        env: ENV,
        set: args[0] === "pack" ? "pack" : "report",
      }).then((r) => ({ args, r }));
    }));
    for (const { args, r } of results) {
      const value = args.at(-1)!;
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, /--page-size must be a whole number from 1 to 1000/, r.stderr);
      assert.ok(r.stderr.includes(`"${value}"`), `names the value given: ${r.stderr}`);
    }
    assert.deepEqual([...Deno.readDirSync(parent)], [], "no output folder was made");
    assert.deepEqual(proxy.requests, [], "no request was made");
  });

  it("re-renders a pack's snapshot at the page size the pack read with", async () => {
    const dir = await tempDir();
    const report = "license-cost-summary";
    await Deno.writeTextFile(
      `${dir}/pack.json`,
      JSON.stringify({
        name: "paged",
        output: `${dir}/runs`,
        reports: [{ id: report, formats: ["json"] }],
      }),
    );
    proxy.inject(undefined);
    const pack = await runCli(
      [
        "pack",
        `${dir}/pack.json`,
        "--snapshot",
        "--page-size",
        "100",
        "--base-url",
        proxy.url,
        "--quiet",
      ],
      { env: ENV, set: "pack" },
    );
    assert.equal(pack.code, 0, pack.stderr);
    // A one-item read checks the tenant answers before the run; the reports' reads ask for 100.
    assert.deepEqual(sizesOf(proxy.requests), [1, 99, 100]);
    const run = pack.stdout.trim().replace(/\/manifest\.json$/, "");
    const rerender = await runCli(
      [
        "report",
        report,
        "--from-snapshot",
        `${run}/snapshot.sqlite`,
        "--format",
        "json",
        "--out",
        `${dir}/again`,
        "--quiet",
      ],
    );
    assert.equal(rerender.code, 0, rerender.stderr);
    assert.equal(
      await Deno.readTextFile(`${dir}/again/${report}.json`),
      await Deno.readTextFile(`${run}/${report}.json`),
      "the re-rendered JSON is the pack's, byte for byte",
    );
  });
});
