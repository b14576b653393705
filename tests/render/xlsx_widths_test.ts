import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import { displayText, numberFormat } from "../../lib/render/xlsx_formats.ts";
import { sectionWidths, TEXT_MAX_WIDTH, widthOf } from "../../lib/render/xlsx_widths.ts";
import type { RenderDocument, RenderSection } from "../../lib/render/renderer.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { memorySection, spoolSection } from "../../lib/report/spool.ts";
import { computeTotals } from "../../lib/report/totals.ts";
import { unreadableCells } from "./xlsx_readable.ts";
import { oneSectionDoc } from "./helpers.ts";

let dir: string;
before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-xlsx-widths-" });
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

const COLUMNS: Column[] = [
  { key: "name", label: "Application", type: "text" },
  { key: "cost", label: "Cost", type: "currency" },
  { key: "fee", label: "Fee", type: "currency", currencyKey: "feeCurrency", decimals: 0 },
  { key: "seats", label: "Seats", type: "integer" },
  { key: "ratio", label: "Ratio", type: "number", decimals: 3 },
  { key: "share", label: "Share", type: "percent" },
  { key: "due", label: "Due", type: "date" },
  { key: "seen", label: "Seen", type: "datetime" },
  // A report's own width, too narrow for its numbers: numbers win.
  { key: "small", label: "S", type: "integer", width: 4 },
];

const CODES = ["EUR", "USD", "GBP", "JPY", "CHF"];

/** Large amounts in several currencies, big integers, negatives, dates; a few thousand rows. */
function* rows(count: number): Generator<Row> {
  for (let i = 0; i < count; i++) {
    yield {
      name: `App ${i}`,
      cost: i === 7 ? -98_765_432.1 : i % 50 < 5 ? 123_456_789.12 : i * 1.5,
      currency: CODES[i % CODES.length],
      fee: i % 97 === 0 ? 4_321_987_654 : i,
      feeCurrency: CODES[(i + 2) % CODES.length],
      seats: i === 3 ? 9_876_543_210 : i,
      ratio: i === 5 ? -1_234_567.891 : i / 7,
      share: i === 9 ? 123.456 : (i % 100) / 100,
      due: new Date(Date.UTC(2025, i % 12, 1 + (i % 28))),
      seen: new Date(Date.UTC(2024, 11, 31, 23, 59)),
      small: i === 11 ? 12_345_678 : i % 10,
    };
  }
}

/** A section as a hand-made producer gives it: no extents, so the renderer reads the rows. */
function bareSection(id: string, count: number): RenderSection {
  const list = [...rows(count)];
  const totals = { sum: ["cost", "seats", "ratio"], perCurrency: "currency" };
  return {
    id,
    title: "Without extents",
    columns: COLUMNS,
    totalsSpec: totals,
    rowCount: list.length,
    totals: computeTotals(list, totals, COLUMNS),
    rows: async function* () {
      yield* list;
    },
  };
}

/**
 * The workbook's document: `spooledRows` spooled rows and a sixth as many read by the renderer.
 * Every kind of wide value (the largest amounts, integers, ratios, percentages and fees) is in
 * the first hundred rows, so a shorter document holds them all.
 */
async function document(spooledRows = 3_000): Promise<RenderDocument> {
  const spooled = await spoolSection({
    id: "spooled",
    title: "Spooled costs",
    columns: COLUMNS,
    rows: (async function* () {
      yield* rows(spooledRows);
    })(),
    totals: { sum: ["cost", "fee", "seats", "ratio"], perCurrency: "currency" },
  }, { dir });
  return {
    report: { id: "wide", title: "Wide numbers", description: "Every number must show." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "test",
    params: { since: new Date("2024-01-01T00:00:00Z"), top: 123_456_789 },
    summary: [
      { label: "Total (EUR)", value: 987_654_321_098.76, type: "currency", currency: "EUR" },
      { label: "Computers", value: 12_345_678_901, type: "integer" },
    ],
    sections: [
      spooled,
      bareSection("bare", Math.ceil(spooledRows / 6)),
      memorySection({
        id: "small",
        title: "Small",
        columns: [{ key: "n", label: "N", type: "number" }],
        rows: [{ n: 1 }],
        totals: { sum: ["n"] },
      }),
    ],
    version: "test",
  };
}

// ---------------------------------------------------------------------------------------------
// What a spreadsheet shows, computed here from the cell's number format alone (not with the
// renderer's own formatter).

function numberText(value: number, format: string): string {
  const parts = format.split(";");
  const negative = value < 0 && parts.length > 1;
  const section = negative ? parts[1] : parts[0];
  const literal = section.replace(/"([^"]*)"/g, "$1");
  const token = /[#0][#0,]*(\.0+)?/.exec(literal)!;
  const decimals = token[1] ? token[1].length - 1 : 0;
  const scaled = literal.includes("%") ? Math.abs(value) * 100 : Math.abs(value);
  const digits = new Intl.NumberFormat("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: token[0].includes(","),
  }).format(scaled);
  const text = literal.slice(0, token.index) + digits +
    literal.slice(token.index + token[0].length);
  return value < 0 && !negative ? `-${text}` : text;
}

function dateText(value: Date, format: string): string {
  const iso = value.toISOString(); // yyyy-mm-ddThh:mm:ss
  const length = format.replace(/"[^"]*"/g, "").trim().length;
  const text = iso.slice(0, length).replace("T", " ");
  const literal = /"([^"]*)"/.exec(format);
  return literal ? `${text} ${literal[1]}` : text;
}

/** Every numeric or date cell of a workbook with its column's width and its displayed text. */
function displayedCells(wb: ExcelJS.Workbook) {
  const out: { where: string; width: number; text: string }[] = [];
  for (const ws of wb.worksheets) {
    ws.eachRow((row) => {
      row.eachCell((cell, c) => {
        const raw = cell.value;
        const value = raw !== null && typeof raw === "object" && "result" in raw ? raw.result : raw;
        const format = cell.numFmt;
        let text: string | undefined;
        if (typeof value === "number") {
          text = format && format !== "General" ? numberText(value, format) : String(value);
        } else if (value instanceof Date) text = dateText(value, format ?? "yyyy-mm-dd");
        if (text === undefined) return;
        const width = ws.getColumn(c).width ?? 9.140625; // Excel's default width
        out.push({ where: `${ws.name}!${cell.address}`, width, text });
      });
    });
  }
  return out;
}

async function render(spooledRows?: number): Promise<string> {
  const out = await Deno.makeTempDir({ dir });
  const [path] = await new XlsxRenderer().render(await document(spooledRows), { outDir: out });
  return path;
}

describe("XLSX column widths", () => {
  it("make every number, date and total cell as wide as its formatted text", async () => {
    const wb = await new ExcelJS.Workbook().xlsx.readFile(await render());
    const cells = displayedCells(wb);
    const sheets = new Set(cells.map((c) => c.where.split("!")[0]));
    // The check covers what it claims: every sheet, large amounts, totals and the summary.
    assert.deepEqual([...sheets].sort(), ["Small", "Spooled costs", "Summary", "Without extents"]);
    const texts = cells.map((c) => c.text);
    for (
      const shown of [
        "EUR 123,456,789.12",
        "-GBP 98,765,432.10",
        "JPY 123,456,789", // yen have no minor unit: 123,456,789.12 shows whole
        "GBP 4,321,987,654",
        "9,876,543,210",
        "-1,234,567.891",
        "12345.6%",
        "2024-12-31 23:59",
        "2024-05-01 08:00:00 UTC",
        "EUR 987,654,321,098.76",
      ]
    ) assert.ok(texts.includes(shown), `a cell shows ${shown}`);
    const tooNarrow = cells.filter((c) => c.width < c.text.length + 1);
    assert.deepEqual(tooNarrow, [], "every cell is wider than its text");
  });

  it("size a column from the spool's extents without reading its rows", async () => {
    const section = memorySection({
      id: "s",
      title: "S",
      columns: [{ key: "cost", label: "Cost", type: "currency" }],
      rows: [{ cost: 1, currency: "EUR" }],
    });
    const widths = await sectionWidths({
      ...section,
      extents: { cost: { min: -123_456_789.12, max: 5 } },
      rows: () => {
        throw new Error("rows read");
      },
    });
    assert.equal(widths[0], widthOf("-EUR 123,456,789.12"));
  });

  it("keep long text within the maximum while numbers are never cut", async () => {
    const widths = await sectionWidths(memorySection({
      id: "s",
      title: "S",
      columns: [
        { key: "note", label: "Note", type: "text" },
        { key: "n", label: "N", type: "number" },
      ],
      rows: [{ note: "x".repeat(500), n: 1e40 }],
    }));
    assert.equal(widths[0], TEXT_MAX_WIDTH);
    assert.ok(widths[1] > displayText(1e40, numberFormat({ type: "number" })).length);
  });

  it("widen a column whose own width is narrower than its header", async () => {
    const widths = await sectionWidths(memorySection({
      id: "s",
      title: "S",
      columns: [{ key: "code", label: "Currency", type: "text", width: 6 }],
      rows: [{ code: "EUR" }],
    }));
    assert.equal(widths[0], "Currency".length + 4);
  });

  it("let a long header over short values wrap onto two lines, not widen its column", async () => {
    const label = "Shortfall cost (unit price × shortfall)";
    const section = memorySection({
      id: "s",
      title: "S",
      columns: [
        { key: "n", label: "Of which no cost summary (not incl.)", type: "integer" },
        { key: "cost", label, type: "currency" },
      ],
      rows: [{ n: 1, cost: 255.86, currency: "USD" }],
    });
    const widths = await sectionWidths(section);
    assert.ok(widths[0] <= 24 && widths[1] <= 25, `${widths}: was ${label.length + 4} wide`);
    const [path] = await new XlsxRenderer().render(oneSectionDoc(section), { outDir: dir });
    // The header row is as high as the wrapped headers' lines: nothing cut or printed over.
    assert.deepEqual(await unreadableCells(path), []);
  });

  it("leave no #### when LibreOffice prints the workbook", async (t) => {
    const soffice = await version("soffice");
    const pdftotext = await version("pdftotext");
    if (!soffice || !pdftotext) {
      t.skip(
        `needs soffice and pdftotext on PATH (soffice: ${!!soffice}, pdftotext: ${!!pdftotext})`,
      );
      return;
    }
    // LibreOffice lays out every row: 300 rows hold every kind of wide value (see document).
    const path = await render(300);
    const out = await Deno.makeTempDir({ dir });
    const profile = await Deno.makeTempDir({ dir });
    await run("soffice", [
      `-env:UserInstallation=file://${profile}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      out,
      path,
    ]);
    const text = await run("pdftotext", [`${out}/wide.pdf`, "-"]);
    assert.ok(text.includes("123,456,789.12"), "the PDF holds the large amounts");
    assert.equal(text.match(/###/g)?.length ?? 0, 0, "no cell prints as ###");
  });
});

/** Whether a program runs (`--version` or `-v`). */
async function version(program: string): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(program, {
      args: [program === "pdftotext" ? "-v" : "--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

async function run(program: string, args: string[]): Promise<string> {
  const { success, stdout, stderr } = await new Deno.Command(program, { args }).output();
  const text = new TextDecoder().decode(stdout);
  assert.ok(success, `${program} failed: ${new TextDecoder().decode(stderr)}`);
  return text;
}
