/**
 * Every headline is recomputable from the rows its table prints. Each report runs to JSON
 * (unscoped, for one organisation with sub-organisations, and with a reporting currency where
 * it has money), and each headline the run printed is recomputed here from the JSON rows of the
 * section it summarises — the printed columns only, nothing the renderer dropped. A headline
 * that rests on a row key no format prints (a flag the rows carry for emphasis, a grouping key
 * that is no column) cannot be checked by a reader, and fails here.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { type FactSpec, partialSumLabel, type SectionFact } from "../../lib/report/facts.ts";
import type { ReportDefinition, Row } from "../../lib/report/model.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { parseFxRates } from "../../lib/sam/fx_rates.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const RATES = "date,currency,rate\n2025-06-27,USD,1.08345\n2025-06-27,GBP,0.85713\n";
const reportingCurrency = { code: "EUR", rates: parseFxRates(RATES, "rates.csv"), source: "r" };

/** The figures of one declared fact, recomputed from printed rows: label → value. */
function recount(
  spec: SectionFact,
  rows: readonly Row[],
  money: boolean,
  converted?: string,
): Map<string, unknown> {
  const kept = spec.where ? rows.filter(spec.where) : rows;
  const out = new Map<string, unknown>();
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? v : null;
  if ("count" in spec) out.set(spec.label, kept.length);
  else if ("distinct" in spec) {
    out.set(spec.label, new Set(kept.map((r) => r[spec.distinct]).filter((v) => v ?? "")).size);
  } else if ("sum" in spec && spec.perCurrency) {
    const cents = new Map<string, number>();
    for (const r of kept) {
      const v = num(r[spec.sum]);
      if (v === null) continue;
      const code = String(r[spec.perCurrency] ?? "");
      cents.set(code, (cents.get(code) ?? 0) + (money ? Math.round(v * 100) : v));
    }
    for (const [code, c] of cents) out.set(`${spec.label} (${code})`, money ? c / 100 : c);
    if (money && converted) {
      // The converted total: the sum of the printed converted amounts, to the cent.
      const all = kept.reduce(
        (t, r) => t + Math.round((num(r[spec.sum + "In" + converted]) ?? 0) * 100),
        0,
      );
      out.set(`${spec.label}, all currencies (${converted})`, all / 100);
    }
  } else if ("sum" in spec) {
    // A sum over rows that may lack a value names the rows it adds.
    out.set(
      partialSumLabel(spec.label, spec.unknown),
      kept.reduce((t, r) => t + (num(r[spec.sum]) ?? 0), 0),
    );
  } else if ("ratio" in spec) {
    const [a, b] = spec.ratio.map((k) => kept.reduce((t, r) => t + (num(r[k]) ?? 0), 0));
    out.set(spec.label, b ? a / b : null);
  } else {
    const key = "min" in spec ? spec.min : spec.max;
    const values = kept.map((r) => r[key]).filter((v) => v !== null && v !== undefined);
    const sorted = values.sort((x, y) => (x as number) < (y as number) ? -1 : 1);
    out.set(spec.label, "min" in spec ? sorted[0] ?? null : sorted.at(-1) ?? null);
  }
  return out;
}

/** A filter an analyst might give, per the resource a report's filter applies to. */
const FILTERS: Record<string, string> = {
  Computer: "manufacturer -contains Dell",
  RegistryApplication: "manufacturer -contains Microsoft",
  License: "quantity -gt 10",
  ComputerApplication: "isInstalled -eq true",
};

/** The reports with money columns: a reporting currency changes only these. */
const MONEY_REPORTS = new Set([
  "license-cost-summary",
  "license-position",
  "explain-position",
  "license-optimization",
  "unused-software",
  "renewals",
]);

const rowsOf = (json: Json, id: string): Json[] =>
  json.sections.find((s: Json) => s.id === id).rows;

/** Headlines recounted with this file's own rules from the printed rows, by report and label. */
const INDEPENDENT: Record<string, Record<string, (json: Json) => unknown>> = {
  "license-position": {
    "Positions short": (j) => rowsOf(j, "positions").filter((r) => r.shortfall > 0).length,
    // The section that lists them, and the blank unit price beside a shortfall.
    "Unpriced shortfalls": (j) => {
      const listed = rowsOf(j, "unpriced").length;
      const blank = rowsOf(j, "positions").filter((r) => r.shortfall > 0 && r.unitPrice === null);
      assert.equal(blank.length, listed, "unpriced shortfalls: listed = blank unit prices");
      return listed;
    },
    "Positions understated (requirement rests on hosts without hardware data)": (j) =>
      rowsOf(j, "positions").filter((r) => typeof r.understated === "string" && r.understated)
        .length,
  },
};

const shown = (value: unknown) => value instanceof Date ? value.toISOString() : value;

describe("every headline recomputes from the rows its table prints (400 computers)", () => {
  const fixture = serverFixture({ computers: 400 });
  const query = createQueryContext();
  const scopes = [
    { name: "unscoped", params: {} },
    { name: "organization ORG02 (with sub-organisations)", params: { organization: "ORG02" } },
    { name: "reporting currency EUR", params: {}, reportingCurrency },
    { name: "filtered", params: {}, filtered: true },
  ];
  for (const report of API_REPORTS) {
    for (const scope of scopes) {
      const takesOrg = "organization" in (report.params ?? {});
      if (scope.params.organization && !takesOrg) continue;
      if (scope.reportingCurrency && !MONEY_REPORTS.has(report.id)) continue;
      const filter = scope.filtered ? FILTERS[report.filterResource ?? ""] : undefined;
      if (scope.filtered && !filter) continue;
      it(`${report.id}, ${scope.name}`, async () => {
        const captured: { facts?: FactSpec[]; sections?: Json[] } = {};
        const spy: ReportDefinition = {
          ...(report as ReportDefinition),
          data: async (ctx) => {
            const data = await (report as ReportDefinition).data(ctx);
            captured.facts = [...(data.facts ?? [])];
            captured.sections = [...data.sections];
            return data;
          },
        };
        const run = await runReportForTest({
          server: fixture.srv,
          report: spy,
          params: scope.params,
          query,
          ...(filter ? { filter } : {}),
          ...(scope.reportingCurrency ? { reportingCurrency: scope.reportingCurrency } : {}),
        });
        const specs: FactSpec[] = [
          ...captured.facts!,
          ...captured.sections!.flatMap((s) =>
            ((s.facts ?? []) as SectionFact[]).map((f) => ({ ...f, section: s.id }))
          ),
        ];
        const expected = new Map<string, unknown>();
        for (const spec of specs) {
          const printed = run.json.sections.find((s: Json) => s.id === spec.section);
          assert.ok(printed, `${report.id}: section ${spec.section} is printed`);
          const key = "sum" in spec ? spec.sum : undefined;
          const money = printed.columns.find((c: Json) => c.key === key)?.type === "currency";
          const code = scope.reportingCurrency?.code;
          for (const [label, value] of recount(spec, printed.rows, money, code)) {
            expected.set(label, value);
          }
        }
        if (scope.reportingCurrency) {
          // The statement of rates names each rate the JSON says was used.
          const stated: Json = run.result.document.summary.find((f: Json) =>
            f.label === "Reporting currency"
          );
          for (const r of run.json.reportingCurrency.rates.filter((r: Json) => r.date)) {
            assert.match(String(stated.value), new RegExp(`${r.rate} ${r.currency}`));
            expected.set("Reporting currency", stated.value);
          }
        }
        for (const [label, figure] of Object.entries(INDEPENDENT[report.id] ?? {})) {
          const fact = run.result.document.summary.find((f: Json) => f.label === label);
          assert.equal(fact?.value, figure(run.json), `${report.id} (${scope.name}): "${label}"`);
        }
        for (const fact of run.result.document.summary) {
          assert.ok(expected.has(fact.label), `${report.id}: "${fact.label}" is over printed rows`);
          assert.deepEqual(
            shown(fact.value),
            expected.get(fact.label),
            `${report.id} (${scope.name}): "${fact.label}" from the printed rows`,
          );
        }
      });
    }
  }
});
