/**
 * The filter grammar of spec section 4.4, in one import: parse text to a tree, build trees in
 * code, print them back, validate them against a catalogue resource and evaluate them against
 * items. The reference server's SQL compiler lives in `lib/server/sql_filter.ts`.
 *
 * @example
 * ```ts
 * import { and, evaluateFilter, eq, parseFilter, printFilter, validateFilter } from "./filter.ts";
 * import { RESOURCES } from "./catalogue.ts";
 * const tree = parseFilter('(status -eq Active) -and (lastScanDate -ge "2024-01-01T00:00:00Z")');
 * validateFilter(tree, RESOURCES.Computer);
 * console.log(printFilter(and(eq("status", "Active"), eq("isVirtual", true))));
 * // (status -eq Active) -and (isVirtual -eq true)
 * console.log(evaluateFilter(tree, { status: "ACTIVE", lastScanDate: new Date() }, RESOURCES.Computer));
 * ```
 *
 * @module
 */

export {
  type AndNode,
  COMPARISON_OPERATORS,
  type ComparisonNode,
  type ComparisonOperator,
  type FilterLiteral,
  type FilterNode,
  type FilterPosition,
  type ListComparison,
  type ListOperator,
  type NotNode,
  type OrNode,
  positionOf,
  type ScalarComparison,
  type ScalarOperator,
} from "./filter_ast.ts";
export { isSafeUnquoted, literalFromText } from "./filter_literal.ts";
export { FilterSyntaxError, MAX_FILTER_DEPTH, parseFilter } from "./filter_parser.ts";
export { printFilter, printLiteral } from "./filter_printer.ts";
export {
  and,
  contains,
  endsWith,
  eq,
  exists,
  type FilterValue,
  ge,
  gt,
  isIn,
  le,
  lt,
  ne,
  not,
  notContains,
  notIn,
  or,
  startsWith,
  toLiteral,
} from "./filter_builder.ts";
export {
  checkComparison,
  type CheckedComparison,
  FilterFieldError,
  type FilterFieldWarning,
  type FilterOperand,
  FilterOperatorError,
  FilterValidationError,
  FilterValueError,
  OPERATORS_BY_TYPE,
  validateFilter,
  type ValidateFilterOptions,
} from "./filter_validate.ts";
export {
  evaluateFilter,
  type FilterItem,
  type FilterPredicate,
  filterPredicate,
} from "./filter_evaluate.ts";
