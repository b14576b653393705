/**
 * license-optimization recomputed from its printed rows with this file's own arithmetic (each
 * position's steps and money, the purchase need per currency, the remaining purchase need per
 * currency, the work list against the positions), for the whole estate and for an organisation
 * with sub-organisations at another idle threshold; and one name per figure: a figure the report
 * prints in several tables has the same column label in each (README "One name per figure"),
 * here and in license-cost-summary, whose annual run rate repeats the yearly maintenance and
 * support of its currency totals.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { licenseOptimization } from "../../reports/license_optimization.ts";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const cents = (v: number | null) => v === null ? null : Math.round(v * 100);
const rowsOf = (json: Json, id: string): Json[] =>
  json.sections.find((s: Json) => s.id === id)?.rows ?? [];

/** Labels of each column key over every section: a key printed under two labels is listed. */
function labelsPerKey(
  json: Json,
  same: (key: string) => string = (k) => k,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of json.sections) {
    for (const c of s.columns) {
      const k = same(c.key);
      out.set(k, (out.get(k) ?? new Set()).add(c.label));
    }
  }
  return new Map([...out].filter(([, labels]) => labels.size > 1));
}

function problems(json: Json): string[] {
  const found: string[] = [];
  const check = (ok: boolean, what: string) => ok || found.push(what);
  const positions = rowsOf(json, "positions");
  check(positions.length > 0, "no positions");
  for (const p of positions) {
    const at = `${p.application} / ${p.metric}`;
    check(p.shortfallAfterHarvest === Math.max(p.shortfallBefore - p.unitsHarvested, 0), at);
    check(p.shortfallAfter === Math.max(p.shortfallAfterHarvest - p.unitsReassigned, 0), at);
    if (p.unitPrice !== null) {
      const price = cents(p.unitPrice)!;
      check(cents(p.costBefore) === price * p.shortfallBefore, `${at}: cost before`);
      check(cents(p.costAfter) === price * p.shortfallAfter, `${at}: remaining need`);
      check(cents(p.moneySaved) === cents(p.costBefore)! - cents(p.costAfter)!, `${at}: saved`);
    } else check(p.costAfter === null && p.moneySaved === null, `${at}: unpriced as money`);
  }
  for (const c of rowsOf(json, "currencies")) {
    const mine = positions.filter((p) => p.currency === c.currency);
    const sum = (k: string) => mine.reduce((t, p) => t + (cents(p[k]) ?? 0), 0);
    check(c.short === mine.length, `${c.currency}: short`);
    check(c.closed === mine.filter((p) => p.shortfallAfter === 0).length, `${c.currency}: closed`);
    check(c.stillShort === mine.filter((p) => p.shortfallAfter > 0).length, `${c.currency}: still`);
    for (const k of ["costBefore", "moneySaved", "costAfter"]) {
      check(cents(c[k]) === sum(k), `${c.currency}: ${k}`);
    }
    const need = rowsOf(json, `purchase-${c.currency.toLowerCase()}`);
    const left = mine.filter((p) => p.shortfallAfter > 0);
    check(need.length === left.length, `${c.currency}: purchase rows`);
    check(
      need.reduce((t, p) => t + cents(p.costAfter)!, 0) === cents(c.costAfter),
      `${c.currency}: remaining need list`,
    );
  }
  // The work list makes the positions' harvest and reassignment, install by install.
  const actions = rowsOf(json, "actions");
  for (const p of positions) {
    const mine = actions.filter((a) => a.application === p.application && a.metric === p.metric);
    const removed = mine.filter((a) => a.action === "Remove install");
    check(removed.length === p.installsHarvested, `${p.application}: installs removed`);
    const reassigned = mine.filter((a) => a.action !== "Remove install");
    check(
      reassigned.reduce((t, a) => t + a.units, 0) === p.unitsReassigned,
      `${p.application}: units reassigned`,
    );
    const saved = mine.reduce((t, a) => t + (cents(a.moneySaved) ?? 0), 0);
    check(saved === (cents(p.moneySaved) ?? 0), `${p.application}: money saved by the actions`);
  }
  return found;
}

describe("license-optimization recomputed from its printed rows (400 computers)", () => {
  const fixture = serverFixture({ computers: 400 });
  const query = createQueryContext();
  for (
    const [name, params] of [
      ["whole estate", {}],
      ["ORG05 and its sub-organisations, idle 60 days", { organization: "ORG05", idleDays: 60 }],
    ] as const
  ) {
    it(name, async () => {
      const run = await runReportForTest({
        server: fixture.srv,
        report: licenseOptimization,
        params,
        query,
      });
      assert.deepEqual(problems(run.json), []);
      assert.deepEqual(labelsPerKey(run.json), new Map(), "one label per figure");
    });
  }

  it("license-cost-summary names the yearly maintenance the same in every table", async () => {
    const run = await runReportForTest({ server: fixture.srv, report: licenseCostSummary, query });
    // The run rate's maintenance and support are the currency totals' yearly ones.
    const totals = new Map(rowsOf(run.json, "currency-totals").map((r) => [r.currency, r]));
    for (const r of rowsOf(run.json, "run-rate")) {
      assert.equal(r.maintenance, totals.get(r.currency).currentMaintenance, r.currency);
      assert.equal(r.support, totals.get(r.currency).currentSupport, r.currency);
    }
    const same = (k: string) =>
      ({ maintenance: "currentMaintenance", support: "currentSupport" })[k] ?? k;
    const twice = labelsPerKey(run.json, same);
    for (const k of ["currentMaintenance", "currentSupport"]) {
      assert.equal(twice.get(k), undefined, `${k}: ${[...twice.get(k) ?? []].join(" / ")}`);
    }
  });
});
