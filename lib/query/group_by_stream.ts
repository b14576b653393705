/**
 * `groupBy` over a stream: the items pass once and only each group's accumulators are kept,
 * so a large collection (installations, entitlements) is grouped without holding it in memory.
 *
 * @module
 */

import type { Source } from "./collect.ts";
import type { GroupKey, MeasureResults, Measures } from "./group_by.ts";
import type { Measure } from "./measures.ts";

/** One group's key and accumulators while items pass. */
interface Running<K> {
  key: K;
  accs: unknown[];
}

/**
 * Groups a (possibly async) source by the fields `by` returns and computes `measures` per group,
 * as `groupBy` does for an array: groups in the order first seen.
 *
 * @example
 * ```ts
 * import { groupByStream } from "./group_by_stream.ts";
 * import { count } from "./measures.ts";
 * async function* installs() { yield { app: "A" }; yield { app: "B" }; yield { app: "A" }; }
 * console.log(await groupByStream(installs(), (i) => ({ app: i.app }), { n: count() }));
 * // [{ app: "A", n: 2 }, { app: "B", n: 1 }]
 * ```
 */
export async function groupByStream<T, K extends GroupKey, M extends Measures<T>>(
  source: Source<T>,
  by: (item: T) => K,
  measures: M,
): Promise<(K & MeasureResults<M>)[]> {
  const folds = Object.values(measures) as Measure<T, unknown>[];
  const groups = new Map<string, Running<K>>();
  for await (const item of source) {
    const key = by(item);
    const id = JSON.stringify(Object.values(key));
    let group = groups.get(id);
    if (!group) groups.set(id, group = { key, accs: folds.map((m) => m.init()) });
    for (let i = 0; i < folds.length; i++) group.accs[i] = folds[i].add(group.accs[i], item);
  }
  const names = Object.keys(measures);
  return [...groups.values()].map(({ key, accs }) => {
    const out: Record<string, unknown> = { ...key };
    names.forEach((name, i) => (out[name] = folds[i].result(accs[i])));
    return out as K & MeasureResults<M>;
  });
}
