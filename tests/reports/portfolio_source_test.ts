/**
 * The portfolio says when its source is missing: without SAMKIT_DATABASE_URL it exits 2 with
 * the fix, naming the variable, and writes nothing, never a "0 Tenants" report; earlier runs'
 * figures are read under today's names.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "../helpers/cli.ts";
import { currentFigures } from "../../lib/pack/figures.ts";
import { moneyRows } from "../../lib/sam/portfolio_rows.ts";

describe("portfolio without its run history database", () => {
  it("exits 2 naming SAMKIT_DATABASE_URL and how to set it, writing nothing", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const out = `${dir}/out`;
      const run = await runCli(["report", "portfolio", "--format", "json,html", "--out", out], {
        env: { SAMKIT_DATABASE_URL: "" },
      });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /SAMKIT_DATABASE_URL is not set: set it to the PostgreSQL/);
      assert.doesNotMatch(run.stdout + run.stderr, /0 Tenants|Tenants: 0/);
      await assert.rejects(Deno.lstat(out), Deno.errors.NotFound);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

describe("portfolio over runs recorded before the figures were renamed", () => {
  it("compares an earlier run's 'Total cost' with today's 'Cost to date'", () => {
    const fig = (label: string, value: number) => ({
      key: `license-cost-summary|fact|${label}`,
      report: "license-cost-summary",
      label,
      value,
      type: "currency",
      currency: "EUR",
    });
    const runs = [
      { label: "Total cost (EUR)", value: 100, day: 1 },
      { label: "Cost to date (EUR)", value: 130, day: 8 },
    ].map((r) => ({
      tenantId: "t",
      tenantName: "T",
      pack: "p",
      status: "complete",
      started: new Date(Date.UTC(2026, 0, r.day)),
      figures: currentFigures([fig(r.label, r.value)]),
    }));
    const [row] = moneyRows(runs, "license-cost-summary", "Cost to date");
    assert.deepEqual([row.value, row.previous, row.change], [130, 100, 30]);
  });
});
