/**
 * The syntax tree of a filter expression (spec section 4.4): comparisons, `-and` / `-or` groups
 * and `-not`. Trees are plain data: the parser builds them, the builder builds them, the printer
 * prints them and `parse(print(tree))` deep-equals `tree`.
 *
 * Source positions are kept out of the tree, in a side table read with {@link positionOf}, so a
 * parsed tree deep-equals a built one.
 *
 * @module
 */

/** A comparison operator token without its leading hyphen, in lower case. */
export type ComparisonOperator =
  | "eq"
  | "ne"
  | "gt"
  | "ge"
  | "lt"
  | "le"
  | "contains"
  | "notcontains"
  | "in"
  | "notin"
  | "exists"
  | "startswith"
  | "endswith";

/** The operators that take a bracketed list (`status -in [Active,Quarantined]`). */
export type ListOperator = "in" | "notin";

/** The operators that take one value. */
export type ScalarOperator = Exclude<ComparisonOperator, ListOperator>;

/**
 * Every comparison operator, in the order of the spec's table.
 *
 * @example
 * ```ts
 * import { COMPARISON_OPERATORS } from "./filter_ast.ts";
 * console.log(COMPARISON_OPERATORS.includes("startswith")); // true
 * ```
 */
export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = [
  "eq",
  "ne",
  "gt",
  "ge",
  "lt",
  "le",
  "contains",
  "notcontains",
  "in",
  "notin",
  "exists",
  "startswith",
  "endswith",
];

/** What every literal keeps: its text (after unescaping) and whether it was quoted. */
export interface LiteralBase {
  /** The value's text as written, after removing quotes and escapes. */
  readonly text: string;
  /** Whether the value was written in quotes. */
  readonly quoted: boolean;
}

/** A string value: any quoted value that is not a date, or an unquoted word. */
export interface StringLiteral extends LiteralBase {
  /** The literal's type. */
  readonly type: "string";
  /** The same as `text`. */
  readonly value: string;
}

/** An unquoted number (`12`, `-1.5`, `2e3`). */
export interface NumberLiteral extends LiteralBase {
  /** The literal's type. */
  readonly type: "number";
  /** `Number(text)`, always finite. */
  readonly value: number;
  /** A number is never quoted (a quoted number is a string). */
  readonly quoted: false;
}

/** An unquoted `true` or `false` (any letter case). */
export interface BooleanLiteral extends LiteralBase {
  /** The literal's type. */
  readonly type: "boolean";
  /** `true` or `false`. */
  readonly value: boolean;
  /** A boolean is never quoted (a quoted `true` is a string). */
  readonly quoted: false;
}

/**
 * An RFC 3339 date-time, quoted or not (the spec writes dates quoted). Quoting forces a String
 * (spec 2.1); that matters only where a field does not decide how the value is read, and a field
 * always does (see `filter_validate.ts`).
 */
export interface DateLiteral extends LiteralBase {
  /** The literal's type. */
  readonly type: "date";
  /** The instant, to the millisecond (finer fractions are truncated). */
  readonly value: Date;
}

/**
 * A value in a comparison. Build one with `literalFromText` (filter_literal.ts) or `toLiteral`
 * (filter_builder.ts): its `type` and `value` follow from `text` and `quoted`.
 */
export type FilterLiteral = StringLiteral | NumberLiteral | BooleanLiteral | DateLiteral;

/** `<field> <operator> <value>` with one value. */
export interface ScalarComparison {
  /** The node's kind. */
  readonly kind: "cmp";
  /** The field name as written (`hostName`, `status.type`). */
  readonly field: string;
  /** The operator (`-eq`, `-lt`, `-like`, `-exists`, …). */
  readonly op: ScalarOperator;
  /** The value; for `exists` always a boolean literal. */
  readonly value: FilterLiteral;
}

/** `<field> -in [<value>, …]` or `-notin`: a non-empty list. */
export interface ListComparison {
  /** The node's kind. */
  readonly kind: "cmp";
  /** The field name as written. */
  readonly field: string;
  /** `-in` or `-notin`. */
  readonly op: ListOperator;
  /** The values, in source order (at least one). */
  readonly value: readonly FilterLiteral[];
}

/** A comparison node. */
export type ComparisonNode = ScalarComparison | ListComparison;

/** `(a) -and (b) [-and (c) …]`: two or more operands, in source order, not flattened. */
export interface AndNode {
  /** The node's kind. */
  readonly kind: "and";
  /** The operands, in source order. */
  readonly items: readonly FilterNode[];
}

/** `(a) -or (b) [-or (c) …]`: two or more operands, in source order, not flattened. */
export interface OrNode {
  /** The node's kind. */
  readonly kind: "or";
  /** The operands, in source order. */
  readonly items: readonly FilterNode[];
}

/** `-not (a)`. */
export interface NotNode {
  /** The node's kind. */
  readonly kind: "not";
  /** The negated expression. */
  readonly expr: FilterNode;
}

/**
 * A filter expression. Parentheses leave no trace: `((a -eq 1))` is the comparison itself, and
 * `((a) -and (b)) -and (c)` is an `and` whose first item is an `and`.
 */
export type FilterNode = ComparisonNode | AndNode | OrNode | NotNode;

/** Where a node, list or literal sits in the parsed text (1-based character columns). */
export interface FilterPosition {
  /** The column of its first character. */
  readonly column: number;
  /** The column just after its last character. */
  readonly endColumn: number;
  /** For a comparison: the column of its operator. */
  readonly operatorColumn?: number;
}

const POSITIONS = new WeakMap<object, FilterPosition>();

/**
 * Where the parser found a node, a literal or an `-in` list; `undefined` for trees that were
 * built, not parsed. Validation errors use it to point at the offending column.
 *
 * @example
 * ```ts
 * import { parseFilter } from "./filter_parser.ts";
 * import { positionOf } from "./filter_ast.ts";
 * const node = parseFilter("(a -eq 1) -and (b -eq 2)");
 * if (node.kind === "and") console.log(positionOf(node.items[1])?.column); // 17
 * ```
 */
export function positionOf(
  target: FilterNode | FilterLiteral | readonly FilterLiteral[],
): FilterPosition | undefined {
  return POSITIONS.get(target);
}

/**
 * Records where a node was parsed. For the parser; a tree built by hand has no positions.
 *
 * @example
 * ```ts
 * import { positionOf, recordPosition } from "./filter_ast.ts";
 * const lit = { type: "string", value: "x", text: "x", quoted: false } as const;
 * recordPosition(lit, { column: 3, endColumn: 4 });
 * console.log(positionOf(lit)?.column); // 3
 * ```
 */
export function recordPosition(target: object, position: FilterPosition): void {
  POSITIONS.set(target, position);
}
