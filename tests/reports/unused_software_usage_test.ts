import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { unusedSoftware } from "../../reports/unused_software.ts";
import {
  type Expected,
  LICENSES,
  rawAll,
  rawAnswers,
  type RawApi,
  runAt,
} from "./support/raw_api.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { usageOf } from "../../lib/sam/reclaim_usage.ts";
import { assertRows, byLabel, jsonSection } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawElp, rawFigures, rawRowKey } from "./support/raw_elp.ts";
import { rawReclaim } from "./support/raw_reclaim.ts";

const TOKEN = "unused-software-usage-test-token";
const DISAGREE = "Positions where the service's partial coverage disagrees with the shortfall";
const FIELDS = {
  covered: "Covered (service)",
  partial: "Partly covered (service)",
};
const LABELS = [
  "Application",
  "Metric",
  "Harvest candidates",
  "Idle units",
  "Entitlements",
  "Requirement",
  "Shortfall first",
  FIELDS.covered,
  FIELDS.partial,
  "Reclaimable units",
  "Currency",
  "Unit price",
  "Reclaimable value",
  "Blank because",
];
type Row = Record<string, unknown>;
const key = (r: Row) => `${r["Application"]}|${r["Metric"]}`;

/**
 * Per harvest position (`Application|Metric`), the service's usage recounted from the raw
 * usage rows: Σ main and other-metric coverage of the metric, partial when any row is; and
 * whether that partial flag disagrees with the independent ELP's shortfall.
 */
async function rawUsage(api: RawApi) {
  const [reclaim, elp] = await Promise.all([rawReclaim(api, TEST_NOW, 180), rawElp(api)]);
  const want = new Map<string, Record<string, Expected>>();
  let disagree = 0;
  for (const [k, line] of elp.lines) {
    const label = rawRowKey(elp, k);
    if (!reclaim.has(label)) continue;
    const rows = (await rawAll(api, `${LICENSES}/compliance/summary/${line.applicationId}/usage`))
      .filter((u) => u.metricId === line.metricId);
    if (rows.length === 0) {
      want.set(label, { covered: null, partial: null });
      continue;
    }
    const partial = rows.some((u) => u.isPartial === true);
    const covered = rows.reduce((n, u) => n + u.mainCoverage + u.otherMetricCoverage, 0);
    want.set(label, { covered, partial });
    if (partial !== rawFigures(line).shortfall > 0) disagree++;
  }
  assert.equal(want.size, reclaim.size, "every harvest position has an ELP line");
  return { want, disagree };
}

describe("unused-software: the service's usage beside each harvest position (400 computers)", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN });
  // Until the second test changes the store, the runs share one query context (as a pack's
  // reports do) and the recounts one read of each raw answer; after the change both read afresh.
  const query = createQueryContext();
  let answers: RawApi | undefined;
  const generated = () => answers ??= rawAnswers(fixture.api);

  it("shows the covered units and partial flag of the service's usage, as an independent recount", async () => {
    const { want, disagree } = await rawUsage(generated());
    assert.ok([...want.values()].some((w) => w.partial === true), "a partly covered position");
    assert.ok([...want.values()].some((w) => w.partial === false), "a fully covered position");
    const out = await runAt(fixture.api, unusedSoftware, { now: TEST_NOW, query });
    await assertRows(out, {
      section: "reclaim",
      labels: LABELS,
      expected: want,
      keyOf: key,
      fields: FIELDS,
    });
    const summary = new Map(out.result.document.summary.map((f) => [f.label, f.value]));
    assert.equal(summary.get(DISAGREE), disagree);
  });

  it("counts a position whose usage the service flags differently from samkit's shortfall", async () => {
    const out = await runAt(fixture.api, unusedSoftware, {
      now: TEST_NOW,
      formats: ["json"],
      query,
    });
    const row = byLabel(jsonSection(out.json, "reclaim")).find((r) => r[FIELDS.partial] === false)!;
    const elp = await rawElp(generated());
    const [, line] = [...elp.lines].find(([k]) => rawRowKey(elp, k) === key(row))!;
    const where = { applicationId: line.applicationId, metricId: line.metricId };
    const before = Number(
      out.result.document.summary.find((f) => f.label === DISAGREE)?.value ?? 0,
    );
    fixture.srv.store.update("compliance_usages", where, { isPartial: true });
    try {
      const { want, disagree } = await rawUsage(fixture.api);
      assert.equal(disagree, before + 1);
      const again = await runAt(fixture.api, unusedSoftware, { now: TEST_NOW, formats: ["json"] });
      await assertRows(again, {
        section: "reclaim",
        expected: want,
        keyOf: key,
        fields: FIELDS,
        formats: ["json"],
      });
      const summary = new Map(again.result.document.summary.map((f) => [f.label, f.value]));
      assert.equal(summary.get(DISAGREE), before + 1);
    } finally {
      fixture.srv.store.update("compliance_usages", where, { isPartial: false });
    }
  });
});

describe("usageOf: the service's usage of one position", () => {
  const rows = [
    { metricId: "M", mainCoverage: 2, otherMetricCoverage: 0, isPartial: false },
    { metricId: "M", mainCoverage: 1, otherMetricCoverage: 1, isPartial: true },
    { metricId: "X", mainCoverage: 9, otherMetricCoverage: 0, isPartial: true },
  ];

  it("is partial when any usage row of the metric is, not only when all are", () => {
    assert.deepEqual(usageOf(rows, { metricId: "M", shortfall: 0 }), {
      serviceCovered: 4,
      servicePartial: true,
      serviceDisagrees: true,
    });
    assert.deepEqual(usageOf(rows.slice(0, 1), { metricId: "M", shortfall: 0 }), {
      serviceCovered: 2,
      servicePartial: false,
      serviceDisagrees: false,
    });
  });

  it("reads only the position's metric, and nothing without a row of it", () => {
    assert.deepEqual(usageOf(rows, { metricId: "X", shortfall: 3 }), {
      serviceCovered: 9,
      servicePartial: true,
      serviceDisagrees: false,
    });
    assert.deepEqual(usageOf(rows, { metricId: "Y", shortfall: 1 }), {
      serviceCovered: null,
      servicePartial: null,
      serviceDisagrees: null,
    });
  });
});
