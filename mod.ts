/**
 * samkit: audit-grade reports from a SAM REST API. The root entry point holds what a script
 * needs most: the typed client with its filter builders and errors, and `defineReport` with the
 * types a report is written against (the resource types, `Computer`, `License`, …, are in
 * `./client`). Everything else is under an entry point by concern, each
 * loading only what it needs:
 *
 * - `./client` — the typed client, filters, paging, errors, the API catalogue
 * - `./query` — query context, fan-out, grouping, measures, joins, sorting, money
 * - `./sam` — the SAM domain rules the reports use
 * - `./report` — `defineReport`, column and parameter builders, the report-writing types
 * - `./render` — `runReport`, the renderers, the shared browser for PDF
 * - `./reports` — the reports samkit ships
 * - `./pack` — audit packs, manifests, snapshots, schedules
 * - `./server` — the reference server, for tests and examples
 *
 * Re-exports only.
 *
 * @example Read the estate through the typed client (against a reference server on port 0)
 * ```ts
 * import { and, createClient, eq, le } from "./mod.ts";
 * import { startServer } from "./server.ts";
 *
 * const server = await startServer({ port: 0, seed: 1, computers: 20 });
 * try {
 *   const client = createClient({
 *     baseUrl: server.url,
 *     auth: { clientId: "demo", clientSecret: "demo-secret" },
 *   });
 *   const stale = and(eq("status", "Active"), le("lastScanDate", new Date("2026-01-01")));
 *   for await (const computer of client.estate.computers({ filter: stale })) {
 *     console.log(computer.hostName, computer.lastScanDate);
 *   }
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * @module
 */

export {
  ApiError,
  AuthError,
  type ClientOptions,
  createClient,
  NetworkError,
  NotFoundError,
  type Page,
  type Paged,
  PagingIntegrityError,
  PagingLimitError,
  PermissionError,
  RateLimitError,
  type SamClient,
  ServerError,
} from "./client.ts";
export {
  and,
  contains,
  endsWith,
  eq,
  exists,
  type FilterNode,
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
  startsWith,
} from "./client.ts";
export { createQueryContext, type QueryContext } from "./query.ts";
export {
  type ClientSlice,
  type Column,
  defineReport,
  type ParamSpec,
  type ReportContext,
  type ReportData,
  type ReportDefinition,
  type Row,
  type Section,
} from "./report.ts";
