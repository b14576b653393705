/**
 * Formulas of derived columns ({@link Column.formula}) as XLSX cell formulas: the column keys a
 * formula names become references to the same row's cells (`purchased + received - given` on row
 * 7 is `C7+D7-E7` when those columns are C, D and E), so a reader sees how a figure is made and
 * re-checks it in the workbook.
 *
 * A formula may use the columns of its section, numbers, `""` (an empty cell), the operators
 * `+ - * / ( ) , = <> < > <= >= &` and the functions IF, OR, AND, NOT, MAX, MIN, ABS and ROUND,
 * which Excel and LibreOffice evaluate alike. Anything else is refused with a
 * {@link ColumnFormulaError} naming the section, the column and what is wrong.
 *
 * @module
 */

import type { Column } from "../report/model.ts";

/** The functions a column formula may call. */
const FUNCTIONS: ReadonlySet<string> = new Set([
  "IF",
  "OR",
  "AND",
  "NOT",
  "MAX",
  "MIN",
  "ABS",
  "ROUND",
]);

/** One token: a name, a number, a string literal, an operator or white space. */
const TOKEN = /\s+|"(?:[^"]|"")*"|\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_]*|<>|<=|>=|[-+*/(),=<>&]/y;

/**
 * Thrown for a column formula samkit cannot write: an unknown column or function, or a character
 * that is not part of the formula language.
 *
 * @example
 * ```ts
 * import { ColumnFormulaError, compileRowFormula } from "./xlsx_row_formulas.ts";
 * try {
 *   compileRowFormula("positions", { key: "x", label: "X", type: "integer", formula: "a + b" }, []);
 * } catch (error) {
 *   console.log(error instanceof ColumnFormulaError); // true
 * }
 * ```
 */
export class ColumnFormulaError extends Error {
  /** @param message What is wrong, naming the section and column. */
  constructor(message: string) {
    super(message);
    this.name = "ColumnFormulaError";
  }
}

/** A compiled formula: the cell formula (without `=`) of one row. */
export type RowFormula = (row: number) => string;

/**
 * Compiles `column`'s formula against the section's `columns` (in sheet order from column A):
 * a function of the row number giving the cell's formula, or `undefined` when the column has none.
 *
 * @example
 * ```ts
 * import { compileRowFormula } from "./xlsx_row_formulas.ts";
 * const columns = [
 *   { key: "purchased", label: "Purchased", type: "integer" as const },
 *   { key: "given", label: "Given", type: "integer" as const },
 *   { key: "net", label: "Net", type: "integer" as const, formula: "MAX(0, purchased - given)" },
 * ];
 * const formula = compileRowFormula("s", columns[2], columns);
 * console.log(formula?.(7)); // MAX(0,A7-B7)
 * ```
 */
export function compileRowFormula(
  section: string,
  column: Column,
  columns: readonly Column[],
): RowFormula | undefined {
  const source = column.formula;
  if (source === undefined) return undefined;
  const fail = (what: string) =>
    new ColumnFormulaError(
      `section "${section}", column "${column.key}": formula ${JSON.stringify(source)} ${what}`,
    );
  const letters = new Map(columns.map((c, i) => [c.key, columnLetter(i + 1)]));
  // Alternating text and column letters: the row number goes after each letter.
  const parts: string[] = [""];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw fail(`has ${JSON.stringify(source[at])} at ${at}, not a formula character`);
    const token = match[0];
    if (/^\s/.test(token)) continue;
    if (/^[A-Za-z_]/.test(token)) {
      if (source[TOKEN.lastIndex] === "(" || /^\s*\(/.test(source.slice(TOKEN.lastIndex))) {
        if (!FUNCTIONS.has(token.toUpperCase())) throw fail(`calls ${token}, not a known function`);
        parts[parts.length - 1] += token.toUpperCase();
        continue;
      }
      const letter = letters.get(token);
      if (letter === undefined) throw fail(`names ${token}, not a column of the section`);
      if (token === column.key) throw fail("refers to its own column");
      parts[parts.length - 1] += letter;
      parts.push("");
      continue;
    }
    parts[parts.length - 1] += token;
  }
  if (parts.length === 1) throw fail("names no column");
  return (row: number) => {
    let out = parts[0];
    for (let i = 1; i < parts.length; i++) out += `${row}${parts[i]}`;
    return out;
  };
}

/** The column letter of a 1-based index (1 → A, 27 → AA). */
function columnLetter(index: number): string {
  let s = "";
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s;
}
