/**
 * The organisation scope of every report that takes one, recomputed from the raw API: an id the
 * service's organisation tree lacks (a typo) stops the run with the known ids, as
 * license-position does, instead of printing a report of zeros; a known one selects exactly the
 * raw records of that organisation.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import type { ReportDefinition } from "../../lib/report/model.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { entitlementStateByComputer } from "../../reports/entitlement_state_by_computer.ts";
import { hardwareSocketMap } from "../../reports/hardware_socket_map.ts";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { rawAll, runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const TOKEN = "recompute-organization-scope-token";
const rowsOf = (json: Json, id: string): Json[] =>
  json.sections.find((s: Json) => s.id === id)?.rows ?? [];

describe("the organization parameter of every report (400 computers)", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN });
  const query = createQueryContext();
  const scoped = API_REPORTS.filter((r) => "organization" in (r.params ?? {}));

  it("is taken by the reports an analyst scopes", () => {
    const ids = scoped.map((r) => r.id);
    for (const id of ["license-cost-summary", "hardware-socket-map", "license-position"]) {
      assert.ok(ids.includes(id), id);
    }
  });

  for (const report of scoped) {
    it(`${report.id}: an organisation the tree lacks stops the run, naming the known ids`, async () => {
      await assert.rejects(
        runReportForTest({
          server: fixture.srv,
          report: report as ReportDefinition,
          params: { organization: "ORG99" },
          query,
        }),
        (e: Error) => {
          assert.equal(e.name, "ParamError", `${report.id}: ${e.message}`);
          assert.match(e.message, /"ORG99" is not an organisation.*ORG01, ORG02/);
          return true;
        },
      );
    });
  }

  it("a known organisation selects its raw licenses and computers", async () => {
    const server = fixture.srv;
    const licenses = await rawAll(server, "/api/sam/v1/licenses", TOKEN);
    const computers = await rawAll(server, "/api/sam/estate/v1/computers", TOKEN);
    const org = "ORG02";
    const cost = await runReportForTest({
      server: fixture.srv,
      report: licenseCostSummary,
      params: { organization: org },
      query,
    });
    const ids = [
      ...rowsOf(cost.json, "licenses"),
      ...rowsOf(cost.json, "licenses-without-costs"),
    ].map((r) => r.licenseId).sort();
    const raw = licenses.filter((l: Json) => l.organizationId === org).map((l: Json) => l.id);
    assert.deepEqual(ids, raw.sort(), "license-cost-summary: the organisation's licenses");
    const names = new Set(
      computers.filter((c: Json) => c.organizationId === org).map((c: Json) => c.hostName),
    );
    const states = await runReportForTest({
      server: fixture.srv,
      report: entitlementStateByComputer,
      params: { organization: org },
      query,
    });
    for (const r of rowsOf(states.json, "computers")) assert.ok(names.has(r.hostName), r.hostName);
    const hosts = await runReportForTest({
      server: fixture.srv,
      report: hardwareSocketMap,
      params: { organization: org },
      query,
    });
    for (const r of rowsOf(hosts.json, "hosts")) assert.ok(names.has(r.hostName), r.hostName);
  });
});
