/**
 * An evaluator, for tests, of the totals formulas the XLSX renderer writes (`SUBTOTAL(9, …)`, the
 * `SUMPRODUCT(SUBTOTAL(9, OFFSET(…)), --(TRIM(…) = "…"))` per-currency idiom and `SUMIFS`) over
 * raw sheet cells ({@link readSheetXml}), with an optional set of rows a filter hides. It reads
 * what the formula references, so a formula pointing at the wrong rows or column computes the
 * wrong figure.
 *
 * @module
 */

import type { RawSheet } from "./xlsx_sheet_xml.ts";

/** Thrown for a formula the evaluator does not know. */
export class FormulaShapeError extends Error {
  /** @param formula The formula. */
  constructor(formula: string) {
    super(`not a totals formula samkit writes: ${formula}`);
    this.name = "FormulaShapeError";
  }
}

/** A range on one sheet: column letters and rows, inclusive. */
interface Range {
  readonly sheet: string;
  readonly column: string;
  readonly from: number;
  readonly to: number;
}

/** Rows a filter hides: `"<sheet>!<row>"`. */
export type HiddenRows = ReadonlySet<string>;

const REF = /(?:'((?:[^']|'')+)'!)?([A-Z]+)(\d+):([A-Z]+)(\d+)/g;

function rangesOf(text: string, ownSheet: string): Range[] {
  return [...text.matchAll(REF)].map((m) => {
    if (m[2] !== m[4]) throw new FormulaShapeError(text);
    const sheet = m[1] === undefined ? ownSheet : m[1].replace(/''/g, "'");
    return { sheet, column: m[2], from: Number(m[3]), to: Number(m[5]) };
  });
}

/** The rows of a range with their number value and the text of another column. */
function* rowsOf(range: Range, sheets: ReadonlyMap<string, RawSheet>, codes?: Range) {
  const sheet = sheets.get(range.sheet);
  if (!sheet) throw new Error(`no sheet ${range.sheet}`);
  for (let r = range.from; r <= range.to; r++) {
    const cell = sheet.cells.get(`${range.column}${r}`);
    const number = cell?.type === undefined && cell?.value !== undefined ? Number(cell.value) : 0;
    const code = codes ? (sheet.cells.get(`${codes.column}${r}`)?.value ?? "").trim() : "";
    yield { key: `${range.sheet}!${r}`, number, code };
  }
}

/** One `+` term of a totals formula. */
function term(
  text: string,
  ownSheet: string,
  sheets: ReadonlyMap<string, RawSheet>,
  hidden: HiddenRows,
): number {
  const ranges = rangesOf(text, ownSheet);
  const criterion = /="((?:[^"]|"")*)"\)\)$|,"((?:[^"]|"")*)"\)$/.exec(text);
  const code = (criterion?.[1] ?? criterion?.[2] ?? "").replace(/""/g, '"');
  let sum = 0;
  if (text.startsWith("SUBTOTAL(9,")) {
    for (const range of ranges) {
      for (const row of rowsOf(range, sheets)) if (!hidden.has(row.key)) sum += row.number;
    }
  } else if (text.startsWith("SUMPRODUCT(SUBTOTAL(9,OFFSET(") && ranges.length === 2) {
    for (const row of rowsOf(ranges[0], sheets, ranges[1])) {
      if (!hidden.has(row.key) && row.code === code) sum += row.number;
    }
  } else if (text.startsWith("SUMIFS(") && ranges.length === 2) {
    for (const row of rowsOf(ranges[0], sheets, ranges[1])) {
      if (row.code === code) sum += row.number;
    }
  } else throw new FormulaShapeError(text);
  return sum;
}

/**
 * The value of a totals formula over raw sheets, leaving out rows a filter hides where the
 * formula does (`SUBTOTAL`, the `SUMPRODUCT` idiom; `SUMIFS` does not).
 *
 * @example
 * ```ts ignore
 * import { evaluateTotals } from "./xlsx_formula_eval.ts";
 * const sheets = await readSheetXml(path);
 * console.log(evaluateTotals("SUBTOTAL(9,D2:D4)", "Costs", sheets));
 * ```
 */
export function evaluateTotals(
  formula: string,
  ownSheet: string,
  sheets: ReadonlyMap<string, RawSheet>,
  hidden: HiddenRows = new Set(),
): number {
  // Terms are joined by "+" at the top level; a term's own text holds no "+".
  return formula.split(/\)\+(?=SUM)/).map((t, i, all) => (i < all.length - 1 ? `${t})` : t))
    .reduce((sum, t) => sum + term(t, ownSheet, sheets, hidden), 0);
}
