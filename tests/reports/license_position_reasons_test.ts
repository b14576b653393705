/**
 * An organisation's position agrees with itself: where its reconciliation with the service's
 * entitlement states lists a position while the cross-check with the service's compliance
 * allocation finds nothing, each row says why in a reason whose figures are printed beside it
 * (the whole estate's position and uncovered installs, equal to the estate run's), and the
 * publisher roll-up obeys the rule its description states.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { PUBLISHER_RULE } from "../../reports/license_position_sections.ts";
import { type RawApi, runAt } from "./support/raw_api.ts";
import { byLabel, jsonSection } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { createQueryContext, type QueryContext } from "../../lib/query/context.ts";

const TOKEN = "license-position-reasons-test-token";
type Row = Record<string, unknown>;
const key = (r: Row) => `${r["Application"]}|${r["Metric"]}`;

async function positionRun(api: RawApi, query: QueryContext, organization?: string) {
  const params = organization === undefined ? {} : { organization };
  const out = await runAt(api, licensePosition, {
    now: TEST_NOW,
    formats: ["json"],
    params,
    query,
  });
  const section = (id: string) => byLabel(jsonSection(out.json, id));
  return { out, section };
}

describe("license-position reconciliation in an organisation's scope (400 computers, seed 1)", () => {
  const fixture = serverFixture({ computers: 400, seed: 1, token: TOKEN });
  // No test changes the store: each scope is run once, the runs sharing one query context (as
  // the reports of a pack do).
  const query = createQueryContext();
  const runs = new Map<string, ReturnType<typeof positionRun>>();
  const run = (organization?: string) => {
    let made = runs.get(organization ?? "");
    if (!made) runs.set(organization ?? "", made = positionRun(fixture.api, query, organization));
    return made;
  };

  it("gives every difference from the entitlement states a reason the estate's printed figures bear out, beside a cross-check that finds none", async () => {
    const estate = await run();
    const whole = new Map(estate.section("positions").map((r) => [key(r), r]));
    assert.deepEqual(estate.section("reconciliation"), [], "the estate agrees with itself");
    let listed = 0;
    for (const organization of ["ORG02", "ORG05", "ORG07", "ORG09"]) {
      const scoped = await run(organization);
      assert.deepEqual(scoped.section("cross-check"), [], `${organization}: cross-check`);
      const positions = new Map(scoped.section("positions").map((r) => [key(r), r]));
      for (const r of scoped.section("reconciliation")) {
        const at = `${organization} ${key(r)}`;
        const reason = String(r["Reason"] ?? "");
        assert.ok(reason.length > 0, `${at}: a reason`);
        assert.doesNotMatch(reason, /^Unexplained/, `${at}: ${reason}`);
        const e = whole.get(key(r))!;
        // The estate's figures printed beside the reason are the estate run's.
        assert.equal(r["Estate position (all organisations)"], e["Position"], at);
        assert.equal(r["Estate uncovered installs"], e["Uncovered installs"], at);
        const p = positions.get(key(r))!;
        const short = (p["Shortfall"] as number) > 0;
        const uncovered = r["Uncovered installs"] as number;
        const estatePosition = e["Position"] as number;
        const estateUncovered = e["Uncovered installs"] as number;
        if (short && uncovered === 0 && (r["Covered installs"] as number) > 0) {
          // Short here, covered by the pool: the estate has units, or leaves others uncovered.
          assert.ok(estatePosition >= 0 || estateUncovered > 0, `${at}: ${reason}`);
          assert.match(reason, /licenses allocated outside/, at);
        } else if (!short) {
          // A surplus here beside uncovered installs: the estate as a whole is short.
          assert.ok(estatePosition < 0 && estateUncovered >= uncovered, `${at}: ${reason}`);
          assert.match(reason, new RegExp(`the estate is ${-estatePosition} units? short`), at);
        }
        listed++;
      }
    }
    assert.ok(listed > 0, "some organisation's position differs from the pooled states");
  });

  it("rolls positions up per publisher and metric by the rule it states: net position = entitlements − requirement = surplus − shortfall, the shortfall that of the short applications", async () => {
    for (const organization of [undefined, "ORG05"]) {
      const { out, section } = await run(organization);
      const publishers = out.result.document.sections.find((s) => s.id === "publishers");
      assert.equal(publishers?.description, PUBLISHER_RULE);
      const positions = section("positions");
      const perMetric = new Map<string, { shortfall: number; surplus: number }>();
      for (const r of section("publishers")) {
        const at = `${organization ?? "estate"} ${r["Publisher"]} ${r["Metric"]}`;
        const ent = r["Entitlements"] as number, req = r["Requirement"] as number;
        const shortfall = r["Shortfall (short applications)"] as number;
        const surplus = r["Surplus (other applications)"] as number;
        assert.equal(r["Net position"], ent - req, at);
        assert.equal(ent - req, surplus - shortfall, at);
        const m = perMetric.get(r["Metric"] as string) ?? { shortfall: 0, surplus: 0 };
        m.shortfall += shortfall;
        m.surplus += surplus;
        perMetric.set(r["Metric"] as string, m);
      }
      // Shortfall and surplus are the positions' own, never netted against each other.
      for (const [metric, m] of perMetric) {
        const mine = positions.filter((p) => p["Metric"] === metric);
        const sum = (f: (p: Row) => number) => mine.reduce((n, p) => n + f(p), 0);
        assert.equal(m.shortfall, sum((p) => p["Shortfall"] as number), metric);
        assert.equal(m.surplus, sum((p) => Math.max(0, p["Position"] as number)), metric);
      }
    }
  });
});
