/**
 * Filter validation against a resource of the catalogue: every field exists and is visible, every
 * operator applies to its field's type (spec 4.4 table), and every value can be read as its
 * field's type.
 *
 * How values are read: the field decides. A String field takes any value's text (`id -eq 42`
 * compares the text `42`); a Number field takes a number, quoted or not (`quantity -gt "12"`); a
 * Boolean field `true`/`false` in any case; a Date field an RFC 3339 date-time, quoted (as the
 * spec writes them) or not. Number fields sent as strings (`wire: "string"`) are numbers here and
 * license dates (`wire: "licenseDate"`) are dates.
 *
 * A field is known by its name or, where the spec renamed it, by the real service's name
 * (`isVMwareDRS` for `isVendorDRS`). Unknown fields are an error by default (the reference server
 * knows its fields); a client passes `unknownFields: "warn"`: the server is the authority on its
 * fields, so a field missing from samkit's catalogue (or an untyped one such as `upgrades`) is
 * reported as a {@link FilterFieldWarning} and left in the filter for the server to judge.
 * Operator and value errors on known fields stay errors, and so does a storage-only sensitive
 * field (a secret never travels in a URL).
 *
 * Operators by field type (the spec's table; `strings` is the catalogue's Set of String):
 * | type | operators |
 * |---|---|
 * | string | eq ne contains notcontains startswith endswith in notin exists |
 * | number, date | eq ne gt ge lt le in notin exists |
 * | boolean | eq ne in notin |
 * | strings | contains notcontains (has an element equal to the value) exists (not empty) |
 *
 * @module
 */

import type { FieldSpec, FieldType, ResourceSpec } from "./catalogue.ts";
import {
  type ComparisonNode,
  type ComparisonOperator,
  type FilterLiteral,
  type FilterNode,
  positionOf,
} from "./filter_ast.ts";
import { filterCaret } from "./filter_parser.ts";
import { readBoolean, readDate, readNumber } from "./filter_literal.ts";

/** Which operators apply to which field type. */
export const OPERATORS_BY_TYPE: Readonly<Record<FieldType, readonly ComparisonOperator[]>> = {
  string: [
    "eq",
    "ne",
    "contains",
    "notcontains",
    "startswith",
    "endswith",
    "in",
    "notin",
    "exists",
  ],
  number: ["eq", "ne", "gt", "ge", "lt", "le", "in", "notin", "exists"],
  date: ["eq", "ne", "gt", "ge", "lt", "le", "in", "notin", "exists"],
  boolean: ["eq", "ne", "in", "notin"],
  strings: ["contains", "notcontains", "exists"],
};

const TYPE_NAMES: Readonly<Record<FieldType, string>> = {
  string: "a String",
  number: "a Number",
  date: "a Date",
  boolean: "a Boolean",
  strings: "a Set of String",
};

/** What a validation error is built from. */
export interface FilterValidationErrorOptions {
  /** The field concerned, as written. */
  readonly field: string;
  /** 1-based column in the parsed filter, when the tree was parsed. */
  readonly column?: number;
  /** The problem, without the `filter error at column N:` prefix. */
  readonly detail: string;
  /**
   * The filter text, shown under the message with a caret at the column (left out when it
   * mentions a sensitive field).
   */
  readonly source?: string;
}

/**
 * A filter that parses but does not fit its resource. Subclasses tell which part is wrong.
 *
 * @example
 * ```ts
 * import { FilterValidationError, validateFilter } from "./filter_validate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * try {
 *   validateFilter(parseFilter("hostname -eq x"), RESOURCES.Computer);
 * } catch (e) {
 *   if (e instanceof FilterValidationError) console.log(e.column, e.field); // 1 "hostname"
 * }
 * ```
 */
export class FilterValidationError extends Error {
  /** The error's name, for `instanceof`-free checks and logs. */
  override name = "FilterValidationError";
  /** The field concerned, as written. */
  readonly field: string;
  /** 1-based column in the parsed filter; absent for built trees. */
  readonly column?: number;

  /** Builds the error from the problem and where it is in the filter. */
  constructor(options: FilterValidationErrorOptions) {
    const where = options.column === undefined ? "" : ` at column ${options.column}`;
    const caret = options.source !== undefined && options.column !== undefined
      ? filterCaret(options.source, options.column)
      : "";
    super(`filter error${where}: ${options.detail}${caret}`);
    this.field = options.field;
    if (options.column !== undefined) this.column = options.column;
  }
}

/** What a {@link FilterFieldError} is built from. */
export interface FilterFieldErrorOptions {
  /** The field, as written. */
  readonly field: string;
  /** The resource filtered on. */
  readonly resource: string;
  /** Visible fields whose names are close to the one written. */
  readonly suggestions: string[];
  /** 1-based column in the parsed filter, when the tree was parsed. */
  readonly column?: number;
  /** What the caller can do about it (a flag to pass, say), shown in brackets at the end. */
  readonly advice?: string;
  /** The filter text, shown under the message with a caret (see the base class). */
  readonly source?: string;
}

/**
 * A field the resource does not have (hidden storage fields count as unknown), with close matches.
 *
 * @example
 * ```ts
 * import { FilterFieldError, validateFilter } from "./filter_validate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * try {
 *   validateFilter(parseFilter("hostname -eq x"), RESOURCES.Computer);
 * } catch (e) {
 *   if (e instanceof FilterFieldError) console.log(e.suggestions); // ["hostName"]
 * }
 * ```
 */
export class FilterFieldError extends FilterValidationError {
  /** The error's name, for `instanceof`-free checks and logs. */
  override name = "FilterFieldError";
  /** Visible fields whose names are close to the one written. */
  readonly suggestions: readonly string[];

  /** Builds the error from the unknown field, the resource and close names. */
  constructor(options: FilterFieldErrorOptions) {
    const { field, resource, suggestions, column, advice, source } = options;
    const hint = suggestions.length
      ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?`
      : "";
    const more = advice ? ` (${advice})` : "";
    super({ field, column, source, detail: `${resource} has no field "${field}"${hint}${more}` });
    this.suggestions = suggestions;
  }
}

/**
 * An operator that does not apply to its field's type.
 *
 * @example
 * ```ts
 * import { FilterOperatorError, validateFilter } from "./filter_validate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * try {
 *   validateFilter(parseFilter("hostName -gt x"), RESOURCES.Computer);
 * } catch (e) {
 *   if (e instanceof FilterOperatorError) console.log(e.column, e.operator); // 10 "gt"
 * }
 * ```
 */
export class FilterOperatorError extends FilterValidationError {
  /** The error's name, for `instanceof`-free checks and logs. */
  override name = "FilterOperatorError";
  /** The operator, lower case without its hyphen. */
  readonly operator: ComparisonOperator;
  /** The field's type. */
  readonly fieldType: FieldType;

  /** Builds the error from the field, its type and the operator written. */
  constructor(options: {
    field: string;
    operator: ComparisonOperator;
    fieldType: FieldType;
    column?: number;
  }) {
    const { field, operator, fieldType, column } = options;
    const allowed = OPERATORS_BY_TYPE[fieldType].map((o) => `-${o}`).join(" ");
    super({
      field,
      column,
      detail: `-${operator} does not apply to ${field}, ${TYPE_NAMES[fieldType]} field ` +
        `(it takes ${allowed})`,
    });
    this.operator = operator;
    this.fieldType = fieldType;
  }
}

/**
 * A value that cannot be read as its field's type (`lastScanDate -le abc`).
 *
 * @example
 * ```ts
 * import { FilterValueError, validateFilter } from "./filter_validate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * try {
 *   validateFilter(parseFilter("lastScanDate -le abc"), RESOURCES.Computer);
 * } catch (e) {
 *   if (e instanceof FilterValueError) console.log(e.column, e.expectedType); // 18 "date"
 * }
 * ```
 */
export class FilterValueError extends FilterValidationError {
  /** The error's name, for `instanceof`-free checks and logs. */
  override name = "FilterValueError";
  /** The type the value should have had. */
  readonly expectedType: FieldType;

  /** Builds the error from the field, the value written and the type expected. */
  constructor(options: {
    field: string;
    expectedType: FieldType;
    text: string;
    sensitive: boolean;
    column?: number;
  }) {
    const { field, expectedType, text, sensitive, column } = options;
    const shown = sensitive ? "the value" : JSON.stringify(text);
    const want = expectedType === "date"
      ? "an RFC 3339 date-time such as 2022-01-01T00:00:00Z"
      : expectedType === "number"
      ? "a number"
      : expectedType === "boolean"
      ? "true or false"
      : "a string";
    super({
      field,
      column,
      detail: `${field} is ${TYPE_NAMES[expectedType]} field and ${shown} is not ${want}`,
    });
    this.expectedType = expectedType;
  }
}

/**
 * A value read as its field's type: a string's text, a number, a boolean, or a date as epoch
 * milliseconds.
 */
export type FilterOperand = string | number | boolean;

/** A comparison checked against its resource: its field and its values read as the field's type. */
export interface CheckedComparison {
  /** The field compared. */
  readonly field: FieldSpec;
  /** The operator. */
  readonly op: ComparisonOperator;
  /** One value, or the list of `-in` / `-notin`; dates as epoch milliseconds. */
  readonly operands: readonly FilterOperand[];
}

/**
 * Reads a value as a field type: `undefined` when it cannot be read (see the module notes).
 *
 * @example
 * ```ts
 * import { readLiteralAs } from "./filter_validate.ts";
 * import { literalFromText } from "./filter_literal.ts";
 * console.log(readLiteralAs(literalFromText("2022-01-01T00:00:00Z", true), "date")); // 1640995200000
 * console.log(readLiteralAs(literalFromText("x", true), "number")); // undefined
 * ```
 */
export function readLiteralAs(literal: FilterLiteral, type: FieldType): FilterOperand | undefined {
  switch (type) {
    case "string":
    case "strings":
      return literal.text;
    case "number":
      return readNumber(literal.text);
    case "boolean":
      return readBoolean(literal.text);
    case "date":
      return readDate(literal.text);
  }
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Visible fields of a resource whose names are close to `name`: the same but for case, one
 * containing the other, or within a small edit distance; best first, at most three.
 *
 * @example
 * ```ts
 * import { closeFieldNames } from "./filter_validate.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * console.log(closeFieldNames("lastScan", RESOURCES.Computer)); // ["lastScanDate"]
 * ```
 */
export function closeFieldNames(name: string, resource: ResourceSpec): string[] {
  const lower = name.toLowerCase();
  const scored: [number, string][] = [];
  for (const f of resource.fields) {
    if (f.hidden) continue;
    const other = f.name.toLowerCase();
    const d = levenshtein(lower, other);
    const score = other === lower ? 0 : Math.min(lower.length, other.length) >= 3 &&
        (other.includes(lower) || lower.includes(other))
      ? 1
      : d <= Math.max(1, Math.min(3, Math.floor(lower.length / 3)))
      ? 1 + d
      : Infinity;
    if (score < Infinity) scored.push([score, f.name]);
  }
  return scored.sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1])).slice(0, 3).map((x) =>
    x[1]
  );
}

/**
 * Checks one comparison against a resource and reads its values; throws a
 * {@link FilterValidationError} subclass. The evaluator and the SQL compiler both start here, so
 * they read values the same way.
 *
 * @example
 * ```ts
 * import { checkComparison } from "./filter_validate.ts";
 * import { eq } from "./filter_builder.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * console.log(checkComparison(eq("quantity", "12"), RESOURCES.License).operands); // [12]
 * ```
 */
export function checkComparison(node: ComparisonNode, resource: ResourceSpec): CheckedComparison {
  const pos = positionOf(node);
  const field = resource.byName.get(node.field);
  if (!field || field.hidden) {
    throw new FilterFieldError({
      field: node.field,
      resource: resource.name,
      suggestions: closeFieldNames(node.field, resource),
      column: pos?.column,
    });
  }
  if (!OPERATORS_BY_TYPE[field.type].includes(node.op)) {
    throw new FilterOperatorError({
      field: node.field,
      operator: node.op,
      fieldType: field.type,
      column: pos?.operatorColumn,
    });
  }
  const literals: readonly FilterLiteral[] = Array.isArray(node.value)
    ? node.value
    : [node.value as FilterLiteral];
  const type: FieldType = node.op === "exists" ? "boolean" : field.type;
  const operands = literals.map((lit) => {
    const v = readLiteralAs(lit, type);
    if (v === undefined) {
      throw new FilterValueError({
        field: node.field,
        expectedType: type,
        text: lit.text,
        sensitive: field.sensitive,
        column: positionOf(lit)?.column,
      });
    }
    return v;
  });
  return { field, op: node.op, operands };
}

/** A filter field samkit's catalogue does not know, left for the server to judge. */
export interface FilterFieldWarning {
  /** The field, as written. */
  readonly field: string;
  /** The resource filtered on. */
  readonly resource: string;
  /** 1-based column in the parsed filter; absent for built trees. */
  readonly column?: number;
  /** Known fields with close names. */
  readonly suggestions: readonly string[];
  /** One line to print: what is unknown and that it is sent anyway. */
  readonly message: string;
}

/** Options of {@link validateFilter}. */
export interface ValidateFilterOptions {
  /**
   * A field the resource does not have: `"error"` (the default) throws {@link FilterFieldError};
   * `"warn"` reports a {@link FilterFieldWarning} and leaves the comparison for the server.
   */
  readonly unknownFields?: "error" | "warn";
  /**
   * A field the real service has that samkit's catalogue knows by name only (an untyped one such
   * as License `upgrades`): `"error"` or `"warn"` as for {@link unknownFields}, which is the
   * default. A command line that refuses misspelt fields still sends these with `"warn"`.
   */
  readonly untypedFields?: "error" | "warn";
  /** Called once per warning, in source order (they are returned too). */
  readonly onWarning?: (warning: FilterFieldWarning) => void;
}

/** The warning for a comparison on a field the catalogue does not type, or undefined. */
function unknownFieldWarning(
  node: ComparisonNode,
  resource: ResourceSpec,
): FilterFieldWarning | undefined {
  const field = resource.byName.get(node.field);
  if (field && !field.hidden) return undefined;
  if (field?.sensitive) return undefined; // A secret is refused, never sent.
  const untyped = resource.untyped?.has(node.field) ?? false;
  const suggestions = untyped ? [] : closeFieldNames(node.field, resource);
  const hint = suggestions.length
    ? ` (did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?)`
    : "";
  const what = untyped
    ? `${resource.name} field "${node.field}" has no type in samkit's catalogue`
    : `${resource.name} has no field "${node.field}" in samkit's catalogue`;
  const column = positionOf(node)?.column;
  return {
    field: node.field,
    resource: resource.name,
    ...(column === undefined ? {} : { column }),
    suggestions,
    message: `${what}; sending it for the server to judge${hint}`,
  };
}

/**
 * Checks a whole filter against a resource: throws {@link FilterFieldError},
 * {@link FilterOperatorError} or {@link FilterValueError} for the first problem, in source order.
 * With `unknownFields: "warn"`, unknown fields are returned as warnings instead (see the module
 * notes); the list is empty when every field is known. With `unknownFields: "error"` and
 * `untypedFields: "warn"`, a misspelt field is refused while a field the real service has but
 * samkit does not type is sent with a warning.
 *
 * @example Strict (the reference server), and lenient (a client: the server judges)
 * ```ts
 * import { validateFilter } from "./filter_validate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * validateFilter(parseFilter('lastScanDate -le "2022-01-01T00:00:00Z"'), RESOURCES.Computer); // fine
 * const warnings = validateFilter(parseFilter("seatCount -gt 5"), RESOURCES.License, {
 *   unknownFields: "warn",
 * });
 * console.log(warnings[0]?.message);
 * // License has no field "seatCount" in samkit's catalogue; sending it for the server to judge
 * ```
 *
 * @example A command line: misspelt fields refused, the real service's untyped fields sent
 * ```ts
 * import { validateFilter } from "./filter_validate.ts";
 * import { parseFilter } from "./filter_parser.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * const strict = { unknownFields: "error", untypedFields: "warn" } as const;
 * console.log(validateFilter(parseFilter("upgrades -exists true"), RESOURCES.License, strict).length); // 1
 * try {
 *   validateFilter(parseFilter("vndor -eq Adobe"), RESOURCES.License, strict);
 * } catch (e) {
 *   console.log((e as Error).message);
 *   // filter error at column 1: License has no field "vndor"; did you mean "vendor"?
 * }
 * ```
 */
export function validateFilter(
  node: FilterNode,
  resource: ResourceSpec,
  options: ValidateFilterOptions = {},
): FilterFieldWarning[] {
  const warnings: FilterFieldWarning[] = [];
  const walk = (n: FilterNode): void => {
    switch (n.kind) {
      case "cmp": {
        const untyped = resource.untyped?.has(n.field) && !resource.byName.has(n.field);
        const mode = untyped
          ? options.untypedFields ?? options.unknownFields
          : options.unknownFields;
        const warning = mode === "warn" ? unknownFieldWarning(n, resource) : undefined;
        if (!warning) return void checkComparison(n, resource);
        warnings.push(warning);
        options.onWarning?.(warning);
        return;
      }
      case "and":
      case "or":
        return n.items.forEach(walk);
      case "not":
        return walk(n.expr);
    }
  };
  walk(node);
  return warnings;
}
