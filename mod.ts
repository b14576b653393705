/**
 * samkit: audit-grade reports from a SAM REST API. This module only re-exports the public API;
 * every export carries its own documentation and example where it is defined.
 *
 * @example Read the estate through the typed client
 * ```ts ignore
 * import { createClient, eq } from "./mod.ts";
 * const client = createClient({ baseUrl: "http://127.0.0.1:8787", auth: { clientId: "demo", clientSecret: "demo-secret" } });
 * for await (const c of client.estate.computers({ filter: eq("status", "Quarantined") })) console.log(c.hostName);
 * ```
 *
 * @module
 */

// The spec in one place
export {
  type FieldSpec,
  type FieldType,
  type Link,
  type Resource,
  type ResourceName,
  RESOURCES,
  type ResourceSpec,
  SENSITIVE_FIELDS,
  visibleFields,
} from "./lib/api/catalogue.ts";
export {
  AREA_PREFIX,
  operation,
  OPERATIONS,
  type OperationSpec,
  type TokenScope,
} from "./lib/api/operations.ts";

// The filter grammar
export {
  and,
  contains,
  endsWith,
  eq,
  evaluateFilter,
  exists,
  FilterFieldError,
  type FilterNode,
  FilterOperatorError,
  FilterSyntaxError,
  FilterValidationError,
  FilterValueError,
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
  parseFilter,
  printFilter,
  startsWith,
  validateFilter,
} from "./lib/api/filter.ts";

// The typed client
export {
  type ClientOptions,
  createClient,
  type Page,
  type Paged,
  type SamClient,
} from "./lib/api/client.ts";
export {
  ApiError,
  AuthError,
  BadRequestError,
  ConflictError,
  ConnectorPathError,
  NetworkError,
  NormalisationError,
  NotFoundError,
  PagingIntegrityError,
  type PagingSource,
  PermissionError,
  type PermissionErrorOptions,
  RateLimitError,
  ServerError,
  ShapeError,
} from "./lib/api/errors.ts";
export { explainConnectorNotFound } from "./lib/api/connector_path.ts";
export type * from "./lib/api/types.ts";

// Queries
export { createQueryContext, type QueryContext } from "./lib/query/context.ts";
export { fanOut } from "./lib/query/fan_out.ts";
export { AdaptiveLimiter } from "./lib/query/limiter.ts";
export { groupReduce, indexBy, leftJoin, toArray, topN } from "./lib/query/collect.ts";
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
} from "./lib/query/measures.ts";
export { fromMinorUnits, sumByCurrency, toMinorUnits } from "./lib/query/money.ts";
export { asc, type Comparator, compareText, desc, orderBy, sortBy } from "./lib/query/sort.ts";
export { rank } from "./lib/query/rank.ts";
export { daysSince } from "./lib/query/dates.ts";
export { detailsById, orNull } from "./lib/query/details.ts";
export { computersById, registryById } from "./lib/query/lookups.ts";
export {
  type OptimizationResult,
  type OptimizationStep,
  type OptimizedPosition,
  optimizeLicensePosition,
  type OptimizeOptions,
} from "./lib/sam/optimize.ts";
// The SAM domain (lib/sam/): licensing rules, entitlement states and coverage, organisation
// scope, license-position and license-cost rows, idle and reclaim rules, connector statuses,
// end of life, stale computers, renewals, reporting currency, run history
export * from "./lib/sam/mod.ts";
export {
  metricNames,
  NO_ORGANIZATION,
  organizationLabel,
  organizationNames,
} from "./lib/query/names.ts";
export { FactsCollector, type FactSpec, type SectionFact } from "./lib/report/facts.ts";
export {
  boolean,
  type ColumnOptions,
  date,
  datetime,
  integer,
  money,
  number,
  percent,
  text,
  whenPositive,
  whenTrue,
} from "./lib/report/columns.ts";

// Reports and rendering
export {
  type Column,
  defineReport,
  type Fact,
  type ReportDefinition,
  type Row,
  type Section,
} from "./lib/report/model.ts";
export { OutputError, ParamError, UnknownReportError } from "./lib/report/errors.ts";
export { resolveParams } from "./lib/report/params.ts";
export { runReport, type RunReportOptions } from "./lib/report/runner.ts";
export { type Format, FORMATS, type Renderer } from "./lib/render/renderer.ts";
export { createRenderers } from "./lib/render/registry.ts";
export { BrowserNotFoundError, launchBrowser } from "./lib/render/browser.ts";
export { FLAGSHIP_REPORTS, REPORTS } from "./reports/mod.ts";

// Packs
export { PackFileError, readPackFile, validatePack } from "./lib/pack/pack_file.ts";
export { runPack } from "./lib/pack/run_pack.ts";
export { verifyManifest } from "./lib/pack/manifest.ts";
export { openSnapshot } from "./lib/pack/snapshot.ts";
export { CronError, nextRuns, runSchedule } from "./lib/pack/schedule.ts";

// The reference server
export { type RunningServer, type ServerOptions, startServer } from "./lib/server/server.ts";
