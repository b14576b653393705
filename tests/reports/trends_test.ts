/**
 * Trends over five pack runs whose estates change (reference servers of different sizes and
 * seeds, one after the other on the same port, so the runs read the same base URL: one source),
 * plus a run of another source that the trend leaves out with its reason.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { runPack } from "../../lib/pack/run_pack.ts";
import type { Figure } from "../../lib/pack/figures.ts";
import { UNCOVERED_ENTITLEMENTS } from "../../reports/entitlement_state_by_computer_sections.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function tempDir(): Promise<string> {
  await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
  return await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "trends-" });
}

const PACK = validatePack({
  name: "trend",
  reports: [
    { id: "license-cost-summary", formats: ["json"] },
    { id: "entitlement-state-by-computer", formats: ["json"] },
    { id: "license-position", formats: ["json"] },
    { id: "stale-computers", formats: ["json"] },
  ],
}, { file: "trend.json", reports: REPORTS });

const ESTATES = [
  { computers: 200, seed: 1 },
  { computers: 260, seed: 1 },
  { computers: 320, seed: 2 },
  { computers: 150, seed: 3 },
  { computers: 400, seed: 4 },
];

/** `deno task report trends` as a user runs it, from the project folder, with the given args. */
async function runTrends(args: string[]) {
  const cmd = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=report", "--no-prompt", "main.ts", "report", "trends", ...args, "--quiet"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: cmd.code, stderr: new TextDecoder().decode(cmd.stderr) };
}

async function trendsJson(history: string, extra: string[] = []) {
  const out = `${history}-trends-${extra.length}`;
  const run = await runTrends([
    "--param",
    `history=${history.slice(ROOT.length)}`,
    ...extra,
    "--format",
    "json,html",
    "--out",
    out,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(await Deno.readTextFile(`${out}/trends.json`));
  return { ...json, html: await Deno.readTextFile(`${out}/trends.html`) };
}

const byKey = (figures: Figure[], key: string) => figures.find((f) => f.key === key)?.value ?? null;

describe("trends report", () => {
  it("shows five runs of one source as their figures said, and leaves another source out", async () => {
    const dir = await tempDir();
    let clock = Date.parse("2026-10-05T06:00:00Z");
    const now = () => new Date(clock);
    let port = 0;
    let base = "";
    for (const estate of ESTATES) {
      const srv = await startServer({ port, ...estate, now: TEST_NOW, quiet: true, token: "t" });
      port = srv.port;
      base ||= srv.url;
      assert.equal(srv.url, base, "same base URL for every estate");
      try {
        const run = await runPack({
          pack: PACK,
          reports: REPORTS,
          outRoot: dir,
          source: { baseUrl: srv.url, token: "t" },
          now,
        });
        assert.ok(run.ok, JSON.stringify(run.manifest.reports));
      } finally {
        await srv.close();
      }
      clock += 7 * 24 * 3600_000;
    }
    // Another source (another port) in between the history.
    const other = await startServer({
      port: 0,
      computers: 100,
      seed: 9,
      now: TEST_NOW,
      quiet: true,
      token: "t",
    });
    clock -= 3 * 24 * 3600_000;
    try {
      await runPack({
        pack: PACK,
        reports: REPORTS,
        outRoot: dir,
        source: { baseUrl: other.url, token: "t" },
        now,
      });
    } finally {
      await other.close();
    }

    const history = `${dir}/trend`;
    const runs: string[] = [];
    for await (const e of Deno.readDir(history)) if (e.isDirectory) runs.push(e.name);
    runs.sort();
    assert.equal(runs.length, 6);
    const summaries = await Promise.all(
      runs.map(async (r) => JSON.parse(await Deno.readTextFile(`${history}/${r}/summary.json`))),
    );
    const mine = runs.filter((_, i) => summaries[i].source === base);
    const theirs = runs.filter((_, i) => summaries[i].source !== base);
    assert.equal(mine.length, 5);

    // Default source: the latest run's, which is the other source's run (it started last).
    const latest = await trendsJson(history);
    const latestRuns = latest.sections.find((s: { id: string }) => s.id === "runs").rows;
    assert.deepEqual(latestRuns.map((r: { run: string }) => r.run), theirs);

    const trend = await trendsJson(history, ["--param", `source=${base}`]);
    const section = (id: string) => trend.sections.find((s: { id: string }) => s.id === id);
    const rows = section("runs").rows;
    assert.deepEqual(rows.map((r: { run: string }) => r.run), mine);
    assert.deepEqual(
      section("skipped").rows,
      theirs.map((run) => ({
        run,
        reason: `read ${summaries[runs.indexOf(run)].source}, not ${base}; not compared`,
      })),
    );
    const values = new Set<number>();
    for (const [i, row] of rows.entries()) {
      const figures = summaries[runs.indexOf(mine[i])].figures as Figure[];
      assert.equal(
        row.unpricedShortfalls,
        byKey(figures, "license-position|fact|Unpriced shortfalls"),
      );
      assert.equal(row.positionsShort, byKey(figures, "license-position|fact|Positions short"));
      assert.equal(
        row.uncoveredInstalls,
        byKey(figures, `entitlement-state-by-computer|fact|${UNCOVERED_ENTITLEMENTS}`),
      );
      assert.equal(
        row.staleComputers,
        byKey(figures, "stale-computers|total|organizations|stale|All"),
      );
      values.add(row.uncoveredInstalls);
      for (const currency of ["EUR", "GBP", "USD"]) {
        const money = section(`money-${currency.toLowerCase()}`).rows[i];
        assert.equal(money.run, mine[i]);
        // Every report ran in these runs: no line in a currency is a real 0, not unknown.
        assert.equal(
          money.costToDate,
          byKey(figures, `license-cost-summary|fact|Cost to date (${currency})`) ?? 0,
        );
        assert.equal(
          money.shortfallCost,
          byKey(figures, `license-position|fact|Shortfall cost (${currency})`) ?? 0,
        );
      }
    }
    assert.ok(values.size >= 4, "the estates changed");
    // The latest run's money in every currency, on the cover and in its own section.
    const cover = trend.html.slice(0, trend.html.indexOf("</header>"));
    const last = summaries[runs.indexOf(mine.at(-1)!)].figures as Figure[];
    for (const currency of ["EUR", "GBP", "USD"]) {
      const row = section("latest").rows.find((r: { currency: string }) => r.currency === currency);
      const cost = byKey(last, `license-cost-summary|fact|Cost to date (${currency})`) ?? 0;
      assert.equal(row.costToDate, cost, currency);
      const shown = new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cost);
      assert.ok(cover.includes(shown), `${currency} cost to date ${shown} on the cover`);
    }
    // A line chart per currency section, titled with its currency.
    assert.equal(trend.html.split('class="chart-svg chart-line"').length - 1, 3);
    for (const currency of ["EUR", "GBP", "USD"]) {
      assert.ok(
        trend.html.includes(`-title">Cost to date and shortfall cost (${currency})</title>`),
      );
    }
  });

  it("a missing history folder fails with a message naming it", async () => {
    const run = await runTrends([
      "--param",
      "history=out/no-such-pack",
      "--format",
      "json",
      "--out",
      "/tmp/samkit-trends-none",
    ]);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /history out\/no-such-pack: no such folder/);
  });
});
