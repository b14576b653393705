/**
 * One name per figure: a label printed in two places names the same figure in both, and a total
 * or headline over rows whose value is unknown says so in its label. Each report runs to JSON on
 * one shared server and query context; the figures are recounted here from the printed rows.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createQueryContext } from "../../lib/query/context.ts";
import { FactsCollector } from "../../lib/report/facts.ts";
import { computeTotals } from "../../lib/report/totals.ts";
import type { Section } from "../../lib/report/model.ts";
import { unusedSoftware } from "../../reports/unused_software.ts";
import { entitlementStateByComputer } from "../../reports/entitlement_state_by_computer.ts";
import { hardwareSocketMap } from "../../reports/hardware_socket_map.ts";
import { readXlsx, runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const sectionOf = (json: Json, id: string): Json => json.sections.find((s: Json) => s.id === id);
const labelOf = (section: Json, key: string): string =>
  section.columns.find((c: Json) => c.key === key)?.label;

describe("one name per figure (400 computers)", () => {
  const fixture = serverFixture({ computers: 400 });
  const query = createQueryContext();
  const run = (report: Json) => runReportForTest({ server: fixture.srv, report, query });

  it("unused-software: a bucket of the list counts what the table's column of that name counts", async () => {
    const { json, result } = await run(unusedSoftware);
    const apps = sectionOf(json, "applications"), list = sectionOf(json, "installations");
    const labels = new Map<string, string>(apps.columns.map((c: Json) => [c.label, c.key]));
    const buckets = new Set<string>(list.rows.map((r: Json) => r.bucket));
    const used = new Set<string>(
      list.rows.filter((r: Json) => r.lastUsed).map((r: Json) => r.bucket),
    );
    const shared = [...buckets].filter((b) => labels.has(b));
    let compared = 0;
    for (const app of apps.rows) {
      const mine = list.rows.filter((r: Json) =>
        r.application === app.application && r.version === app.version
      );
      for (const name of shared) {
        const listed = mine.filter((r: Json) => r.bucket === name).length;
        assert.equal(listed, app[labels.get(name)!], `${app.application}: "${name}"`);
        compared++;
      }
    }
    // Every idle bucket of used installs is one of the table's columns, by the same name.
    assert.deepEqual(
      shared.filter((b) => used.has(b)).sort(),
      [...used].sort(),
      "named as columns",
    );
    assert.ok(compared > 0, "some figures compared");
    // A never-used install the list shows says how long ago it was discovered, or that it is
    // unknown; the table's "Never used" counts every one (the headline of that name too).
    const first = 30;
    for (const r of list.rows.filter((r: Json) => r.lastUsed === null)) {
      assert.ok(r.idleDays === null || r.idleDays >= first, `${r.computer}: listed idle`);
      assert.ok(!labels.has(r.bucket) || r.bucket !== "Never used", `${r.bucket} names a subset`);
    }
    const never = apps.rows.reduce((t: number, r: Json) => t + r.never, 0);
    const headline = result.document.summary.find((f: Json) =>
      f.label === `${labelOf(apps, "never")} (installations)`
    );
    assert.equal(headline?.value, never, "the never-used headline is named as its column");
  });

  it("entitlement-state-by-computer: the count of entitlements has one name in every table and headline", async () => {
    const { json, result } = await run(entitlementStateByComputer);
    const computers = sectionOf(json, "computers"), apps = sectionOf(json, "applications");
    const states = sectionOf(json, "states");
    const names = [
      labelOf(computers, "applications"),
      labelOf(apps, "applications"),
      labelOf(states, "installations"),
    ];
    assert.equal(new Set(names).size, 1, `one name: ${names.join(", ")}`);
    const sum = (rows: Json[], key: string) => rows.reduce((t, r) => t + r[key], 0);
    const total = sum(computers.rows, "applications");
    assert.equal(sum(apps.rows, "applications"), total);
    assert.equal(sum(states.rows, "installations"), total);
    const all = result.document.summary.find((f: Json) => f.label === `${names[0]} (all states)`);
    assert.equal(all?.value, total, "the headline over every state is named as the column");
    const uncovered = [labelOf(computers, "uncovered"), labelOf(apps, "uncovered")];
    assert.equal(new Set(uncovered).size, 1, `one name: ${uncovered.join(", ")}`);
    const head = result.document.summary.find((f: Json) => f.label === uncovered[0]);
    assert.equal(head?.value, sum(computers.rows, "uncovered"), "uncovered headline by its name");
  });

  it("hardware-socket-map: a headline over hosts without hardware data names the hosts it adds, and the hosts left out are counted", async () => {
    const { json, result } = await run(hardwareSocketMap);
    const hosts = sectionOf(json, "hosts");
    const unknown = hosts.rows.filter((r: Json) => r.perCoreRequirement === null).length;
    assert.ok(unknown > 0 && unknown < hosts.rows.length, "some hosts without hardware data");
    const known = hosts.rows.length - unknown;
    const heads = {
      perCoreRequirement: "Per-core",
      coreFactorRequirement: "Core-factor",
      cores: "Physical cores",
    };
    for (const [key, name] of Object.entries(heads)) {
      const figure = hosts.rows.reduce((t: number, r: Json) => t + (r[key] ?? 0), 0);
      const fact: Json = result.document.summary.find((f: Json) => f.label.startsWith(name));
      assert.equal(fact?.value, figure, `the headline sums ${key}`);
      // The name is the same run after run (trends follow a figure by it): no counts in it.
      assert.match(fact.label, / \(hosts with hardware data\)$/, `${key}: "${fact.label}"`);
    }
    const apart = result.document.summary.find((f: Json) => f.label === "Without hardware data");
    assert.equal(apart?.value, unknown, "the hosts left out, a headline of their own");
    // The totals line over the same rows says how many it added, beside the figure (JSON),
    // and the description says it beside the table (HTML, PDF).
    for (const key of Object.keys(heads)) {
      assert.equal(hosts.totals.All[`${key}:known`], known, `${key}: rows added`);
    }
    assert.equal(hosts.totals.All.rows, hosts.rows.length);
    assert.equal(hosts.totals.All["vms:known"], undefined, "every host has a VM count");
    // The workbook's totals line says it in its label.
    const xlsx = await runReportForTest({
      server: fixture.srv,
      report: hardwareSocketMap,
      query,
      formats: ["xlsx", "html"],
    });
    const page = await Deno.readTextFile(xlsx.file("html"));
    const line = `Total · ${hosts.rows.length} rows · ${unknown} without a value, not added`;
    assert.ok(page.includes(line), `the HTML totals line reads "${line}"`);
    const sheets = await readXlsx(xlsx.file("xlsx"));
    const sheet = Object.values(sheets).find((r) => r[0]?.[0] === "Host")!;
    const label = `Total (${hosts.rows.length} rows; ${unknown} without a value, not added)`;
    assert.ok(sheet.some((r) => r.includes(label)), `the totals line reads "${label}"`);
  });
});

describe("a report of a user's own", () => {
  it("marks a total that leaves out rows without a value, and keeps the headline's name", async () => {
    const section: Section = {
      id: "s",
      title: "S",
      columns: [{ key: "n", label: "N", type: "integer" }],
      rows: [{ n: 2 }, { n: null }, { n: 3 }],
      facts: [{ label: "N", sum: "n" }, { label: "Rows", count: true }],
    };
    const facts = new FactsCollector([], [section]);
    const tapped = facts.tap(section);
    for await (const _ of tapped.rows) { /* pass the rows */ }
    assert.deepEqual(facts.facts().map((f) => [f.label, f.value]), [
      ["N", 5],
      ["Rows", 3],
    ]);
    const all = computeTotals([{ n: 2 }, { n: null }, { n: 3 }], { sum: ["n"] }).All;
    assert.deepEqual(all, { n: 5, "n:known": 2, rows: 3 });
    // Every row with a value: the label and the line as declared.
    assert.deepEqual(computeTotals([{ n: 2 }], { sum: ["n"] }).All, { n: 2, rows: 1 });
  });
});
