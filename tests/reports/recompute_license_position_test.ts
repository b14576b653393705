/**
 * license-position recomputed from its own printed rows, with this file's own arithmetic: each
 * position's identities, every total per currency, the publisher roll-up and the exposure per
 * publisher and currency from the positions the same JSON prints, the unpriced list, the
 * requirement per device; the CSV carries the same figures under the same names. Runs unscoped,
 * for an organisation with sub-organisations, with a price file in two more currencies, and with
 * a reporting currency.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { licensePosition } from "../../reports/license_position.ts";
import { checkSections } from "../../lib/report/model.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { parseFxRates } from "../../lib/sam/fx_rates.ts";
import { readCsv, runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const RATES = "date,currency,rate\n2025-06-27,USD,1.08345\n2025-06-27,GBP,0.85713\n" +
  "2025-06-27,CHF,0.93512\n";
const reportingCurrency = { code: "EUR", rates: parseFxRates(RATES, "rates.csv"), source: "r" };

const cents = (v: number) => Math.round(v * 100);
const rowsOf = (json: Json, id: string): Json[] =>
  json.sections.find((s: Json) => s.id === id)?.rows ?? [];
const key = (...parts: unknown[]) => JSON.stringify(parts);

/** Sums `field` over `rows` per `by`, in cents for money; null where every value is blank. */
function sums(rows: Json[], by: (r: Json) => string, field: string, money: boolean) {
  const out = new Map<string, number | null>();
  for (const r of rows) {
    const k = by(r);
    const v = r[field];
    const was = out.get(k) ?? null;
    if (typeof v !== "number") out.set(k, was);
    else out.set(k, (was ?? 0) + (money ? cents(v) : v));
  }
  return out;
}

/** Every problem found recomputing the report from the rows it printed. */
function problems(json: Json, fx: string | undefined): string[] {
  const found: string[] = [];
  const check = (ok: boolean, what: string) => ok || found.push(what);
  const positions = rowsOf(json, "positions");
  check(positions.length > 0, "no positions");
  for (const r of positions) {
    const at = `${r.application} / ${r.metric}`;
    check("publisher" in r, `${at}: the publisher is not printed`);
    check(r.entitlements === r.purchased + r.received - r.given, `${at}: entitlements`);
    check(r.position === r.entitlements - r.requirement, `${at}: position`);
    check(r.shortfall === Math.max(-r.position, 0), `${at}: shortfall`);
    if (r.requirement > 0) {
      check(Math.abs(r.compliance - r.entitlements / r.requirement) < 1e-12, `${at}: ratio`);
    }
    const price = r.unitPrice;
    if (price === null) {
      check(r.shortfallCost === null && r.surplusValue === null, `${at}: unpriced has a value`);
    } else {
      const cost = r.shortfall > 0 ? cents(price) * r.shortfall / 100 : null;
      const value = r.position > 0 ? cents(price) * r.position / 100 : null;
      check(r.shortfallCost === cost, `${at}: shortfall cost ${r.shortfallCost} ≠ ${cost}`);
      check(r.surplusValue === value, `${at}: surplus value ${r.surplusValue} ≠ ${value}`);
      check(typeof r.currency === "string" && r.currency.length === 3, `${at}: currency`);
    }
  }
  // Totals per currency: never across currencies.
  const totals = json.sections.find((s: Json) => s.id === "positions").totals;
  for (const field of ["shortfallCost", "surplusValue"]) {
    for (const [code, sum] of sums(positions, (r) => r.currency ?? "", field, true)) {
      if (!code) continue;
      check(cents(totals[code]?.[field] ?? NaN) === (sum ?? 0), `total ${field} ${code}`);
    }
    if (fx) {
      const all = positions.reduce((t, r) => t + cents(r[`${field}In${fx}`] ?? 0), 0);
      check(cents(totals[`all currencies (${fx})`]?.[`${field}In${fx}`]) === all, `${field} ${fx}`);
    }
  }
  // The publisher roll-up, from the positions printed beside it.
  const publishers = new Map(
    rowsOf(json, "publishers").map((p) => [key(p.publisher, p.metric), p]),
  );
  const byPublisher = new Map<string, Json[]>();
  for (const r of positions) {
    const k = key(r.publisher, r.metric);
    byPublisher.set(k, [...(byPublisher.get(k) ?? []), r]);
  }
  check(publishers.size === byPublisher.size, "publisher rows ≠ publisher × metric of positions");
  for (const [k, rows] of byPublisher) {
    const p = publishers.get(k);
    const sum = (f: (r: Json) => number) => rows.reduce((t, r) => t + f(r), 0);
    const expected = {
      applications: rows.length,
      short: rows.filter((r) => r.shortfall > 0).length,
      entitlements: sum((r) => r.entitlements),
      requirement: sum((r) => r.requirement),
      position: sum((r) => r.position),
      shortfall: sum((r) => r.shortfall),
      surplus: sum((r) => Math.max(r.position, 0)),
    };
    for (const [f, v] of Object.entries(expected)) check(p?.[f] === v, `publisher ${k}: ${f}`);
  }
  // Exposure per publisher, one section per currency.
  const currencies = new Set(positions.map((r) => r.currency).filter((c) => c));
  for (const code of currencies) {
    const mine = positions.filter((r) => r.currency === code);
    const shown = rowsOf(json, `exposure-${code.toLowerCase()}`);
    const cost = sums(mine, (r) => r.publisher, "shortfallCost", true);
    const value = sums(mine, (r) => r.publisher, "surplusValue", true);
    for (const e of shown) {
      const short = mine.filter((r) => r.publisher === e.publisher && r.shortfall > 0).length;
      check(e.short === short, `exposure ${code} ${e.publisher}: short`);
      const c = cost.get(e.publisher) ?? null;
      const v = value.get(e.publisher) ?? null;
      check((e.shortfallCost === null ? null : cents(e.shortfallCost)) === c, `${code} cost`);
      check((e.surplusValue === null ? null : cents(e.surplusValue)) === v, `${code} value`);
    }
  }
  // The unpriced list: each short position without a unit price, no other.
  const unpriced = positions.filter((r) => r.shortfall > 0 && r.unitPrice === null);
  check(
    key(unpriced.map((r) => [r.application, r.metric, r.shortfall, r.requirement])) ===
      key(
        rowsOf(json, "unpriced").map((r) => [r.application, r.metric, r.shortfall, r.requirement]),
      ),
    "unpriced list",
  );
  // The requirement per device adds up to each position's requirement.
  const devices = sums(
    rowsOf(json, "devices"),
    (r) => key(r.application, r.metric),
    "requirement",
    false,
  );
  for (const r of positions) {
    check(
      (devices.get(key(r.application, r.metric)) ?? 0) === r.requirement,
      `devices ${r.application}`,
    );
  }
  return found;
}

/** The CSV of a section carries the JSON's rows under the JSON's column labels. */
async function csvProblems(run: Json, section: string): Promise<string[]> {
  const printed = run.json.sections.find((s: Json) => s.id === section);
  const csv = await readCsv(run.file("csv", section));
  const found: string[] = [];
  if (csv.length !== printed.rows.length) found.push(`${section}: CSV rows`);
  for (const [i, row] of printed.rows.entries()) {
    for (const c of printed.columns) {
      const v = row[c.key];
      const text = csv[i]?.[c.label];
      if (text === undefined) found.push(`${section}: no CSV column "${c.label}"`);
      else if (typeof v === "number" && Number(text) !== v) found.push(`${section} ${i} ${c.key}`);
    }
  }
  return [...new Set(found)];
}

describe("license-position recomputed from its printed rows (400 computers)", () => {
  const fixture = serverFixture({ computers: 400 });
  const query = createQueryContext();
  let priceFile = "";
  const scenarios = [
    { name: "unscoped", params: {} },
    { name: "ORG02 and its sub-organisations", params: { organization: "ORG02" } },
    { name: "a price file in CHF and GBP", params: { priceFile: "" } },
    { name: "reporting currency EUR", params: { priceFile: "" }, reportingCurrency },
  ];
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      if (!priceFile) {
        priceFile = await Deno.makeTempFile({ suffix: ".csv" });
        await Deno.writeTextFile(
          priceFile,
          "application,metric,currency,unitPrice\nTeamViewer 15.58,Installations,CHF,31.5\n" +
            "WinRAR 6.24,Installations,GBP,29.99\n",
        );
      }
      const params = "priceFile" in scenario.params ? { priceFile } : scenario.params;
      const run = await runReportForTest({
        server: fixture.srv,
        report: licensePosition,
        params,
        query,
        formats: ["json", "csv"],
        ...(scenario.reportingCurrency ? { reportingCurrency } : {}),
      });
      assert.deepEqual(problems(run.json, scenario.reportingCurrency?.code), []);
      for (const section of ["positions", "publishers", "unpriced"]) {
        assert.deepEqual(await csvProblems(run, section), []);
      }
      if (params.priceFile) {
        const codes = new Set(rowsOf(run.json, "positions").map((r) => r.currency));
        assert.ok(codes.has("CHF") && codes.has("GBP"), "the price file's currencies are used");
      }
    });
  }
});

describe("a section prints what it groups by and totals money per currency", () => {
  it("refuses a section grouped by a key that is none of its columns", () => {
    const section = {
      id: "positions",
      title: "Positions",
      columns: [{ key: "application", label: "Application", type: "text" as const }],
      rows: [],
      group: { by: "publisher" },
    };
    assert.throws(() => checkSections("demo", [section]), /grouped by "publisher", which is none/);
    checkSections("demo", [{ ...section, group: { by: "application" } }]);
  });

  it("refuses totals that would add money of different currencies", () => {
    const section = {
      id: "licenses",
      title: "Licenses",
      columns: [
        { key: "cost", label: "Cost", type: "currency" as const },
        { key: "currency", label: "Currency", type: "text" as const },
      ],
      rows: [],
      totals: { sum: ["cost"] },
    };
    assert.throws(
      () => checkSections("demo", [section]),
      /money column "cost" without perCurrency/,
    );
    checkSections("demo", [{ ...section, totals: { sum: ["cost"], perCurrency: "currency" } }]);
  });
});
