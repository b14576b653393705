import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { EXCEL_MAX_ROWS, numberFormat, sheetName, XlsxRenderer } from "../../lib/render/xlsx.ts";
import type { RenderDocument, RenderSection } from "../../lib/render/renderer.ts";
import type { Column, Row, TotalsSpec } from "../../lib/report/model.ts";
import { computeTotals } from "../../lib/report/totals.ts";
import { everyTypeDocument, FIXTURE_PATH, FIXTURE_ROWS_PER_SHEET } from "./xlsx_fixture.ts";

/** A spooled section over an in-memory array (what the spool gives a renderer). */
function section(init: {
  id: string;
  title: string;
  columns: Column[];
  rows: Row[];
  totals?: TotalsSpec;
  emptyText?: string;
}): RenderSection {
  return {
    id: init.id,
    title: init.title,
    columns: init.columns,
    totalsSpec: init.totals,
    emptyText: init.emptyText,
    rowCount: init.rows.length,
    totals: computeTotals(init.rows, init.totals, init.columns),
    rows: async function* () {
      yield* init.rows;
    },
  };
}

const COLUMNS: Column[] = [
  { key: "name", label: "Product", type: "text" },
  { key: "seats", label: "Seats", type: "integer" },
  { key: "ratio", label: "Usage", type: "percent" },
  { key: "cost", label: "Annual cost", type: "currency" },
  { key: "renewal", label: "Renewal", type: "date" },
  { key: "seen", label: "Last seen", type: "datetime" },
  {
    key: "covered",
    label: "Covered",
    type: "boolean",
    emphasis: (row) => (row.covered === false ? "bad" : undefined),
  },
];

const ROWS: Row[] = [
  {
    name: "Office <Pro>",
    seats: 120,
    ratio: 0.25,
    cost: 1234.5,
    currency: "EUR",
    renewal: new Date("2025-03-31T00:00:00Z"),
    seen: new Date("2024-05-01T08:30:00Z"),
    covered: true,
  },
  {
    name: "=cmd|'/C calc'!A0",
    seats: 3,
    ratio: 1,
    cost: 99.99,
    currency: "USD",
    renewal: null,
    seen: new Date("2024-04-30T23:59:00Z"),
    covered: false,
  },
  {
    name: "Visio",
    seats: 7,
    ratio: 0.5,
    cost: 10,
    currency: "EUR",
    renewal: new Date("2026-01-01T00:00:00Z"),
    seen: null,
    covered: null,
  },
];

function doc(sections: RenderSection[]): RenderDocument {
  return {
    report: { id: "licence-costs", title: "Licence costs & seats", description: "What we pay." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "http://127.0.0.1:8787 (reference server, seed 1)",
    params: { region: "EMEA", since: new Date("2024-01-01T00:00:00Z"), top: 10 },
    summary: [
      { label: "Products", value: 3, type: "integer" },
      { label: "Spend", value: 1244.5, type: "currency", currency: "EUR" },
    ],
    sections,
    version: "0.1.0",
  };
}

let dir = "";
before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-xlsx-" });
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

async function readBack(path: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

/** The cached result of a formula cell's value. */
function resultOf(value: ExcelJS.CellValue): unknown {
  return value && typeof value === "object" && "result" in value ? value.result : value;
}

/** The formula of a formula cell's value (else undefined). */
function formulaOf(value: ExcelJS.CellValue): string | undefined {
  return value && typeof value === "object" && "formula" in value ? value.formula : undefined;
}

/** Every sheet of a workbook as comparable text: name, columns, views, filter and each cell. */
function sheetsOf(wb: ExcelJS.Workbook) {
  return wb.worksheets.map((ws) => {
    const cells: string[] = [];
    ws.eachRow({ includeEmpty: true }, (row, r) => {
      row.eachCell({ includeEmpty: true }, (cell, c) => {
        const value = cell.value instanceof Date ? cell.value.toISOString() : cell.value;
        cells.push(
          [`${r}:${c}`, cell.type, JSON.stringify(value), JSON.stringify(cell.style)].join("|"),
        );
      });
    });
    return {
      name: ws.name,
      widths: ws.columns?.map((c) => c.width) ?? [],
      views: JSON.stringify(ws.views),
      autoFilter: JSON.stringify(ws.autoFilter),
      cells,
    };
  });
}

describe("XlsxRenderer", () => {
  it("writes <id>.xlsx atomically and leaves no temp file", async () => {
    const out = await Deno.makeTempDir({ dir });
    const paths = await new XlsxRenderer().render(
      doc([section({ id: "main", title: "Products", columns: COLUMNS, rows: ROWS })]),
      { outDir: out },
    );
    assert.deepEqual(paths, [`${out}/licence-costs.xlsx`]);
    const names = [...Deno.readDirSync(out)].map((e) => e.name);
    assert.deepEqual(names, ["licence-costs.xlsx"]);
  });

  it("puts a summary sheet first with title, source, parameters, facts and totals", async () => {
    const [path] = await new XlsxRenderer().render(
      doc([
        section({
          id: "main",
          title: "Products",
          columns: COLUMNS,
          rows: ROWS,
          totals: { sum: ["seats", "cost"], perCurrency: "currency" },
        }),
      ]),
      { outDir: dir },
    );
    const wb = await readBack(path);
    assert.deepEqual(wb.worksheets.map((w) => w.name), ["Summary", "Products"]);
    assert.equal(wb.creator, "samkit");
    assert.equal(wb.title, "Licence costs & seats");
    assert.equal(wb.created.toISOString(), "2024-05-01T08:00:00.000Z");

    const summary = wb.worksheets[0];
    const byLabel = new Map<string, ExcelJS.Row>();
    summary.eachRow((row) => {
      const a = row.getCell(1).value;
      if (typeof a === "string") byLabel.set(a, row);
    });
    assert.equal(summary.getCell("A1").value, "Licence costs & seats");
    const generated = byLabel.get("Generated at")!.getCell(2);
    assert.ok(generated.value instanceof Date);
    assert.equal((generated.value as Date).toISOString(), "2024-05-01T08:00:00.000Z");
    assert.equal(
      byLabel.get("Source")!.getCell(2).value,
      "http://127.0.0.1:8787 (reference server, seed 1)",
    );
    assert.equal(byLabel.get("region")!.getCell(2).value, "EMEA");
    assert.equal(byLabel.get("top")!.getCell(2).value, 10);
    const spend = byLabel.get("Spend")!.getCell(2);
    assert.equal(spend.value, 1244.5);
    assert.match(spend.numFmt, /"EUR"/);

    // Totals: one line per currency, each amount formatted in its own currency.
    const lines: Record<string, ExcelJS.Row> = {};
    summary.eachRow((row) => {
      const b = row.getCell(2).value;
      if (b === "EUR" || b === "USD") lines[b] = row;
    });
    assert.equal(lines.EUR.getCell(3).value, 2); // rows
    assert.equal(lines.EUR.getCell(4).value, 127); // seats
    assert.equal(lines.EUR.getCell(5).value, 1244.5); // cost
    assert.match(lines.EUR.getCell(5).numFmt, /"EUR"/);
    assert.equal(lines.USD.getCell(5).value, 99.99);
    assert.match(lines.USD.getCell(5).numFmt, /"USD"/);
  });

  it("writes typed cells: numbers, dates in UTC, Yes/No, currency and percent formats", async () => {
    const [path] = await new XlsxRenderer().render(
      doc([section({ id: "main", title: "Products", columns: COLUMNS, rows: ROWS })]),
      { outDir: dir },
    );
    const ws = (await readBack(path)).getWorksheet("Products")!;
    assert.deepEqual(
      (ws.getRow(1).values as unknown[]).slice(1),
      COLUMNS.map((c) => c.label),
    );
    const r2 = ws.getRow(2);
    assert.equal(r2.getCell(1).value, "Office <Pro>");
    assert.equal(r2.getCell(2).value, 120);
    assert.equal(r2.getCell(2).type, ExcelJS.ValueType.Number);
    assert.equal(r2.getCell(3).value, 0.25);
    assert.equal(r2.getCell(3).numFmt, "0.0%");
    assert.equal(r2.getCell(4).value, 1234.5);
    assert.equal(r2.getCell(4).numFmt, numberFormat({ type: "currency" }, "EUR"));
    const renewal = r2.getCell(5).value;
    assert.ok(renewal instanceof Date);
    assert.equal(renewal.toISOString(), "2025-03-31T00:00:00.000Z");
    assert.equal(r2.getCell(5).numFmt, "yyyy-mm-dd");
    const seen = r2.getCell(6).value;
    assert.ok(seen instanceof Date);
    assert.equal(seen.toISOString(), "2024-05-01T08:30:00.000Z");
    assert.equal(r2.getCell(6).numFmt, "yyyy-mm-dd hh:mm");
    // Yes/No in every sheet, as HTML, PDF and CSV show them.
    assert.equal(r2.getCell(7).value, "Yes");
    assert.equal(r2.getCell(7).type, ExcelJS.ValueType.String);

    const r3 = ws.getRow(3);
    // A formula-looking string stays a string: no formula cell.
    assert.equal(r3.getCell(1).type, ExcelJS.ValueType.String);
    assert.equal(r3.getCell(1).value, "=cmd|'/C calc'!A0");
    assert.match(r3.getCell(4).numFmt, /"USD"/);
    assert.equal(r3.getCell(5).value, null);
    assert.equal(r3.getCell(7).value, "No");
    // The emphasis of an uncovered row shows as a fill.
    const fill = r3.getCell(7).fill as ExcelJS.FillPattern;
    assert.equal(fill.pattern, "solid");
    assert.equal(ws.getRow(4).getCell(7).value, null);
  });

  it("freezes and filters the header row, styles it and sizes columns", async () => {
    const [path] = await new XlsxRenderer().render(
      doc([
        section({
          id: "main",
          title: "Products",
          columns: [...COLUMNS, { key: "note", label: "Note", type: "text", width: 33 }],
          rows: ROWS,
        }),
      ]),
      { outDir: dir },
    );
    const ws = (await readBack(path)).getWorksheet("Products")!;
    const view = ws.views[0] as ExcelJS.WorksheetViewFrozen;
    assert.equal(view.state, "frozen");
    assert.equal(view.ySplit, 1);
    assert.equal(ws.autoFilter, "A1:H4");
    assert.equal(ws.getCell("A1").font.bold, true);
    assert.equal((ws.getCell("A1").fill as ExcelJS.FillPattern).pattern, "solid");
    assert.equal(ws.getColumn(8).width, 33);
    assert.ok(ws.getColumn(5).width! >= 12); // a date fits
    assert.ok(ws.getColumn(4).width! >= "Annual cost".length);
  });

  it("writes a totals block per currency under the table", async () => {
    const [path] = await new XlsxRenderer().render(
      doc([
        section({
          id: "main",
          title: "Products",
          columns: COLUMNS,
          rows: ROWS,
          totals: { sum: ["cost"], perCurrency: "currency" },
        }),
      ]),
      { outDir: dir },
    );
    const ws = (await readBack(path)).getWorksheet("Products")!;
    // Header, 3 rows, a blank row, then EUR and USD.
    assert.equal(ws.getCell("A6").value, "Total EUR (2 rows)");
    assert.equal(ws.getCell("D6").value, 1244.5);
    assert.match(ws.getCell("D6").numFmt, /"EUR"/);
    assert.equal(ws.getCell("D6").font.bold, true);
    assert.equal(ws.getCell("A7").value, "Total USD (1 row)");
    assert.equal(ws.getCell("D7").value, 99.99);
    // The autofilter covers the table, not the totals.
    assert.equal(ws.autoFilter, "A1:G4");
  });

  it("continues a section past maxRowsPerSheet on '<name> (2)' sheets", async () => {
    const rows: Row[] = Array.from({ length: 25 }, (_, i) => ({ n: i + 1 }));
    const [path] = await new XlsxRenderer({ maxRowsPerSheet: 11 }).render(
      doc([
        section({
          id: "big",
          title: "Big",
          columns: [{ key: "n", label: "N", type: "integer" }],
          rows,
          totals: { sum: ["n"] },
        }),
      ]),
      { outDir: dir },
    );
    const wb = await readBack(path);
    assert.deepEqual(wb.worksheets.map((w) => w.name), ["Summary", "Big", "Big (2)", "Big (3)"]);
    const values = (name: string) => {
      const out: unknown[] = [];
      wb.getWorksheet(name)!.eachRow((row, i) => {
        const value = row.getCell(1).value;
        // A formula cell reads as its cached result.
        if (i > 1) out.push(value && typeof value === "object" ? resultOf(value) : value);
      });
      return out;
    };
    assert.deepEqual(values("Big"), rows.slice(0, 10).map((r) => r.n));
    assert.deepEqual(values("Big (2)"), rows.slice(10, 20).map((r) => r.n));
    // The last sheet ends with the totals line: a SUBTOTAL over the rows of all three sheets.
    assert.deepEqual(values("Big (3)"), [21, 22, 23, 24, 25, 325]);
    assert.equal(
      formulaOf(wb.getWorksheet("Big (3)")!.getCell("A8").value),
      "SUBTOTAL(9,'Big'!A2:A11,'Big (2)'!A2:A11,A2:A6)",
    );
    for (const name of ["Big", "Big (2)", "Big (3)"]) {
      const ws = wb.getWorksheet(name)!;
      assert.equal(ws.getCell("A1").value, "N");
      assert.equal((ws.views[0] as ExcelJS.WorksheetViewFrozen).ySplit, 1);
    }
    assert.equal(wb.getWorksheet("Big (2)")!.autoFilter, "A1:A11");
    // The summary lists the sheets that hold the section.
    let listed = "";
    wb.worksheets[0].eachRow((row) => {
      if (row.getCell(1).value === "Big" && !listed) listed = String(row.getCell(2).value);
    });
    assert.equal(listed, "Big, Big (2), Big (3)");
  });

  it("shows the empty text for a section without rows", async () => {
    const [path] = await new XlsxRenderer().render(
      doc([
        section({
          id: "none",
          title: "Nothing",
          columns: COLUMNS,
          rows: [],
          emptyText: "No licences.",
        }),
      ]),
      { outDir: dir },
    );
    const ws = (await readBack(path)).getWorksheet("Nothing")!;
    assert.equal(ws.getCell("A2").value, "No licences.");
    assert.equal(ws.autoFilter, "A1:G1");
  });

  it("names sheets validly and uniquely", async () => {
    const title = "Licences: [EU]/EMEA * who? a very long title indeed";
    const [path] = await new XlsxRenderer().render(
      doc([
        section({ id: "a", title, columns: COLUMNS, rows: ROWS }),
        section({ id: "b", title, columns: COLUMNS, rows: ROWS }),
        section({ id: "c", title: "summary", columns: COLUMNS, rows: [] }),
      ]),
      { outDir: dir },
    );
    const names = (await readBack(path)).worksheets.map((w) => w.name);
    assert.equal(names.length, 4);
    assert.equal(new Set(names.map((n) => n.toLowerCase())).size, 4);
    for (const name of names) {
      assert.ok(name.length <= 31, name);
      assert.doesNotMatch(name, /[\[\]:*?/\\]/);
    }
  });

  it("shows control characters as visible escapes instead of writing a corrupt sheet", async () => {
    const [path] = await new XlsxRenderer().render(
      doc([
        section({
          id: "main",
          title: "Products",
          columns: [{ key: "name", label: "Name", type: "text" }],
          rows: [{ name: "bell\u0007 and nul\u0000 end" }],
        }),
      ]),
      { outDir: dir },
    );
    const ws = (await readBack(path)).getWorksheet("Products")!;
    assert.equal(ws.getCell("A2").value, "bell<U+0007> and nul<U+0000> end");
  });

  it("removes its temp file and writes nothing when the render is aborted", async () => {
    const out = await Deno.makeTempDir({ dir });
    const controller = new AbortController();
    const rows = async function* () {
      for (let i = 0; i < 5000; i++) {
        if (i === 2000) controller.abort(new Error("stop"));
        yield { n: i };
      }
    };
    const big: RenderSection = {
      id: "big",
      title: "Big",
      columns: [{ key: "n", label: "N", type: "integer" }],
      rowCount: 5000,
      totals: {},
      rows,
    };
    await assert.rejects(
      new XlsxRenderer().render(doc([big]), { outDir: out, signal: controller.signal }),
      /stop/,
    );
    assert.deepEqual([...Deno.readDirSync(out)], []);
  });

  it("writes every column type cell for cell as before rows went straight to the XML", async () => {
    const golden = sheetsOf(await readBack(FIXTURE_PATH.pathname));
    for (const rowWriter of ["direct", "exceljs"] as const) {
      const out = await Deno.makeTempDir({ dir });
      const [path] = await new XlsxRenderer({ maxRowsPerSheet: FIXTURE_ROWS_PER_SHEET, rowWriter })
        .render(everyTypeDocument(), { outDir: out });
      assert.deepEqual(sheetsOf(await readBack(path)), golden, `rowWriter ${rowWriter}`);
    }
    // The fixture exercises what it claims: continuation sheets, every type, styled empties.
    assert.deepEqual(golden.map((s) => s.name), [
      "Summary",
      "Every type",
      "Every type (2)",
      "Every type (3)",
      "Nothing",
    ]);
    const types = new Set(golden.flatMap((s) => s.cells.map((c) => c.split("|")[1])));
    for (const t of ["2", "3", "4"]) assert.ok(types.has(t), `cell type ${t} in the fixture`);
    // No spreadsheet boolean (TRUE/FALSE in one program, 1/0 in another): Yes and No.
    assert.ok(!types.has("9"), "no boolean cell");
    assert.ok(golden.some((s) => s.cells.some((c) => c.includes('|3|"Yes"|'))), "Yes as text");
  });

  it("rejects a sheet limit Excel could not open", () => {
    assert.throws(
      () => new XlsxRenderer({ maxRowsPerSheet: EXCEL_MAX_ROWS + 1 }),
      /maxRowsPerSheet/,
    );
    assert.throws(() => new XlsxRenderer({ maxRowsPerSheet: 1 }), /maxRowsPerSheet/);
  });
});

describe("sheetName", () => {
  it("replaces forbidden characters and keeps suffixes within 31 characters", () => {
    const taken = new Set<string>();
    // Readable stand-ins: brackets as parentheses, slashes and colons as dashes, * and ? dropped.
    assert.equal(sheetName("a/b\\c[d]e:f*g?h", taken), "a-b-c(d)e-fgh");
    const long = "x".repeat(40);
    assert.equal(sheetName(long, taken), "x".repeat(31));
    assert.equal(sheetName(long, taken), "x".repeat(27) + " (2)");
    assert.equal(sheetName("'quoted'", taken), "quoted");
    assert.equal(sheetName("History", taken), "History_");
  });
});
