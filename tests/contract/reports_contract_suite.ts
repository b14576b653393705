/**
 * The reports run against the mock in a dialect, through the real runner, with figures checked
 * against the fixtures. The client is made with no registry prefix (the default must work).
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { FIXTURE_NOW, LICENSE_FACTS } from "./fixtures/tenant.ts";
import { type Dialect, type MockService, startMockService } from "./mock_service.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const section = (json: Json, id: string) => json.sections.find((s: Json) => s.id === id);
const cents = (v: number) => Math.round(v * 100);

/** Expected total cost in cents and license count per currency, from the fixtures. */
function costsByCurrency(): Map<string, { total: number; licenses: number }> {
  const out = new Map<string, { total: number; licenses: number }>();
  for (const l of LICENSE_FACTS) {
    const e = out.get(l.currency) ?? { total: 0, licenses: 0 };
    e.total += cents(l.purchaseValue + l.maintenance.total + l.support.total);
    e.licenses++;
    out.set(l.currency, e);
  }
  return out;
}

/** Reports that read only the estate, license and registry areas (not connectors). */
export const SAM_REPORTS: readonly string[] = API_REPORTS.map((r) => r.id).filter((id) =>
  id !== "connector-health"
);

/**
 * Registers the report runs of a dialect: every SAM report ends with a document, and figures of
 * license-cost-summary, stale-computers and end-of-life-software equal the fixtures'.
 *
 * @example
 * ```ts ignore
 * reportRuns("real", SAM_REPORTS);
 * ```
 */
export function reportRuns(dialect: Dialect, ids: readonly string[]): void {
  describe(`reports against the ${dialect}-dialect mock`, () => {
    let mock: MockService;
    before(async () => void (mock = await startMockService({ dialect })));
    after(async () => await mock.close());
    const run = (id: string) =>
      runReportForTest({
        server: { url: mock.url, clientId: mock.clientId, clientSecret: mock.clientSecret },
        report: API_REPORTS.find((r) => r.id === id)!,
        now: FIXTURE_NOW,
      });

    for (const id of ids) {
      it(`${id} runs to a document`, async () => {
        const out = await run(id);
        assert.ok(out.json.sections.length > 0, `${id}: sections written`);
      });
    }
    if (ids.includes("license-cost-summary")) {
      it("license-cost-summary: totals per currency equal the fixtures' license costs", async () => {
        const rows = section((await run("license-cost-summary")).json, "currency-totals").rows;
        const want = costsByCurrency();
        assert.deepEqual(rows.map((r: Json) => r.currency).sort(), [...want.keys()].sort());
        for (const r of rows) {
          assert.equal(cents(r.costToDate), want.get(r.currency)!.total, `${r.currency} total`);
          assert.equal(r.licenses, want.get(r.currency)!.licenses, `${r.currency} licenses`);
        }
      });
    }
    if (ids.includes("stale-computers")) {
      it("stale-computers: the stale laptop and the quarantined one are flagged", async () => {
        const rows = section((await run("stale-computers")).json, "computers").rows;
        assert.deepEqual(rows.map((r: Json) => r.hostName).sort(), [
          "LAP-SALES-01",
          "LAP-SALES-02",
        ]);
      });
    }
    if (ids.includes("end-of-life-software")) {
      it("end-of-life-software: SQL Server 2016 and Office 2016 installations", async () => {
        const out = await run("end-of-life-software");
        const apps = section(out.json, "applications").rows.map((r: Json) => r.application).sort();
        assert.deepEqual(apps, ["Office 2016 Professional", "SQL Server 2016 Standard"]);
        const hosts = section(out.json, "computers").rows.map((r: Json) => r.computer).sort();
        assert.deepEqual(hosts, ["LAP-SALES-02", "SRV-SQL-01"]);
        // The public registry sends no version: no empty Version column; the spec's has one.
        for (const id of ["applications", "computers"]) {
          const keys = section(out.json, id).columns.map((c: Json) => c.key);
          assert.equal(keys.includes("version"), dialect === "spec", `${id} columns: ${keys}`);
          const rowKeys = Object.keys(section(out.json, id).rows[0]);
          assert.equal(rowKeys.includes("version"), dialect === "spec", `${id} row: ${rowKeys}`);
        }
      });
    }
  });
}
