import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { collectEstate } from "../../lib/server/generator.ts";
import { APP_INFOS, FAMILIES } from "../../lib/server/generator_context.ts";
import { MET, STATE } from "../../lib/server/generator_catalogue.ts";
import { elpLines, uncoveredInstalls } from "./elp_estate.ts";

type Row = Record<string, unknown>;
type Estate = Map<string, Row[]>;

const ESTATES: readonly (readonly [number, number])[] = [[1, 400], [11, 1500], [7, 120]];
const cache = new Map<string, Estate>();
const estateOf = (seed: number, computers: number): Estate => {
  const key = `${seed}/${computers}`;
  let e = cache.get(key);
  if (!e) cache.set(key, e = collectEstate({ seed, computers }));
  return e;
};
const APP = new Map(APP_INFOS.map((a) => [a.id, a]));
const familyOf = (applicationId: unknown) => FAMILIES[APP.get(String(applicationId))!.family];

describe("reference estate coherent with samkit's ELP rules", () => {
  for (const [seed, computers] of ESTATES) {
    it(`seed ${seed}, ${computers} computers: position < 0 ⇔ an install is uncovered`, () => {
      const estate = estateOf(seed, computers);
      const uncovered = uncoveredInstalls(estate);
      const lines = elpLines(estate);
      const wrong = [...lines].filter(([key, l]) => (l.position < 0) !== uncovered.has(key))
        .map(([key, l]) => `${key} position ${l.position}`);
      assert.deepEqual(wrong, []);
      for (const key of uncovered) assert.ok(lines.has(key), `${key} has an ELP line`);
      assert.ok([...lines.values()].some((l) => l.position < 0), "some application is short");
      assert.ok([...lines.values()].some((l) => l.position > 0), "some application has surplus");
    });

    it(`seed ${seed}, ${computers} computers: compliance summaries equal the ELP`, () => {
      const estate = estateOf(seed, computers);
      const summaries = new Map(
        (estate.get("compliance_summaries") ?? []).map((
          r,
        ) => [`${r.applicationId}|${r.metricId}`, r]),
      );
      for (const [key, l] of elpLines(estate)) {
        const s = summaries.get(key);
        assert.ok(s, `summary of ${key}`);
        assert.deepEqual(
          [s.licensesPurchased, s.totalCoverage, s.licenseRequirement, s.compliance],
          [l.purchased, l.entitlements, l.requirement, l.position],
          key,
        );
      }
    });

    it(`seed ${seed}, ${computers} computers: every transfer moves the units it covered`, () => {
      const estate = estateOf(seed, computers);
      const covered = new Map<string, number>();
      for (const t of ["computer_tracking", "user_tracking"]) {
        for (const r of estate.get(t) ?? []) {
          const key = `${r.licenseId}|${r.applicationId}`;
          covered.set(key, (covered.get(key) ?? 0) + (r.receivedCoverage as number));
        }
      }
      const moved = new Map<string, number>();
      for (const t of ["computer_transfers", "user_transfers"]) {
        for (const r of estate.get(t) ?? []) {
          const key = `${r.licenseId}|${r.toApplicationId}`;
          moved.set(key, (moved.get(key) ?? 0) + (r.quantity as number));
        }
      }
      const licenseApp = new Map(
        (estate.get("licenses") ?? []).map((l) => [l.id, l.applicationId]),
      );
      for (const [key, units] of covered) {
        const [license, app] = key.split("|");
        assert.equal(moved.get(key) ?? 0, licenseApp.get(license) === app ? 0 : units, key);
      }
    });
  }
});

describe("demo estate (seed 1, 400 computers) has data for every ELP rule", () => {
  const estate = estateOf(1, 400);
  const rows = (table: string) => estate.get(table) ?? [];
  const lines = elpLines(estate);
  const short = [...lines.values()].filter((l) => l.position < 0);

  it("a downgrade covering an older version", () => {
    const down = [...rows("computer_transfers"), ...rows("user_transfers")].filter((t) =>
      t.isDowngrade === true &&
      APP.get(String(t.fromApplicationId))!.releaseMs >
        APP.get(String(t.toApplicationId))!.releaseMs
    );
    assert.ok(down.length > 0);
  });

  it("extended coverage through a host, a cluster and a disaster-recovery primary", () => {
    const reasons = new Set(rows("extended_coverages").map((r) => r.reason));
    for (const reason of ["Host", "Datacenter", "Disaster recovery"]) {
      assert.ok(reasons.has(reason), reason);
    }
    const moved = rows("metric_tracking").filter((m) =>
      m.requirementMoved === 1 && m.requirement === 0 &&
      ((m.extendedCoverageForDcc as number) + (m.extendedCoverageForHost as number)) > 0
    );
    assert.ok(moved.length > 0);
  });

  it("a per-user product with user tracking and user transfers", () => {
    const tracked = new Set(rows("user_tracking").map((r) => r.applicationId));
    const transferred = rows("user_transfers").filter((r) =>
      r.metricId === MET.users && tracked.has(r.toApplicationId)
    );
    assert.ok(transferred.length > 0);
  });

  it("a product bought in two currencies", () => {
    const currencies = new Map<unknown, Set<unknown>>();
    for (const l of rows("licenses")) {
      const set = currencies.get(l.applicationId) ?? new Set();
      set.add(l.purchaseCurrency);
      currencies.set(l.applicationId, set);
    }
    assert.ok([...currencies.values()].some((s) => s.size >= 2));
  });

  it("a host-based product whose virtual machines move their requirement to the host", () => {
    const metrics = rows("metric_tracking");
    const hostRows = metrics.filter((m) =>
      m.physicalHost === 1 && familyOf(m.applicationId).hostBased
    );
    assert.ok(hostRows.length > 0);
    for (const h of hostRows) {
      const factor = h.coreFactor as number;
      const expected = Math.max(
        Math.ceil((h.initialRequirement as number) * factor),
        h.minimumRequirement as number,
      );
      assert.equal(h.requirement, expected);
    }
    const keys = hostRows.map((h) => `${h.computerId}|${h.applicationId}`);
    assert.equal(new Set(keys).size, keys.length, "one row per host and application");
    const vmRows = metrics.filter((m) =>
      m.virtualMachine === 1 && familyOf(m.applicationId).hostBased &&
      m.computerAppExclusions === 0 &&
      m.outsideMetricPeriod === 0
    );
    assert.ok(vmRows.length > 0);
    for (const m of vmRows) assert.deepEqual([m.requirement, m.requirementMoved], [0, 1]);
  });

  it("virtual machines of a host-based product take the state of their host's coverage", () => {
    const hostOf = new Map(rows("computers").map((c) => [c.id, c.hostComputerId]));
    const required = new Map<string, number>();
    for (const m of rows("metric_tracking")) {
      if (m.physicalHost === 1 && familyOf(m.applicationId).hostBased) {
        required.set(`${m.computerId}|${m.applicationId}`, m.requirement as number);
      }
    }
    const covered = new Map<string, number>();
    for (const t of rows("computer_tracking")) {
      const key = `${t.computerId}|${t.applicationId}`;
      if (required.has(key)) {
        covered.set(key, (covered.get(key) ?? 0) + (t.receivedCoverage as number));
      }
    }
    const states = rows("computer_application_entitlements").filter((e) =>
      familyOf(e.applicationId).hostBased &&
      required.has(`${hostOf.get(e.computerId)}|${e.applicationId}`)
    );
    assert.ok(states.length > 0);
    for (const e of states) {
      const key = `${hostOf.get(e.computerId)}|${e.applicationId}`;
      const units = covered.get(key) ?? 0;
      const expected = units === 0
        ? [STATE.unlicensed]
        : units < required.get(key)!
        ? [STATE.underLicensed]
        : [STATE.licensed, STATE.viaTransfer];
      if (e.entitlementStateId === STATE.excluded) continue;
      assert.ok(expected.includes(e.entitlementStateId as never), `${e.computerId} ${key}`);
    }
  });

  it("a short application with no purchase price, priced by the registry list price", () => {
    const priced = new Set(
      rows("licenses").filter((l) => l.purchaseValue !== null).map((l) => l.applicationId),
    );
    const listPrice = new Map(
      rows("registry_metrics").map((m) => [m.applicationId, m.licenseCost]),
    );
    assert.ok(
      short.some((l) => !priced.has(l.applicationId) && listPrice.get(l.applicationId) != null),
    );
    assert.ok(
      short.some((l) => !priced.has(l.applicationId) && listPrice.get(l.applicationId) == null),
    );
  });
});
