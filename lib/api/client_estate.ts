/**
 * The estate area of the client (`/api/sam/estate/v1`): computers and what is recorded about
 * them, data center clusters, user accounts. Every function is the generic one of its operation
 * but `dataCenterCluster`, which reads past the public document's answer (see
 * `cluster_detail.ts`).
 *
 * @module
 */

import type { Resource } from "./catalogue.ts";
import { bindOperations } from "./client_bind.ts";
import { collection } from "./client_collection.ts";
import type { ClientCore } from "./client_core.ts";
import type { EstateFurtherReads } from "./client_further_reads.ts";
import type { CallOptions, FilterOptions } from "./client_options.ts";
import { clusterFromDetail } from "./cluster_detail.ts";
import { NotFoundError } from "./errors.ts";
import { eq } from "./filter_builder.ts";
import { createNormaliser } from "./normalise.ts";
import { OPERATIONS, type OperationSpec } from "./operations.ts";
import type { Paged } from "./paginate.ts";
import type {
  ApplicationUsage,
  ApplicationUsageSummary,
  Computer,
  ComputerApplication,
  ComputerApplicationDetail,
  ComputerContract,
  ComputerCosts,
  ComputerDetail,
  DataCenterCluster,
  DisplayAdapter,
  Drive,
  EnvironmentVariable,
  Hardware,
  LogicalDisk,
  LogonHistory,
  MetricTracking,
  Monitor,
  NetworkAdapter,
  Processor,
  RegistryEntry,
  SocketMap,
  UserApplicationUsage,
} from "./types.ts";

/**
 * The estate area (`/api/sam/estate/v1`): computers and what is recorded about them.
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
 * const hosts = await client.estate.computers({ filter: "status -eq Quarantined" }).toArray();
 * const apps = client.estate.computerApplications(hosts[0].id!, { sort: "lastUsed:desc" });
 * for await (const app of apps) console.log(app.applicationId, app.lastUsed?.toISOString());
 * await server.close();
 * ```
 */
export interface EstateApi extends EstateFurtherReads {
  /** Get computers: `GET /computers`. */
  computers(options?: FilterOptions): Paged<Computer>;
  /** Get data center clusters: `GET /dcc`. */
  /**
   * Data center clusters. The spec gives `/dcc` no filter; the public service takes one, so a
   * filter is sent and also applied to the answer (a server that ignores it cannot widen it).
   */
  dataCenterClusters(options?: FilterOptions): Paged<DataCenterCluster>;
  /** Get computer: `GET /computers/{id}`. */
  computer(id: string, options?: CallOptions): Promise<ComputerDetail>;
  /** Get computer contracts: `GET /computers/{id}/contracts`. */
  contracts(id: string, options?: FilterOptions): Paged<ComputerContract>;
  /** Get computer costs: `GET /computers/{id}/costs`. */
  costs(id: string, options?: CallOptions): Promise<ComputerCosts>;
  /** Get computer logon histories: `GET /computers/{id}/logonhistory`. */
  logonHistory(id: string, options?: FilterOptions): Paged<LogonHistory>;
  /** Get user computer logon history: `GET /computers-logonhistory/{userid}`. */
  userLogonHistory(userId: string, options?: FilterOptions): Paged<LogonHistory>;
  /** Get computer user logon history: `GET /computers/{id}/logonhistory/{userid}`. */
  computerUserLogonHistory(
    id: string,
    userId: string,
    options?: CallOptions,
  ): Promise<LogonHistory>;
  /** Get computers environment variables: `GET /computers-environment-variables`. */
  environmentVariables(options?: FilterOptions): Paged<EnvironmentVariable>;
  /** Get computer environment variables: `GET /computers/{id}/environment-variables`. */
  computerEnvironmentVariables(id: string, options?: FilterOptions): Paged<EnvironmentVariable>;
  /** Get computer applications: `GET /computers/{id}/applications`. */
  computerApplications(id: string, options?: FilterOptions): Paged<ComputerApplication>;
  /** Get computers applications: `GET /computers-applications`. */
  applications(options?: FilterOptions): Paged<ComputerApplication>;
  /** Get computer application: `GET /computers/{id}/applications/{applicationid}`. */
  computerApplication(
    id: string,
    applicationId: string,
    options?: CallOptions,
  ): Promise<ComputerApplicationDetail>;
  /** Get computers application usage: `GET /computers-application-usage`. */
  applicationUsage(options?: FilterOptions): Paged<ApplicationUsage>;
  /** Get user computer application usage: `GET /computers-application-user-usage`. */
  userApplicationUsage(options?: FilterOptions): Paged<UserApplicationUsage>;
  /** Get computers application usage summary: `GET /computers-application-usage/summaries`. */
  applicationUsageSummaries(options?: FilterOptions): Paged<ApplicationUsageSummary>;
  /** Get computer display adapters: `GET /computers/{id}/hardware/displayadapters`. One flat object per page, read by following `next`; a 404 means none. */
  displayAdapters(id: string, options?: FilterOptions): Paged<DisplayAdapter>;
  /** Get computer hard drives: `GET /computers/{id}/hardware/harddrives`. */
  hardDrives(id: string, options?: FilterOptions): Paged<Drive>;
  /** Get computer optical drives: `GET /computers/{id}/hardware/opticaldrives`. */
  opticalDrives(id: string, options?: FilterOptions): Paged<Drive>;
  /** Get computer hardware: `GET /computers/{id}/hardware`. */
  hardware(id: string, options?: CallOptions): Promise<Hardware>;
  /** Get computer logical disk: `GET /computers/{id}/hardware/disks/logical`. */
  logicalDisks(id: string, options?: FilterOptions): Paged<LogicalDisk>;
  /** Get computer monitors: `GET /computers/{id}/hardware/monitors`. One flat object per page, read by following `next`; a 404 means none. */
  monitors(id: string, options?: FilterOptions): Paged<Monitor>;
  /** Get computers network adapters: `GET /computers-networkadapters`. */
  networkAdapters(options?: FilterOptions): Paged<NetworkAdapter>;
  /** Get computer network adapters: `GET /computers/{id}/hardware/networkadapters`. */
  computerNetworkAdapters(id: string, options?: FilterOptions): Paged<NetworkAdapter>;
  /** Get computer processors: `GET /computers/{id}/hardware/cpu`. */
  processors(id: string, options?: FilterOptions): Paged<Processor>;
  /** Get socket map: `GET /computers/{id}/hardware/cpu/socketmap`. */
  socketMap(id: string, options?: CallOptions): Promise<SocketMap>;
  /** Get computer registries: `GET /computers/{id}/registry`. */
  registry(id: string, options?: FilterOptions): Paged<RegistryEntry>;
  /** Get computers metrics: `GET /computers-metering`. */
  metrics(options?: FilterOptions): Paged<MetricTracking>;
  /** Get computer metrics: `GET /computers/{id}/metering`. */
  computerMetrics(id: string, options?: FilterOptions): Paged<MetricTracking>;
  /** Get computer's virtual machines: `GET /computers/{id}/virtual-machines` (404: unknown host). */
  virtualMachines(id: string, options?: FilterOptions): Paged<Resource<"VirtualMachine">>;
  /**
   * Get datacenter/cluster: `GET /dcc/{id}`. The public service's document declares hypervisor
   * types (`{id, name}`) as this read's answer: one cluster, or an envelope holding it, is read
   * as the cluster; an answer of the document's shape is read past, and the cluster comes from
   * `GET /dcc` filtered by its id (a `NotFoundError` when the list has none). See
   * `cluster_detail.ts`.
   */
  dataCenterCluster(id: string, options?: CallOptions): Promise<DataCenterCluster>;
  /** Get members: `GET /dcc/{id}/members` (404: unknown cluster). */
  dccMembers(id: string, options?: FilterOptions): Paged<Resource<"DccMember">>;
  /** Get member: `GET /dcc/{id}/members/{memberId}`. */
  dccMember(
    id: string,
    memberId: string,
    options?: CallOptions,
  ): Promise<Resource<"DccMember">>;
  /** Get histories: `GET /dcc/{id}/history` (404: unknown cluster). */
  dccHistory(id: string, options?: FilterOptions): Paged<Resource<"DccHistory">>;
  /** Get users: `GET /user-accounts`. */
  userAccounts(options?: FilterOptions): Paged<Resource<"UserAccount">>;
  /** Get user: `GET /user-accounts/{id}`. */
  userAccount(id: string, options?: CallOptions): Promise<Resource<"UserAccountDetail">>;
}

/**
 * The estate area's functions over the client's core.
 *
 * @example
 * ```ts
 * import { createEstateApi } from "./client_estate.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { createRequest } from "./request.ts";
 * const estate = createEstateApi(createClientCore({
 *   request: createRequest({ baseUrl: "http://127.0.0.1:8080" }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * }));
 * console.log(typeof estate.computers, typeof estate.dataCenterCluster); // "function" "function"
 * ```
 */
export function createEstateApi(core: ClientCore): EstateApi {
  return bindOperations(core, "estate", {
    "estate.dataCenterCluster": (op) => (id: string, o?: CallOptions) =>
      clusterById(core, op, id, o),
  }) as unknown as EstateApi;
}

/**
 * One cluster by id, whichever shape `GET /dcc/{id}` answers in (see `cluster_detail.ts`):
 * the document's hypervisor types are read past, and the cluster is then taken from the list.
 */
async function clusterById(
  core: ClientCore,
  op: OperationSpec,
  id: string,
  options: CallOptions = {},
): Promise<DataCenterCluster> {
  if (typeof id !== "string" && typeof id !== "number") {
    throw new TypeError(`${op.id}: path parameter "id" must be a string`);
  }
  const params = { id: String(id) };
  const raw = await core.atPath(op, params, async (path) => {
    const res = await core.request({ path, ...(options.signal ? { signal: options.signal } : {}) });
    return clusterFromDetail(
      { ...core.shapeContext(op, path), scope: op.scope, params },
      res.body,
      params.id,
    );
  });
  if (raw) return createNormaliser("DataCenterCluster", { operation: op.id })(raw);
  const list = OPERATIONS.find((o) => o.id === "estate.dataCenterClusters")!;
  const wanted = params.id.trim().toLowerCase();
  for await (
    const c of collection<"DataCenterCluster">(core, list, {}, {
      ...options,
      filter: eq("id", params.id),
    })
  ) {
    if (String(c.id ?? "").trim().toLowerCase() === wanted) return c;
  }
  const path = core.pathOf(op, params);
  throw new NotFoundError({
    status: 404,
    method: "GET",
    path,
    message: `${op.id}: ${path} answered hypervisor types and /dcc lists no cluster "${params.id}"`,
  });
}
