import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { entitlementStateByComputer } from "../../reports/entitlement_state_by_computer.ts";
import { staleComputers } from "../../reports/stale_computers.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { ESTATE, rawAll, runAt } from "./support/raw_api.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawOrganizationNames } from "./support/raw_names.ts";

const TOKEN = "names-test-token";
type Json = Record<string, unknown>;

const rowsOf = (out: { json: { sections: { id: string; rows: Json[] }[] } }, id: string) =>
  out.json.sections.find((s) => s.id === id)!.rows;

describe("names for ids when the service lacks the tree or the registry metrics", () => {
  const fixture = serverFixture({ computers: 120, token: TOKEN });

  for (const status of [404, 403, 405]) {
    it(`a tree that answers ${status} leaves organisation ids, with the same counts`, async () => {
      const { srv, api } = fixture;
      const named = await runAt(api, staleComputers, { now: TEST_NOW, formats: ["json"] });
      srv.faults.add({ match: /\/organizations\/v1\/tree$/, status, times: 1 });
      const bare = await runAt(api, staleComputers, { now: TEST_NOW, formats: ["json"] });
      assert.equal(srv.faults.pending, 0, "the tree was asked");
      const names = await rawOrganizationNames(api);
      const computers = await rawAll(api, `${ESTATE}/computers`);
      const ids = new Set(computers.map((c) => c.organizationId ?? "(no organization)"));
      const shown = rowsOf(bare, "organizations");
      assert.deepEqual(new Set(shown.map((r) => r.organization)), ids);
      // The same rows as with names: only the label differs.
      const strip = (rows: Json[]) =>
        rows.map(({ organization: _, ...rest }) => rest).sort((a, b) =>
          String(a.organizationId).localeCompare(String(b.organizationId))
        );
      assert.deepEqual(strip(shown), strip(rowsOf(named, "organizations")));
      assert.ok(rowsOf(named, "organizations").some((r) => r.organization === names.get("ORG02")));
    });
  }

  it("metrics that answer 404 leave metric ids in the detail, and the tree still names", async () => {
    const { srv, api } = fixture;
    srv.faults.add({ match: /\/applications\/[^/]+\/metrics$/, status: 404, times: 10_000 });
    try {
      const out = await runAt(api, entitlementStateByComputer, {
        now: TEST_NOW,
        formats: ["json"],
      });
      const detail = rowsOf(out, "detail");
      assert.ok(detail.length > 0);
      for (const row of detail) assert.equal(row.metric, row.metricId ?? "(no metric)");
      const names = new Set((await rawOrganizationNames(api)).values());
      assert.ok(rowsOf(out, "computers").every((r) => names.has(r.organization as string)));
    } finally {
      srv.faults.clear();
    }
  });

  it("a server error on the tree fails the report, naming the operation", async () => {
    const { srv, api } = fixture;
    srv.faults.add({ match: /\/organizations\/v1\/tree$/, status: 400, times: 1 });
    await assert.rejects(
      runAt(api, staleComputers, { now: TEST_NOW, formats: ["json"] }),
      (e: Error) => /tree/.test(e.message),
    );
    srv.faults.clear();
  });
});
