/**
 * The query of a collection call, checked before any request is sent: the filter (parsed and
 * validated against the operation's resource), the sort (fields of the resource) and the page
 * size (capped, except for connectors).
 *
 * @module
 */

import { RESOURCES } from "./catalogue.ts";
import {
  type FilterFieldWarning,
  type FilterNode,
  parseFilter,
  printFilter,
  validateFilter,
} from "./filter.ts";
import type { OperationSpec } from "./operations.ts";
import type { ClientEvent } from "./request.ts";
import { MAX_PAGE_SIZE } from "./client_options.ts";

const SORT = /^\s*([\w.]+)\s*:\s*(asc|desc)\s*$/i;

/**
 * The sort to send for an operation, its parts trimmed: each `<property>:asc|desc` naming a
 * field of the operation's resource. Throws a `TypeError` for anything else.
 *
 * @example
 * ```ts
 * import { checkSort } from "./client_query.ts";
 * import { OPERATIONS } from "./operations.ts";
 * const op = OPERATIONS.find((o) => o.id === "estate.computers")!;
 * console.log(checkSort(op, "name:asc, lastScanDate:desc")); // "name:asc,lastScanDate:desc"
 * ```
 */
export function checkSort(op: OperationSpec, sort: string): string {
  const spec = RESOURCES[op.resource];
  for (const part of sort.split(",")) {
    const m = SORT.exec(part);
    if (!m) {
      throw new TypeError(
        `${op.id}: sort "${sort}" is not <property>:asc or <property>:desc (comma-separated)`,
      );
    }
    const field = spec.byName.get(m[1]!);
    if (!field || field.hidden) {
      throw new TypeError(`${op.id}: cannot sort on "${m[1]}", not a field of ${op.resource}`);
    }
  }
  return sort.split(",").map((p) => p.trim()).join(",");
}

/**
 * The filter text to send for an operation: text is parsed and validated, a tree validated and
 * printed; blank text sends none. Throws before any request is sent: for an operation that takes
 * no filter, a syntax error, or a wrong operator or value on a known field. A field samkit does
 * not know is the server's to judge: it is sent, and `emit` gets a `filterWarning`.
 *
 * @example
 * ```ts
 * import { filterText } from "./client_query.ts";
 * import { OPERATIONS } from "./operations.ts";
 * const op = OPERATIONS.find((o) => o.id === "licenses.list")!;
 * console.log(filterText(op, "  quantity -gt 10 ")); // "quantity -gt 10"
 * ```
 */
export function filterText(
  op: OperationSpec,
  filter: string | FilterNode,
  emit?: (event: ClientEvent) => void,
): string | undefined {
  if (op.query !== "Q1") {
    throw new TypeError(`${op.id} does not take a filter (query set ${op.query})`);
  }
  // Unknown fields are the server's to judge (the real service knows fields samkit may not);
  // wrong operators and values on known fields, and secrets, are still refused here.
  const lenient = {
    unknownFields: "warn" as const,
    onWarning: (w: FilterFieldWarning) =>
      emit?.({ type: "filterWarning", op: op.id, field: w.field, message: w.message }),
  };
  if (typeof filter === "string") {
    if (filter.trim() === "") return undefined;
    validateFilter(parseFilter(filter), RESOURCES[op.resource], lenient);
    return filter.trim();
  }
  validateFilter(filter, RESOURCES[op.resource], lenient);
  return printFilter(filter);
}

/**
 * The page size to ask for: the one requested, else the client's default; a `RangeError` unless
 * a positive integer; capped at {@link MAX_PAGE_SIZE} except for connectors (query set QC).
 *
 * @example
 * ```ts
 * import { pageSizeOf } from "./client_query.ts";
 * import { OPERATIONS } from "./operations.ts";
 * const op = OPERATIONS.find((o) => o.id === "estate.computers")!;
 * console.log(pageSizeOf(op, 5000, 1000), pageSizeOf(op, undefined, 250)); // 1000 250
 * ```
 */
export function pageSizeOf(
  op: OperationSpec,
  requested: number | undefined,
  defaultSize: number,
): number {
  const size = requested ?? defaultSize;
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`${op.id}: pageSize must be a positive integer, not ${size}`);
  }
  return op.query === "QC" ? size : Math.min(size, MAX_PAGE_SIZE);
}
