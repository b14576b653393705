/**
 * Filter values: how a value's text is typed by its look (spec 2.1), which texts may be written
 * unquoted (spec 4.4 rule 5), and how a text is read as a Number, Boolean or Date.
 *
 * Typing by look, for an unquoted value: Number, then RFC 3339 date-time, then Boolean (`true` /
 * `false`, any case), else String. A quoted value is a String, except that a quoted RFC 3339
 * date-time is tagged `date` (the spec writes dates quoted); fields decide how values are read in
 * the end, so the tag never changes what a filter matches.
 *
 * @module
 */

import type { FilterLiteral } from "./filter_ast.ts";

const NUMBER_RE = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const DATE_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const FIELD_RE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const DELIMITERS = "()[],'\"";

/** The earliest and latest instants an RFC 3339 date-time (four-digit year, UTC) can name. */
const MIN_MS = Date.UTC(2000, 0, 1) - 730_485 * 86_400_000; // 0000-01-01T00:00:00Z
const MAX_MS = new Date("9999-12-31T23:59:59.999Z").getTime();

/**
 * Whether a character ends an unquoted word: white space, a parenthesis, a bracket, a comma or a
 * quote.
 *
 * @example
 * ```ts
 * import { isWordBreak } from "./filter_literal.ts";
 * console.log(isWordBreak("("), isWordBreak("a")); // true false
 * ```
 */
export function isWordBreak(ch: string): boolean {
  return DELIMITERS.includes(ch) || /\s/.test(ch);
}

/**
 * Reads a number as the filter grammar writes it (`12`, `-1.5`, `2e3`); `undefined` when the text
 * is not one or is out of range.
 *
 * @example
 * ```ts
 * import { readNumber } from "./filter_literal.ts";
 * console.log(readNumber("-1.5"), readNumber("x")); // -1.5 undefined
 * ```
 */
export function readNumber(text: string): number | undefined {
  if (!NUMBER_RE.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Reads `true` or `false` (any letter case); `undefined` for anything else.
 *
 * @example
 * ```ts
 * import { readBoolean } from "./filter_literal.ts";
 * console.log(readBoolean("TRUE"), readBoolean("yes")); // true undefined
 * ```
 */
export function readBoolean(text: string): boolean | undefined {
  const lower = asciiLower(text);
  return lower === "true" ? true : lower === "false" ? false : undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Reads an RFC 3339 date-time (`2022-01-01T00:00:00Z`; `T` and `Z` may be lower case; an offset
 * `+01:00` is allowed; a fraction beyond milliseconds is truncated) as epoch milliseconds.
 * `undefined` for anything else, for impossible dates (`2022-02-30…`), leap seconds, and instants
 * outside the years 0000–9999.
 *
 * @example
 * ```ts
 * import { readDate } from "./filter_literal.ts";
 * console.log(readDate("2022-01-01T00:00:00Z")); // 1640995200000
 * console.log(readDate("2022-02-30T00:00:00Z")); // undefined
 * ```
 */
export function readDate(text: string): number | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  let offset = 0;
  if (m[8] !== undefined) {
    const oh = Number(m[9]), om = Number(m[10]);
    if (oh > 23 || om > 59) return undefined;
    offset = (m[8] === "-" ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  const t = d.getTime() - offset;
  return t < MIN_MS || t > MAX_MS ? undefined : t;
}

/**
 * Lower-cases A–Z only, as SQLite's `lower()` and `COLLATE NOCASE` do, so the evaluator and the
 * SQL compiler fold case the same way.
 *
 * @example
 * ```ts
 * import { asciiLower } from "./filter_literal.ts";
 * console.log(asciiLower("ÉCOLE Ab")); // "École ab": É is left alone
 * ```
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/**
 * Whether a text can name a field: identifiers joined by dots (`hostName`, `status.type`).
 *
 * @example
 * ```ts
 * import { isFieldName } from "./filter_literal.ts";
 * console.log(isFieldName("status.type"), isFieldName("1x")); // true false
 * ```
 */
export function isFieldName(text: string): boolean {
  return FIELD_RE.test(text);
}

/** Why an unquoted word cannot be a value, and where (0-based offset into the word). */
export interface UnquotedProblem {
  readonly offset: number;
  readonly reason: string;
}

/**
 * Why an unquoted word (already cut at the word breaks) is not a valid value, or `undefined` when
 * it is one: a Number, a date-time, a Boolean, or a String that does not start with a digit or a
 * hyphen and holds no `+` (spec 4.4 rule 5).
 *
 * @example
 * ```ts
 * import { unquotedProblem } from "./filter_literal.ts";
 * console.log(unquotedProblem("12abc")?.reason); // "an unquoted value cannot start with a digit…"
 * console.log(unquotedProblem("Active")); // undefined
 * ```
 */
export function unquotedProblem(word: string): UnquotedProblem | undefined {
  if (word === "") return { offset: 0, reason: "a value cannot be empty" };
  if (readNumber(word) !== undefined || readDate(word) !== undefined) return undefined;
  if (/^\d/.test(word)) {
    return {
      offset: 0,
      reason: "an unquoted value cannot start with a digit unless it is a number or an " +
        "RFC 3339 date-time; quote it",
    };
  }
  if (word.startsWith("-")) {
    return { offset: 0, reason: "an unquoted value cannot start with a hyphen; quote it" };
  }
  const plus = word.indexOf("+");
  if (plus >= 0) {
    return { offset: plus, reason: 'an unquoted value cannot contain "+"; quote it' };
  }
  return undefined;
}

/**
 * Builds the literal for a value's text: its `type` and `value` follow from the text and whether
 * it was quoted (see the module notes). The text of an unquoted literal must be a valid unquoted
 * word (see {@link unquotedProblem}); otherwise it is typed as a String.
 *
 * @example
 * ```ts
 * import { literalFromText } from "./filter_literal.ts";
 * console.log(literalFromText("12", false)); // { type: "number", value: 12, text: "12", quoted: false }
 * console.log(literalFromText("12", true).type); // "string"
 * console.log(literalFromText("2022-01-01T00:00:00Z", true).type); // "date"
 * ```
 */
export function literalFromText(text: string, quoted: boolean): FilterLiteral {
  const ms = readDate(text);
  if (!quoted) {
    const n = readNumber(text);
    if (n !== undefined) return { type: "number", value: n, text, quoted: false };
    if (ms !== undefined) return { type: "date", value: new Date(ms), text, quoted: false };
    const b = readBoolean(text);
    if (b !== undefined) return { type: "boolean", value: b, text, quoted: false };
    return { type: "string", value: text, text, quoted: false };
  }
  if (ms !== undefined) return { type: "date", value: new Date(ms), text, quoted: true };
  return { type: "string", value: text, text, quoted: true };
}

/**
 * Whether a string can be written unquoted and still read back as that same String: printable
 * ASCII without spaces, delimiters or `+`, not starting with a digit or hyphen, and not looking
 * like a Number, date-time or Boolean.
 *
 * @example
 * ```ts
 * import { isSafeUnquoted } from "./filter_literal.ts";
 * console.log(isSafeUnquoted("Active"), isSafeUnquoted("true"), isSafeUnquoted("a b")); // true false false
 * ```
 */
export function isSafeUnquoted(text: string): boolean {
  if (!/^[\x21-\x7e]+$/.test(text)) return false;
  for (const ch of text) if (isWordBreak(ch)) return false;
  if (unquotedProblem(text) !== undefined) return false;
  return literalFromText(text, false).type === "string";
}
