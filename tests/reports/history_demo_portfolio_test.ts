/**
 * The portfolio names where its runs' data came from: "demo data" when the queue's runs read the
 * demo estate, as a demo run's outputs say it; a history mixing demo runs and tenant runs is
 * refused, naming a run of each and its source, never totalled as one estate.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { freshDatabase, testDatabaseUrl } from "../queue/test_database.ts";
import { RunHistory } from "../../lib/queue/history.ts";
import type { Manifest } from "../../lib/pack/manifest.ts";
import { demoSourceText } from "../../lib/report/demo_source.ts";
import { runCli } from "../helpers/cli.ts";

const ADMIN = testDatabaseUrl("history-demo-portfolio");
const DEMO = demoSourceText({ computers: 40, seed: 1, asOf: new Date("2026-11-23") });

/** Records a finished run of `tenant` whose manifest read `source`. */
async function record(history: RunHistory, tenant: string, source: string): Promise<void> {
  const id = await history.start({
    jobId: null,
    attempt: 1,
    tenantId: tenant,
    tenantName: tenant,
    pack: "weekly",
    worker: "test:1",
  });
  const figures = [{
    key: "license-position|fact|Shortfall cost (EUR)",
    report: "license-position",
    label: "Shortfall cost (EUR)",
    value: 100,
    type: "currency",
    currency: "EUR",
  }];
  await history.finish(id, {
    status: "complete",
    manifest: { source } as unknown as Manifest,
    figures: figures as never,
  });
}

/** `deno task report portfolio` against `url`, JSON and HTML into a fresh folder. */
async function portfolio(url: string) {
  const out = await Deno.makeTempDir({ prefix: "samkit-portfolio-demo-" });
  const run = await runCli(["report", "portfolio", "--format", "json,html", "--out", out], {
    env: { SAMKIT_DATABASE_URL: url },
  });
  const read = async (f: string) => await Deno.readTextFile(`${out}/${f}`).catch(() => "");
  const result = { ...run, json: await read("portfolio.json"), html: await read("portfolio.html") };
  await Deno.remove(out, { recursive: true });
  return result;
}

describe("portfolio over demo runs", { skip: ADMIN === null }, () => {
  it("says demo data for demo runs and refuses demo runs mixed with a tenant's", async () => {
    const db = await freshDatabase(ADMIN!);
    const history = await RunHistory.open(db.url, { max: 1 });
    try {
      await record(history, "demo-a", DEMO);
      const demo = await portfolio(db.url);
      assert.equal(demo.code, 0, demo.stderr);
      const source = JSON.parse(demo.json).source;
      assert.equal(
        source,
        "samkit run history (runs of 1 tenant from the queue): demo data, not a tenant's",
      );
      assert.match(demo.html, /<title>[^<]*demo data/);

      await record(history, "acme", "https://sam.acme.example");
      const mixed = await portfolio(db.url);
      assert.notEqual(mixed.code, 0);
      assert.equal(mixed.json, "", "no portfolio written");
      assert.match(mixed.stderr, /mixes demo runs and tenant runs/);
      assert.match(mixed.stderr, /demo-a's weekly run of .* read embedded reference server/);
      assert.match(mixed.stderr, /acme's weekly run of .* read https:\/\/sam\.acme\.example/);
    } finally {
      await history.close();
      await db.drop();
    }
  });

  it("names the tenants' runs without demo data when none is a demo run", async () => {
    const db = await freshDatabase(ADMIN!);
    const history = await RunHistory.open(db.url, { max: 1 });
    try {
      await record(history, "acme", "https://sam.acme.example");
      await record(history, "globex", "https://sam.globex.example");
      const run = await portfolio(db.url);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(
        JSON.parse(run.json).source,
        "samkit run history (runs of 2 tenants from the queue)",
      );
      assert.doesNotMatch(run.html, /demo data/);
    } finally {
      await history.close();
      await db.drop();
    }
  });
});
