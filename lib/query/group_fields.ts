/**
 * Grouping by named fields of the items, in display order: {@link groupBy} with the key fields
 * picked by name, the groups sorted ascending by those fields in turn (text naturally).
 *
 * @module
 */

import { groupBy, type GroupKey, type MeasureResults, type Measures } from "./group_by.ts";
import { asc, sortBy } from "./sort.ts";

/** A group key value. */
type KeyValue = string | number | boolean | null;

/**
 * Groups `items` by the fields `keys` (each group's key fields keep their names), computes
 * `measures` per group, and sorts the groups ascending by the key fields in order.
 *
 * @example
 * ```ts
 * import { groupByFields } from "./group_fields.ts";
 * import { count } from "./measures.ts";
 * const rows = [{ app: "Visio", cur: "USD" }, { app: "Project", cur: "EUR" }, { app: "Visio", cur: "EUR" }];
 * console.log(groupByFields(rows, ["app", "cur"], { licenses: count() }));
 * // [{ app: "Project", cur: "EUR", licenses: 1 }, { app: "Visio", cur: "EUR", licenses: 1 },
 * //  { app: "Visio", cur: "USD", licenses: 1 }]
 * ```
 */
export function groupByFields<T, K extends keyof T & string, M extends Measures<T>>(
  items: Iterable<T>,
  keys: readonly K[],
  measures: M,
): (Pick<T, K> & MeasureResults<M>)[] {
  const by = (item: T) =>
    Object.fromEntries(keys.map((k) => [k, item[k] as KeyValue])) as Pick<T, K> & GroupKey;
  const order = keys.map((k) => asc((g: Pick<T, K>) => g[k] as KeyValue));
  return sortBy(groupBy(items, by, measures), ...order);
}
