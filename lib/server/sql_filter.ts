/**
 * Compiles a filter tree to a parameterised SQLite `WHERE` fragment for the reference server.
 * Values travel only as parameters, never spliced into the SQL.
 *
 * Storage conventions (node:sqlite): a field lives in column `resource.columnOf(field)`; strings
 * as TEXT, numbers as REAL/INTEGER, booleans as INTEGER 0/1, dates as TEXT in
 * `Date.toISOString()` form (so they compare as text), Sets of String as JSON TEXT arrays.
 *
 * Each comparison yields 0 or 1, never NULL (`("c" IS NOT NULL AND …)`), so `NOT` behaves as the
 * evaluator's `-not` does, and the fragment matches exactly the rows `evaluateFilter` accepts.
 * Case is ignored with `lower()` (A–Z only) and substrings are found with `instr`/`substr`, never
 * `LIKE`, so `%` and `_` in values are plain characters.
 *
 * @module
 */

import type { FieldType, FlagEnumName, ResourceSpec } from "../api/catalogue.ts";
import { flagMask } from "../api/flag_enums.ts";
import type { ComparisonNode, FilterNode } from "../api/filter_ast.ts";
import { asciiLower } from "../api/filter_literal.ts";
import { checkComparison, type FilterOperand, validateFilter } from "../api/filter_validate.ts";

/** A `WHERE` fragment and its positional (`?`) parameters, in order. */
export interface SqlFragment {
  readonly sql: string;
  readonly params: (string | number | null)[];
}

/**
 * Quotes a column name for SQLite (`"name"`, inner quotes doubled).
 *
 * @example
 * ```ts
 * import { quoteIdentifier } from "./sql_filter.ts";
 * console.log(quoteIdentifier('odd"name')); // "odd""name"
 * ```
 */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const RELATIONS = { eq: "=", ne: "<>", gt: ">", ge: ">=", lt: "<", le: "<=" } as const;

/** Turns an operand into the value stored for its field type. */
function stored(type: FieldType, v: FilterOperand): string | number {
  switch (type) {
    case "string":
    case "strings":
      return asciiLower(v as string);
    case "number":
      return v as number;
    case "boolean":
      return v ? 1 : 0;
    case "date":
      return new Date(v as number).toISOString();
  }
}

/**
 * A test of a flag-enum column (stored as a bitmask): `contains`/`notcontains` a name test its bit
 * (a name of no bit matches nothing), `exists` tests for any bit set.
 */
function flagComparison(
  flags: FlagEnumName,
  op: string,
  operands: readonly FilterOperand[],
  c: string,
  bind: (...vs: (string | number)[]) => string,
): string {
  const mask = `CAST(${c} AS INTEGER)`;
  if (op === "exists") {
    return operands[0] ? `(${c} IS NOT NULL AND ${mask} <> 0)` : `(${c} IS NULL OR ${mask} = 0)`;
  }
  const bit = flagMask(flags, [String(operands[0])]) ?? 0;
  const has = bit === 0 ? "0" : `(${mask} & ${bind(bit)}) <> 0`;
  return op === "contains" ? `(${c} IS NOT NULL AND ${has})` : `(${c} IS NOT NULL AND NOT ${has})`;
}

function comparison(node: ComparisonNode, resource: ResourceSpec, params: SqlFragment["params"]) {
  const { field, op, operands } = checkComparison(node, resource);
  const c = quoteIdentifier(resource.columnOf(field.name));
  const nn = `${c} IS NOT NULL`;
  const bind = (...vs: (string | number)[]) => {
    params.push(...vs);
    return vs.map(() => "?").join(", ");
  };
  if (op === "exists") {
    if (field.type === "strings") {
      return operands[0]
        ? `(${nn} AND json_array_length(${c}) > 0)`
        : `(${c} IS NULL OR json_array_length(${c}) = 0)`;
    }
    return operands[0] ? `(${nn} AND ${c} <> '')` : `(${c} IS NULL OR ${c} = '')`;
  }
  if (field.flags) return flagComparison(field.flags, op, operands, c, bind);
  const values = operands.map((o) => stored(field.type, o));
  if (field.type === "strings") {
    const has = `EXISTS (SELECT 1 FROM json_each(${c}) AS j WHERE j.type = 'text' AND ` +
      `lower(j.value) = ${bind(values[0])})`;
    return op === "contains" ? `(${nn} AND ${has})` : `(${nn} AND NOT ${has})`;
  }
  const lhs = field.type === "string" ? `lower(${c})` : c;
  switch (op) {
    case "eq":
    case "ne":
    case "gt":
    case "ge":
    case "lt":
    case "le":
      return `(${nn} AND ${lhs} ${RELATIONS[op]} ${bind(values[0])})`;
    case "in":
      return `(${nn} AND ${lhs} IN (${bind(...values)}))`;
    case "notin":
      return `(${nn} AND ${lhs} NOT IN (${bind(...values)}))`;
    case "contains":
      return `(${nn} AND instr(${lhs}, ${bind(values[0])}) > 0)`;
    case "notcontains":
      return `(${nn} AND instr(${lhs}, ${bind(values[0])}) = 0)`;
    case "startswith":
      return `(${nn} AND instr(${lhs}, ${bind(values[0])}) = 1)`;
    case "endswith": {
      const x = values[0] as string;
      const length = Array.from(x).length;
      if (length === 0) return `(${nn})`;
      return `(${nn} AND substr(${lhs}, ${bind(-length)}) = ${bind(x)})`;
    }
  }
}

function walk(node: FilterNode, resource: ResourceSpec, params: SqlFragment["params"]): string {
  switch (node.kind) {
    case "cmp":
      return comparison(node, resource, params);
    case "and":
    case "or":
      return `(${
        node.items.map((n) => walk(n, resource, params)).join(
          node.kind === "and" ? " AND " : " OR ",
        )
      })`;
    case "not":
      return `(NOT ${walk(node.expr, resource, params)})`;
  }
}

/**
 * Validates a filter against a resource (throwing the errors of `validateFilter`) and compiles
 * it to a `WHERE` fragment with positional parameters.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { compileFilter } from "./sql_filter.ts";
 * import { parseFilter } from "../api/filter_parser.ts";
 * import { RESOURCES } from "../api/catalogue.ts";
 * const { sql, params } = compileFilter(parseFilter("status -eq active"), RESOURCES.Computer);
 * console.log(sql, params); // ("status" IS NOT NULL AND lower("status") = ?) ["active"]
 * const db = new DatabaseSync(":memory:");
 * db.exec('CREATE TABLE computers (id TEXT, status TEXT)');
 * db.prepare(`SELECT id FROM computers WHERE ${sql}`).all(...params);
 * ```
 */
export function compileFilter(node: FilterNode, resource: ResourceSpec): SqlFragment {
  validateFilter(node, resource);
  const params: SqlFragment["params"] = [];
  const sql = walk(node, resource, params);
  return { sql, params };
}
