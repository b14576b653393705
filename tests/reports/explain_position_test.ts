/**
 * explain-position: every figure adds up to the license-position row it explains. For every
 * application license-position shows short on the 3,000-computer reference estate (seed 7, the
 * README's optimisation estate), explain's installs are exactly license-position's devices of
 * that application and metric, and its lines add up to the position row: purchased, received,
 * given, entitlements, requirement, position, shortfall and shortfall cost. One query context is
 * shared by all runs, as in a pack, so the estate is read once.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { runCli } from "../helpers/cli.ts";
import { createQueryContext, type QueryContext } from "../../lib/query/context.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { explainPosition } from "../../reports/explain_position.ts";
import { jsonSection } from "./support/checks.ts";
import { ESTATE, LICENSES, rawAll, rawFlat } from "./support/raw_api.ts";
import { serverFixture } from "./support/fixture.ts";
import { startServer } from "../../lib/server/server.ts";

const TOKEN = "explain-position-test-token";

type Row = Record<string, unknown>;

const rowsOf = (json: unknown, id: string): Row[] => jsonSection(json, id).rows;
const cents = (n: unknown) => Math.round((n as number) * 100);
const sum = (rows: readonly Row[], key: string) =>
  Number(rows.reduce((n, r) => n + ((r[key] as number) ?? 0), 0).toPrecision(12));

/** A device as both reports show it: computer, units counted, factors, requirement, cover. */
function deviceKey(r: Row, coveredBy: string): string {
  return JSON.stringify([
    r.computer,
    r.counted,
    r.coreFactor,
    r.minimum,
    r.requirement,
    r[coveredBy] ?? null,
  ]);
}

const multiset = (keys: string[]) => keys.sort();

describe("explain-position on 3,000 computers (seed 7): every short position, line by line", () => {
  const fixture = serverFixture({ computers: 3000, seed: 7, token: TOKEN });
  let query: QueryContext;
  let positions: Row[];
  let devices: Row[];

  before(async () => {
    query = createQueryContext();
    const lp = await runReportForTest({ server: fixture.api, report: licensePosition, query });
    positions = rowsOf(lp.json, "positions");
    devices = rowsOf(lp.json, "devices");
  });

  it("explains each short application by name: its installs are the position's devices, and its totals are the position row", async () => {
    const short = positions.filter((r) => (r.shortfall as number) > 0);
    assert.ok(short.length >= 30, `the estate has short positions (${short.length})`);
    const applications = [...new Set(short.map((r) => r.application as string))];
    for (const application of applications) {
      const run = await runReportForTest({
        server: fixture.api,
        report: explainPosition,
        params: { application },
        query,
      });
      const why = {
        position: rowsOf(run.json, "position"),
        installs: rowsOf(run.json, "installs"),
        entitlements: rowsOf(run.json, "entitlements"),
        sums: rowsOf(run.json, "sums"),
      };
      const mine = positions.filter((r) => r.application === application);
      assert.deepEqual(why.position, mine, `${application}: the position rows`);
      for (const row of mine.filter((r) => (r.shortfall as number) > 0)) {
        const at = `${application} / ${row.metric}`;
        const of = (rows: Row[]) => rows.filter((r) => r.metric === row.metric);
        const installs = of(why.installs), lines = of(why.entitlements);
        assert.deepEqual(
          multiset(installs.map((r) => deviceKey(r, "coveredBy"))),
          multiset(
            devices.filter((d) => d.application === application && d.metric === row.metric)
              .map((d) => deviceKey(d, "licenses")),
          ),
          `${at}: explain's installs are the position's devices`,
        );
        assert.equal(sum(installs, "requirement"), row.requirement, `${at}: requirement`);
        const units = (line: string) => sum(lines.filter((l) => l.line === line), "units");
        const purchased = units("License") + units("Allocated to the organisation");
        assert.equal(purchased, row.purchased, `${at}: purchased`);
        assert.equal(units("Received by transfer"), row.received, `${at}: received`);
        assert.equal(0 - units("Given by transfer"), row.given, `${at}: given`);
        const entitlements = purchased + (row.received as number) - (row.given as number);
        assert.equal(entitlements, row.entitlements, `${at}: entitlements`);
        assert.equal(row.requirement as number - entitlements, row.shortfall, `${at}: shortfall`);
        const figure = (name: string) => of(why.sums).find((s) => s.figure === name);
        assert.equal(figure("Position")?.units, row.position, `${at}: position`);
        if (row.unitPrice !== null) {
          assert.equal(
            cents(figure("Shortfall cost")?.amount),
            cents(row.unitPrice) * (row.shortfall as number),
            `${at}: shortfall cost is the printed unit price × shortfall`,
          );
          assert.equal(cents(figure("Shortfall cost")?.amount), cents(row.shortfallCost), at);
        } else assert.equal(figure("Shortfall cost"), undefined, `${at}: unpriced, no cost`);
      }
    }
  });

  it("without an application explains every short position at once, the same lines", async () => {
    const run = await runReportForTest({ server: fixture.api, report: explainPosition, query });
    const shown = rowsOf(run.json, "position");
    assert.deepEqual(
      shown.map((r) => `${r.application}|${r.metric}`).sort(),
      positions.filter((r) => shown.some((s) => s.application === r.application))
        .map((r) => `${r.application}|${r.metric}`).sort(),
    );
    const shortApps = new Set(
      positions.filter((r) => (r.shortfall as number) > 0).map((r) => r.application),
    );
    assert.deepEqual(new Set(shown.map((r) => r.application)), shortApps);
    const installs = rowsOf(run.json, "installs");
    const wanted = devices.filter((d) =>
      shown.some((s) => s.application === d.application && s.metric === d.metric)
    );
    assert.equal(installs.length, wanted.length, "one install row per device of those positions");
  });
});

describe("explain-position on 400 computers: computer and organisation scope", () => {
  const fixture = serverFixture({ computers: 400, seed: 1, token: TOKEN });
  // No test changes the store: the runs share one query context, as a pack's reports do.
  const query = createQueryContext();

  it("--computer: every application of the computer, with its tracked requirement and the service's state", async () => {
    const api = fixture.api;
    const tracking = await rawAll(api, `${ESTATE}/computers-metering`);
    const states = new Map(
      (await rawFlat(api, `${LICENSES}/licenses/entitlements/entitlement-states`)).map((
        s,
      ) => [s.id, s.name]),
    );
    const installs = await rawAll(api, `${LICENSES}/licenses/entitlements/computers`);
    // A server carrying several applications, some excluded or moved, is the hardest case.
    const counts = new Map<string, number>();
    for (const t of tracking) counts.set(t.computerId, (counts.get(t.computerId) ?? 0) + 1);
    const [computerId] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const run = await runReportForTest({
      server: api,
      report: explainPosition,
      params: { computer: computerId },
      query,
    });
    const rows = rowsOf(run.json, "computer");
    const mineTracked = tracking.filter((t) => t.computerId === computerId);
    const tracked = new Set(mineTracked.map((t) => `${t.applicationId}|${t.metricId}`));
    const untracked = installs.filter((i) =>
      i.computerId === computerId && !tracked.has(`${i.applicationId}|${i.metricId}`)
    );
    assert.equal(rows.length, mineTracked.length + untracked.length, "one row per application");
    assert.deepEqual(
      rows.map((r) => r.requirement).sort(),
      [...mineTracked.map((t) => t.requirement), ...untracked.map(() => 0)].sort(),
    );
    const wantStates = installs.filter((i) => i.computerId === computerId)
      .map((i) => states.get(i.entitlementStateId)).sort();
    const shownStates = rows.map((r) => r.state).filter((s) => !String(s).startsWith("(")).sort();
    assert.deepEqual(shownStates, wantStates, "the service's entitlement state of each install");
    assert.ok(rows.every((r) => typeof r.rule === "string" && r.rule.length > 0));
  });

  it("--organization: the scope's position row, its entitlements the allocations to its organisations", async () => {
    const params = { organization: "ORG05" };
    const lp = await runReportForTest({
      server: fixture.api,
      report: licensePosition,
      params,
      query,
    });
    const row = rowsOf(lp.json, "positions").find((r) => (r.shortfall as number) > 0) ??
      rowsOf(lp.json, "positions")[0];
    const run = await runReportForTest({
      server: fixture.api,
      report: explainPosition,
      params: { ...params, application: row.application },
      query,
    });
    const shown = rowsOf(run.json, "position").find((r) => r.metric === row.metric);
    assert.deepEqual(shown, row);
    const lines = rowsOf(run.json, "entitlements").filter((r) => r.metric === row.metric);
    const allocations = lines.filter((l) => l.line === "Allocated to the organisation");
    assert.equal(lines.filter((l) => l.line === "License").length, 0, "no estate license line");
    assert.equal(sum(allocations, "units"), row.purchased);
    const installs = rowsOf(run.json, "installs").filter((r) => r.metric === row.metric);
    assert.equal(sum(installs, "requirement"), row.requirement);
  });
});

describe("the explain command (60 computers): bad names, formats", () => {
  const fixture = serverFixture({ computers: 60, seed: 1, token: TOKEN });

  it("an unknown application exits 2 naming it and the nearest names, and writes nothing", async () => {
    const out = await Deno.makeTempDir({ prefix: "samkit-explain-test-" });
    try {
      const r = await runCli([
        "explain",
        "Acrobat Pr",
        "--base-url",
        fixture.api.url,
        "--token",
        TOKEN,
        "--format",
        "json",
        "--out",
        `${out}/x`,
        "--quiet",
      ]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /no application "Acrobat Pr" in the license position; nearest: /);
      assert.match(r.stderr, /Adobe Acrobat Pro/);
      assert.deepEqual([...Deno.readDirSync(out)], [], "nothing written");
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });

  it("the explain command renders through the report engine; a computer alone explains that computer", async () => {
    const out = await Deno.makeTempDir({ prefix: "samkit-explain-test-" });
    try {
      const r = await runCli([
        "explain",
        "--computer",
        "C000001",
        "--base-url",
        fixture.api.url,
        "--token",
        TOKEN,
        "--format",
        "json,csv,xlsx,html",
        "--out",
        out,
        "--quiet",
      ]);
      assert.equal(r.code, 0, r.stderr);
      const files = [...Deno.readDirSync(out)].map((e) => e.name).sort();
      assert.deepEqual(files, [
        "explain-position-computer.csv",
        "explain-position.html",
        "explain-position.json",
        "explain-position.xlsx",
      ]);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
});

describe("explain-position refuses an explanation that does not add up", () => {
  let srv: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    srv = await startServer({ port: 0, computers: 60, seed: 1, now: TEST_NOW, quiet: true });
  });
  after(() => srv.close());

  it("a position row whose requirement is not the sum of its devices is an ExplanationMismatchError", async () => {
    const { explainApplications, ExplanationMismatchError } = await import(
      "../../lib/sam/explain_position.ts"
    );
    const { positionRows, reportElp } = await import("../../lib/sam/elp_rows.ts");
    const { clientFor } = await import("../helpers/run_report.ts");
    const ctx = {
      client: clientFor({ url: srv.url }),
      query: createQueryContext(),
      params: {},
      signal: new AbortController().signal,
      now: TEST_NOW,
    };
    const { elp, names } = await reportElp(ctx as never);
    const rows = positionRows(elp, names);
    const target = rows.find((r) => r.requirement > 0)!;
    const more = { computer: () => undefined, organization: (id?: string | null) => id ?? "" };
    const fine = explainApplications(elp, { ...names, ...more }, rows, [target.applicationId]);
    assert.ok(fine.installs.length > 0);
    const tampered = rows.map((r) => r === target ? { ...r, requirement: r.requirement + 1 } : r);
    assert.throws(
      () => explainApplications(elp, { ...names, ...more }, tampered, [target.applicationId]),
      (e: Error) =>
        e instanceof ExplanationMismatchError && /requirement/.test(e.message) &&
        e.message.includes(target.application),
    );
  });
});
