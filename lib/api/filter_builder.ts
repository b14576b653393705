/**
 * A typed builder for filter trees, for code that composes filters instead of writing text:
 *
 * ```ts
 * and(eq("status", "Active"), le("lastScanDate", new Date(Date.UTC(2022, 0, 1))))
 * ```
 *
 * JS values become literals: a `Date` a double-quoted RFC 3339 date-time (as the spec writes
 * dates), a number or boolean an unquoted one, and a string an unquoted word when it reads back
 * as that same string, otherwise a quoted value. Builders throw `RangeError` for what cannot be
 * written (a bad field name, a non-finite number, an invalid date, an empty list, fewer than two
 * operands).
 *
 * @module
 */

import type {
  AndNode,
  ComparisonNode,
  FilterLiteral,
  FilterNode,
  ListOperator,
  NotNode,
  OrNode,
  ScalarOperator,
} from "./filter_ast.ts";
import { isFieldName, isSafeUnquoted, literalFromText, readDate } from "./filter_literal.ts";

/** A JS value a comparison can take. */
export type FilterValue = string | number | boolean | Date;

/**
 * The literal for a JS value (see the module notes).
 *
 * @example
 * ```ts
 * import { toLiteral } from "./filter_builder.ts";
 * console.log(toLiteral("Active").quoted, toLiteral("In stock").quoted, toLiteral(12).type);
 * // false true "number"
 * ```
 */
export function toLiteral(value: FilterValue): FilterLiteral {
  if (value instanceof Date) {
    const ms = value.getTime();
    const text = Number.isNaN(ms) ? "" : value.toISOString();
    if (readDate(text) === undefined) {
      throw new RangeError("a filter date must be a valid date in the years 0000-9999");
    }
    return literalFromText(text, true);
  }
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value)) throw new RangeError("a filter number must be finite");
      return literalFromText(String(value), false);
    case "boolean":
      return literalFromText(String(value), false);
    case "string":
      return literalFromText(value, !isSafeUnquoted(value));
    default:
      throw new RangeError(`a filter value must be a string, number, boolean or Date`);
  }
}

function checkField(field: string): string {
  if (typeof field !== "string" || !isFieldName(field)) {
    throw new RangeError(`not a filter field name: ${JSON.stringify(field)}`);
  }
  return field;
}

function scalar(op: ScalarOperator) {
  return (field: string, value: FilterValue): ComparisonNode => ({
    kind: "cmp",
    field: checkField(field),
    op,
    value: toLiteral(value),
  });
}

function text(op: ScalarOperator) {
  return (field: string, value: string): ComparisonNode => ({
    kind: "cmp",
    field: checkField(field),
    op,
    value: toLiteral(String(value)),
  });
}

function list(op: ListOperator) {
  return (field: string, values: readonly FilterValue[]): ComparisonNode => {
    if (values.length === 0) throw new RangeError(`-${op} needs at least one value`);
    return { kind: "cmp", field: checkField(field), op, value: values.map(toLiteral) };
  };
}

/**
 * `field -eq value`.
 *
 * @example
 * ```ts
 * import { eq } from "./filter_builder.ts";
 * import { printFilter } from "./filter_printer.ts";
 * console.log(printFilter(eq("status", "Quarantined"))); // status -eq Quarantined
 * ```
 */
export const eq: (field: string, value: FilterValue) => ComparisonNode = scalar("eq");

/**
 * `field -ne value`.
 *
 * @example
 * ```ts
 * import { ne } from "./filter_builder.ts";
 * ne("status", "Active");
 * ```
 */
export const ne: (field: string, value: FilterValue) => ComparisonNode = scalar("ne");

/**
 * `field -gt value` (numbers and dates).
 *
 * @example
 * ```ts
 * import { gt } from "./filter_builder.ts";
 * gt("quantity", 10);
 * ```
 */
export const gt: (field: string, value: number | Date) => ComparisonNode = scalar("gt");

/**
 * `field -ge value` (numbers and dates).
 *
 * @example
 * ```ts
 * import { ge } from "./filter_builder.ts";
 * ge("lastScanDate", new Date(Date.UTC(2024, 0, 1)));
 * ```
 */
export const ge: (field: string, value: number | Date) => ComparisonNode = scalar("ge");

/**
 * `field -lt value` (numbers and dates).
 *
 * @example
 * ```ts
 * import { lt } from "./filter_builder.ts";
 * lt("usedCount", 1);
 * ```
 */
export const lt: (field: string, value: number | Date) => ComparisonNode = scalar("lt");

/**
 * `field -le value` (numbers and dates).
 *
 * @example
 * ```ts
 * import { le } from "./filter_builder.ts";
 * le("lastScanDate", new Date(Date.UTC(2022, 0, 1)));
 * ```
 */
export const le: (field: string, value: number | Date) => ComparisonNode = scalar("le");

/**
 * `field -contains value` (strings, case-insensitive).
 *
 * @example
 * ```ts
 * import { contains } from "./filter_builder.ts";
 * contains("hostName", "MacBook");
 * ```
 */
export const contains: (field: string, value: string) => ComparisonNode = text("contains");

/**
 * `field -notcontains value`.
 *
 * @example
 * ```ts
 * import { notContains } from "./filter_builder.ts";
 * notContains("hostName", "test");
 * ```
 */
export const notContains: (field: string, value: string) => ComparisonNode = text("notcontains");

/**
 * `field -startswith value`.
 *
 * @example
 * ```ts
 * import { startsWith } from "./filter_builder.ts";
 * startsWith("hostName", "LON-");
 * ```
 */
export const startsWith: (field: string, value: string) => ComparisonNode = text("startswith");

/**
 * `field -endswith value`.
 *
 * @example
 * ```ts
 * import { endsWith } from "./filter_builder.ts";
 * endsWith("domain", ".example.com");
 * ```
 */
export const endsWith: (field: string, value: string) => ComparisonNode = text("endswith");

/**
 * `field -in [a,b,…]` (at least one value).
 *
 * @example
 * ```ts
 * import { isIn } from "./filter_builder.ts";
 * import { printFilter } from "./filter_printer.ts";
 * console.log(printFilter(isIn("status", ["Active", "Quarantined"]))); // status -in [Active,Quarantined]
 * ```
 */
export const isIn: (field: string, values: readonly FilterValue[]) => ComparisonNode = list("in");

/**
 * `field -notin [a,b,…]` (at least one value).
 *
 * @example
 * ```ts
 * import { notIn } from "./filter_builder.ts";
 * notIn("status", ["Inactive"]);
 * ```
 */
export const notIn: (field: string, values: readonly FilterValue[]) => ComparisonNode = list(
  "notin",
);

/**
 * `field -exists true` (or `false` when `present` is false).
 *
 * @example
 * ```ts
 * import { exists } from "./filter_builder.ts";
 * import { printFilter } from "./filter_printer.ts";
 * console.log(printFilter(exists("ipAddress"))); // ipAddress -exists true
 * ```
 */
export function exists(field: string, present = true): ComparisonNode {
  return { kind: "cmp", field: checkField(field), op: "exists", value: toLiteral(present) };
}

function operands(kind: string, nodes: readonly FilterNode[]): readonly FilterNode[] {
  if (nodes.length < 2) throw new RangeError(`-${kind} needs at least two operands`);
  return [...nodes];
}

/**
 * `(a) -and (b) …`: two or more operands, kept as given (not flattened).
 *
 * @example
 * ```ts
 * import { and, contains, eq } from "./filter_builder.ts";
 * and(contains("manufacturer", "Microsoft"), eq("isEndOfLife", true));
 * ```
 */
export function and(...nodes: FilterNode[]): AndNode {
  return { kind: "and", items: operands("and", nodes) };
}

/**
 * `(a) -or (b) …`: two or more operands, kept as given (not flattened).
 *
 * @example
 * ```ts
 * import { eq, or } from "./filter_builder.ts";
 * or(eq("status", "Quarantined"), eq("status", "Inactive"));
 * ```
 */
export function or(...nodes: FilterNode[]): OrNode {
  return { kind: "or", items: operands("or", nodes) };
}

/**
 * `-not (a)`.
 *
 * @example
 * ```ts
 * import { eq, not } from "./filter_builder.ts";
 * not(eq("status", "Active"));
 * ```
 */
export function not(node: FilterNode): NotNode {
  return { kind: "not", expr: node };
}
