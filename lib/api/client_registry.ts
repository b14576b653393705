/**
 * The software registry area of the client (`/api/sam/softwareregistry/v1`, prefix configurable
 * and detected on the first read): applications and their metrics. Every function is the generic
 * one of its operation.
 *
 * @module
 */

import type { Resource } from "./catalogue.ts";
import { bindOperations } from "./client_bind.ts";
import type { ClientCore } from "./client_core.ts";
import type { RegistryFurtherReads } from "./client_further_reads.ts";
import type { CallOptions, FilterOptions } from "./client_options.ts";
import type { Paged } from "./paginate.ts";
import type { RegistryApplication } from "./types.ts";

/**
 * The software registry (`/api/sam/softwareregistry/v1`, prefix configurable).
 *
 * @example
 * ```ts
 * import { createClient } from "./client.ts";
 * import { startServer } from "../../server.ts";
 * const server = await startServer({ port: 0, computers: 60, quiet: true });
 * const client = createClient({
 *   baseUrl: server.url,
 *   auth: { clientId: "demo", clientSecret: "demo-secret" },
 * });
 * const eol = client.registry.applications({ filter: "isEndOfLife -eq true" });
 * for await (const app of eol) console.log(app.name, app.endOfLifeDate);
 * await server.close();
 * ```
 */
export interface RegistryApi extends RegistryFurtherReads {
  /** Application registry collection: `GET /applications`. */
  applications(options?: FilterOptions): Paged<RegistryApplication>;
  /** One registry application: `GET /applications/{id}`. */
  application(id: string, options?: CallOptions): Promise<RegistryApplication>;
  /** Get metrics (names and list prices): `GET /applications/{id}/metrics`. */
  metrics(id: string, options?: FilterOptions): Paged<Resource<"RegistryMetric">>;
  /** Get metric: `GET /applications/{id}/metrics/{metricId}`. */
  metric(id: string, metricId: string, options?: CallOptions): Promise<Resource<"RegistryMetric">>;
}

/**
 * The registry area's functions over the client's core, one per operation.
 *
 * @example
 * ```ts
 * import { createRegistryApi } from "./client_registry.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { createRequest } from "./request.ts";
 * const api = createRegistryApi(createClientCore({
 *   request: createRequest({ baseUrl: "http://127.0.0.1:8080" }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * }));
 * console.log(typeof api.applications); // "function"
 * ```
 */
export function createRegistryApi(core: ClientCore): RegistryApi {
  return bindOperations(core, "registry") as unknown as RegistryApi;
}
