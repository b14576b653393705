/**
 * Value formatting for human-readable output (HTML, PDF, cover facts) with a locale, via `Intl`,
 * plus the plain machine forms used by CSV and JSON (RFC 3339 dates, numbers without grouping).
 * Formatters are cached per locale and options, so formatting a million cells builds a handful of
 * `Intl` objects. Dates are always shown in UTC so output does not depend on the host's zone.
 *
 * @module
 */

import type { CellValue, Column, ColumnType, Fact, Row } from "../report/model.ts";
import { DEFAULT_LOCALE } from "./renderer.ts";
import { isoText } from "./iso_text.ts";

/** Options common to the formatters. */
export interface FormatOptions {
  /** BCP 47 locale (default `en-US`). */
  readonly locale?: string;
  /** Decimal places (defaults: number 0, currency 2, percent 1). */
  readonly decimals?: number;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

function clampDecimals(decimals: number | undefined, fallback: number): number {
  const d = decimals ?? fallback;
  return Number.isInteger(d) && d >= 0 && d <= 20 ? d : fallback;
}

/**
 * A number with grouping separators and fixed decimals (default 0). Non-finite numbers give "".
 *
 * @example
 * ```ts
 * import { formatNumber } from "./format.ts";
 * formatNumber(1234.5, { decimals: 1 }); // "1,234.5"
 * formatNumber(1234.5, { locale: "de-DE", decimals: 2 }); // "1.234,50"
 * ```
 */
export function formatNumber(value: number, options: FormatOptions = {}): string {
  if (!Number.isFinite(value)) return "";
  const decimals = clampDecimals(options.decimals, 0);
  return numberFormat(options.locale ?? DEFAULT_LOCALE, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/**
 * A whole number with grouping separators (rounded when not whole).
 *
 * @example
 * ```ts
 * import { formatInteger } from "./format.ts";
 * formatInteger(1234567); // "1,234,567"
 * ```
 */
export function formatInteger(value: number, options: FormatOptions = {}): string {
  return formatNumber(value, { ...options, decimals: 0 });
}

/** Minor-unit digits of the currencies looked up, by code. */
const digitsByCode = new Map<string, number>();

/**
 * The digits of a currency's minor unit, as ISO 4217 (and `Intl`) give them: 2 for EUR and USD,
 * 0 for JPY and KRW, 3 for KWD and BHD; 2 for a code that is no currency `Intl` knows.
 *
 * @example
 * ```ts
 * import { currencyDigits } from "./format.ts";
 * console.log(currencyDigits("EUR"), currencyDigits("JPY"), currencyDigits("KWD")); // 2 0 3
 * console.log(currencyDigits("euro")); // 2
 * ```
 */
export function currencyDigits(code: string | null | undefined): number {
  const c = typeof code === "string" ? code.trim().toUpperCase() : "";
  let digits = digitsByCode.get(c);
  if (digits === undefined) {
    digits = 2;
    if (/^[A-Z]{3}$/.test(c)) {
      try {
        digits = new Intl.NumberFormat("en", { style: "currency", currency: c })
          .resolvedOptions().maximumFractionDigits ?? 2;
      } catch {
        // unknown to Intl: two digits, as an amount with no currency
      }
    }
    digitsByCode.set(c, digits);
  }
  return digits;
}

/**
 * A currency amount in its ISO 4217 code, with the currency's own minor-unit digits
 * ({@link currencyDigits}: "¥21,000", "€1,234.50", "KWD 1.250") unless `decimals` says otherwise.
 * An amount with more digits than its currency has (an average price of ¥10,000 ÷ 3) keeps them,
 * up to two, so a printed figure is never rounded away from the one its totals add up. Without a
 * code, or with a code `Intl` does not know, the amount is shown with 2 decimals followed by the
 * code.
 *
 * @example
 * ```ts
 * import { formatCurrency } from "./format.ts";
 * formatCurrency(1234.5, "EUR"); // "€1,234.50"
 * formatCurrency(1234.5, "EUR", { locale: "de-DE" }); // "1.234,50 €"
 * formatCurrency(21000, "JPY"); // "¥21,000"
 * formatCurrency(3333.33, "JPY"); // "¥3,333.33"
 * formatCurrency(10, undefined); // "10.00"
 * ```
 */
export function formatCurrency(
  value: number,
  currency: string | null | undefined,
  options: FormatOptions = {},
): string {
  if (!Number.isFinite(value)) return "";
  const locale = options.locale ?? DEFAULT_LOCALE;
  const code = typeof currency === "string" ? currency.trim().toUpperCase() : "";
  const decimals = clampDecimals(options.decimals, 2);
  if (/^[A-Z]{3}$/.test(code)) {
    const digits = options.decimals === undefined ? currencyDigits(code) : decimals;
    try {
      return numberFormat(locale, {
        style: "currency",
        currency: code,
        minimumFractionDigits: digits,
        maximumFractionDigits: options.decimals === undefined ? Math.max(digits, 2) : digits,
      }).format(value);
    } catch {
      // unknown to Intl: fall through to number + code
    }
  }
  const amount = formatNumber(value, { locale, decimals });
  // A code that is not ISO 4217 comes from data: shown with its controls made visible.
  return code ? `${amount} ${visibleText(code)}` : amount;
}

/**
 * A ratio as a percentage: 0.25 → "25.0%" (default 1 decimal).
 *
 * @example
 * ```ts
 * import { formatPercent } from "./format.ts";
 * formatPercent(0.25); // "25.0%"
 * formatPercent(0.125, { decimals: 2, locale: "fr-FR" }); // "12,50 %"
 * ```
 */
export function formatPercent(value: number, options: FormatOptions = {}): string {
  if (!Number.isFinite(value)) return "";
  const decimals = clampDecimals(options.decimals, 1);
  return numberFormat(options.locale ?? DEFAULT_LOCALE, {
    style: "percent",
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

function validDate(value: Date): boolean {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

/**
 * A date (no time) in the locale's medium style, in UTC.
 *
 * @example
 * ```ts
 * import { formatDate } from "./format.ts";
 * formatDate(new Date("2024-01-05T00:00:00Z")); // "Jan 5, 2024"
 * formatDate(new Date("2024-01-05T00:00:00Z"), { locale: "de-DE" }); // "05.01.2024"
 * ```
 */
export function formatDate(value: Date, options: FormatOptions = {}): string {
  if (!validDate(value)) return "";
  return dateFormat(options.locale ?? DEFAULT_LOCALE, { dateStyle: "medium", timeZone: "UTC" })
    .format(value);
}

/**
 * A date and time to the minute, 24-hour clock, in UTC with the zone named.
 *
 * @example
 * ```ts
 * import { formatDateTime } from "./format.ts";
 * formatDateTime(new Date("2024-01-05T14:03:00Z")); // "Jan 5, 2024, 14:03 UTC"
 * ```
 */
export function formatDateTime(value: Date, options: FormatOptions = {}): string {
  if (!validDate(value)) return "";
  return dateFormat(options.locale ?? DEFAULT_LOCALE, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(value);
}

/**
 * A boolean as `Yes` / `No`.
 *
 * @example
 * ```ts
 * import { formatBoolean } from "./format.ts";
 * formatBoolean(true); // "Yes"
 * ```
 */
export function formatBoolean(value: boolean): string {
  return value ? "Yes" : "No";
}

/** Options of {@link formatValue}. */
export interface FormatValueOptions extends FormatOptions {
  /** For `currency`: the ISO 4217 code. */
  readonly currency?: string | null;
}

/**
 * Formats any cell value as a column type would show it. `null`/`undefined` give "". A value whose
 * JavaScript type does not match the column type is shown sensibly (a string as itself, its
 * invisible controls made visible by {@link visibleText}; a `Date` in a text column as RFC 3339).
 *
 * @example
 * ```ts
 * import { formatValue } from "./format.ts";
 * formatValue(0.5, "percent"); // "50.0%"
 * formatValue(99, "currency", { currency: "USD" }); // "$99.00"
 * formatValue(null, "number"); // ""
 * ```
 */
export function formatValue(
  value: CellValue | undefined,
  type: ColumnType,
  options: FormatValueOptions = {},
): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    if (type === "date") return formatDate(value, options);
    if (type === "datetime") return formatDateTime(value, options);
    return validDate(value) ? isoText(value.getTime()) : "";
  }
  if (typeof value === "boolean") {
    return type === "text" ? String(value) : formatBoolean(value);
  }
  if (typeof value === "number") {
    switch (type) {
      case "number":
        return formatNumber(value, options);
      case "integer":
        return formatInteger(value, options);
      case "currency":
        return formatCurrency(value, options.currency, options);
      case "percent":
        return formatPercent(value, options);
      default:
        return Number.isFinite(value) ? String(value) : "";
    }
  }
  return visibleText(String(value));
}

/**
 * Controls that change how text displays rather than what it says: C0 controls other than tab
 * and newline, DEL and C1 controls, and the bidirectional marks, embeddings, overrides and
 * isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
 */
const HIDDEN_CONTROLS =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const HIDDEN_CONTROLS_ALL = new RegExp(HIDDEN_CONTROLS.source, "g");

/**
 * Text for display with its invisible controls shown as visible escapes (`<U+202E>`), so a name
 * from the API cannot display reversed, hide part of itself or carry control characters into a
 * page or a sheet. Tab and newline stay. Every value shown in HTML, PDF and XLSX passes through
 * here; CSV and JSON are data and keep the text as it is.
 *
 * @example
 * ```ts
 * import { visibleText } from "./format.ts";
 * console.log(visibleText("evil\u202Etxt.exe")); // evil<U+202E>txt.exe
 * console.log(visibleText("bell\u0007\tend")); // bell<U+0007>\tend
 * ```
 */
export function visibleText(text: string): string {
  if (!HIDDEN_CONTROLS.test(text)) return text;
  return text.replace(
    HIDDEN_CONTROLS_ALL,
    (ch) => `<U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}>`,
  );
}

/** The row key holding a currency column's code. */
export function currencyKeyOf(column: Column): string {
  return column.currencyKey ?? "currency";
}

/**
 * Formats a row's cell for display, using the column's type, decimals and currency key.
 *
 * @example
 * ```ts
 * import { formatCell } from "./format.ts";
 * const column = { key: "cost", label: "Cost", type: "currency" } as const;
 * formatCell({ cost: 12.5, currency: "GBP" }, column, { locale: "en-GB" }); // "£12.50"
 * ```
 */
export function formatCell(row: Row, column: Column, options: FormatOptions = {}): string {
  const currency = column.type === "currency" ? row[currencyKeyOf(column)] : undefined;
  return formatValue(row[column.key], column.type, {
    locale: options.locale,
    decimals: column.decimals ?? options.decimals,
    currency: typeof currency === "string" ? currency : null,
  });
}

/**
 * Formats a headline figure.
 *
 * @example
 * ```ts
 * import { formatFact } from "./format.ts";
 * formatFact({ label: "Spend", value: 1000, type: "currency", currency: "USD" }); // "$1,000.00"
 * ```
 */
export function formatFact(fact: Fact, options: FormatOptions = {}): string {
  return formatValue(fact.value, fact.type, { ...options, currency: fact.currency });
}

/**
 * Whether a column type is numeric (right-aligned, tabular figures, a number cell in XLSX).
 *
 * @example
 * ```ts
 * import { isNumericType } from "./format.ts";
 * isNumericType("currency"); // true
 * isNumericType("date"); // false
 * ```
 */
export function isNumericType(type: ColumnType): boolean {
  return type === "number" || type === "integer" || type === "currency" || type === "percent";
}

/**
 * A date as RFC 3339: `YYYY-MM-DD` for a `date` column, the full UTC instant
 * (`2024-01-05T14:03:00.000Z`) otherwise. An invalid date gives `null`.
 *
 * @example
 * ```ts
 * import { toRfc3339 } from "./format.ts";
 * toRfc3339(new Date("2024-01-05T00:00:00Z"), "date"); // "2024-01-05"
 * toRfc3339(new Date("2024-01-05T14:03:00Z"), "datetime"); // "2024-01-05T14:03:00.000Z"
 * ```
 */
export function toRfc3339(value: Date, type?: ColumnType): string | null {
  if (!validDate(value)) return null;
  const iso = isoText(value.getTime());
  return type === "date" ? iso.slice(0, 10) : iso;
}

/**
 * A parameter's JSON value as people read it: JSON still, with a space after every comma and
 * colon between values, so a long one (a map of core factors) wraps between entries on a cover,
 * in a workbook or in the mail, never inside a name.
 *
 * @example
 * ```ts
 * import { readableJson } from "./format.ts";
 * console.log(readableJson({ Intel: 0.5, "A, B": [1, 2] })); // {"Intel": 0.5, "A, B": [1, 2]}
 * ```
 */
export function readableJson(value: unknown): string {
  const text = JSON.stringify(value, null, 1);
  if (text === undefined) return String(value);
  // Only structural line breaks are in the text (one inside a string is written as \n): each
  // goes, with its indent, for one space between entries and nothing inside brackets.
  return text.replace(/\n */g, (gap: string, at: number) => {
    const inside = "[{".includes(text[at - 1]) || "]}".includes(text[at + gap.length]);
    return inside ? "" : " ";
  });
}

/**
 * A cell's machine form for data formats (CSV, JSON): numbers stay numbers (non-finite → `null`),
 * dates become RFC 3339 strings, booleans stay booleans, strings stay strings, missing → `null`.
 *
 * @example
 * ```ts
 * import { plainValue } from "./format.ts";
 * plainValue(new Date("2024-01-05T00:00:00Z"), "date"); // "2024-01-05"
 * plainValue(1234.5, "currency"); // 1234.5
 * ```
 */
export function plainValue(
  value: CellValue | undefined,
  type: ColumnType,
): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return toRfc3339(value, type);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  return value;
}
