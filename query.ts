/**
 * Query helpers over the typed client's collections: the run's query context (cache, adaptive
 * concurrency, fan-out), grouping and measures, joins and lookups, money in minor units, sorting
 * and ranking, and the names reports show for organisations and metrics. Loads no renderer,
 * browser, database or mail package. Re-exports only.
 *
 * @example Group plain rows and sort the groups
 * ```ts
 * import { count, desc, groupBy, sortBy, sum } from "./query.ts";
 *
 * const installs = [
 *   { publisher: "Acme", seats: 3 },
 *   { publisher: "Bolt", seats: 5 },
 *   { publisher: "Acme", seats: 1 },
 * ];
 * const groups = groupBy(installs, (i) => ({ publisher: i.publisher }), {
 *   installs: count(),
 *   seats: sum((i) => i.seats),
 * });
 * console.log(sortBy(groups, desc((g) => g.seats))); // Bolt (5 seats), then Acme (4)
 * ```
 *
 * @module
 */

export {
  createQueryContext,
  DEFAULT_MAX_CONCURRENCY,
  type QueryContext,
  type QueryContextOptions,
} from "./lib/query/context.ts";
export { RunCache } from "./lib/query/cache.ts";
export { fanOut, type FanOutOptions } from "./lib/query/fan_out.ts";
export { AdaptiveLimiter, type LimiterOptions } from "./lib/query/limiter.ts";
export { groupReduce, indexBy, leftJoin, type Source, toArray, topN } from "./lib/query/collect.ts";
export {
  aggregate,
  groupBy,
  type GroupKey,
  groupStream,
  type MeasureResults,
  type Measures,
} from "./lib/query/group_by.ts";
export {
  count,
  distinct,
  first,
  max,
  type Measure,
  min,
  sum,
  sumMoney,
  type Value,
} from "./lib/query/measures.ts";
export {
  type ExactDecimal,
  fromMinorUnits,
  sumByCurrency,
  toMinorUnits,
} from "./lib/query/money.ts";
export type { RunRateLicense } from "./lib/query/run_rate.ts";
export {
  asc,
  type Comparator,
  compareText,
  desc,
  orderBy,
  sortBy,
  type SortValue,
} from "./lib/query/sort.ts";
export { rank } from "./lib/query/rank.ts";
export { daysSince } from "./lib/query/dates.ts";
export { detailsById, orNull } from "./lib/query/details.ts";
export { computersById, registryById } from "./lib/query/lookups.ts";
export {
  type MetricNames,
  metricNames,
  NO_ORGANIZATION,
  organizationLabel,
  type OrganizationNames,
  organizationNames,
} from "./lib/query/names.ts";
