import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { runAt } from "./support/raw_api.ts";
import { assertRows, byLabel, jsonSection } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawElp, rawRowKey, rawSubtree } from "./support/raw_elp.ts";
import { rawAllocationDifferences } from "./support/raw_allocation.ts";

const TOKEN = "license-position-allocation-test-token";
const LABELS = ["Application", "Metric", "Figure", "samkit", "Service", "Explanation"];
type Row = Record<string, unknown>;
const figureKey = (r: Row) => `${r["Application"]}|${r["Metric"]}|${r["Figure"]}`;

const run = (api: Parameters<typeof runAt>[0], organization: string, json = false) =>
  runAt(api, licensePosition, {
    now: TEST_NOW,
    params: { organization },
    ...(json ? { formats: ["json"] as const } : {}),
  });

describe("license-position of an organisation beside the service's compliance allocation (400 computers, seed 1)", () => {
  const fixture = serverFixture({ computers: 400, seed: 1, token: TOKEN });

  it("lists every figure that differs from the scope's allocation rows, as an independent recount", async () => {
    for (const organization of ["ORG05", "ORG06"]) {
      const orgs = await rawSubtree(fixture.api, organization);
      const want = await rawAllocationDifferences(
        fixture.api,
        await rawElp(fixture.api, { organization }),
        orgs,
      );
      assert.ok(want.size > 0, `${organization}: the reference estate differs somewhere`);
      const out = await run(fixture.api, organization);
      await assertRows(out, {
        section: "cross-check",
        labels: LABELS,
        expected: want,
        keyOf: figureKey,
        fields: { samkit: "samkit", service: "Service" },
      });
      const section = out.result.document.sections.find((x) => x.id === "cross-check");
      assert.match(section?.description ?? "", /compliance allocation to this organization/);
    }
  });

  it("finds the requirement allocated equal to the scope's computers' requirement", async () => {
    for (const organization of ["ORG02", "ORG05", "ORG07"]) {
      const rows = byLabel(
        jsonSection((await run(fixture.api, organization, true)).json, "cross-check"),
      );
      assert.ok(rows.length > 0, organization);
      assert.deepEqual(rows.filter((r) => r["Figure"] === "Requirement"), [], organization);
    }
  });

  it("finds no difference for the root organisation, whose allocation is the whole summary", async () => {
    const out = await run(fixture.api, "ORG01", true);
    assert.deepEqual(jsonSection(out.json, "cross-check").rows, []);
  });

  it("lists an altered allocation row by name, with the scope's sum", async () => {
    const organization = "ORG06";
    const orgs = await rawSubtree(fixture.api, organization);
    const elp = await rawElp(fixture.api, { organization });
    const before = await rawAllocationDifferences(fixture.api, elp, orgs);
    const [key, line] = [...elp.lines].find(([k, l]) =>
      l.requirement > 0 && !before.has(`${rawRowKey(elp, k)}|Requirement`)
    )!;
    const { applicationId, metricId } = line;
    const row = fixture.srv.store.query({
      resource: "ComplianceAllocation",
      where: { applicationId, metricId },
      limit: 100,
    }).rows.find((r) => orgs.has(String(r.organizationId)));
    assert.ok(row, `an allocation row of ${key} in ${organization}`);
    const where = { applicationId, metricId, organizationId: row.organizationId };
    fixture.srv.store.update("compliance_allocations", where, {
      requirement: Number(row.requirement) + 3,
    });
    try {
      const want = await rawAllocationDifferences(fixture.api, elp, orgs);
      const name = `${rawRowKey(elp, key)}|Requirement`;
      assert.deepEqual(want.get(name), {
        samkit: line.requirement,
        service: line.requirement + 3,
      });
      const out = await run(fixture.api, organization, true);
      await assertRows(out, {
        section: "cross-check",
        expected: want,
        keyOf: figureKey,
        fields: { samkit: "samkit", service: "Service" },
        formats: ["json"],
      });
    } finally {
      fixture.srv.store.update("compliance_allocations", where, { requirement: row.requirement });
    }
  });
});
