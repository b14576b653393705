import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import { FILTER_AWARE_MAX_ROWS, quoteSheet, totalsFormula } from "../../lib/render/xlsx_totals.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { memorySection } from "../../lib/report/spool.ts";
import { type RawSheet, readSheetXml } from "./xlsx_sheet_xml.ts";
import { evaluateTotals } from "./xlsx_formula_eval.ts";

const COLUMNS: Column[] = [
  { key: "name", label: "Licence", type: "text" },
  { key: "seats", label: "Seats", type: "integer" },
  { key: "cost", label: "Cost", type: "currency" },
  { key: "currency", label: "Currency", type: "text" },
];

const CODES = ["EUR", "USD", " GBP ", null, "EUR", "USD", "EUR"];
const ROWS: Row[] = Array.from({ length: 23 }, (_, i) => ({
  name: `Licence ${i}`,
  seats: i + 1,
  cost: Math.round((i + 1) * 137.37) / 100,
  currency: CODES[i % CODES.length],
}));

/** Per totals label: the sums of the rows, computed here, not by the renderer. */
function expectedSums(rows: readonly Row[], perCurrency: boolean): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const row of rows) {
    const code = typeof row.currency === "string" ? row.currency.trim() : "";
    const label = perCurrency ? (code === "" ? "(none)" : code) : "All";
    const sums = out.get(label) ?? { seats: 0, cost: 0 };
    sums.seats = (sums.seats as number) + (row.seats as number);
    sums.cost = (sums.cost as number) + (row.cost as number);
    out.set(label, sums);
  }
  return out;
}

function document(): RenderDocument {
  const totals = { sum: ["seats", "cost"], perCurrency: "currency" };
  return {
    report: { id: "formulas", title: "Formulas", description: "Totals as formulas." },
    generatedAt: new Date("2025-06-30T12:00:00Z"),
    source: "test",
    params: {},
    summary: [],
    sections: [
      memorySection({
        id: "mixed",
        title: "Mixed currencies",
        columns: COLUMNS,
        rows: ROWS,
        totals,
      }),
      memorySection({
        id: "euro",
        title: "Euro only",
        columns: COLUMNS,
        rows: ROWS.map((r) => ({ ...r, currency: "EUR" })),
        totals,
      }),
      memorySection({
        id: "all",
        title: "Seats",
        columns: COLUMNS,
        rows: ROWS,
        totals: { sum: ["seats"] },
      }),
      memorySection({
        id: "hidden",
        title: "Codes not shown",
        columns: COLUMNS.slice(0, 3),
        rows: ROWS,
        totals,
      }),
    ],
    version: "0.0.0-test",
  };
}

let dir = "";
let path = "";
let raw: Map<string, RawSheet>;
const workbook = new ExcelJS.Workbook();
before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-xlsx-formulas-" });
  [path] = await new XlsxRenderer({ maxRowsPerSheet: 11 }).render(document(), { outDir: dir });
  await workbook.xlsx.readFile(path);
  raw = await readSheetXml(path);
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

/** The totals lines of a section's last sheet: label → row number, read with exceljs. */
function totalsRows(sheet: string): Map<string, number> {
  const out = new Map<string, number>();
  workbook.getWorksheet(sheet)!.eachRow((row, n) => {
    // "Total EUR (15 rows)", "Total (40 rows)", and "Total, no currency (1 row)" for rows
    // without a currency code.
    const m = /^Total(?:(, no currency)| (.+))? \(\d+ rows?\)$/.exec(
      String(row.getCell(1).value ?? ""),
    );
    if (m) out.set(m[1] ? "(none)" : m[2] ?? "All", n);
  });
  return out;
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

describe("XLSX totals as formulas", () => {
  it("writes each per-currency total as a filter-aware formula caching the exact sum", () => {
    const expected = expectedSums(ROWS, true);
    const lines = totalsRows("Mixed currencies (3)");
    assert.deepEqual([...lines.keys()], ["(none)", "EUR", "GBP", "USD"]);
    for (const [label, n] of lines) {
      for (const [column, key] of [["B", "seats"], ["C", "cost"]] as const) {
        const cell = workbook.getWorksheet("Mixed currencies (3)")!.getCell(`${column}${n}`);
        const value = cell.value as ExcelJS.CellFormulaValue;
        assert.match(value.formula, /^SUMPRODUCT\(SUBTOTAL\(9,OFFSET\(/, `${label} ${key}`);
        assert.ok(near(value.result as number, expected.get(label)![key] as number), label);
        // The raw XML holds the same formula and cached value, and the formula computes it.
        const xml = raw.get("Mixed currencies (3)")!.cells.get(`${column}${n}`)!;
        assert.equal(xml.formula, value.formula);
        assert.equal(Number(xml.value), value.result);
        assert.ok(
          near(evaluateTotals(xml.formula!, "Mixed currencies (3)", raw), value.result as number),
        );
        if (key === "cost" && label !== "(none)") {
          assert.match(cell.numFmt, new RegExp(`"${label}"`));
        }
      }
    }
  });

  it("sums over every continuation sheet, and leaves out rows a filter hides", () => {
    const formula = raw.get("Mixed currencies (3)")!.cells.get(
      `C${totalsRows("Mixed currencies (3)").get("EUR")}`,
    )!
      .formula!;
    assert.ok(formula.includes(`${quoteSheet("Mixed currencies")}!C2:C11`), formula);
    assert.ok(formula.includes(`${quoteSheet("Mixed currencies (2)")}!C2:C11`), formula);
    // Hide the first sheet's rows, as a filter would: the total is then the other sheets' rows.
    const hidden = new Set(Array.from({ length: 10 }, (_, i) => `Mixed currencies!${i + 2}`));
    const visible = expectedSums(ROWS.slice(10), true).get("EUR")!.cost as number;
    assert.ok(near(evaluateTotals(formula, "Mixed currencies (3)", raw, hidden), visible));
  });

  it("writes SUBTOTAL(9, …) where a line covers every row", () => {
    for (const [sheet, label] of [["Euro only (3)", "EUR"], ["Seats (3)", "All"]] as const) {
      const n = totalsRows(sheet).get(label)!;
      const xml = raw.get(sheet)!.cells.get(`B${n}`)!;
      assert.match(xml.formula ?? "", /^SUBTOTAL\(9,'[^']+'!B2:B11,'[^']+'!B2:B11,B2:B4\)$/);
      assert.equal(Number(xml.value), ROWS.reduce((s, r) => s + (r.seats as number), 0));
      assert.equal(evaluateTotals(xml.formula!, sheet, raw), Number(xml.value));
    }
  });

  it("keeps the value alone when the currency codes are not on the sheet", () => {
    const n = totalsRows("Codes not shown (3)").get("EUR")!;
    const xml = raw.get("Codes not shown (3)")!.cells.get(`C${n}`)!;
    assert.equal(xml.formula, undefined);
    assert.ok(near(Number(xml.value), expectedSums(ROWS, true).get("EUR")!.cost as number));
  });

  it("freezes the header row and the naming first column, filters the header", () => {
    for (const name of ["Mixed currencies", "Mixed currencies (2)", "Seats (3)"]) {
      const sheet = raw.get(name)!;
      assert.equal(sheet.pane?.state, "frozen", name);
      assert.equal(sheet.pane?.ySplit, "1");
      assert.equal(sheet.pane?.xSplit, "1");
      assert.match(sheet.autoFilter ?? "", /^A1:D\d+$/);
    }
  });
});

describe("totalsFormula", () => {
  const blocks = [
    { sheet: "Bob's costs", firstRow: 2, lastRow: 11 },
    { sheet: "Costs (2)", firstRow: 2, lastRow: 4 },
  ];

  it("references every block, quoting other sheets and summing on its own without a prefix", () => {
    assert.equal(
      totalsFormula({ blocks, ownSheet: "Costs (2)", column: "D" }),
      "SUBTOTAL(9,'Bob''s costs'!D2:D11,D2:D4)",
    );
  });

  it("selects rows by trimmed code, blank for rows without one", () => {
    const formula = totalsFormula({
      blocks: blocks.slice(1),
      ownSheet: "Costs (2)",
      column: "D",
      currency: { column: "F", line: "(none)" },
    });
    assert.equal(
      formula,
      'SUMPRODUCT(SUBTOTAL(9,OFFSET(D2,ROW(D2:D4)-ROW(D2),0)),--(TRIM(F2:F4)=""))',
    );
  });

  it("uses SUMIFS over more rows than the filter-aware idiom suits", () => {
    const big = [{ sheet: "Big", firstRow: 2, lastRow: FILTER_AWARE_MAX_ROWS + 2 }];
    assert.equal(
      totalsFormula({
        blocks: big,
        ownSheet: "Big",
        column: "C",
        currency: { column: "E", line: "USD" },
      }),
      `SUMIFS(C2:C${FILTER_AWARE_MAX_ROWS + 2},E2:E${FILTER_AWARE_MAX_ROWS + 2},"USD")`,
    );
  });

  it("gives no formula without data rows", () => {
    assert.equal(totalsFormula({ blocks: [], ownSheet: "X", column: "A" }), undefined);
  });
});
