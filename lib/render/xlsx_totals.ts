/**
 * The formulas of an XLSX totals line, so a total stays right when the table is filtered:
 *
 * - a line over all the section's rows (`All`, or the only currency of a per-currency section):
 *   `SUBTOTAL(9, <data range>[, <range on a continuation sheet>…])`, which leaves out the rows a
 *   filter hides;
 * - a per-currency line over rows of mixed currencies:
 *   `SUMPRODUCT(SUBTOTAL(9, OFFSET(<first>, ROW(<range>) - ROW(<first>), 0)), --(TRIM(<codes>) = "EUR"))`,
 *   the filter-aware per-criterion idiom (each row's own SUBTOTAL is 0 when filtered), which Excel
 *   and LibreOffice both evaluate; one term per sheet. Over more than
 *   {@link FILTER_AWARE_MAX_ROWS} rows, where that volatile idiom would make every edit slow,
 *   `SUMIFS(<range>, <codes>, "EUR")` instead, which does not follow filters.
 *
 * The renderer writes each formula with its cached result (the sum it computed), so a reader that
 * does not recalculate shows the same figure.
 *
 * @module
 */

import { NO_CURRENCY } from "../report/totals.ts";

/**
 * Data rows above which per-currency lines use `SUMIFS` (not filter-aware) rather than the
 * volatile `SUMPRODUCT`/`SUBTOTAL`/`OFFSET` idiom.
 *
 * @example
 * ```ts
 * import { FILTER_AWARE_MAX_ROWS } from "./xlsx_totals.ts";
 * console.log(FILTER_AWARE_MAX_ROWS); // 100000
 * ```
 */
export const FILTER_AWARE_MAX_ROWS = 100_000;

/**
 * The label of a totals line under a table: `Total`, `Total EUR` or, for rows without a currency
 * code, `Total, no currency`, with the rows it covers (`Total EUR (15 rows)`); `clean` makes the
 * line's label cell text.
 *
 * @example
 * ```ts
 * import { totalsLineLabel } from "./xlsx_totals.ts";
 * console.log(totalsLineLabel("All", 3)); // Total (3 rows)
 * console.log(totalsLineLabel("(none)", 1)); // Total, no currency (1 row)
 * console.log(totalsLineLabel("EUR", undefined)); // Total EUR
 * console.log(totalsLineLabel("All", 44, undefined, 1)); // Total (44 rows; 1 without a value, not added)
 * ```
 */
export function totalsLineLabel(
  line: string,
  rows: number | undefined,
  clean: (text: string) => string = (text) => text,
  withoutValue = 0,
): string {
  const text = line === "All"
    ? "Total"
    : line === NO_CURRENCY
    ? "Total, no currency"
    : `Total ${clean(line)}`;
  if (rows === undefined) return text;
  const counted = `${rows} ${rows === 1 ? "row" : "rows"}`;
  // A total that left out rows without a value says so: it never reads as complete.
  return withoutValue > 0
    ? `${text} (${counted}; ${withoutValue} without a value, not added)`
    : `${text} (${counted})`;
}

/** Excel's limit of characters in a formula (less room for the `=`). */
const MAX_FORMULA_CHARS = 8_000;
/** Excel's limit of arguments of a function. */
const MAX_ARGUMENTS = 250;
/** Excel's limit of characters in a text value written in a formula (`"EUR"`). */
const MAX_LITERAL_CHARS = 255;

/** A section's data rows on one worksheet (1-based, inclusive). */
export interface DataBlock {
  /** The worksheet's name. */
  readonly sheet: string;
  /** The first data row. */
  readonly firstRow: number;
  /** The last data row. */
  readonly lastRow: number;
}

/** What a totals cell sums. */
export interface TotalsFormulaInput {
  /** The section's data rows, sheet by sheet, in order. */
  readonly blocks: readonly DataBlock[];
  /** The sheet the totals line is on (its own ranges need no sheet name). */
  readonly ownSheet: string;
  /** The column letter of the summed column. */
  readonly column: string;
  /**
   * For a per-currency line over rows of mixed currencies: the column letter of the currency
   * codes and the line's label (a code, or `(none)` for rows without one).
   */
  readonly currency?: { readonly column: string; readonly line: string };
}

/**
 * A sheet name quoted for a reference (`'Cost by vendor (2)'`, apostrophes doubled).
 *
 * @example
 * ```ts
 * import { quoteSheet } from "./xlsx_totals.ts";
 * console.log(quoteSheet("Bob's apps")); // 'Bob''s apps'
 * ```
 */
export function quoteSheet(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

/** The sheet prefix of a block's references (none on the totals line's own sheet). */
function prefix(input: TotalsFormulaInput, block: DataBlock): string {
  return block.sheet === input.ownSheet ? "" : `${quoteSheet(block.sheet)}!`;
}

/** The reference to a block's rows of `column` (`D2:D4`, `'Costs'!D2:D4`). */
function ref(input: TotalsFormulaInput, block: DataBlock, column: string): string {
  return `${prefix(input, block)}${column}${block.firstRow}:${column}${block.lastRow}`;
}

/** The first cell of `column` in a block. */
function first(input: TotalsFormulaInput, block: DataBlock, column: string): string {
  return `${prefix(input, block)}${column}${block.firstRow}`;
}

/** A string literal of a formula (`"EUR"`, quotes doubled), or `undefined` past Excel's limit. */
function literal(text: string): string | undefined {
  const inner = text.replace(/"/g, '""');
  return inner.length <= MAX_LITERAL_CHARS ? `"${inner}"` : undefined;
}

/**
 * The formula (without `=`) of a totals cell, or `undefined` when there are no data rows to sum
 * or the formula would pass Excel's limits — 8,000 characters, 250 arguments, a currency code of
 * more than 255 characters as its text value — (the renderer then writes the value alone).
 *
 * @example
 * ```ts
 * import { totalsFormula } from "./xlsx_totals.ts";
 * const blocks = [{ sheet: "Costs", firstRow: 2, lastRow: 4 }];
 * console.log(totalsFormula({ blocks, ownSheet: "Costs", column: "D" }));
 * // SUBTOTAL(9,D2:D4)
 * console.log(totalsFormula({
 *   blocks,
 *   ownSheet: "Costs",
 *   column: "D",
 *   currency: { column: "M", line: "EUR" },
 * }));
 * // SUMPRODUCT(SUBTOTAL(9,OFFSET(D2,ROW(D2:D4)-ROW(D2),0)),--(TRIM(M2:M4)="EUR"))
 * const long = { column: "M", line: "Y".repeat(300) };
 * console.log(totalsFormula({ blocks, ownSheet: "Costs", column: "D", currency: long })); // undefined
 * ```
 */
export function totalsFormula(input: TotalsFormulaInput): string | undefined {
  const blocks = input.blocks.filter((b) => b.lastRow >= b.firstRow);
  if (blocks.length === 0 || blocks.length > MAX_ARGUMENTS) return undefined;
  const formula = input.currency
    ? perCurrency(input, blocks, input.currency)
    : `SUBTOTAL(9,${blocks.map((b) => ref(input, b, input.column)).join(",")})`;
  return formula !== undefined && formula.length <= MAX_FORMULA_CHARS ? formula : undefined;
}

/** The per-currency formula: one filter-aware (or, when large, SUMIFS) term per sheet. */
function perCurrency(
  input: TotalsFormulaInput,
  blocks: readonly DataBlock[],
  currency: NonNullable<TotalsFormulaInput["currency"]>,
): string | undefined {
  const code = literal(currency.line === NO_CURRENCY ? "" : currency.line);
  if (code === undefined) return undefined;
  const rows = blocks.reduce((n, b) => n + b.lastRow - b.firstRow + 1, 0);
  const terms = blocks.map((b) => {
    const values = ref(input, b, input.column);
    const codes = ref(input, b, currency.column);
    if (rows > FILTER_AWARE_MAX_ROWS) return `SUMIFS(${values},${codes},${code})`;
    const start = first(input, b, input.column);
    return `SUMPRODUCT(SUBTOTAL(9,OFFSET(${start},ROW(${values})-ROW(${start}),0)),` +
      `--(TRIM(${codes})=${code}))`;
  });
  return terms.join("+");
}
