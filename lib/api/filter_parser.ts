/**
 * The filter parser: text of the `filter` query parameter (spec section 4.4) to a
 * {@link FilterNode}.
 *
 * Grammar, with the choices the spec leaves open:
 * - An operand is `<field> <operator> <value>`. A field is identifiers joined by dots
 *   (`hostName`, `status.type`), matched case-sensitively by validation.
 * - Operators and `-and` / `-or` / `-not` are case-insensitive (`-EQ`, `-And`); trees hold them in
 *   lower case and the printer writes lower case.
 * - Each operand of `-and` / `-or` is wrapped in its own parentheses, and so is the operand of
 *   `-not`. Parentheses may be left out only around a lone comparison that is the whole
 *   expression (or the whole content of a group). Groups nest; redundant parentheses are allowed
 *   and leave no trace in the tree. `-and` and `-or` may not be mixed at one level.
 * - A value is quoted (`"…"` or `'…'`) or unquoted. In a quoted value a backslash escapes the quote
 *   character or a backslash (`\"`, `\\`) and a doubled quote character stands for one (`""`);
 *   any other character after a backslash is an error. An unquoted value is a Number, an RFC 3339
 *   date-time, `true`/`false`, or a String that does not start with a digit or hyphen and holds no
 *   space, `(`, `)`, `[`, `]`, `'`, `"`, `,` or `+`.
 * - `-in` / `-notin` take a non-empty bracketed list (`[Active, 'In stock']`); `-exists` takes an
 *   unquoted `true` or `false`.
 * - Nesting is limited to {@link MAX_FILTER_DEPTH} groups.
 *
 * Every error is a {@link FilterSyntaxError} with a 1-based column (counted in characters).
 *
 * @module
 */

import { SENSITIVE_FIELDS } from "./catalogue.ts";
import {
  COMPARISON_OPERATORS,
  type ComparisonOperator,
  type FilterLiteral,
  type FilterNode,
  recordPosition,
} from "./filter_ast.ts";
import {
  isFieldName,
  isWordBreak,
  literalFromText,
  readBoolean,
  unquotedProblem,
} from "./filter_literal.ts";

/** How deeply groups and `-not` may nest. */
export const MAX_FILTER_DEPTH = 100;

/** What a {@link FilterSyntaxError} is built from. */
export interface FilterSyntaxErrorOptions {
  /** 1-based character column of the problem. */
  readonly column: number;
  /** What the parser expected there. */
  readonly expected: string;
  /** What it found (`end of input`, a quoted token). */
  readonly found: string;
  /** An extra explanation, added to the message in parentheses. */
  readonly hint?: string;
  /** The filter text, shown under the message with a caret; left out to keep secrets out. */
  readonly source?: string;
}

/**
 * A filter that does not follow the grammar. The message names the column, what was expected
 * and what was found, and shows the filter with a caret under the column (unless the filter
 * mentions a sensitive field, whose value must not reach an error message).
 *
 * @example
 * ```ts
 * import { FilterSyntaxError, parseFilter } from "./filter_parser.ts";
 * try {
 *   parseFilter("status -eq");
 * } catch (e) {
 *   if (e instanceof FilterSyntaxError) console.log(e.column, e.expected, e.found);
 *   // 11 'a value after "-eq"' "end of input"
 * }
 * ```
 */
export class FilterSyntaxError extends Error {
  /** The error's name, for `instanceof`-free checks and logs. */
  override name = "FilterSyntaxError";
  /** 1-based character column of the problem. */
  readonly column: number;
  /** What the parser expected there. */
  readonly expected: string;
  /** What it found. */
  readonly found: string;
  /** An extra explanation, if any. */
  readonly hint?: string;

  /** Builds the error from where parsing stopped and what was expected. */
  constructor(options: FilterSyntaxErrorOptions) {
    const { column, expected, found, hint, source } = options;
    let message = `filter error at column ${column}: expected ${expected}, found ${found}`;
    if (hint) message += ` (${hint})`;
    if (source !== undefined) message += caretLines(source, column);
    super(message);
    this.column = column;
    this.expected = expected;
    this.found = found;
    if (hint) this.hint = hint;
  }
}

/** The source line holding `column`, trimmed to a window around it, and a caret under it. */
function caretLines(source: string, column: number): string {
  const chars = Array.from(source);
  let start = 0;
  for (let i = 0; i < column - 1 && i < chars.length; i++) if (chars[i] === "\n") start = i + 1;
  let end = chars.indexOf("\n", start);
  if (end < 0) end = chars.length;
  const from = Math.max(start, column - 1 - 50);
  const to = Math.min(end, column - 1 + 30);
  const line = chars.slice(from, to).join("").replace(/[\t\r\v\f]/g, " ");
  const pre = from > start ? "…" : "";
  const post = to < end ? "…" : "";
  return `\n  ${pre}${line}${post}\n  ${" ".repeat(pre.length + column - 1 - from)}^`;
}

type TokenKind = "(" | ")" | "[" | "]" | "," | "word" | "op" | "quoted" | "eof";

interface Token {
  readonly kind: TokenKind;
  /** Code-unit offsets into the input. */
  readonly start: number;
  readonly end: number;
  /** The raw text of the token. */
  readonly raw: string;
  /** For a quoted token: the text without quotes and escapes. */
  readonly text: string;
}

const CONNECTIVE_HINT = "each operand of -and and -or needs its own parentheses";

class Parser {
  readonly #src: string;
  readonly #redact: boolean;
  readonly #columns?: Int32Array;
  #pos = 0;
  #peeked?: Token;
  #lastEnd = 0;
  #depth = 0;

  constructor(src: string) {
    this.#src = src;
    this.#redact = mentionsSensitiveField(src);
    if (/[\ud800-\udfff]/.test(src)) {
      const cols = new Int32Array(src.length + 1);
      let col = 1;
      for (let i = 0; i < src.length; i++) {
        cols[i] = col;
        const c = src.charCodeAt(i);
        if (!(c >= 0xd800 && c <= 0xdbff && i + 1 < src.length)) col++;
        else {
          const d = src.charCodeAt(i + 1);
          if (d < 0xdc00 || d > 0xdfff) col++;
        }
      }
      cols[src.length] = col;
      this.#columns = cols;
    }
  }

  /** The 1-based character column of a code-unit offset. */
  column(offset: number): number {
    return this.#columns ? this.#columns[offset] : offset + 1;
  }

  fail(offset: number, expected: string, found: string, hint?: string): never {
    throw new FilterSyntaxError({
      column: this.column(offset),
      expected,
      found,
      hint,
      source: this.#redact ? undefined : this.#src,
    });
  }

  describe(t: Token): string {
    if (t.kind === "eof") return "end of input";
    if (this.#redact) {
      if (t.kind === "quoted") return "a quoted value";
      const known = /^-(and|or|not)$/i.test(t.raw) ||
        COMPARISON_OPERATORS.includes(t.raw.slice(1).toLowerCase() as ComparisonOperator);
      if (t.kind === "word" || (t.kind === "op" && !known)) return "a word";
      return JSON.stringify(t.raw);
    }
    const raw = t.raw.length > 24 ? `${t.raw.slice(0, 24)}…` : t.raw;
    return t.kind === "quoted" ? raw : JSON.stringify(raw);
  }

  peek(): Token {
    this.#peeked ??= this.#lex();
    return this.#peeked;
  }

  next(): Token {
    const t = this.peek();
    this.#peeked = undefined;
    this.#lastEnd = t.end;
    return t;
  }

  #lex(): Token {
    const src = this.#src;
    let i = this.#pos;
    while (i < src.length && /\s/.test(src[i])) i++;
    const start = i;
    if (i >= src.length) {
      this.#pos = i;
      return { kind: "eof", start, end: start, raw: "", text: "" };
    }
    const ch = src[i];
    let token: Token;
    if ("()[],".includes(ch)) {
      token = { kind: ch as TokenKind, start, end: i + 1, raw: ch, text: ch };
    } else if (ch === '"' || ch === "'") {
      token = this.#quoted(start, ch);
    } else {
      while (i < src.length && !isWordBreak(src[i])) i++;
      const raw = src.slice(start, i);
      const kind = /^-[A-Za-z]/.test(raw) ? "op" : "word";
      token = { kind, start, end: i, raw, text: raw };
    }
    this.#pos = token.end;
    return token;
  }

  #quoted(start: number, q: string): Token {
    const src = this.#src;
    let i = start + 1;
    let out = "";
    for (;;) {
      if (i >= src.length || (src[i] === "\\" && i + 1 >= src.length)) {
        this.fail(
          start,
          `a closing ${q} for the value starting at column ${this.column(start)}`,
          "end of input",
          "the quoted value is not closed",
        );
      }
      const c = src[i];
      if (c === "\\") {
        const n = src[i + 1];
        if (n !== "\\" && n !== q) {
          this.fail(
            i,
            `\\\\ or \\${q} after a backslash`,
            this.#redact ? "another character" : JSON.stringify(`\\${n}`),
            `inside quotes a backslash escapes only the quote character and itself; write \\\\ for a backslash`,
          );
        }
        out += n;
        i += 2;
      } else if (c === q) {
        if (src[i + 1] === q) {
          out += q;
          i += 2;
        } else {
          i++;
          break;
        }
      } else {
        out += c;
        i++;
      }
    }
    return { kind: "quoted", start, end: i, raw: src.slice(start, i), text: out };
  }

  isConnective(t: Token): "and" | "or" | undefined {
    if (t.kind !== "op") return undefined;
    const lower = t.raw.toLowerCase();
    return lower === "-and" ? "and" : lower === "-or" ? "or" : undefined;
  }

  isNot(t: Token): boolean {
    return t.kind === "op" && t.raw.toLowerCase() === "-not";
  }

  parse(): FilterNode {
    const first = this.peek();
    if (first.kind === "eof") this.fail(first.start, "a filter expression", "end of input");
    const node = this.#expr();
    const end = this.peek();
    if (end.kind !== "eof") {
      const hint = end.kind === ")"
        ? 'no "(" is open to match it'
        : end.kind === "("
        ? "join operands with -and or -or"
        : undefined;
      this.fail(end.start, "end of input", this.describe(end), hint);
    }
    return node;
  }

  /** The content of a group, or the whole filter. */
  #expr(): FilterNode {
    const t = this.peek();
    if (t.kind === "word") {
      const cmp = this.#comparison();
      if (this.isConnective(this.peek())) {
        this.fail(t.start, '"("', this.describe(t), CONNECTIVE_HINT);
      }
      return cmp;
    }
    if (t.kind === "(" || this.isNot(t)) {
      const first = this.#operand();
      const c = this.peek();
      const kind = this.isConnective(c);
      if (kind === undefined) return first;
      if (t.kind !== "(") this.fail(t.start, '"("', this.describe(t), CONNECTIVE_HINT);
      const items: FilterNode[] = [first];
      for (let c2 = this.peek(); this.isConnective(c2); c2 = this.peek()) {
        if (this.isConnective(c2) !== kind) {
          this.fail(
            c2.start,
            `"-${kind}"`,
            this.describe(c2),
            "mixing -and and -or at one level needs parentheses",
          );
        }
        this.next();
        const o = this.peek();
        if (o.kind !== "(") this.fail(o.start, '"("', this.describe(o), CONNECTIVE_HINT);
        items.push(this.#group());
      }
      const node: FilterNode = { kind, items };
      recordPosition(node, { column: this.column(t.start), endColumn: this.column(this.#lastEnd) });
      return node;
    }
    if (t.kind === "quoted") {
      this.fail(t.start, "a field name", this.describe(t), "field names are not quoted");
    }
    return this.fail(t.start, 'a comparison, "(" or "-not"', this.describe(t));
  }

  /** A parenthesised group or a `-not` expression. */
  #operand(): FilterNode {
    const t = this.peek();
    if (t.kind === "(") return this.#group();
    this.next();
    this.#enter(t);
    const open = this.peek();
    if (open.kind !== "(") {
      this.fail(open.start, '"(" after "-not"', this.describe(open), "-not needs parentheses");
    }
    const expr = this.#group();
    this.#depth--;
    const node: FilterNode = { kind: "not", expr };
    recordPosition(node, { column: this.column(t.start), endColumn: this.column(this.#lastEnd) });
    return node;
  }

  #enter(t: Token): void {
    if (++this.#depth > MAX_FILTER_DEPTH) {
      this.fail(t.start, `at most ${MAX_FILTER_DEPTH} nested groups`, this.describe(t));
    }
  }

  #group(): FilterNode {
    const open = this.next();
    this.#enter(open);
    const node = this.#expr();
    const close = this.peek();
    if (close.kind !== ")") {
      this.fail(
        close.start,
        '")"',
        this.describe(close),
        `to close the "(" at column ${this.column(open.start)}`,
      );
    }
    this.next();
    this.#depth--;
    return node;
  }

  #comparison(): FilterNode {
    const f = this.next();
    if (f.kind !== "word" || !isFieldName(f.raw)) {
      this.fail(f.start, "a field name", this.describe(f));
    }
    const field = f.raw;
    const o = this.peek();
    if (o.kind !== "op") this.fail(o.start, `an operator after "${field}"`, this.describe(o));
    const op = o.raw.slice(1).toLowerCase() as ComparisonOperator;
    if (!COMPARISON_OPERATORS.includes(op)) {
      this.fail(
        o.start,
        "a comparison operator",
        this.describe(o),
        `one of ${COMPARISON_OPERATORS.map((x) => `-${x}`).join(" ")}`,
      );
    }
    this.next();
    const after = `-${op}`;
    let node: FilterNode;
    if (op === "in" || op === "notin") {
      node = { kind: "cmp", field, op, value: this.#list(after) };
    } else if (op === "exists") {
      const v = this.peek();
      if (v.kind !== "word" || readBoolean(v.raw) === undefined) {
        this.fail(v.start, 'true or false after "-exists"', this.describe(v));
      }
      node = { kind: "cmp", field, op, value: this.#value(`true or false after "${after}"`) };
    } else {
      node = { kind: "cmp", field, op, value: this.#value(`a value after "${after}"`) };
    }
    recordPosition(node, {
      column: this.column(f.start),
      endColumn: this.column(this.#lastEnd),
      operatorColumn: this.column(o.start),
    });
    return node;
  }

  #list(after: string): FilterLiteral[] {
    const open = this.peek();
    if (open.kind !== "[") {
      this.fail(open.start, `"[" after "${after}"`, this.describe(open), `${after} takes a list`);
    }
    this.next();
    const items: FilterLiteral[] = [this.#value("a value in the list")];
    for (;;) {
      const t = this.peek();
      if (t.kind === "]") break;
      if (t.kind !== ",") this.fail(t.start, '"," or "]"', this.describe(t));
      this.next();
      items.push(this.#value("a value in the list"));
    }
    this.next();
    recordPosition(items, {
      column: this.column(open.start),
      endColumn: this.column(this.#lastEnd),
    });
    return items;
  }

  #value(expected: string): FilterLiteral {
    const t = this.peek();
    let lit: FilterLiteral;
    if (t.kind === "quoted") {
      lit = literalFromText(t.text, true);
    } else if (t.kind === "word" || t.kind === "op") {
      const problem = unquotedProblem(t.raw);
      if (problem) {
        this.fail(
          t.start + problem.offset,
          expected,
          this.describe(t),
          problem.reason,
        );
      }
      lit = literalFromText(t.raw, false);
    } else {
      const hint = t.kind === "["
        ? "a list is allowed only after -in and -notin"
        : t.kind === "]" && expected === "a value in the list"
        ? "a list cannot be empty"
        : undefined;
      return this.fail(t.start, expected, this.describe(t), hint);
    }
    this.next();
    recordPosition(lit, { column: this.column(t.start), endColumn: this.column(t.end) });
    return lit;
  }
}

/**
 * The lines an error about a filter ends with: the filter's line around `column` and a caret
 * under it; empty when the filter mentions a sensitive field (its value must not reach an error).
 *
 * @example
 * ```ts
 * import { filterCaret } from "./filter_parser.ts";
 * console.log(filterCaret("vndor -eq Adobe", 1)); // "\n  vndor -eq Adobe\n  ^"
 * console.log(filterCaret("securityCode -eq s3cret -and x -eq 1", 31)); // ""
 * ```
 */
export function filterCaret(source: string, column: number): string {
  return mentionsSensitiveField(source) ? "" : caretLines(source, column);
}

function mentionsSensitiveField(src: string): boolean {
  const lower = new Set([...SENSITIVE_FIELDS].map((f) => f.toLowerCase()));
  return (src.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).some((w) => lower.has(w.toLowerCase()));
}

/**
 * Parses a filter expression. Throws {@link FilterSyntaxError}, and nothing else, for text that
 * does not follow the grammar (see the module notes). Field names and value types are checked
 * later, against a resource, by `validateFilter`.
 *
 * @example
 * ```ts
 * import { parseFilter } from "./filter_parser.ts";
 * const tree = parseFilter(
 *   '(hostName -contains MacBook) -and ((status -eq Quarantined) -or (lastScanDate -le "2022-01-01T00:00:00Z"))',
 * );
 * console.log(tree.kind); // "and"
 * ```
 */
export function parseFilter(text: string): FilterNode {
  return new Parser(String(text)).parse();
}
