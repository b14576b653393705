import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { licenseOptimization } from "../../reports/license_optimization.ts";
import { licensePosition } from "../../reports/license_position.ts";
import {
  ESTATE,
  LICENSES,
  rawAll,
  rawAnswers,
  type RawApi,
  type RawItem,
  runAt,
  wholeDays,
} from "./support/raw_api.ts";
import { jsonSection } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { createQueryContext, type QueryContext } from "../../lib/query/context.ts";
import { rawOrganizationNames } from "./support/raw_names.ts";
import { rawAppLabel, rawElp, rawFigures, rawSubtree } from "./support/raw_elp.ts";

const TOKEN = "license-optimization-test-token";
// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;

async function optimize(
  api: RawApi,
  params: Record<string, unknown> = {},
  query?: QueryContext,
) {
  const out = await runAt(api, licenseOptimization, {
    now: TEST_NOW,
    formats: ["json"],
    params,
    ...(query ? { query } : {}),
  });
  return {
    json: out.json,
    positions: jsonSection(out.json, "positions").rows as Row[],
    actions: jsonSection(out.json, "actions").rows as Row[],
  };
}

/** The raw estate: installs, metric tracking, computers, licenses. */
async function raw(api: RawApi) {
  const [installs, tracking, computers, licenses] = await Promise.all([
    rawAll(api, `${ESTATE}/computers-applications`),
    rawAll(api, `${ESTATE}/computers-metering`),
    rawAll(api, `${ESTATE}/computers`),
    rawAll(api, `${LICENSES}/licenses`),
  ]);
  const installed = installs.filter((i) => i.isInstalled === true);
  return {
    installed,
    tracking,
    computers: new Map<string, RawItem>(computers.map((c) => [c.id, c])),
    licenses: new Map<string, RawItem>(licenses.map((l) => [l.id, l])),
  };
}

const removals = (actions: Row[]) => actions.filter((r) => r.action === "Remove install");
const moves = (actions: Row[]) => actions.filter((r) => r.action.startsWith("Reassign"));
const byStep = (actions: Row[]) => Map.groupBy(removals(actions), (r) => r.step as number);

describe("license-optimization on the reference estate", () => {
  const server = serverFixture({ computers: 400, token: TOKEN });
  // No test changes the store: the runs share one query context (as a pack's reports do), the
  // default run and the raw estate are made once, and the recounts read each raw answer once.
  const query = createQueryContext();
  let answers: RawApi | undefined;
  const fx = {
    get api(): RawApi {
      return answers ??= rawAnswers(server.api);
    },
  };
  let defaultRun: ReturnType<typeof optimize> | undefined;
  let rawEstate: ReturnType<typeof raw> | undefined;
  const optimized = (params?: Record<string, unknown>) =>
    params ? optimize(fx.api, params, query) : defaultRun ??= optimize(fx.api, {}, query);
  const estate = () => rawEstate ??= raw(fx.api);

  it("starts from license-position's shortfalls and costs, which the raw recount repeats", async () => {
    const [{ positions }, lp, elp] = await Promise.all([
      optimized(),
      runAt(fx.api, licensePosition, { now: TEST_NOW, formats: ["json"], query }),
      rawElp(fx.api),
    ]);
    const short = (jsonSection(lp.json, "positions").rows as Row[]).filter((r) => r.shortfall > 0);
    const want = new Map(short.map((r) => [`${r.application}|${r.metric}`, r]));
    assert.equal(positions.length, want.size);
    for (const p of positions) {
      const w = want.get(`${p.application}|${p.metric}`);
      assert.ok(w, `${p.application}|${p.metric} is short in license-position`);
      assert.equal(p.shortfallBefore, w.shortfall);
      assert.equal(p.costBefore, w.shortfallCost);
    }
    const rawShort = [...elp.lines.values()].filter((l) => rawFigures(l).shortfall > 0);
    assert.equal(rawShort.length, positions.length);
    for (const l of rawShort) {
      const p = positions.find((r) => r.application === rawAppLabel(elp.registry, l.applicationId));
      assert.ok(p, `raw short ${l.applicationId}`);
    }
  });

  it("harvests only installed installs idle for idleDays or more, each install once", async () => {
    for (const idleDays of [90, 365]) {
      const { actions, json } = await optimized({ idleDays });
      assert.equal(json.params.idleDays, idleDays);
      const { installed } = await estate();
      const idle = new Map(installed.map((i) => [`${i.computerId}|${i.applicationId}`, i]));
      const seen = new Set<string>();
      assert.ok(removals(actions).length > 0);
      for (const r of removals(actions)) {
        const k = `${r.computerId}|${r.applicationId}`;
        const i = idle.get(k);
        assert.ok(i, `${k} is installed`);
        const since = i.lastUsed ?? i.firstDiscovered;
        if (since) assert.ok(wholeDays(since, TEST_NOW) >= idleDays, `${k} idle ${since}`);
        assert.ok(!seen.has(k), `${k} harvested once`);
        seen.add(k);
      }
    }
  });

  it("never raises a shortfall, and after = before − units freed − units reassigned", async () => {
    const { positions, actions } = await optimized();
    for (const p of positions) {
      assert.ok(
        p.shortfallAfterHarvest <= p.shortfallBefore && p.shortfallAfter <= p.shortfallAfterHarvest,
      );
      const mine = actions.filter((a) => a.application === p.application && a.metric === p.metric);
      const freed = mine.reduce((n, a) => n + (a.unitsFreed ?? 0), 0);
      const moved = mine.reduce((n, a) => n + (a.units ?? 0), 0);
      assert.equal(p.unitsHarvested, freed);
      assert.equal(p.unitsReassigned, moved);
      assert.equal(p.shortfallAfter, Math.max(0, p.shortfallBefore - freed - moved));
      if (p.currency) {
        assert.equal(
          Math.round(p.moneySaved * 100),
          Math.round((p.costBefore - p.costAfter) * 100),
        );
      }
    }
  });

  it("frees what metric tracking counts: a per-core product on a VM host frees the host's cores only with every install on it", async () => {
    const { actions } = await optimized();
    const { installed, tracking, computers } = await estate();
    let hosts = 0;
    for (const [, rows] of byStep(actions)) {
      const first = rows[0];
      if (!String(first.note ?? "").startsWith("Host ")) continue;
      hosts++;
      const vm = computers.get(first.computerId)!;
      const hostRow = tracking.find((t) =>
        t.applicationId === first.applicationId && Number(t.physicalHost) > 0 &&
        (t.computerId === vm.hostComputerId || t.computerId === first.computerId)
      )!;
      assert.ok(hostRow, `host row of ${first.computerId}`);
      assert.equal(first.unitsFreed, Number(hostRow.requirement));
      const host = hostRow.computerId;
      const onHost = installed.filter((i) =>
        i.applicationId === first.applicationId &&
        (i.computerId === host || computers.get(i.computerId)?.hostComputerId === host)
      ).map((i) => i.computerId).sort();
      assert.deepEqual(rows.map((r) => r.computerId).sort(), onHost);
    }
    assert.ok(hosts > 0, "a VM-host harvest");
  });

  it("frees a user-metric product's requirement per user, and a plain install's own row", async () => {
    const { actions } = await optimized();
    const { tracking } = await estate();
    const users = removals(actions).filter((r) => r.metric === "Users");
    assert.ok(users.length > 0, "a user-metric harvest");
    for (const [, rows] of byStep(actions)) {
      if (String(rows[0].note ?? "").startsWith("Host ")) continue;
      const req = rows.reduce(
        (n, r) =>
          n + Number(
            tracking.find((t) =>
              t.computerId === r.computerId && t.applicationId === r.applicationId &&
              Number(t.requirement) > 0
            )?.requirement ?? 0,
          ),
        0,
      );
      assert.equal(rows[0].unitsFreed, req, `step ${rows[0].step}`);
    }
  });

  it("reassigns a downgrade only from a newer version's license with downgrade rights, never more than it holds", async () => {
    const { actions } = await optimized();
    const { licenses } = await estate();
    const downgrades = moves(actions).filter((r) => r.action.includes("Downgrade"));
    assert.ok(downgrades.length > 0, "a downgrade");
    const used = new Map<string, number>();
    for (const m of moves(actions)) used.set(m.license, (used.get(m.license) ?? 0) + m.units);
    for (const d of downgrades) {
      const l = licenses.get(d.license)!;
      assert.ok(
        l.isDowngrade === true || l.isDowngrade === "true",
        `${d.license} has downgrade rights`,
      );
      assert.notEqual(d.from, d.to);
    }
    for (const [id, units] of used) {
      if (licenses.has(id)) {
        assert.ok(units <= Number(licenses.get(id)!.quantity), `${id} used once`);
      }
    }
  });

  it("moves another organisation's surplus into an organisation's scope, within that surplus", async () => {
    const scope = "ORG02";
    const { actions, positions } = await optimized({ organization: scope });
    const orgMoves = moves(actions).filter((r) => r.action.includes("Organisation move"));
    assert.ok(orgMoves.length > 0, "an organisation move");
    const inScope = await rawSubtree(fx.api, scope);
    const names = await rawOrganizationNames(fx.api);
    const idOf = new Map([...names].map(([id, name]) => [name, id]));
    let checked = 0;
    const moved = Map.groupBy(orgMoves, (m) => m.from as string);
    for (const [from, list] of moved) {
      const org = idOf.get(/\(([^()]*)\)$/.exec(from)![1])!;
      assert.ok(org && !inScope.has(org), `${from} is outside ${scope}`);
      const p = positions.find((r) => r.application === list[0].to)!;
      assert.ok(p.unitsReassigned > 0 && p.shortfallAfter < p.shortfallAfterHarvest);
      if ((await rawSubtree(fx.api, org)).size !== 1) continue; // a leaf: its subtree is itself
      const donor = await rawElp(fx.api, { organization: org });
      const line = [...donor.lines.values()].find((l) =>
        rawAppLabel(donor.registry, l.applicationId) === list[0].to
      )!;
      const units = list.reduce((n, m) => n + m.units, 0);
      assert.ok(units <= rawFigures(line).surplus, `${from} gives ${units} of its surplus`);
      checked++;
    }
    assert.ok(checked > 0, "a move from a leaf organisation recounted");
  });

  it("never harvests an excluded computer, and shortfall after harvest can only grow without it", async () => {
    const before = await optimized();
    const target = removals(before.actions).find((r) => !r.note)!;
    const out = await optimized({ exclude: target.computer });
    assert.ok(!removals(out.actions).some((r) => r.computerId === target.computerId));
    const pos = (o: typeof out) =>
      o.positions.find((p) => p.application === target.application && p.metric === target.metric)!;
    assert.ok(pos(out).shortfallAfterHarvest >= pos(before).shortfallAfterHarvest);
  });

  it("rejects a malformed exclude list as a parameter error", async () => {
    await assert.rejects(optimized({ exclude: "[1,2" }), /exclude/);
  });
});
