/**
 * The typed SAM API client: `createClient`, the filter grammar, paging and the errors a caller
 * catches, with the API catalogue (resources, fields, operations). Loads no renderer, browser,
 * database or mail package: a script that only reads the API needs `--allow-net` for the
 * service's host and `--allow-env` for samkit's variables, nothing more. Re-exports only.
 *
 * @example Read the estate through the typed client (against a reference server on port 0)
 * ```ts
 * import { createClient, eq } from "./client.ts";
 * import { startServer } from "./server.ts";
 *
 * const server = await startServer({ port: 0, seed: 1, computers: 20 });
 * try {
 *   const client = createClient({
 *     baseUrl: server.url,
 *     auth: { clientId: "demo", clientSecret: "demo-secret" },
 *   });
 *   for await (const c of client.estate.computers({ filter: eq("status", "Active") })) {
 *     console.log(c.hostName);
 *   }
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * @module
 */

export * from "./lib/api/client.ts";
export * from "./lib/api/filter.ts";
export * from "./lib/api/errors.ts";
export * from "./lib/api/types.ts";
export * from "./lib/api/catalogue.ts";
export {
  type Area,
  AREA_PREFIX,
  operation,
  OPERATIONS,
  type OperationSpec,
  type QuerySet,
  type Shape,
  type TokenScope,
} from "./lib/api/operations.ts";
export {
  type ConnectorNotFoundOptions,
  explainConnectorNotFound,
} from "./lib/api/connector_path.ts";
export type {
  BooleanLiteral,
  DateLiteral,
  LiteralBase,
  NumberLiteral,
  StringLiteral,
} from "./lib/api/filter_ast.ts";
export type { Auth, AuthContext, AuthOptions, ClientCredentialsOptions } from "./lib/api/auth.ts";
export { type BaseUrlOptions, RegistryPrefix } from "./lib/api/base_url.ts";
export type { BodyLimitOptions } from "./lib/api/body_limit.ts";
export type { Reason, RetryOptions, Sleep } from "./lib/api/retry.ts";
export type {
  ApiRequest,
  ApiResponse,
  QueryValue,
  RequestFn,
  TimerClock,
} from "./lib/api/request_types.ts";
export { Redactor } from "./lib/api/redact.ts";
export type { PagingLimitName } from "./lib/api/paging_limit_error.ts";
export type {
  EstateFurtherReads,
  LicensesFurtherReads,
  RegistryFurtherReads,
} from "./lib/api/client_further_reads.ts";
