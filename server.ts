/**
 * The reference SAM server: an embedded service with a generated estate (SQLite in memory) that
 * speaks the API's wire format, with latency and faults to inject, for tests, demos and
 * examples. Re-exports only.
 *
 * @example Serve 20 computers on a free port and read them
 * ```ts
 * import { startServer } from "./server.ts";
 * import { createClient } from "./client.ts";
 *
 * const server = await startServer({ port: 0, seed: 1, computers: 20 });
 * try {
 *   const client = createClient({
 *     baseUrl: server.url,
 *     auth: { clientId: "demo", clientSecret: "demo-secret" },
 *   });
 *   let n = 0;
 *   for await (const _ of client.estate.computers()) n++;
 *   console.log(n); // 20
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * @module
 */

export {
  REQUEST_LIMITS,
  type RunningServer,
  type ServerOptions,
  startServer,
} from "./lib/server/server.ts";
export type { Dialect } from "./lib/server/serialize.ts";
export type {
  ColumnReadOptions,
  ColumnSpec,
  EstateStore,
  RowInput,
  RowSink,
  StoreArrayResult,
  StoredRow,
  StoreQuery,
  StoreResult,
} from "./lib/server/store.ts";
export type {
  FaultHandle,
  FaultPlan,
  FaultSpec,
  FiredFault,
  ServerStats,
} from "./lib/server/faults.ts";
export type { TokenAuthority, TokenResponse } from "./lib/server/auth.ts";
export {
  type ReferenceContext,
  type ReferenceContextOptions,
  withReferenceContext,
} from "./lib/server/reference_context.ts";
