/**
 * The filter evaluator: does a normalised item (numbers, booleans, `Date`s, strings, string
 * arrays, null) match a filter? The reference server's SQL compiler (`lib/server/sql_filter.ts`)
 * gives the same answers on the same rows; the tests hold them to it.
 *
 * Semantics:
 * - String comparisons (`-eq -ne -contains -notcontains -startswith -endswith -in -notin`) ignore
 *   the case of A–Z only, as SQLite's `lower()` does.
 * - Numbers compare as numbers and dates by instant (to the millisecond).
 * - Any comparison with a null or missing value is false, except `-exists false`, which is true;
 *   `-not` negates whatever its operand gives, so `-not (a -eq 1)` matches a null `a`.
 * - `-exists true` means not null and not the empty string (for a Set: not empty).
 * - A Set of String field `-contains x` when one element equals `x` (ignoring case).
 *
 * With a resource, values are read as the catalogue type of their field and the filter is
 * validated first (errors are thrown). Without one, each value is read as the type the item's
 * value has at run time, and a comparison that does not fit it (a value that cannot be read, an
 * operator that does not apply) is false.
 *
 * @module
 */

import type { FieldType, ResourceSpec } from "./catalogue.ts";
import type { ComparisonNode, FilterLiteral, FilterNode } from "./filter_ast.ts";
import { asciiLower, readBoolean, readDate, readNumber } from "./filter_literal.ts";
import {
  checkComparison,
  type FilterOperand,
  OPERATORS_BY_TYPE,
  readLiteralAs,
  validateFilter,
} from "./filter_validate.ts";

/** An item to test: field name (or the first part of a dotted name) to normalised value. */
export type FilterItem = Readonly<Record<string, unknown>>;

/** A compiled filter. */
export type FilterPredicate = (item: FilterItem) => boolean;

/**
 * The value of a field in an item: a direct key first (`"status.type"`), else a walk down a dotted
 * path (`item.status.type`); `undefined` when missing.
 *
 * @example
 * ```ts
 * import { fieldValue } from "./filter_evaluate.ts";
 * console.log(fieldValue({ status: { type: "inProgress" } }, "status.type")); // "inProgress"
 * ```
 */
export function fieldValue(item: FilterItem, field: string): unknown {
  if (Object.hasOwn(item, field)) return item[field];
  let cur: unknown = item;
  for (const part of field.split(".")) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A value normalised to its field type; `null` when missing or unreadable. */
type Normal = string | number | boolean | readonly unknown[] | null;

function normalise(value: unknown, type: FieldType): Normal {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "string":
      return typeof value === "string"
        ? value
        : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : null;
    case "number":
      if (typeof value === "number") return Number.isFinite(value) ? value : null;
      return typeof value === "string" ? readNumber(value) ?? null : null;
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === 0 || value === 1) return value === 1;
      return typeof value === "string" ? readBoolean(value) ?? null : null;
    case "date": {
      if (value instanceof Date) {
        const t = value.getTime();
        return Number.isNaN(t) ? null : t;
      }
      return typeof value === "string" ? readDate(value) ?? null : null;
    }
    case "strings":
      return Array.isArray(value) ? value : null;
  }
}

function runtimeType(value: unknown): FieldType | undefined {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (value instanceof Date) return "date";
  if (Array.isArray(value)) return "strings";
  return undefined;
}

/** Compares a non-null normalised value; the heart shared in spirit with the SQL compiler. */
function compare(
  v: Exclude<Normal, null>,
  type: FieldType,
  op: ComparisonNode["op"],
  operands: readonly FilterOperand[],
): boolean {
  if (op === "exists") {
    const present = type === "strings" ? (v as readonly unknown[]).length > 0 : v !== "";
    return present === operands[0];
  }
  if (type === "strings") {
    const x = asciiLower(operands[0] as string);
    const has = (v as readonly unknown[]).some((e) => typeof e === "string" && asciiLower(e) === x);
    return op === "contains" ? has : op === "notcontains" ? !has : false;
  }
  if (type === "string") {
    const s = asciiLower(v as string);
    const xs = operands.map((o) => asciiLower(o as string));
    switch (op) {
      case "eq":
        return s === xs[0];
      case "ne":
        return s !== xs[0];
      case "contains":
        return s.includes(xs[0]);
      case "notcontains":
        return !s.includes(xs[0]);
      case "startswith":
        return s.startsWith(xs[0]);
      case "endswith":
        return s.endsWith(xs[0]);
      case "in":
        return xs.includes(s);
      case "notin":
        return !xs.includes(s);
      default:
        return false;
    }
  }
  const x = operands[0];
  switch (op) {
    case "eq":
      return v === x;
    case "ne":
      return v !== x;
    case "gt":
      return v > x;
    case "ge":
      return v >= x;
    case "lt":
      return v < x;
    case "le":
      return v <= x;
    case "in":
      return operands.includes(v as FilterOperand);
    case "notin":
      return !operands.includes(v as FilterOperand);
    default:
      return false;
  }
}

function literalsOf(node: ComparisonNode): readonly FilterLiteral[] {
  return Array.isArray(node.value) ? node.value : [node.value as FilterLiteral];
}

function compileComparison(node: ComparisonNode, resource?: ResourceSpec): FilterPredicate {
  if (resource) {
    const { field, op, operands } = checkComparison(node, resource);
    return (item) => {
      const v = normalise(fieldValue(item, node.field), field.type);
      if (v === null) return op === "exists" && operands[0] === false;
      return compare(v, field.type, op, operands);
    };
  }
  const literals = literalsOf(node);
  return (item) => {
    const raw = fieldValue(item, node.field);
    const type = runtimeType(raw);
    const v = type === undefined ? null : normalise(raw, type);
    if (v === null || type === undefined) {
      return node.op === "exists" && readBoolean(literalsOf(node)[0].text) === false;
    }
    if (!OPERATORS_BY_TYPE[type].includes(node.op)) return false;
    const operands: FilterOperand[] = [];
    for (const lit of literals) {
      const o = readLiteralAs(lit, node.op === "exists" ? "boolean" : type);
      if (o === undefined) return false;
      operands.push(o);
    }
    return compare(v, type, node.op, operands);
  };
}

function compile(node: FilterNode, resource?: ResourceSpec): FilterPredicate {
  switch (node.kind) {
    case "cmp":
      return compileComparison(node, resource);
    case "and": {
      const parts = node.items.map((n) => compile(n, resource));
      return (item) => parts.every((p) => p(item));
    }
    case "or": {
      const parts = node.items.map((n) => compile(n, resource));
      return (item) => parts.some((p) => p(item));
    }
    case "not": {
      const inner = compile(node.expr, resource);
      return (item) => !inner(item);
    }
  }
}

/**
 * Compiles a filter once into a predicate (validating it first when a resource is given).
 *
 * @example
 * ```ts
 * import { filterPredicate } from "./filter_evaluate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * const active = filterPredicate(parseFilter("status -eq active"), RESOURCES.Computer);
 * console.log(active({ status: "Active" }), active({ status: null })); // true false
 * ```
 */
export function filterPredicate(node: FilterNode, resource?: ResourceSpec): FilterPredicate {
  if (resource) validateFilter(node, resource);
  return compile(node, resource);
}

/**
 * Whether one item matches a filter. For many items, compile once with {@link filterPredicate}.
 *
 * @example
 * ```ts
 * import { evaluateFilter } from "./filter_evaluate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * const old = parseFilter('lastScanDate -le "2022-01-01T00:00:00Z"');
 * console.log(evaluateFilter(old, { lastScanDate: new Date("2021-06-01T00:00:00Z") })); // true
 * ```
 */
export function evaluateFilter(
  node: FilterNode,
  item: FilterItem,
  resource?: ResourceSpec,
): boolean {
  return filterPredicate(node, resource)(item);
}
