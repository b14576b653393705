import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { rawAnswers, runAt } from "./support/raw_api.ts";
import { createQueryContext, type QueryContext } from "../../lib/query/context.ts";
import { assertRows, jsonSection } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { ORGANIZATIONS } from "../../lib/server/generator_catalogue.ts";
import { rawElp, rawFigures, rawRowKey, rawSubtree } from "./support/raw_elp.ts";
import { rawAllocationDifferences } from "./support/raw_allocation.ts";

const TOKEN = "license-position-allocation-test-token";
const LABELS = ["Application", "Metric", "Figure", "samkit", "Service", "Explanation"];
type Row = Record<string, unknown>;
const figureKey = (r: Row) => `${r["Application"]}|${r["Metric"]}|${r["Figure"]}`;

const run = (
  api: Parameters<typeof runAt>[0],
  organization: string,
  json = false,
  query?: QueryContext,
) =>
  runAt(api, licensePosition, {
    now: TEST_NOW,
    params: { organization },
    ...(json ? { formats: ["json"] as const } : {}),
    ...(query ? { query } : {}),
  });

describe("license-position of an organisation beside the service's compliance allocation (400 computers, seed 1)", () => {
  const fixture = serverFixture({ computers: 400, seed: 1, token: TOKEN });
  // The first two tests leave the store as generated: their runs share what they read (as the
  // reports of a pack do), and the recounts the raw answers they read.
  const query = createQueryContext();

  it("finds no difference for any organisation, as an independent recount finds none", async () => {
    const api = rawAnswers(fixture.api);
    for (const { id: organization } of ORGANIZATIONS) {
      const orgs = await rawSubtree(api, organization);
      const want = await rawAllocationDifferences(
        api,
        await rawElp(api, { organization }),
        orgs,
      );
      assert.deepEqual([...want.keys()], [], `${organization}: the recount finds no difference`);
      const out = await run(fixture.api, organization, true, query);
      assert.deepEqual(jsonSection(out.json, "cross-check").rows, [], organization);
      const section = out.result.document.sections.find((x) => x.id === "cross-check");
      assert.match(section?.description ?? "", /compliance allocation to this organization/);
    }
  });

  it("finds no difference for the root organisation, whose allocation is the whole summary", async () => {
    const out = await run(fixture.api, "ORG01", true, query);
    assert.deepEqual(jsonSection(out.json, "cross-check").rows, []);
  });

  it("lists an altered allocation row's requirement and coverage by name, with the scope's sum", async () => {
    const organization = "ORG06";
    const orgs = await rawSubtree(fixture.api, organization);
    const elp = await rawElp(fixture.api, { organization });
    const before = await rawAllocationDifferences(fixture.api, elp, orgs);
    assert.equal(before.size, 0, "the estate agrees with its allocation before the change");
    const [key, line] = [...elp.lines].find(([, l]) => l.requirement > 0)!;
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
      coverage: Number(row.coverage) - 2,
    });
    try {
      const want = await rawAllocationDifferences(fixture.api, elp, orgs);
      const name = rawRowKey(elp, key);
      const entitlements = rawFigures(line).entitlements;
      assert.deepEqual([...want.keys()], [`${name}|Entitlements`, `${name}|Requirement`]);
      assert.deepEqual(want.get(`${name}|Requirement`), {
        samkit: line.requirement,
        service: line.requirement + 3,
      });
      assert.deepEqual(want.get(`${name}|Entitlements`), {
        samkit: entitlements,
        service: entitlements - 2,
      });
      const out = await run(fixture.api, organization);
      await assertRows(out, {
        section: "cross-check",
        labels: LABELS,
        expected: want,
        keyOf: figureKey,
        fields: { samkit: "samkit", service: "Service" },
      });
    } finally {
      fixture.srv.store.update("compliance_allocations", where, {
        requirement: row.requirement,
        coverage: row.coverage,
      });
    }
  });
});
