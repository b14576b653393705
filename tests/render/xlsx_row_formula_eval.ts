/**
 * An evaluator, for tests, of the row formulas the XLSX renderer writes for derived columns
 * (`Column.formula`): numbers, `""`, references to cells of the same sheet, `+ - * /`, `&`,
 * comparisons, and IF, OR, AND, NOT, MAX, MIN, ABS, ROUND with Excel's rules (an empty cell is 0
 * in arithmetic and equal to `""`; ROUND rounds halves away from zero). It reads the cells the
 * formula references, so a formula pointing at the wrong column computes the wrong figure.
 *
 * @module
 */

import type { RawSheet } from "./xlsx_sheet_xml.ts";

/** A formula value: a number, a text, a boolean, or an empty cell. */
export type FormulaValue = number | string | boolean | null;

/** Thrown for a formula the evaluator cannot read. */
export class RowFormulaError extends Error {
  /** @param message What cannot be read. */
  constructor(message: string) {
    super(message);
    this.name = "RowFormulaError";
  }
}

const TOKEN = /\s*("(?:[^"]|"")*"|\d+(?:\.\d+)?|[A-Z]+\d+|[A-Z]+(?=\()|<>|<=|>=|[-+*/(),=<>&])/y;

function tokens(formula: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < formula.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(formula);
    if (!m) throw new RowFormulaError(`cannot read ${JSON.stringify(formula)} at ${at}`);
    out.push(m[1]);
  }
  return out;
}

const number = (v: FormulaValue): number =>
  v === null || v === "" ? 0 : typeof v === "boolean" ? (v ? 1 : 0) : Number(v);
const text = (v: FormulaValue): string =>
  v === null ? "" : typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : String(v);
const truth = (v: FormulaValue): boolean => (typeof v === "boolean" ? v : number(v) !== 0);

/** Excel's ROUND: halves away from zero. */
function round(value: number, digits: number): number {
  const f = 10 ** digits;
  const scaled = Math.abs(value) * f;
  const r = Math.floor(scaled + 0.5 + 1e-9);
  return (Math.sign(value) * r) / f;
}

function compare(a: FormulaValue, b: FormulaValue, op: string): boolean {
  const numeric = (typeof a === "number" || a === null) && (typeof b === "number" || b === null);
  const x = numeric ? number(a) : text(a).toLowerCase();
  const y = numeric ? number(b) : text(b).toLowerCase();
  switch (op) {
    case "=":
      return x === y;
    case "<>":
      return x !== y;
    case "<":
      return x < y;
    case ">":
      return x > y;
    case "<=":
      return x <= y;
    default:
      return x >= y;
  }
}

/**
 * The value of a row formula over a raw sheet's cells.
 *
 * @example
 * ```ts ignore
 * import { evaluateRowFormula } from "./xlsx_row_formula_eval.ts";
 * console.log(evaluateRowFormula("C7+D7-E7", sheet));
 * ```
 */
export function evaluateRowFormula(formula: string, sheet: RawSheet): FormulaValue {
  const list = tokens(formula);
  let at = 0;
  const peek = () => list[at];
  const take = (expected?: string) => {
    const t = list[at++];
    if (expected !== undefined && t !== expected) {
      throw new RowFormulaError(`expected ${expected} in ${formula}, got ${t}`);
    }
    return t;
  };
  const cell = (ref: string): FormulaValue => {
    const c = sheet.cells.get(ref);
    if (!c || c.value === undefined || c.value === "") return null;
    return c.type === "str" || c.type === "s" || c.type === "inlineStr" ? c.value : Number(c.value);
  };
  const call = (name: string, args: FormulaValue[]): FormulaValue => {
    switch (name) {
      case "IF":
        return truth(args[0]) ? args[1] : args[2] ?? false;
      case "OR":
        return args.some(truth);
      case "AND":
        return args.every(truth);
      case "NOT":
        return !truth(args[0]);
      case "MAX":
        return Math.max(...args.map(number));
      case "MIN":
        return Math.min(...args.map(number));
      case "ABS":
        return Math.abs(number(args[0]));
      case "ROUND":
        return round(number(args[0]), number(args[1]));
      default:
        throw new RowFormulaError(`unknown function ${name} in ${formula}`);
    }
  };
  const primary = (): FormulaValue => {
    const t = take();
    if (t === "(") {
      const v = comparison();
      take(")");
      return v;
    }
    if (t === "-") return -number(primary());
    if (t === "+") return number(primary());
    if (t.startsWith('"')) return t.slice(1, -1).replace(/""/g, '"');
    if (/^\d/.test(t)) return Number(t);
    if (/^[A-Z]+\d+$/.test(t)) return cell(t);
    if (/^[A-Z]+$/.test(t)) {
      take("(");
      const args: FormulaValue[] = [];
      if (peek() !== ")") {
        args.push(comparison());
        while (peek() === ",") {
          take(",");
          args.push(comparison());
        }
      }
      take(")");
      return call(t, args);
    }
    throw new RowFormulaError(`unexpected ${t} in ${formula}`);
  };
  const product = (): FormulaValue => {
    let v = primary();
    while (peek() === "*" || peek() === "/") {
      const op = take();
      const r = primary();
      v = op === "*" ? number(v) * number(r) : number(v) / number(r);
    }
    return v;
  };
  const sum = (): FormulaValue => {
    let v = product();
    while (peek() === "+" || peek() === "-") {
      const op = take();
      const r = product();
      v = op === "+" ? number(v) + number(r) : number(v) - number(r);
    }
    return v;
  };
  const concat = (): FormulaValue => {
    let v = sum();
    while (peek() === "&") {
      take("&");
      v = text(v) + text(sum());
    }
    return v;
  };
  const comparison = (): FormulaValue => {
    let v = concat();
    while (["=", "<>", "<", ">", "<=", ">="].includes(peek())) {
      const op = take();
      v = compare(v, concat(), op);
    }
    return v;
  };
  const value = comparison();
  if (at !== list.length) throw new RowFormulaError(`trailing ${list[at]} in ${formula}`);
  return value;
}
