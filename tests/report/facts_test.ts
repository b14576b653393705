import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { FactsCollector } from "../../lib/report/facts.ts";
import { ReportDefinitionError, type Section } from "../../lib/report/model.ts";
import { integer, money, text } from "../../lib/report/columns.ts";

function section(rows: Section["rows"], facts?: Section["facts"]): Section {
  return {
    id: "licenses",
    title: "Licenses",
    columns: [text("app", "Application"), integer("qty", "Qty"), money("cost", "Cost")],
    rows,
    facts,
  };
}

async function drain(collector: FactsCollector, s: Section) {
  for await (const _ of collector.tap(s).rows) { /* as the runner's spool reads them */ }
}

describe("facts over a section's rows", () => {
  it("each headline equals the count or sum of the rows the section shows (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            app: fc.constantFrom("Visio", "Project"),
            qty: fc.integer({ min: 0, max: 100 }),
            cents: fc.integer({ min: 0, max: 10_000_000 }),
            currency: fc.constantFrom("EUR", "USD"),
          }),
          { maxLength: 100 },
        ),
        async (raw) => {
          const rows = raw.map((r) => ({ ...r, cost: r.cents / 100 }));
          const s = section(rows, [
            { label: "Licenses", count: true },
            { label: "Units", sum: "qty" },
            { label: "Cost", sum: "cost", perCurrency: "currency" },
            { label: "Applications", distinct: "app" },
            { label: "Big", count: true, where: (r) => (r.qty as number) > 50 },
          ]);
          const collector = new FactsCollector([], [s]);
          await drain(collector, s);
          const facts = collector.facts();
          const byLabel = new Map(facts.map((f) => [f.label, f.value]));
          assert.equal(byLabel.get("Licenses"), rows.length);
          assert.equal(byLabel.get("Units"), rows.reduce((n, r) => n + r.qty, 0));
          assert.equal(byLabel.get("Applications"), new Set(rows.map((r) => r.app)).size);
          assert.equal(byLabel.get("Big"), rows.filter((r) => r.qty > 50).length);
          for (const currency of ["EUR", "USD"]) {
            const own = rows.filter((r) => r.currency === currency);
            const fact = facts.find((f) => f.label === `Cost (${currency})`);
            if (own.length === 0) assert.equal(fact, undefined);
            else {
              assert.equal(fact?.currency, currency);
              assert.equal(
                Math.round((fact!.value as number) * 100),
                own.reduce((c, r) => c + r.cents, 0),
              );
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("puts the report's own facts first, then each section's in order", async () => {
    const s = section([{ app: "Visio", qty: 2, cost: 1, currency: "EUR" }], [
      { label: "Units", sum: "qty" },
    ]);
    const collector = new FactsCollector([{ section: "licenses", label: "Rows", count: true }], [
      s,
    ]);
    await drain(collector, s);
    assert.deepEqual(collector.facts().map((f) => [f.label, f.value]), [["Rows", 1], ["Units", 2]]);
  });

  it("refuses a money sum without a currency key, and unknown sections or columns", () => {
    const s = section([]);
    assert.throws(
      () => new FactsCollector([{ section: "licenses", label: "Cost", sum: "cost" }], [s]),
      ReportDefinitionError,
    );
    assert.throws(
      () => new FactsCollector([{ section: "nope", label: "N", count: true }], [s]),
      /section "nope"/,
    );
    assert.throws(
      () => new FactsCollector([{ section: "licenses", label: "N", sum: "missing" }], [s]),
      /column "missing"/,
    );
  });

  it("a ratio of two sums is null when the denominator is zero", async () => {
    const s = section([{ app: "a", qty: 0, cost: 0, currency: "EUR" }]);
    const collector = new FactsCollector(
      [{ section: "licenses", label: "Share", ratio: ["qty", "qty"] }],
      [s],
    );
    await drain(collector, s);
    assert.deepEqual(collector.facts(), [{ label: "Share", value: null, type: "percent" }]);
  });
});

describe("facts over row keys that are not columns", () => {
  it("refuses a fact over a key the table does not print, and hides such keys from where", async () => {
    const s = section([
      { app: "Visio", qty: 1, cost: 1, currency: "EUR", computerId: "C1", unused: 2 },
      { app: "Visio", qty: 1, cost: 1, currency: "EUR", computerId: "C1", unused: 3 },
    ]);
    assert.throws(
      () => new FactsCollector([{ section: "licenses", label: "U", sum: "unused" }], [s]),
      /a headline reads only the columns its table prints/,
    );
    assert.throws(
      () => new FactsCollector([{ section: "licenses", label: "C", distinct: "computerId" }], [s]),
      /does not have/,
    );
    const collector = new FactsCollector([
      { section: "licenses", label: "Hidden", count: true, where: (r) => r.unused === 2 },
      { section: "licenses", label: "Shown", count: true, where: (r) => r.qty === 1 },
    ], [s]);
    await drain(collector, s);
    assert.deepEqual(collector.facts().map((f) => f.value), [0, 2]);
  });
});
