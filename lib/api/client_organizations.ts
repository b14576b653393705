/**
 * The organisation area of the client (`/api/organizations/v1`): the tree, read whole from its
 * `nodes`, and one node. Every function is the generic one of its operation.
 *
 * @module
 */

import type { Resource } from "./catalogue.ts";
import { bindOperations } from "./client_bind.ts";
import type { ClientCore } from "./client_core.ts";
import type { CallOptions } from "./client_options.ts";
import type { Paged } from "./paginate.ts";

/**
 * The organisation tree of the public service (`/api/organizations/v1`): names for the
 * `organizationId`s every other area references.
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
 * const names = new Map<string | null, string | null>();
 * for await (const node of client.organizations.tree()) names.set(node.id, node.name);
 * console.log(names.get("ORG06"));
 * await server.close();
 * ```
 */
export interface OrganizationsApi {
  /** Get organizations: `GET /tree`, every node at once (`{"nodes": [...]}`, not paged). */
  tree(options?: CallOptions): Paged<Resource<"OrganizationNode">>;
  /** Get organization: `GET /node/{nodeId}`. */
  node(nodeId: string, options?: CallOptions): Promise<Resource<"OrganizationNode">>;
}

/**
 * The organizations area's functions over the client's core, one per operation.
 *
 * @example
 * ```ts
 * import { createOrganizationsApi } from "./client_organizations.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { createRequest } from "./request.ts";
 * const api = createOrganizationsApi(createClientCore({
 *   request: createRequest({ baseUrl: "http://127.0.0.1:8080" }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * }));
 * console.log(typeof api.tree); // "function"
 * ```
 */
export function createOrganizationsApi(core: ClientCore): OrganizationsApi {
  return bindOperations(core, "organizations") as unknown as OrganizationsApi;
}
