/**
 * Reading a workbook as a person does, from its sheet XML ({@link readSheetXml}): text cut by a
 * filled neighbour or wrapped in a row too low for its lines, headers aligned unlike their values,
 * spreadsheet booleans (TRUE/FALSE in one program, 1/0 in another), and a number pressed against
 * the text beside it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type RawSheet, readSheetXml } from "./xlsx_sheet_xml.ts";
import { evaluateRowFormula } from "./xlsx_row_formula_eval.ts";

/** Points per line of the workbook's 11-point text. */
const LINE = 15;
/** Characters an indent step takes from a cell's room (the renderer's `INDENT_WIDTH`). */
const INDENT = 2;

/** Column letters → 1-based number. */
export function columnNumber(letters: string): number {
  return [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
}

/** 1-based column number → letters. */
export function columnLetters(n: number): string {
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
 * Every text cell wider than its room (its column less its indent) whose right neighbour holds
 * something (so a spreadsheet cuts it there), and every wrapped text whose row is lower than its
 * lines need: `sheet!A7 …`.
 */
export function cutTexts(name: string, sheet: RawSheet): string[] {
  const out: string[] = [];
  for (const [ref, cell] of sheet.cells) {
    if (cell.type !== "str" || !cell.value || cell.formula !== undefined) continue;
    const [, letters, digits] = /^([A-Z]+)(\d+)$/.exec(ref)!;
    const column = columnNumber(letters);
    const row = Number(digits);
    const alignment = sheet.alignments[cell.style];
    const room = roomOf(sheet, column, row) - INDENT * (alignment?.indent ?? 0);
    const merged = sheet.merges.some((m) => m.startsWith(`${ref}:`));
    const neighbour = sheet.cells.get(`${columnLetters(column + 1)}${row}`)?.value;
    const longest = Math.max(...cell.value.split("\n").map((line) => line.length));
    const lines = cell.value.split("\n").length;
    // Text is drawn in widths of "0"; a line of room − 1 characters is the most a cell shows.
    const wide = longest > room - 1;
    const wraps = alignment?.wrapText === true;
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
export function misalignedHeaders(name: string, sheet: RawSheet): string[] {
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
export function booleanCells(name: string, sheet: RawSheet): string[] {
  return [...sheet.cells].filter(([, c]) => c.type === "b").map(([ref]) => `${name}!${ref}`);
}

/** Where a cell's content sits: its style's horizontal alignment, or a number's right, text's left. */
function sideOf(sheet: RawSheet, cell: { type?: string; style: number }): string {
  const horizontal = sheet.alignments[cell.style]?.horizontal;
  if (horizontal && horizontal !== "general") return horizontal;
  return cell.type === undefined ? "right" : "left";
}

/**
 * Cells aligned right (a number, a date, a header over them) whose right neighbour holds text
 * aligned left without an indent: the two read as one ("12Registry list price",
 * "USD 42,709.25USD", "Days leftKind"). The Summary sheet's columns are apart by their widths.
 */
export function touchingCells(name: string, sheet: RawSheet): string[] {
  if (name === "Summary") return [];
  const out: string[] = [];
  for (const [ref, cell] of sheet.cells) {
    if (cell.value === undefined || cell.value === "" || sideOf(sheet, cell) !== "right") continue;
    const [, letters, digits] = /^([A-Z]+)(\d+)$/.exec(ref)!;
    const next = sheet.cells.get(`${columnLetters(columnNumber(letters) + 1)}${digits}`);
    if (!next || next.value === undefined || next.value === "") continue;
    const indent = sheet.alignments[next.style]?.indent ?? 0;
    if (sideOf(sheet, next) === "left" && indent === 0) {
      out.push(`${name}!${ref} ${cell.value} | ${next.value.slice(0, 30)}`);
    }
  }
  return out;
}

/**
 * Every way a workbook reads wrong on any of its sheets ({@link cutTexts},
 * {@link misalignedHeaders}, {@link booleanCells}, {@link touchingCells}); empty when it reads
 * whole.
 *
 * @example
 * ```ts ignore
 * import { unreadableCells } from "./xlsx_readable.ts";
 * assert.deepEqual(await unreadableCells("/tmp/out/renewals.xlsx"), []);
 * ```
 */
export async function unreadableCells(path: string): Promise<string[]> {
  return unreadableIn(await readSheetXml(path));
}

/** {@link unreadableCells} of sheets already read. */
export function unreadableIn(sheets: Map<string, RawSheet>): string[] {
  return [...sheets].flatMap(([name, sheet]) => [
    ...cutTexts(name, sheet),
    ...misalignedHeaders(name, sheet),
    ...booleanCells(name, sheet),
    ...touchingCells(name, sheet),
  ]);
}

/** The positions sheet: its derived cells are formulas of their row giving the JSON's figures. */
export function checkPositionFormulas(sheets: Map<string, RawSheet>, json: unknown): void {
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
