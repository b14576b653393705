import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { complianceRows, moneyRows } from "../../lib/sam/portfolio_rows.ts";

const fig = (key: string, value: number, currency?: string) => ({
  key,
  report: key.split("|")[0],
  label: key.split("|").at(-1)!,
  value,
  type: currency ? "currency" : "integer",
  ...(currency ? { currency } : {}),
});
const run = (
  tenant: string,
  day: number,
  status: string,
  figures: ReturnType<typeof fig>[],
  pack = "p",
) => ({
  tenantId: tenant,
  tenantName: tenant.toUpperCase(),
  pack,
  status,
  started: new Date(Date.UTC(2026, 0, day)),
  figures,
});
const short = (cur: string, v: number) =>
  fig(`license-position|fact|Shortfall cost (${cur})`, v, cur);

describe("portfolio rows", () => {
  it("compares each tenant's latest finished run with its previous one of the same pack, per currency", () => {
    const rows = moneyRows(
      [
        run("a", 1, "complete", [short("EUR", 100), short("USD", 5)]),
        run("a", 2, "failed", []),
        run("a", 3, "abandoned", [short("EUR", 1)]),
        run("a", 4, "partial", [short("EUR", 130)]),
        run("a", 5, "complete", [short("EUR", 999)], "other"),
        run("b", 1, "complete", [short("GBP", 7)]),
      ],
      "license-position",
      "Shortfall cost",
    );
    // Tenant a's latest run (pack "other") has no USD line: its old USD figure is not current.
    assert.deepEqual(rows.map((r) => [r.tenantId, r.currency, r.value, r.previous, r.change]), [
      ["a", "EUR", 999, null, null],
      ["b", "GBP", 7, null, null],
    ]);
    const same = moneyRows(
      [
        run("a", 1, "complete", [short("EUR", 100)]),
        run("a", 3, "abandoned", [short("EUR", 1)]),
        run("a", 4, "partial", [short("EUR", 130)]),
      ],
      "license-position",
      "Shortfall cost",
    );
    assert.deepEqual(same.map((r) => [r.value, r.previous, r.change]), [[130, 100, 30]]);
  });

  it("shows a currency gone from the latest run as 0 beside its previous value, and a new one beside 0", () => {
    const rows = moneyRows(
      [
        run("a", 1, "complete", [short("EUR", 100), short("USD", 40)]),
        run("a", 2, "complete", [short("EUR", 90), short("GBP", 7)]),
      ],
      "license-position",
      "Shortfall cost",
    );
    assert.deepEqual(rows.map((r) => [r.currency, r.value, r.previous, r.change]), [
      ["EUR", 90, 100, -10],
      ["GBP", 7, 0, 7],
      ["USD", 0, 40, -40],
    ]);
    for (const r of rows) assert.equal(r.value - r.previous!, r.change);
  });

  it("gives each tenant's covered share and positions short with their change", () => {
    const c = (n: number, u: number, s: number) => [
      fig("entitlement-state-by-computer|fact|Computers", n),
      fig("entitlement-state-by-computer|fact|Computers with uncovered applications", u),
      fig("license-position|fact|Positions short", s),
    ];
    const [row] = complianceRows([
      run("a", 1, "complete", c(200, 50, 10)),
      run("a", 2, "complete", c(200, 20, 8)),
    ]);
    assert.equal(row.covered, 0.9);
    assert.equal(row.previousCovered, 0.75);
    assert.equal(row.coveredChange, 0.15);
    assert.equal(row.positionsShort, 8);
    assert.equal(row.positionsShortChange, -2);
  });
});
