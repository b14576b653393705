/**
 * Grouping: rows keyed by one or more fields, each group folded by named measures (see
 * `measures.ts`). The result is one plain object per group — its key fields and its figures —
 * in the order groups were first seen; sort it with `sortBy`.
 *
 * @module
 */

import type { Measure } from "./measures.ts";
import { groupReduce, type Source } from "./collect.ts";

/** Named measures: the result key → the measure that computes it. */
export type Measures<T> = Readonly<Record<string, Measure<T, unknown>>>;

/** The figures of a measures object. */
export type MeasureResults<M> = {
  -readonly [K in keyof M]: M[K] extends Measure<infer _T, infer R> ? R : never;
};

/** The key fields of a group (what `by` returns). */
export type GroupKey = Readonly<Record<string, string | number | boolean | null>>;

/**
 * Groups `items` by the fields `by` returns and computes `measures` per group. Two items are in
 * one group when every key field is equal.
 *
 * @example
 * ```ts
 * import { groupBy } from "./group_by.ts";
 * import { count, sumMoney } from "./measures.ts";
 * const rows = [
 *   { app: "Visio", currency: "EUR", cost: 10.5 },
 *   { app: "Visio", currency: "EUR", cost: 0.25 },
 *   { app: "Visio", currency: "USD", cost: 3 },
 * ];
 * console.log(groupBy(rows, (r) => ({ app: r.app, currency: r.currency }), {
 *   licenses: count(),
 *   cost: sumMoney((r) => r.cost),
 * }));
 * // [{ app: "Visio", currency: "EUR", licenses: 2, cost: 10.75 },
 * //  { app: "Visio", currency: "USD", licenses: 1, cost: 3 }]
 * ```
 */
export function groupBy<T, K extends GroupKey, M extends Measures<T>>(
  items: Iterable<T>,
  by: (item: T) => K,
  measures: M,
): (K & MeasureResults<M>)[] {
  const names = Object.keys(measures);
  const folds = names.map((name) => measures[name]);
  const groups = new Map<string, { key: K; accs: unknown[] }>();
  for (const item of items) {
    const key = by(item);
    const id = JSON.stringify(Object.values(key));
    let group = groups.get(id);
    if (!group) groups.set(id, group = { key, accs: folds.map((m) => m.init()) });
    for (let i = 0; i < folds.length; i++) group.accs[i] = folds[i].add(group.accs[i], item);
  }
  return [...groups.values()].map(({ key, accs }) => {
    const out: Record<string, unknown> = { ...key };
    names.forEach((name, i) => (out[name] = folds[i].result(accs[i])));
    return out as K & MeasureResults<M>;
  });
}

/**
 * Computes `measures` over all items as one group (the grand total of {@link groupBy}).
 *
 * @example
 * ```ts
 * import { aggregate } from "./group_by.ts";
 * import { count, sum } from "./measures.ts";
 * console.log(aggregate([{ q: 2 }, { q: 3 }], { rows: count(), qty: sum((r) => r.q) }));
 * // { rows: 2, qty: 5 }
 * ```
 */
export function aggregate<T, M extends Measures<T>>(
  items: Iterable<T>,
  measures: M,
): MeasureResults<M> {
  const [whole] = groupBy(items, () => ({}), measures);
  if (whole) return whole as MeasureResults<M>;
  const empty: Record<string, unknown> = {};
  for (const [name, m] of Object.entries(measures)) empty[name] = m.result(m.init());
  return empty as MeasureResults<M>;
}

/**
 * {@link groupBy} over a stream (an API collection, say): memory grows with the number of
 * groups, never with the number of items. A collection whose pages turn out inconsistent is
 * read again from page 1 (as `groupReduce` does), so the groups only exist once a read added up.
 *
 * @example
 * ```ts
 * import { groupStream } from "./group_by.ts";
 * import { count } from "./measures.ts";
 * async function* installs() {
 *   yield { app: "Visio" };
 *   yield { app: "Visio" };
 * }
 * console.log(await groupStream(installs(), (r) => ({ app: r.app }), { installs: count() }));
 * // [{ app: "Visio", installs: 2 }]
 * ```
 */
export async function groupStream<T, K extends GroupKey, M extends Measures<T>>(
  items: Source<T>,
  by: (item: T) => K,
  measures: M,
): Promise<(K & MeasureResults<M>)[]> {
  const names = Object.keys(measures);
  const folds = names.map((name) => measures[name]);
  const keys = new Map<string, K>();
  const groups = await groupReduce(
    items,
    (item) => {
      const key = by(item);
      const id = JSON.stringify(Object.values(key));
      if (!keys.has(id)) keys.set(id, key);
      return id;
    },
    () => folds.map((m) => m.init()),
    (accs, item) => {
      for (let i = 0; i < folds.length; i++) accs[i] = folds[i].add(accs[i], item);
      return accs;
    },
  );
  return [...groups].map(([id, accs]) => {
    const out: Record<string, unknown> = { ...keys.get(id)! };
    names.forEach((name, i) => (out[name] = folds[i].result(accs[i])));
    return out as K & MeasureResults<M>;
  });
}
