/**
 * Workbooks as people read them, checked from the sheet XML itself: no text is wider than its
 * column where the next cell holds something unless it wraps in a row high enough for its lines
 * (the Summary's Source, long labels and values included), headers are aligned as the values
 * under them, yes/no is one form in every sheet, and the license position's derived columns are
 * formulas of their own row that give the figures the JSON holds.
 *
 * @module
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { API_REPORTS } from "../../reports/mod.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { withServer } from "../helpers/server.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { type RawSheet, readSheetXml } from "./xlsx_sheet_xml.ts";
import { evaluateRowFormula } from "./xlsx_row_formula_eval.ts";

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
});

/** Points per line of the workbook's 11-point text. */
const LINE = 15;

/** Column letters → 1-based number. */
function columnNumber(letters: string): number {
  return [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
}

function columnLetters(n: number): string {
  let s = "";
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** The width (characters) a cell's text has to fit in: its column, or its merged columns. */
function roomOf(sheet: RawSheet, column: number, row: number): number {
  const merge = sheet.merges.find((m) => {
    const [a, b] = m.split(":").map((ref) => /^([A-Z]+)(\d+)$/.exec(ref)!);
    return Number(a[2]) === row && columnNumber(a[1]) === column && Number(b[2]) === row;
  });
  const last = merge ? columnNumber(/^([A-Z]+)/.exec(merge.split(":")[1])![1]) : column;
  let width = 0;
  for (let c = column; c <= last; c++) width += sheet.columnWidths.get(c) ?? 9.14;
  return width;
}

/**
 * Every text cell wider than its room whose right neighbour holds something (so a spreadsheet
 * cuts it there), and every wrapped text whose row is lower than its lines need: `sheet!A7 …`.
 */
function cutTexts(name: string, sheet: RawSheet): string[] {
  const out: string[] = [];
  for (const [ref, cell] of sheet.cells) {
    if (cell.type !== "str" || !cell.value || cell.formula !== undefined) continue;
    const [, letters, digits] = /^([A-Z]+)(\d+)$/.exec(ref)!;
    const column = columnNumber(letters);
    const row = Number(digits);
    const room = roomOf(sheet, column, row);
    const merged = sheet.merges.some((m) => m.startsWith(`${ref}:`));
    const neighbour = sheet.cells.get(`${columnLetters(column + 1)}${row}`)?.value;
    const longest = Math.max(...cell.value.split("\n").map((line) => line.length));
    const lines = cell.value.split("\n").length;
    // Text is drawn in widths of "0"; a line of room − 1 characters is the most a cell shows.
    const wide = longest > room - 1;
    const wraps = sheet.alignments[cell.style]?.wrapText === true;
    if (!wide && lines === 1) continue;
    // Unwrapped text spills over an empty neighbour; wrapped text needs its row's height.
    if (!wraps && !merged && !neighbour && lines === 1) continue;
    // At least as many lines as its characters fill, whatever the breaks.
    const needed = Math.max(lines, Math.ceil(cell.value.length / Math.max(1, room - 2)));
    const height = sheet.rowHeights.get(row) ?? LINE;
    if (!wraps || height < needed * LINE) {
      out.push(
        `${name}!${ref} (${cell.value.length} characters in ${room}, ${
          wraps ? "wraps" : "cut"
        }, ${height} pt for ${needed} lines): ${cell.value.slice(0, 50)}`,
      );
    }
  }
  return out;
}

/**
 * Header cells of the first row not aligned as the values under them: a column whose first value
 * is a number must have a header aligned right.
 */
function misalignedHeaders(name: string, sheet: RawSheet): string[] {
  const out: string[] = [];
  for (const [ref, cell] of sheet.cells) {
    const m = /^([A-Z]+)1$/.exec(ref);
    if (!m || name === "Summary") continue;
    const below = sheet.cells.get(`${m[1]}2`);
    const numeric = below !== undefined && below.value !== undefined && below.type === undefined;
    const align = sheet.alignments[cell.style]?.horizontal;
    if (numeric && align !== "right") out.push(`${name}!${ref} ${cell.value} is ${align}`);
  }
  return out;
}

/** Cells holding a spreadsheet boolean (TRUE/FALSE in one program, 1/0 in another). */
function booleanCells(name: string, sheet: RawSheet): string[] {
  return [...sheet.cells].filter(([, c]) => c.type === "b").map(([ref]) => `${name}!${ref}`);
}

async function tempDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "samkit-xlsx-readable-" });
  dirs.push(dir);
  return dir;
}

/** A document with everything that used to be cut or printed over on the Summary sheet. */
function hostileDocument(): RenderDocument {
  const long = "Microsoft Office Professional Plus 2021 Volume Licence for Enterprise Agreement";
  return {
    report: {
      id: "readable",
      title: "Readable",
      description: "A description long enough to wrap over the merged columns of the summary. "
        .repeat(4),
    },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "https://sam.example.com/tenant/0f3c9a6e-4d5b-4a7e-9c1d-2b8e7f6a5c4d (client demo, " +
      "registry at /api/sam/software-registry/v1, reference server seed 7, 3,000 computers)",
    params: { organization: "ORG07", reallocate: true },
    summary: [
      {
        label: "Positions understated (requirement rests on hosts without hardware data)",
        value: 6,
        type: "integer",
      },
      { label: "Harvest candidates", value: true, type: "boolean" },
    ],
    sections: [
      memorySection({
        id: "apps",
        title: "Applications with a name long enough to need shortening",
        columns: [
          { key: "name", label: "Application", type: "text", width: 12 },
          { key: "priced", label: "Priced at", type: "text", width: 8 },
          { key: "seats", label: "Seats", type: "integer" },
          { key: "licensed", label: "Licensed", type: "boolean" },
          { key: "note", label: "Note", type: "text" },
          { key: "cost", label: "Cost", type: "currency" },
        ],
        rows: [
          {
            name: long,
            priced: "Average price paid",
            seats: 3,
            licensed: true,
            note: "short",
            cost: 1,
            currency: "EUR",
          },
          {
            name: "Adobe Acrobat Pro",
            priced: "Registry list price",
            seats: 1,
            licensed: false,
            note: `${long}; ${long}; ${long}`,
            cost: 2,
            currency: "USD",
          },
        ],
        totals: { sum: ["seats", "cost"], perCurrency: "currency" },
      }),
    ],
    version: "test",
  };
}

describe("XLSX as people read it", () => {
  it("cuts no text beside a filled cell and prints no row over another, Summary included", async () => {
    const [path] = await new XlsxRenderer().render(hostileDocument(), {
      outDir: await tempDir(),
    });
    const sheets = await readSheetXml(path);
    const problems = [...sheets].flatMap(([name, sheet]) => [
      ...cutTexts(name, sheet),
      ...misalignedHeaders(name, sheet),
      ...booleanCells(name, sheet),
    ]);
    assert.deepEqual(problems, []);
    const apps = [...sheets.values()][1];
    assert.equal(apps.cells.get("D2")?.value, "Yes");
    assert.equal(apps.cells.get("D3")?.value, "No");
    const summary = sheets.get("Summary")!;
    const yes = [...summary.cells.values()].filter((c) => c.value === "Yes");
    assert.equal(yes.length, 2, "the boolean parameter and fact read Yes");
  });

  it("reads so in every report's workbook, and the position's derived figures are formulas", async () => {
    await withServer({}, async (srv) => {
      for (const report of API_REPORTS) {
        const position = report.id === licensePosition.id;
        const run = await runReportForTest({
          server: srv,
          report,
          formats: position ? ["xlsx", "json"] : ["xlsx"],
          dir: await tempDir(),
        });
        const sheets = await readSheetXml(run.file("xlsx"));
        const problems = [...sheets].flatMap(([name, sheet]) => [
          ...cutTexts(name, sheet),
          ...misalignedHeaders(name, sheet),
          ...booleanCells(name, sheet),
        ]);
        assert.deepEqual(problems, [], report.id);
        if (position) checkPositionFormulas(sheets, run.json);
      }
    });
  });
});

/** The positions sheet: its derived cells are formulas of their row giving the JSON's figures. */
function checkPositionFormulas(sheets: Map<string, RawSheet>, json: unknown): void {
  const doc = json as { sections: { id: string; rows: Record<string, unknown>[] }[] };
  const rows = doc.sections.find((s) => s.id === "positions")!.rows;
  const sheet = [...sheets.values()][1];
  const header = new Map<string, string>();
  for (const [ref, cell] of sheet.cells) {
    const m = /^([A-Z]+)1$/.exec(ref);
    if (m) header.set(cell.value ?? "", m[1]);
  }
  const derived = {
    entitlements: "Entitlements",
    position: "Position",
    shortfallCost: "Shortfall cost (unit price × shortfall)",
    surplusValue: "Surplus value (unit price × surplus)",
  };
  let checked = 0;
  rows.forEach((row, i) => {
    for (const [key, label] of Object.entries(derived)) {
      const letters = header.get(label);
      assert.ok(letters, `a ${label} column`);
      const cell = sheet.cells.get(`${letters}${i + 2}`);
      const expected = row[key] ?? null;
      if (expected === null) {
        assert.equal(cell?.value, undefined, `${label} of row ${i + 2} is empty`);
        continue;
      }
      assert.ok(cell?.formula, `${label} of row ${i + 2} is a formula`);
      assert.doesNotMatch(cell.formula, new RegExp(`[A-Z]+(?!${i + 2}\\b)\\d+`), "its own row");
      const value = evaluateRowFormula(cell.formula, sheet);
      assert.ok(Math.abs(Number(value) - Number(expected)) < 0.005, `${label} row ${i + 2}`);
      assert.equal(Number(cell.value), Number(expected), `${label} row ${i + 2} cached`);
      checked++;
    }
  });
  assert.ok(checked >= 4 * 10, `${checked} derived cells checked`);
  // Money is totalled per currency under the table, each line a SUBTOTAL of the rows.
  const totals = [...sheet.cells.values()].filter((c) => c.formula?.includes("SUBTOTAL(9,"));
  assert.ok(totals.length >= 2, "SUBTOTAL total rows under the positions");
}
