/**
 * entitlement-state-by-computer recomputed from its own detail rows (one per computer,
 * application and metric, with its state): each computer's count per state, all states and
 * uncovered, each application's, and the totals per state — for the whole estate, for one
 * organisation, and with the `state` parameter, where every table counts only that state (a
 * count of other states would rest on rows the report does not print).
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { entitlementStateByComputer } from "../../reports/entitlement_state_by_computer.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const sectionOf = (json: Json, id: string): Json => json.sections.find((s: Json) => s.id === id);

/** Every count that does not recompute from the detail rows. */
function problems(json: Json): string[] {
  const found: string[] = [];
  const check = (ok: boolean, what: string) => ok || found.push(what);
  const detail = sectionOf(json, "detail").rows;
  const stateColumns = sectionOf(json, "computers").columns.filter((c: Json) =>
    c.key.startsWith("state_")
  );
  const uncoveredStates = new Set(
    sectionOf(json, "states").rows.filter((s: Json) => s.uncovered).map((s: Json) => s.state),
  );
  for (const [id, by] of [["computers", "hostName"], ["applications", "application"]]) {
    const table = sectionOf(json, id);
    for (const row of table.rows) {
      const mine = detail.filter((d: Json) => d[by] === row[by]);
      for (const c of stateColumns) {
        const n = mine.filter((d: Json) => d.state === c.label).length;
        check(row[c.key] === n, `${id} ${row[by]}: ${c.label} ${row[c.key]} ≠ ${n} printed`);
      }
      check(row.applications === mine.length, `${id} ${row[by]}: all states`);
      const uncovered = mine.filter((d: Json) => uncoveredStates.has(d.state)).length;
      check(row.uncovered === uncovered, `${id} ${row[by]}: uncovered`);
    }
    const listed = new Set(table.rows.map((r: Json) => r[by]));
    check(detail.every((d: Json) => listed.has(d[by])), `${id}: a detail row's ${by} not listed`);
  }
  for (const s of sectionOf(json, "states").rows) {
    const mine = detail.filter((d: Json) => d.state === s.state);
    check(s.installations === mine.length, `states ${s.state}: installations`);
    check(s.computers === new Set(mine.map((d: Json) => d.hostName)).size, `${s.state}: computers`);
  }
  return found;
}

describe("entitlement-state-by-computer recomputed from its detail rows (400 computers)", () => {
  const fixture = serverFixture({ computers: 400 });
  const query = createQueryContext();
  for (
    const [name, params] of [
      ["whole estate", {}],
      ["ORG04", { organization: "ORG04" }],
      ["state Unlicensed", { state: "Unlicensed" }],
      ["state Licensed, uncovered Unlicensed and Excluded", {
        state: "ES01",
        uncoveredStates: "Unlicensed,Excluded",
      }],
    ] as const
  ) {
    it(name, async () => {
      const run = await runReportForTest({
        server: fixture.srv,
        report: entitlementStateByComputer,
        params,
        query,
      });
      assert.ok(sectionOf(run.json, "detail").rows.length > 0);
      assert.deepEqual(problems(run.json).slice(0, 10), []);
    });
  }
});
