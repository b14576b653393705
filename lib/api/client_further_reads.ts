/**
 * The public service's further reads (public-api.md), beyond the spec's operations: the
 * registry's article numbers, families, platforms, types, and each application's compatibility,
 * groups, store, types and bundle; a computer's remote clients; a cluster's applications and a
 * member's features, the hypervisor types; user discovery and metering; the license assignment
 * types. Each area's interface extends its part here; the functions are the generic ones its
 * factory binds from the operation table (small lookup lists are collections like every other
 * list, so a server that pages them is read whole).
 *
 * @module
 */

import type { Resource } from "./catalogue.ts";
import type { CallOptions, FilterOptions, PageOptions } from "./client_options.ts";
import type { Paged } from "./paginate.ts";

/**
 * The estate area's further reads: remote clients, cluster applications and member features,
 * hypervisor types, user discovery and metering.
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
 * for await (const t of client.estate.hypervisorTypes()) console.log(t.id, t.name);
 * await server.close();
 * ```
 */
export interface EstateFurtherReads {
  /** Get computer's remote clients: `GET /computers/{id}/remote-clients` (404: unknown computer). */
  remoteClients(id: string, options?: FilterOptions): Paged<Resource<"RemoteClient">>;
  /** Get applications (of a cluster): `GET /dcc/{id}/applications` (404: unknown cluster). */
  dccApplications(id: string, options?: FilterOptions): Paged<Resource<"DccApplication">>;
  /** Get features (of a cluster member): `GET /dcc/{id}/members/{memberId}/features`. */
  dccMemberFeatures(
    id: string,
    memberId: string,
    options?: FilterOptions,
  ): Paged<Resource<"DccMemberFeature">>;
  /** Get hypervisor types: `GET /dcc-hypervisors`. */
  hypervisorTypes(options?: FilterOptions): Paged<Resource<"HypervisorType">>;
  /** Get hypervisor type: `GET /dcc-hypervisors/{id}`. */
  hypervisorType(id: string, options?: CallOptions): Promise<Resource<"HypervisorType">>;
  /** Get users discovery data: `GET /user-accounts-discovery`. */
  userDiscoveries(options?: FilterOptions): Paged<Resource<"UserDiscovery">>;
  /** Get user discovery data: `GET /user-accounts-discovery/{id}`. */
  userDiscovery(id: string, options?: CallOptions): Promise<Resource<"UserDiscovery">>;
  /** Get users metering data: `GET /user-accounts-metering`. */
  userMeterings(options?: FilterOptions): Paged<Resource<"UserMetering">>;
  /** Get user metering data: `GET /user-accounts/{id}/metering` (404: unknown user). */
  userMetering(id: string, options?: FilterOptions): Paged<Resource<"UserMetering">>;
}

/**
 * The license area's further read: the assignment types.
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
 * const types = await client.licenses.assignmentTypes().toArray();
 * console.log(types.map((t) => t.name));
 * await server.close();
 * ```
 */
export interface LicensesFurtherReads {
  /** Get assignment types (the names of licenses' `assignmentTypeId`): `GET /assignment-types`. */
  assignmentTypes(options?: FilterOptions): Paged<Resource<"AssignmentType">>;
}

/**
 * The software registry's further reads: article numbers, families, platforms, application
 * types, and each application's compatibility, groups, store, types and bundle.
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
 * for await (const family of client.registry.families()) console.log(family.id, family.name);
 * await server.close();
 * ```
 */
export interface RegistryFurtherReads {
  /** Get article numbers: `GET /article-numbers`. */
  articleNumbers(options?: FilterOptions): Paged<Resource<"ArticleNumber">>;
  /** Get article number: `GET /article-numbers/{id}`. */
  articleNumber(id: string, options?: CallOptions): Promise<Resource<"ArticleNumber">>;
  /** Get compatible applications: `GET /applications/{id}/compatibility` (404: unknown application). */
  compatibility(id: string, options?: FilterOptions): Paged<Resource<"RegistryCompatibility">>;
  /** Get compatible application: `GET /applications/{id}/compatibility/{compatibilityId}`. */
  compatibleApplication(
    id: string,
    compatibilityId: string,
    options?: CallOptions,
  ): Promise<Resource<"RegistryCompatibility">>;
  /** Get families: `GET /families`. */
  families(options?: FilterOptions): Paged<Resource<"RegistryFamily">>;
  /** Get family: `GET /families/{id}`. */
  family(id: string, options?: CallOptions): Promise<Resource<"RegistryFamily">>;
  /** Get groups (of an application): `GET /applications/{id}/group`. */
  groups(id: string, options?: FilterOptions): Paged<Resource<"RegistryGroup">>;
  /** Get store (of an application): `GET /applications/{id}/store`, none when it has none. */
  store(id: string, options?: PageOptions): Paged<Resource<"RegistryStore">>;
  /** Get applications types: `GET /types`. */
  applicationTypes(options?: FilterOptions): Paged<Resource<"ApplicationType">>;
  /** Get application types (of one application): `GET /applications/{id}/types`. */
  typesOfApplication(
    id: string,
    options?: FilterOptions,
  ): Paged<Resource<"RegistryApplicationType">>;
  /** Get application type: `GET /types/{id}`. */
  applicationType(id: string, options?: CallOptions): Promise<Resource<"ApplicationType">>;
  /** Get bundles (a bundle's component applications): `GET /applications/{id}/bundle`. */
  bundles(id: string, options?: FilterOptions): Paged<Resource<"RegistryBundle">>;
  /** Get bundle: `GET /applications/{id}/bundle/{childId}`. */
  bundle(id: string, childId: string, options?: CallOptions): Promise<Resource<"RegistryBundle">>;
  /** Get platforms: `GET /platforms`. */
  platforms(options?: FilterOptions): Paged<Resource<"RegistryPlatform">>;
}
