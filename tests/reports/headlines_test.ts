/**
 * Every report's headline figures equal the sum or count of the rows of the table they
 * summarise. The report's data is read once, its sections' rows kept, and the report is then
 * rendered from exactly those rows; each headline the runner printed is recomputed here, with
 * separate code, from the rows of the section it declares — and those rows are checked to be the
 * rows the JSON output shows.
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { type FactSpec, partialSumLabel, type SectionFact } from "../../lib/report/facts.ts";
import type { ReportData, Row, Section } from "../../lib/report/model.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { resolveParams } from "../../lib/report/params.ts";
import { clientFor, closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { serverFixture } from "./support/fixture.ts";

type Declared = FactSpec;

/** The figures one fact yields, recomputed from rows: label → value. */
function recompute(spec: Declared, rows: readonly Row[], section: Section): Map<string, unknown> {
  const kept = spec.where ? rows.filter(spec.where) : rows;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const out = new Map<string, unknown>();
  if ("count" in spec) out.set(spec.label, kept.length);
  else if ("distinct" in spec) {
    const seen = new Set(kept.map((r) => r[spec.distinct]).filter((v) => v !== null && v !== ""));
    out.set(spec.label, seen.size);
  } else if ("sum" in spec) {
    const money = section.columns.find((c) => c.key === spec.sum)?.type === "currency";
    if (spec.perCurrency) {
      const cents = new Map<string, number>();
      for (const r of kept) {
        const v = num(r[spec.sum]);
        if (v === null) continue;
        const code = String(r[spec.perCurrency] ?? "");
        cents.set(code, (cents.get(code) ?? 0) + (money ? Math.round(v * 100) : v));
      }
      for (const [code, c] of cents) out.set(`${spec.label} (${code})`, money ? c / 100 : c);
    } else {
      // A sum over rows that may lack a value names the rows it adds.
      out.set(
        partialSumLabel(spec.label, spec.unknown),
        kept.reduce((t, r) => t + (num(r[spec.sum]) ?? 0), 0),
      );
    }
  }
  return out;
}

describe("every headline equals the sum or count of its table's rows", () => {
  after(closeTestBrowser);
  // No test changes the store: one server, and one query context shared by every report's run
  // (as the reports of a pack share one), so each collection is read once.
  const fixture = serverFixture({ computers: 400, seed: 1 });
  const query = createQueryContext();
  for (const report of API_REPORTS) {
    it(report.id, async () => {
      const srv = fixture.srv;
      const client = clientFor({ url: srv.url, clientId: "demo", clientSecret: "demo-secret" });
      const ctx = {
        client,
        query,
        params: resolveParams(report, {}),
        signal: new AbortController().signal,
        now: TEST_NOW,
      };
      const data = await report.data(ctx);
      const sections: (Section & { rows: Row[] })[] = [];
      for (const s of data.sections) {
        const rows: Row[] = [];
        for await (const r of s.rows) rows.push(r);
        sections.push({ ...s, rows });
      }
      const kept: ReportData = { ...data, sections };
      const out = await runReportForTest({
        server: srv,
        report: { ...report, data: () => kept },
        query,
      });
      const specs: Declared[] = [
        ...(data.facts ?? []),
        ...sections.flatMap((s) =>
          (s.facts ?? []).map((f: SectionFact) => ({ ...f, section: s.id }))
        ),
      ];
      const summary = out.result.document.summary;
      const expected = new Map<string, unknown>();
      for (const spec of specs) {
        const section = sections.find((s) => s.id === spec.section)!;
        const shown = out.json.sections.find((s: { id: string }) => s.id === spec.section);
        assert.equal(shown.rows.length, section.rows.length, `${spec.section}: rows shown`);
        for (const [label, value] of recompute(spec, section.rows, section)) {
          expected.set(label, value);
        }
      }
      assert.ok(summary.length > 0, "the report has headlines");
      for (const fact of summary) {
        assert.ok(
          expected.has(fact.label),
          `${report.id}: "${fact.label}" is declared over rows`,
        );
        assert.equal(fact.value, expected.get(fact.label), `${report.id}: "${fact.label}"`);
      }
    });
  }
});
