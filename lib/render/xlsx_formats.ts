/**
 * The Excel number formats the XLSX renderer gives its cells, and the text a spreadsheet shows for
 * a value under one of them ({@link displayText}), so column widths can be sized for what is
 * displayed (currency codes, thousands separators, decimals, percent signs, dates), not for the
 * raw number.
 *
 * @module
 */

import type { Column } from "../report/model.ts";
import { currencyDigits } from "./format.ts";

/** The number format of date cells. */
export const DATE_FMT = "yyyy-mm-dd";
/** The number format of date-and-time cells. */
export const DATETIME_FMT = "yyyy-mm-dd hh:mm";

/**
 * Decimal places of a column (defaults: number 0, percent 1, currency its code's minor-unit
 * digits — 2 for EUR, 0 for JPY, 3 for KWD, 2 without a code).
 */
function decimalsOf(column: Pick<Column, "type" | "decimals">, code?: string): number {
  const fallback = column.type === "currency"
    ? currencyDigits(currencyCode(code))
    : column.type === "percent"
    ? 1
    : 0;
  const d = column.decimals ?? fallback;
  return Number.isInteger(d) && d >= 0 && d <= 10 ? d : fallback;
}

function decimalPart(decimals: number): string {
  return decimals > 0 ? "." + "0".repeat(decimals) : "";
}

/**
 * A currency code safe to put in a number format (three capital letters), else `undefined`.
 *
 * @example
 * ```ts
 * import { currencyCode } from "./xlsx_formats.ts";
 * console.log(currencyCode("EUR"), currencyCode("euro")); // EUR undefined
 * ```
 */
export function currencyCode(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Z]{3}$/.test(value) ? value : undefined;
}

/**
 * The key of a cell style: its column type, decimals, currency code, emphasis and whether it is a
 * totals cell.
 *
 * @example
 * ```ts
 * import { styleKey } from "./xlsx_formats.ts";
 * console.log(styleKey({ type: "currency" }, "EUR", undefined, true)); // currency|2|EUR||true
 * ```
 */
export function styleKey(
  column: Pick<Column, "type" | "decimals">,
  code: string | undefined,
  emphasis: string | undefined,
  total: boolean,
): string {
  return `${column.type}|${decimalsOf(column, code)}|${code ?? ""}|${emphasis ?? ""}|${total}`;
}

/**
 * The Excel number format of a value of a column type (for `currency`, of an amount in `code`).
 *
 * @example
 * ```ts
 * import { numberFormat } from "./xlsx_formats.ts";
 * console.log(numberFormat({ type: "currency" }, "EUR")); // "EUR" #,##0.00;-"EUR" #,##0.00
 * console.log(numberFormat({ type: "currency" }, "JPY")); // "JPY" #,##0;-"JPY" #,##0
 * console.log(numberFormat({ type: "percent" })); // 0.0%
 * ```
 */
export function numberFormat(
  column: Pick<Column, "type" | "decimals">,
  code?: string,
): string | undefined {
  const decimals = decimalsOf(column, code);
  switch (column.type) {
    case "number":
      return `#,##0${decimalPart(decimals)}`;
    case "integer":
      return "#,##0";
    case "currency": {
      const c = currencyCode(code);
      const n = `#,##0${decimalPart(decimals)}`;
      return c ? `"${c}" ${n};-"${c}" ${n}` : n;
    }
    case "percent":
      return `0${decimalPart(decimals)}%`;
    case "date":
      return DATE_FMT;
    case "datetime":
      return DATETIME_FMT;
    default:
      return undefined;
  }
}

/** Splits a format into its sections at `;` outside quotes. */
function sections(format: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const ch of format) {
    if (ch === '"') quoted = !quoted;
    if (ch === ";" && !quoted) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out;
}

/** The number placeholder of a format section: `#,##0.00`, `0.0`, `0`. */
const PLACEHOLDER = /[#0][#0,]*(?:\.0+)?/;

/** A non-negative number under one format section (quotes dropped, `%` scaling the number). */
function sectionText(value: number, section: string): string {
  const match = PLACEHOLDER.exec(section.replace(/"[^"]*"/g, (q) => "\u0000".repeat(q.length)));
  if (!match) return section.replace(/"([^"]*)"/g, "$1");
  const token = match[0];
  const decimals = token.includes(".") ? token.length - token.indexOf(".") - 1 : 0;
  const scaled = section.includes("%") ? value * 100 : value;
  const digits = new Intl.NumberFormat("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: token.includes(","),
  }).format(scaled);
  const before = section.slice(0, match.index).replace(/"([^"]*)"/g, "$1");
  const after = section.slice(match.index + token.length).replace(/"([^"]*)"/g, "$1");
  return before + digits + after;
}

/** A number under Excel's General format: up to 11 characters, as Excel shows it at most. */
function generalText(value: number): string {
  const text = String(value);
  return text.length <= 11 ? text : value.toPrecision(6);
}

/**
 * A date under a format of `yyyy`, `mm`, `dd`, `hh`, `ss` tokens (UTC, as the cells hold); `mm`
 * after `hh` is minutes.
 */
function dateText(value: Date, format: string): string {
  const two = (n: number) => String(n).padStart(2, "0");
  let minutes = false;
  return format.replace(/"([^"]*)"/g, "$1").replace(/yyyy|mm|dd|hh|ss/g, (token) => {
    switch (token) {
      case "yyyy":
        return String(value.getUTCFullYear()).padStart(4, "0");
      case "mm":
        return minutes ? two(value.getUTCMinutes()) : two(value.getUTCMonth() + 1);
      case "dd":
        return two(value.getUTCDate());
      case "hh":
        minutes = true;
        return two(value.getUTCHours());
      default:
        return two(value.getUTCSeconds());
    }
  });
}

/** A cell value the renderer writes: a literal or a formula with its cached result. */
export type DisplayValue =
  | string
  | number
  | boolean
  | Date
  | null
  | undefined
  | { readonly result?: unknown };

/**
 * The text a spreadsheet shows for a cell value under one of the renderer's number formats
 * (`#,##0.00`, `"EUR" #,##0.00;-"EUR" #,##0.00`, `0.0%`, `yyyy-mm-dd hh:mm`, …; none is Excel's
 * General). A formula shows its cached result.
 *
 * @example
 * ```ts
 * import { displayText, numberFormat } from "./xlsx_formats.ts";
 * console.log(displayText(-123456789.125, numberFormat({ type: "currency" }, "EUR")));
 * // -EUR 123,456,789.13
 * console.log(displayText(0.255, "0.0%")); // 25.5%
 * console.log(displayText(new Date("2024-05-01T08:30:00Z"), "yyyy-mm-dd hh:mm")); // 2024-05-01 08:30
 * ```
 */
export function displayText(value: DisplayValue, format?: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? "" : dateText(value, format ?? DATETIME_FMT);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    if (format === undefined || format === "General") return generalText(value);
    const [positive, negative] = sections(format);
    if (value >= 0 || negative === undefined) {
      const text = sectionText(Math.abs(value), positive);
      return value < 0 ? `-${text}` : text;
    }
    return sectionText(-value, negative);
  }
  return displayText(value.result as DisplayValue, format);
}
