/**
 * The typed SAM API client: one function per operation of `operations.ts`, grouped by area
 * (`client.estate.computers()`, `client.licenses.get(id)`, `client.connectors.add(…)`), over the
 * one request function of `request.ts`.
 *
 * Collections return a {@link Paged} (iterate it, or `.pages()`, `.toArray()`); single objects a
 * promise. Every item is normalised from the catalogue (numbers are numbers, dates are `Date`s,
 * `links` whichever name they came under). Filters are parsed and validated against the
 * operation's resource before any request is sent: a collection function throws at once (when
 * called, not when iterated) for a bad filter, sort, page size or path parameter.
 *
 * Connector writes (`add`, `updateCredentials`) are never retried on 5xx or network failures;
 * `validateReportName` and `test` have no side effects and are retried like reads.
 *
 * @example Read licenses over 10 seats from the reference server
 * ```ts
 * import { createClient } from "./client.ts";
 * import { startServer } from "../server/server.ts";
 * const srv = await startServer({ computers: 20, quiet: true });
 * const client = createClient({
 *   baseUrl: srv.url,
 *   auth: { clientId: "demo", clientSecret: "demo-secret" },
 * });
 * for await (const license of client.licenses.list({ filter: "quantity -gt 10" })) {
 *   console.log(license.id, license.quantity, license.purchaseDate?.toISOString());
 * }
 * await srv.close();
 * ```
 *
 * @module
 */

import { type AuthOptions, createAuth } from "./auth.ts";
import {
  areaPrefixes,
  type BaseUrlOptions,
  readEnv,
  RegistryPrefix,
  registryPrefixes,
  resolveBaseUrl,
} from "./base_url.ts";
import { type Link, type Resource, type ResourceName, RESOURCES } from "./catalogue.ts";
import { NotFoundError, PermissionError, ShapeError } from "./errors.ts";
import {
  type FilterFieldWarning,
  type FilterNode,
  filterPredicate,
  parseFilter,
  printFilter,
  validateFilter,
} from "./filter.ts";
import { itemKey } from "./integrity.ts";
import { createNormaliser } from "./normalise.ts";
import {
  type Area,
  AREA_PREFIX,
  expandPath,
  OPERATIONS,
  type OperationSpec,
} from "./operations.ts";
import {
  filterPaged,
  followPages,
  type Page,
  type Paged,
  paginate,
  type ParallelOption,
} from "./paginate.ts";
import {
  type ClientEvent,
  type ClientStats,
  createRequest,
  createStats,
  type RequestFn,
  type TimerClock,
} from "./request.ts";
import type { RetryOptions, Sleep } from "./retry.ts";
import { checkEnvelope, checkObject, describeReceived, type ShapeContext } from "./shape.ts";
import { clusterFromDetail } from "./cluster_detail.ts";
import { eq } from "./filter_builder.ts";
import type {
  ApplicationTrackingSummary,
  ApplicationTransferSummary,
  ApplicationUsage,
  ApplicationUsageSummary,
  AssignmentSummary,
  CloudConnector,
  Computer,
  ComputerApplication,
  ComputerApplicationDetail,
  ComputerApplicationEntitlement,
  ComputerAssignment,
  ComputerContract,
  ComputerCosts,
  ComputerDetail,
  ComputerTracking,
  ComputerTrackingDetail,
  ComputerTransfer,
  ComputerTransferDetail,
  CustomValueTransfer,
  CustomValueTransferDetail,
  DatacenterAssignment,
  DataCenterCluster,
  DisplayAdapter,
  Drive,
  Entitlement,
  EntitlementState,
  EnvironmentVariable,
  ExtendedCoverage,
  ExtendedCoverageType,
  Hardware,
  License,
  LicenseCost,
  LicenseCostSummary,
  LicenseDetail,
  LicenseUpgrade,
  LogicalDisk,
  LogonHistory,
  MetricTracking,
  Monitor,
  NetworkAdapter,
  OrganizationAssignment,
  Policy,
  PolicyField,
  PolicyFieldDetail,
  Processor,
  RegistryApplication,
  RegistryEntry,
  RetrievalInfo,
  SocketMap,
  TestResult,
  UniqueResult,
  UserApplicationUsage,
  UserAssignment,
  UserTracking,
  UserTrackingDetail,
  UserTransfer,
  UserTransferDetail,
} from "./types.ts";

export type { ClientEvent, ClientStats } from "./request.ts";
export type { Page, Paged, ParallelOption } from "./paginate.ts";

/** Options of a single-object call. */
export interface CallOptions {
  /** Cancels the call, its retries and its waits. */
  readonly signal?: AbortSignal;
}

/** Options of a collection without a filter (query sets Q2 and QC). */
export interface PageOptions extends CallOptions {
  /** Items per page (default the client's, 1000; capped at 1000 except for connectors). */
  readonly pageSize?: number;
  /** Fetch pages concurrently once page 1 tells how many there are (default the client's). */
  readonly parallel?: ParallelOption;
  /** `<property>:asc|desc[,…]`; properties must be fields of the resource. */
  readonly sort?: string;
}

/** Options of a collection that takes a filter (query set Q1). */
export interface FilterOptions extends PageOptions {
  /**
   * A filter (spec 4.4) as text or as a tree from the builder. Text is parsed and both are
   * validated against the operation's resource before any request is sent; a bad one throws the
   * parser's `FilterSyntaxError` (with its column) or a `FilterValidationError`.
   */
  readonly filter?: string | FilterNode;
}

/** The connector types of the request enum (spec 2.5). */
export type ConnectorType = "ProviderAStore" | "ProviderBBlob";

/** Connection details of an object-store connector (spec 2.5). Secrets are never logged. */
export interface ProviderAStoreDetails {
  readonly bucketName: string;
  readonly reportPrefix: string;
  readonly reportName: string;
  readonly region: string;
  readonly accessKey: string;
  readonly secretKey: string;
}

/** A connector configuration, for `add` and `test`. */
export interface ConnectorConfiguration {
  readonly type: ConnectorType;
  /** The details for the type (for ProviderBBlob the spec does not show them). */
  readonly connectionDetails: ProviderAStoreDetails | Readonly<Record<string, string>>;
}

/** New credentials of a connector (`accessKey`, `secretKey` for ProviderAStore). */
export type ConnectorCredentials =
  | { readonly accessKey: string; readonly secretKey: string }
  | Readonly<Record<string, string>>;

/** A report name to check for uniqueness among connectors of a type. */
export interface ReportNameCheck {
  readonly type: ConnectorType;
  readonly name: string;
}

/**
 * The estate area (`/api/sam/estate/v1`): computers and what is recorded about them.
 *
 * @example
 * ```ts
 * import { createClient } from "./client.ts";
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", token: "tok" });
 * const hosts = await client.estate.computers({ filter: "status -eq Quarantined" }).toArray();
 * const apps = client.estate.computerApplications(hosts[0].id!, { sort: "lastUsed:desc" });
 * for await (const app of apps) console.log(app.applicationId, app.lastUsed?.toISOString());
 * ```
 */
export interface EstateApi {
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
 * The license area (`/api/sam/v1`).
 *
 * @example
 * ```ts
 * import { createClient } from "./client.ts";
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", token: "tok" });
 * const license = await client.licenses.get("L1");
 * const costs = await client.licenses.costsSummary("L1");
 * console.log(license.quantity, license.purchaseDate, costs.totalCost);
 * ```
 */
export interface LicensesApi {
  /** Get licenses: `GET /licenses`. */
  list(options?: FilterOptions): Paged<License>;
  /** Get license details: `GET /licenses/{id}`. */
  get(id: string, options?: CallOptions): Promise<LicenseDetail>;
  /** Get license upgrades: `GET /licenses/{id}/upgrades`. */
  upgrades(id: string, options?: FilterOptions): Paged<LicenseUpgrade>;
  /** Get license upgrade details: `GET /licenses/{id}/upgrades/{upgradedLicenseId}`. */
  upgrade(id: string, upgradedLicenseId: string, options?: CallOptions): Promise<LicenseUpgrade>;
  /** Get application license transfers (summary per application): `GET /licenses/transfers/{applicationId}`. */
  transferSummary(
    applicationId: string,
    options?: FilterOptions,
  ): Paged<ApplicationTransferSummary>;
  /** Get application license transfers (computer transfers): `GET /licenses/transfers/{applicationId}/computers`. */
  computerTransfers(applicationId: string, options?: FilterOptions): Paged<ComputerTransfer>;
  /**
   * Get application license transfers for a computer:
   * `GET /licenses/transfers/{applicationId}/computers/{computerId}`. The spec answers one
   * object, the public service a paged collection: both are read as a collection (one item for
   * the object form).
   */
  computerTransfer(
    applicationId: string,
    computerId: string,
    options?: FilterOptions,
  ): Paged<ComputerTransferDetail>;
  /** Get custom value license transfers: `GET /licenses/transfers/{applicationId}/custom-values`. */
  customValueTransfers(applicationId: string, options?: FilterOptions): Paged<CustomValueTransfer>;
  /** Get license upgrade details (transfers for a custom value): `GET /licenses/transfers/{applicationId}/custom-values/{customId}`. */
  customValueTransfer(
    applicationId: string,
    customId: string,
    options?: FilterOptions,
  ): Paged<CustomValueTransferDetail>;
  /** Get users license transfer details: `GET /licenses/transfers/{applicationId}/users`. */
  userTransfers(applicationId: string, options?: FilterOptions): Paged<UserTransfer>;
  /** Get user license transfer details: `GET /licenses/transfers/{applicationId}/users/{userId}`. */
  userTransfer(
    applicationId: string,
    userId: string,
    options?: FilterOptions,
  ): Paged<UserTransferDetail>;
  /** Get application license tracking details: `GET /licenses/tracking/{applicationId}`. */
  trackingSummary(
    applicationId: string,
    options?: FilterOptions,
  ): Paged<ApplicationTrackingSummary>;
  /** Get computer license tracking for a given application: `GET /licenses/tracking/{applicationId}/computers`. */
  computerTracking(applicationId: string, options?: FilterOptions): Paged<ComputerTracking>;
  /** Get application license tracking for a computer: `GET /licenses/tracking/{applicationId}/computers/{computerId}`. */
  computerTrackingDetail(
    applicationId: string,
    computerId: string,
    options?: FilterOptions,
  ): Paged<ComputerTrackingDetail>;
  /** Get users license tracking details: `GET /licenses/tracking/{applicationId}/users`. */
  userTracking(applicationId: string, options?: FilterOptions): Paged<UserTracking>;
  /** Get application license tracking for a user: `GET /licenses/tracking/{applicationId}/users/{userId}`. */
  userTrackingDetail(
    applicationId: string,
    userId: string,
    options?: FilterOptions,
  ): Paged<UserTrackingDetail>;
  /** Get license policies: `GET /licenses-policies`. */
  policies(options?: FilterOptions): Paged<Policy>;
  /** Get license policy details: `GET /licenses-policies/{policyId}`. */
  policy(policyId: string, options?: CallOptions): Promise<Policy>;
  /** Get license policy fields: `GET /licenses-policies/{policyId}/fields`. */
  policyFields(policyId: string, options?: FilterOptions): Paged<PolicyField>;
  /** Get license policy field details: `GET /licenses-policies/{policyId}/fields/{fieldId}`. */
  policyField(policyId: string, fieldId: string, options?: CallOptions): Promise<PolicyFieldDetail>;
  /** Get license entitlements: `GET /licenses-entitlements`. */
  entitlements(options?: FilterOptions): Paged<Entitlement>;
  /** Get computers applications entitlements: `GET /licenses/entitlements/computers`. */
  computerEntitlements(options?: FilterOptions): Paged<ComputerApplicationEntitlement>;
  /** Get license entitlement states: `GET /licenses/entitlements/entitlement-states`. One flat object per page, read by following `next`; a 404 means none. */
  entitlementStates(options?: PageOptions): Paged<EntitlementState>;
  /** Get license extended coverage types: `GET /licenses-extended-coverage-types`. */
  extendedCoverageTypes(options?: FilterOptions): Paged<ExtendedCoverageType>;
  /** Get extended coverages: `GET /extended-coverage`. */
  extendedCoverages(options?: FilterOptions): Paged<ExtendedCoverage>;
  /** Get extended coverage details: `GET /extended-coverage/{coverageId}`. */
  extendedCoverage(coverageId: string, options?: CallOptions): Promise<ExtendedCoverage>;
  /** Get license costs: `GET /licenses/{id}/costs`. */
  costs(id: string, options?: FilterOptions): Paged<LicenseCost>;
  /** Get a license costs for an organization: `GET /licenses/{id}/costs/{organizationId}`. */
  organizationCosts(
    id: string,
    organizationId: string,
    options?: CallOptions,
  ): Promise<LicenseCost>;
  /** Get a license costs summary: `GET /licenses/{id}/costs-summary`. */
  costsSummary(id: string, options?: CallOptions): Promise<LicenseCostSummary>;
  /** Get license assignments summary: `GET /licenses/{id}/assignments-summary`. */
  assignmentsSummary(id: string, options?: CallOptions): Promise<AssignmentSummary>;
  /** Get computer assignments for a license: `GET /licenses/{id}/assignments/computers`. */
  computerAssignments(id: string, options?: FilterOptions): Paged<ComputerAssignment>;
  /** Get assignment details for a computers license: `GET /licenses/{id}/assignments/computers/{assignmentId}`. */
  computerAssignment(
    id: string,
    assignmentId: string,
    options?: CallOptions,
  ): Promise<ComputerAssignment>;
  /** Get datacenter license assignments: `GET /licenses/{id}/assignments/datacenters`. */
  datacenterAssignments(id: string, options?: FilterOptions): Paged<DatacenterAssignment>;
  /** Get datacenter assignment details for a license: `GET /licenses/{id}/assignments/datacenters/{assignmentId}`. */
  datacenterAssignment(
    id: string,
    assignmentId: string,
    options?: CallOptions,
  ): Promise<DatacenterAssignment>;
  /** Get organization assignments for a license: `GET /licenses/{id}/assignments/organizations`. */
  organizationAssignments(id: string, options?: FilterOptions): Paged<OrganizationAssignment>;
  /** Get license details for an organization by assignment: `GET /licenses/{id}/assignments/organizations/{assignmentId}`. */
  organizationAssignment(
    id: string,
    assignmentId: string,
    options?: CallOptions,
  ): Promise<OrganizationAssignment>;
  /** Get site details for a license: `GET /licenses/{id}/assignments/site`. */
  siteAssignment(id: string, options?: CallOptions): Promise<OrganizationAssignment>;
  /** Get license user assignments: `GET /licenses/{id}/assignments/users`. */
  userAssignments(id: string, options?: FilterOptions): Paged<UserAssignment>;
  /** Get license details by users assignment: `GET /licenses/{id}/assignments/users/{assignmentId}`. */
  userAssignment(id: string, assignmentId: string, options?: CallOptions): Promise<UserAssignment>;
  /** Get compliance summary (the vendor's ELP per metric): `GET /compliance/summary/{applicationId}`. */
  complianceSummary(
    applicationId: string,
    options?: PageOptions,
  ): Paged<Resource<"ComplianceSummary">>;
  /** Get compliance allocation summary (per organisation): `GET /compliance/summary/{applicationId}/allocation`. */
  complianceAllocation(
    applicationId: string,
    options?: PageOptions,
  ): Paged<Resource<"ComplianceAllocation">>;
  /** Get compliance usage summary: `GET /compliance/summary/{applicationId}/usage`. */
  complianceUsage(
    applicationId: string,
    options?: PageOptions,
  ): Paged<Resource<"ComplianceUsage">>;
  /** Get maintenance and support periods: `GET /licenses/maintenance-periods`. */
  maintenancePeriods(options?: FilterOptions): Paged<Resource<"MaintenancePeriod">>;
  /** Get license's maintenance and support periods: `GET /licenses/{id}/maintenance-periods`. */
  licenseMaintenancePeriods(
    id: string,
    options?: FilterOptions,
  ): Paged<Resource<"MaintenancePeriod">>;
  /** Get user license entitlements: `GET /licenses/entitlements/users`. */
  userEntitlements(options?: FilterOptions): Paged<Resource<"UserEntitlement">>;
  /** Get computer license tracking: `GET /licenses/tracking-computers/{computerId}`. */
  computerLicenseTracking(
    computerId: string,
    options?: FilterOptions,
  ): Paged<Resource<"ComputerLicenseTracking">>;
  /** Get assignment types (the names of licenses' `assignmentTypeId`): `GET /assignment-types`. */
  assignmentTypes(options?: FilterOptions): Paged<Resource<"AssignmentType">>;
}

/**
 * The software registry (`/api/sam/softwareregistry/v1`, prefix configurable).
 *
 * @example
 * ```ts
 * import { createClient } from "./client.ts";
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", token: "tok" });
 * const eol = client.registry.applications({ filter: "isEndOfLife -eq true" });
 * for await (const app of eol) console.log(app.name, app.endOfLifeDate);
 * ```
 */
export interface RegistryApi {
  /** Application registry collection: `GET /applications`. */
  applications(options?: FilterOptions): Paged<RegistryApplication>;
  /** One registry application: `GET /applications/{id}`. */
  application(id: string, options?: CallOptions): Promise<RegistryApplication>;
  /** Get metrics (names and list prices): `GET /applications/{id}/metrics`. */
  metrics(id: string, options?: FilterOptions): Paged<Resource<"RegistryMetric">>;
  /** Get metric: `GET /applications/{id}/metrics/{metricId}`. */
  metric(id: string, metricId: string, options?: CallOptions): Promise<Resource<"RegistryMetric">>;
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

/**
 * The organisation tree of the public service (`/api/organizations/v1`): names for the
 * `organizationId`s every other area references.
 *
 * @example
 * ```ts
 * import { createClient } from "./client.ts";
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", token: "tok" });
 * const names = new Map<string | null, string | null>();
 * for await (const node of client.organizations.tree()) names.set(node.id, node.name);
 * console.log(names.get("ORG06"));
 * ```
 */
export interface OrganizationsApi {
  /** Get organizations: `GET /tree`, every node at once (`{"nodes": [...]}`, not paged). */
  tree(options?: CallOptions): Paged<Resource<"OrganizationNode">>;
  /** Get organization: `GET /node/{nodeId}`. */
  node(nodeId: string, options?: CallOptions): Promise<Resource<"OrganizationNode">>;
}

/**
 * Cloud cost-report connectors (`/api/cloud-cost/v1`, prefix configurable).
 *
 * @example
 * ```ts
 * import { createClient } from "./client.ts";
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080", token: "tok" });
 * const { unique } = await client.connectors.validateReportName({ type: "ProviderAStore", name: "cur" });
 * if (unique) {
 *   await client.connectors.add({
 *     type: "ProviderAStore",
 *     connectionDetails: {
 *       bucketName: "b", reportPrefix: "p", reportName: "cur", region: "eu-1",
 *       accessKey: "<ACCESS_KEY>", secretKey: "<SECRET_KEY>",
 *     },
 *   });
 * }
 * ```
 */
export interface ConnectorsApi {
  /** Get cloud connectors: `GET /connectors`. */
  list(options?: PageOptions): Paged<CloudConnector>;
  /** Add cloud connector configuration: `POST /connectors` (201). */
  add(configuration: ConnectorConfiguration, options?: CallOptions): Promise<CloudConnector>;
  /** Get retrieval information: `GET /connectors/{id}/retrievals`. */
  retrievals(id: string, options?: PageOptions): Paged<RetrievalInfo>;
  /** Update credentials: `PATCH /connectors/{id}`. */
  updateCredentials(
    id: string,
    credentials: ConnectorCredentials,
    options?: CallOptions,
  ): Promise<CloudConnector>;
  /** Validate report name: `POST /connectors/validate-report-name`. */
  validateReportName(check: ReportNameCheck, options?: CallOptions): Promise<UniqueResult>;
  /** Test cloud connector configuration: `POST /connectors/test`. */
  test(configuration: ConnectorConfiguration, options?: CallOptions): Promise<TestResult>;
}

/** The client: one typed function per operation, by area, and what it was built with. */
export interface SamClient {
  /** The base URL the client talks to (for report covers). */
  readonly source: string;
  /** The registry prefix in use and how it was chosen (detected on the first registry read). */
  readonly registryPrefix: RegistryPrefix;
  /** Traffic counters, updated as the client runs. */
  readonly stats: ClientStats;
  /** The one request function, for calls the typed functions do not cover. */
  readonly request: RequestFn;
  /** The estate area: computers and what is recorded about them. */
  readonly estate: EstateApi;
  /** The license area. */
  readonly licenses: LicensesApi;
  /** The software registry. */
  readonly registry: RegistryApi;
  /** Cloud cost-report connectors. */
  readonly connectors: ConnectorsApi;
  /** The organisation tree. */
  readonly organizations: OrganizationsApi;
  /**
   * Any collection operation by id (for data-driven callers); path parameters by name.
   * Throws a `RangeError` for an unknown id or one that is not a collection.
   */
  collection<N extends ResourceName = ResourceName>(
    id: string,
    params?: Readonly<Record<string, string>>,
    options?: FilterOptions,
  ): Paged<Resource<N>>;
  /** Any single-object read operation by id; path parameters by name. */
  object<N extends ResourceName = ResourceName>(
    id: string,
    params?: Readonly<Record<string, string>>,
    options?: CallOptions,
  ): Promise<Resource<N>>;
}

/** Options of {@link createClient}. */
export interface ClientOptions extends BaseUrlOptions, RetryOptions {
  /**
   * How to authenticate: `{clientId, clientSecret}` (OAuth2 client credentials), `{token}`,
   * `{tokenProvider}` or an `Auth`. Default: `SAM_CLIENT_ID` and `SAM_CLIENT_SECRET`, else
   * `SAM_TOKEN`, else none. Secrets are never logged.
   */
  readonly auth?: AuthOptions;
  /** Shorthand for `auth: {clientId, clientSecret}`. */
  readonly clientId?: string;
  /** Shorthand for `auth: {clientId, clientSecret}`. */
  readonly clientSecret?: string;
  /** Shorthand for `auth: {token}`. */
  readonly token?: string;
  /** Shorthand for `auth: {tokenProvider}`. */
  readonly tokenProvider?: (signal?: AbortSignal) => Promise<string>;
  /** The token endpoint for `clientId`/`clientSecret`: a path or URL (default routes.md's). */
  readonly tokenUrl?: string;
  /** Renew client-credentials tokens this long before they expire (default 60 000 ms). */
  readonly refreshMarginMs?: number;
  /** The fetch function (default the global one). */
  readonly fetch?: typeof fetch;
  /** Time-out of each attempt in ms (default 30 000; 0 disables). */
  readonly timeoutMs?: number;
  /** Every wait (429, backoff) goes through this; inject one in tests. */
  readonly sleep?: Sleep;
  /** Timers for time-outs (default the global ones). */
  readonly clock?: TimerClock;
  /** Progress events: request, retry, rateLimit, page. */
  readonly onEvent?: (event: ClientEvent) => void;
  /** Extra headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Default items per page (default 1000). */
  readonly pageSize?: number;
  /** Default parallel mode of collections (default off). */
  readonly parallel?: ParallelOption;
}

/**
 * The page size cap of estate, license and registry collections (spec section 8).
 *
 * @example
 * ```ts
 * import { MAX_PAGE_SIZE } from "./client.ts";
 * console.log(MAX_PAGE_SIZE); // 1000
 * ```
 */
export const MAX_PAGE_SIZE = 1000;
/**
 * The default page size the client asks for (the spec's default is 100; asking for the maximum
 * saves requests).
 *
 * @example
 * ```ts
 * import { DEFAULT_PAGE_SIZE } from "./client.ts";
 * console.log(DEFAULT_PAGE_SIZE); // 1000
 * ```
 */
export const DEFAULT_PAGE_SIZE = 1000;

const SORT = /^\s*([\w.]+)\s*:\s*(asc|desc)\s*$/i;

const PAGING_RELS = new Set(["next", "previous", "prev", "first", "last"]);

function checkSort(op: OperationSpec, sort: string): string {
  const spec = RESOURCES[op.resource];
  for (const part of sort.split(",")) {
    const m = SORT.exec(part);
    if (!m) {
      throw new TypeError(
        `${op.id}: sort "${sort}" is not <property>:asc or <property>:desc (comma-separated)`,
      );
    }
    const field = spec.byName.get(m[1]!);
    if (!field || field.hidden) {
      throw new TypeError(`${op.id}: cannot sort on "${m[1]}", not a field of ${op.resource}`);
    }
  }
  return sort.split(",").map((p) => p.trim()).join(",");
}

/**
 * The filter text to send for an operation: text is parsed and validated, a tree validated and
 * printed. Throws before any request is sent.
 */
function filterText(
  op: OperationSpec,
  filter: string | FilterNode,
  emit?: (event: ClientEvent) => void,
): string | undefined {
  if (op.query !== "Q1") {
    throw new TypeError(`${op.id} does not take a filter (query set ${op.query})`);
  }
  // Unknown fields are the server's to judge (the real service knows fields samkit may not);
  // wrong operators and values on known fields, and secrets, are still refused here.
  const lenient = {
    unknownFields: "warn" as const,
    onWarning: (w: FilterFieldWarning) =>
      emit?.({ type: "filterWarning", op: op.id, field: w.field, message: w.message }),
  };
  if (typeof filter === "string") {
    if (filter.trim() === "") return undefined;
    validateFilter(parseFilter(filter), RESOURCES[op.resource], lenient);
    return filter.trim();
  }
  validateFilter(filter, RESOURCES[op.resource], lenient);
  return printFilter(filter);
}

/**
 * A client for the SAM API.
 *
 * @example Client credentials from options; progress from events
 * ```ts
 * import { createClient } from "./client.ts";
 * import { startServer } from "../server/server.ts";
 * const srv = await startServer({ computers: 50, quiet: true });
 * const client = createClient({
 *   baseUrl: srv.url,
 *   clientId: "demo",
 *   clientSecret: "demo-secret",
 *   onEvent: (e) => e.type === "page" && console.log(`page ${e.pageNumber}: ${e.items} items`),
 * });
 * const computers = await client.estate.computers({ filter: "isVirtual -eq true" }).toArray();
 * const detail = await client.estate.computer(computers[0].id!);
 * console.log(detail.lastScanDate instanceof Date, client.stats.requests);
 * await srv.close();
 * ```
 */
export function createClient(options: ClientOptions = {}): SamClient {
  const env = options.env ?? readEnv;
  const baseUrl = resolveBaseUrl(options);
  const prefixes = areaPrefixes(options);
  const registry = new RegistryPrefix(registryPrefixes(options));
  const authOptions: AuthOptions | undefined = options.auth ??
    (options.clientId !== undefined || options.clientSecret !== undefined
      ? {
        clientId: options.clientId ?? "",
        clientSecret: options.clientSecret ?? "",
        ...(options.tokenUrl ? { tokenUrl: options.tokenUrl } : {}),
        ...(options.refreshMarginMs === undefined
          ? {}
          : { refreshMarginMs: options.refreshMarginMs }),
      }
      : options.token !== undefined
      ? { token: options.token }
      : options.tokenProvider
      ? { tokenProvider: options.tokenProvider }
      : undefined);
  const auth = createAuth(authOptions, env);
  const stats = createStats();
  const request = createRequest({ ...options, baseUrl, auth, stats });
  const defaultPageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const defaultParallel = options.parallel;

  const pathOf = (
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    prefix = op.area === "registry" ? registry.current : prefixes[op.area],
  ): string => {
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && v !== null) clean[k] = String(v);
    }
    const full = expandPath(op, clean);
    return prefix + full.slice(AREA_PREFIX[op.area].length);
  };

  /** Rethrows an error, a 403 naming the operation and the scope it needs. */
  const naming = (op: OperationSpec) => (error: unknown): never => {
    throw error instanceof PermissionError ? error.forOperation(op) : error;
  };

  /** Runs one call at the operation's path; a registry call under the detected prefix. */
  const atPath = <T>(
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    call: (path: string) => Promise<T>,
  ): Promise<T> =>
    (op.area === "registry"
      ? registry.use((prefix) => call(pathOf(op, params, prefix)))
      : call(pathOf(op, params))).catch(naming(op));

  const pageSizeOf = (op: OperationSpec, requested: number | undefined): number => {
    const size = requested ?? defaultPageSize;
    if (!Number.isInteger(size) || size < 1) {
      throw new RangeError(`${op.id}: pageSize must be a positive integer, not ${size}`);
    }
    return op.query === "QC" ? size : Math.min(size, MAX_PAGE_SIZE);
  };

  const shapeContext = (op: OperationSpec, path: string): ShapeContext => ({
    operation: op.id,
    path,
    resource: op.resource,
    scrub: (text) => request.redactor.scrub(text),
  });

  const emitPage = <T>(op: OperationSpec, path: string, page: Page<T>) => {
    stats.itemsFetched += page.items.length;
    request.emit({
      type: "page",
      op: op.id,
      path,
      pageNumber: page.pageNumber,
      items: page.items.length,
      ...(page.totalPages === undefined ? {} : { totalPages: page.totalPages }),
      ...(page.totalItems === undefined ? {} : { totalItems: page.totalItems }),
    });
  };

  /** A `nodes` answer (the organisation tree): one unpaged read, checked and normalised. */
  function nodesCollection<N extends ResourceName>(
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    options: FilterOptions = {},
  ): Paged<Resource<N>> {
    if (options.filter !== undefined) filterText(op, options.filter); // Throws: no filter here.
    const path = pathOf(op, params);
    const ctx = shapeContext(op, path);
    const normalise = createNormaliser(op.resource as N);
    return paginate<Resource<N>>({
      pageSize: Number.MAX_SAFE_INTEGER,
      keyOf: (item: object) => itemKey(item, hasId(op.resource)),
      source: { operation: op.id, path },
      ...(options.signal ? { signal: options.signal } : {}),
      onPage: (page) => emitPage(op, path, page),
      fetchPage: async (pageNumber, _size, signal) => {
        const res = await request({ path, ...(signal ? { signal } : {}) }).catch(naming(op));
        const nodes = nodesOf(ctx, res.body);
        return {
          pageNumber,
          items: nodes.map((raw, i) => normalise(checkObject(ctx, raw, `node ${i + 1}`))),
        };
      },
    });
  }

  function collection<N extends ResourceName>(
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    options: FilterOptions = {},
  ): Paged<Resource<N>> {
    const paged = serverCollection<N>(op, params, options);
    if (!op.filterBeyondSpec || options.filter === undefined) return paged;
    // A spec server may ignore this filter: apply it to what comes back too, when samkit knows
    // every field it names (else the server alone judges it, and a warning said so).
    const node = typeof options.filter === "string"
      ? (options.filter.trim() === "" ? undefined : parseFilter(options.filter))
      : options.filter;
    const resource = RESOURCES[op.resource];
    if (!node || validateFilter(node, resource, { unknownFields: "warn" }).length) return paged;
    const keep = filterPredicate(node, resource);
    return filterPaged(paged, (item) => keep(item as Record<string, unknown>));
  }

  function serverCollection<N extends ResourceName>(
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    options: FilterOptions = {},
  ): Paged<Resource<N>> {
    if (op.shape === "nodes") return nodesCollection<N>(op, params, options);
    if (op.shape === "object" && !op.eitherShape) {
      throw new RangeError(`${op.id} returns one object, not a collection`);
    }
    const filter = options.filter === undefined
      ? undefined
      : filterText(op, options.filter, request.emit);
    const sort = options.sort === undefined || options.sort.trim() === ""
      ? undefined
      : checkSort(op, options.sort);
    const pageSize = pageSizeOf(op, options.pageSize);
    const parallel = options.parallel ?? defaultParallel;
    const normalise = createNormaliser(op.resource as N);
    const itemOf = (ctx: ShapeContext) => (raw: unknown, what?: string) =>
      normalise(checkObject(ctx, raw, what));
    const integrity = {
      keyOf: (item: object) => itemKey(item, hasId(op.resource)),
      sameOnPage: !hasId(op.resource),
      source: {
        operation: op.id,
        // A getter: a registry path is known once its prefix is detected.
        get path() {
          return pathOf(op, params);
        },
        ...(filter === undefined ? {} : { filter: request.redactor.scrub(filter) }),
      },
    };
    const query = (pageNumber: number) => ({
      page_size: pageSize,
      page_number: pageNumber,
      filter,
      sort,
    });

    if (op.shape === "flatCollection") {
      const path = pathOf(op, params);
      const ctx = shapeContext(op, path);
      const toItem = itemOf(ctx);
      return followPages<Resource<N>>({
        pageSize,
        ...integrity,
        ...(options.signal ? { signal: options.signal } : {}),
        onPage: (page) => emitPage(op, path, page),
        toItem: (raw) => withoutPagingLinks(toItem(raw)),
        fetch: async (href, pageNumber, signal) => {
          try {
            const res = await request({
              path: href ?? path,
              ...(href === undefined ? { query: query(pageNumber) } : {}),
              ...(signal ? { signal } : {}),
            });
            return flatBody(ctx, res.body);
          } catch (error) {
            if (error instanceof NotFoundError) return null;
            return naming(op)(error);
          }
        },
      });
    }

    return paginate<Resource<N>>({
      pageSize,
      ...integrity,
      // License and connector collections carry no total_items: each read is read again and
      // compared. The registry's (reference data: names, metrics, families) is not.
      verifyUntotalled: op.area === "licenses" || op.area === "connectors",
      ...(parallel ? { parallel } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onPage: (page) => emitPage(op, pathOf(op, params), page),
      fetchPage: (pageNumber, size, signal) =>
        atPath(op, params, async (path) => {
          const res = await request({
            path,
            query: { ...query(pageNumber), page_size: size },
            ...(signal ? { signal } : {}),
          });
          const ctx = shapeContext(op, path);
          return op.eitherShape
            ? eitherShapePage({ ...ctx, scope: op.scope, params }, res.body, pageNumber, itemOf)
            : readEnvelope(ctx, res.body, pageNumber, itemOf(ctx));
        }),
    });
  }
  async function object<N extends ResourceName>(
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    options: CallOptions = {},
    body?: { value: unknown; contentType?: string; idempotent: boolean },
  ): Promise<Resource<N>> {
    if (op.shape !== "object" || op.eitherShape) {
      throw new RangeError(`${op.id} returns a collection`);
    }
    return await atPath(op, params, async (path) => {
      const res = await request({
        method: op.method,
        path,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(body
          ? {
            body: body.value,
            idempotent: body.idempotent,
            ...(body.contentType ? { contentType: body.contentType } : {}),
          }
          : {}),
      });
      const ctx = { ...shapeContext(op, path), scope: op.scope, params };
      return createNormaliser(op.resource as N)(checkObject(ctx, res.body));
    });
  }

  /**
   * One cluster by id, whichever shape `GET /dcc/{id}` answers in (see `cluster_detail.ts`):
   * the document's hypervisor types are read past, and the cluster is then taken from the list.
   */
  async function clusterById(op: OperationSpec, id: string, options: CallOptions = {}) {
    if (typeof id !== "string" && typeof id !== "number") {
      throw new TypeError(`${op.id}: path parameter "id" must be a string`);
    }
    const params = { id: String(id) };
    const raw = await atPath(op, params, async (path) => {
      const res = await request({ path, ...(options.signal ? { signal: options.signal } : {}) });
      return clusterFromDetail(
        { ...shapeContext(op, path), scope: op.scope, params },
        res.body,
        params.id,
      );
    });
    if (raw) return createNormaliser("DataCenterCluster")(raw);
    const list = OPERATIONS.find((o) => o.id === "estate.dataCenterClusters")!;
    const wanted = params.id.trim().toLowerCase();
    for await (
      const c of collection<"DataCenterCluster">(list, {}, {
        ...options,
        filter: eq("id", params.id),
      })
    ) {
      if (String(c.id ?? "").trim().toLowerCase() === wanted) return c;
    }
    const path = pathOf(op, params);
    throw new NotFoundError({
      status: 404,
      method: "GET",
      path,
      message:
        `${op.id}: ${path} answered hypervisor types and /dcc lists no cluster "${params.id}"`,
    });
  }

  const remember = (values: object | undefined) => {
    for (const [k, v] of Object.entries(values ?? {})) {
      if (/key|secret|password|token/i.test(k)) request.redactor.add(v);
    }
  };

  const configurationBody = (c: ConnectorConfiguration) => {
    if (!c || (c.type !== "ProviderAStore" && c.type !== "ProviderBBlob")) {
      throw new TypeError('connector type must be "ProviderAStore" or "ProviderBBlob"');
    }
    if (!c.connectionDetails || typeof c.connectionDetails !== "object") {
      throw new TypeError("connectionDetails is required");
    }
    remember(c.connectionDetails);
    return { type: c.type, connectionDetails: c.connectionDetails };
  };

  const special: Record<string, (op: OperationSpec) => (...args: never[]) => unknown> = {
    "estate.dataCenterCluster": (op) => (id: string, o?: CallOptions) => clusterById(op, id, o),
    "connectors.add": (op) => async (c: ConnectorConfiguration, o?: CallOptions) =>
      await object(op, {}, o, { value: configurationBody(c), idempotent: false }),
    "connectors.test": (op) => async (c: ConnectorConfiguration, o?: CallOptions) =>
      await object(op, {}, o, { value: configurationBody(c), idempotent: true }),
    "connectors.validateReportName": (op) => async (c: ReportNameCheck, o?: CallOptions) => {
      if (!c || typeof c.name !== "string" || c.name === "") {
        throw new TypeError("validateReportName: name is required");
      }
      if (c.type !== "ProviderAStore" && c.type !== "ProviderBBlob") {
        throw new TypeError('connector type must be "ProviderAStore" or "ProviderBBlob"');
      }
      return await object(op, {}, o, {
        value: { type: c.type, name: c.name },
        idempotent: true,
      });
    },
    "connectors.updateCredentials":
      (op) => async (id: string, credentials: ConnectorCredentials, o?: CallOptions) => {
        if (!credentials || typeof credentials !== "object") {
          throw new TypeError("updateCredentials: credentials are required");
        }
        remember(credentials);
        return await object(op, { id }, o, {
          value: { credentials },
          contentType: "application/merge-patch+json",
          idempotent: false,
        });
      },
  };

  const areas: Record<Area, Record<string, unknown>> = {
    estate: {},
    licenses: {},
    registry: {},
    connectors: {},
    organizations: {},
  };
  for (const op of OPERATIONS) {
    const name = op.id.slice(op.id.indexOf(".") + 1);
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const byPosition = (args: unknown[]) => {
      const params: Record<string, string> = {};
      names.forEach((n, i) => {
        const v = args[i];
        if (typeof v !== "string" && typeof v !== "number") {
          throw new TypeError(`${op.id}: path parameter "${n}" must be a string`);
        }
        params[n] = String(v);
      });
      return params;
    };
    areas[op.area][name] = special[op.id]?.(op) ??
      (op.shape === "object" && !op.eitherShape
        ? (...args: unknown[]) => {
          try {
            return object(op, byPosition(args), args[names.length] as CallOptions | undefined);
          } catch (error) {
            return Promise.reject(error);
          }
        }
        : (...args: unknown[]) =>
          collection(op, byPosition(args), args[names.length] as FilterOptions | undefined));
  }

  const byId = (id: string) => {
    const op = OPERATIONS.find((o) => o.id === id);
    if (!op) throw new RangeError(`Unknown operation "${id}"`);
    return op;
  };

  return {
    source: baseUrl,
    registryPrefix: registry,
    stats,
    request,
    estate: areas.estate as unknown as EstateApi,
    licenses: areas.licenses as unknown as LicensesApi,
    registry: areas.registry as unknown as RegistryApi,
    connectors: areas.connectors as unknown as ConnectorsApi,
    organizations: areas.organizations as unknown as OrganizationsApi,
    collection: <N extends ResourceName>(
      id: string,
      params: Readonly<Record<string, string>> = {},
      options?: FilterOptions,
    ) => collection<N>(byId(id), params, options),
    object: <N extends ResourceName>(
      id: string,
      params: Readonly<Record<string, string>> = {},
      options?: CallOptions,
    ) => {
      const op = byId(id);
      if (op.method !== "GET") {
        return Promise.reject(new RangeError(`${id} is a write; call client.${id}(…)`));
      }
      return object<N>(op, params, options);
    },
  };
}

/**
 * Reads a collection envelope into a page, checking its shape and each item's, and normalising
 * each item. The page number is the one the response reports, else the one asked for.
 */
function readEnvelope<T>(
  ctx: ShapeContext,
  body: unknown,
  pageNumber: number,
  toItem: (raw: unknown, what: string) => T,
): Page<T> {
  const { items, pagination } = checkEnvelope(ctx, body);
  return {
    items: items.map((raw, i) => toItem(raw, `item ${i + 1} of page ${pageNumber}`)),
    ...pagination,
    pageNumber: pagination.pageNumber ?? pageNumber,
  };
}

/**
 * A page of an operation answered either as an envelope (read as one) or as one object: the
 * object is page 1's only item, checked like an object fetched by its path (`ctx` carries the
 * scope); a later page of the object form is empty. Never an envelope read as an object.
 */
function eitherShapePage<T>(
  ctx: ShapeContext,
  body: unknown,
  pageNumber: number,
  itemOf: (ctx: ShapeContext) => (raw: unknown, what: string) => T,
): Page<T> {
  const isObject = body !== null && typeof body === "object" && !Array.isArray(body);
  if (isObject && ("items" in body || "pagination" in body)) {
    const { scope: _scope, params: _params, ...plain } = ctx;
    return readEnvelope(plain, body, pageNumber, itemOf(plain));
  }
  if (pageNumber > 1) return { items: [], pageNumber };
  // One object is a whole answer: counted as such, it needs no second read to verify.
  return {
    items: [itemOf(ctx)(body, "the response")],
    pageNumber: 1,
    totalPages: 1,
    totalItems: 1,
  };
}

/**
 * A flat-collection response checked: an envelope (anything with `items`) must be a valid one;
 * a flat object is checked as an item by `toItem`.
 */
function flatBody(ctx: ShapeContext, body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return checkObject(ctx, body); // Throws: not an object.
  }
  if ("items" in body) checkEnvelope(ctx, body);
  return body as Record<string, unknown>;
}

/** The `nodes` array of a tree answer; a {@link ShapeError} when there is none. */
function nodesOf(ctx: ShapeContext, body: unknown): unknown[] {
  const nodes = body !== null && typeof body === "object" && !Array.isArray(body)
    ? (body as Record<string, unknown>).nodes
    : undefined;
  if (Array.isArray(nodes)) return nodes;
  const scrub = ctx.scrub ?? ((t: string) => t);
  throw new ShapeError({
    operation: ctx.operation,
    path: ctx.path,
    resource: ctx.resource,
    problem: "the response has no nodes array",
    received: scrub(describeReceived(body)),
  });
}

/** Whether a resource's objects carry an `id` (the key of the duplicate check). */
function hasId(resource: ResourceName): boolean {
  const id = RESOURCES[resource].byName.get("id");
  return id !== undefined && !id.hidden;
}

/** A flat-collection item without the page's next/previous/first/last links. */
function withoutPagingLinks<T extends { links?: Link[] }>(item: T): T {
  if (item.links) item.links = item.links.filter((l) => !PAGING_RELS.has(l.rel.toLowerCase()));
  return item;
}

/** The client's areas (estate, licenses, registry, connectors, organizations). */
export type ClientArea = "estate" | "licenses" | "registry" | "connectors" | "organizations";

/**
 * The slice of the SAM client a report reads, named per area: what a definition needs, and all
 * a test double must provide.
 *
 * @example
 * ```ts
 * import type { ClientSlice } from "./client.ts";
 * type StaleClient = ClientSlice<{ estate: "computers" | "computer"; organizations: "tree" }>;
 * const uses: (keyof StaleClient)[] = ["estate", "organizations"];
 * console.log(uses.length); // 2
 * ```
 */
export type ClientSlice<S extends { readonly [A in ClientArea]?: keyof SamClient[A] }> = {
  readonly [A in keyof S & ClientArea]: Pick<SamClient[A], S[A] & keyof SamClient[A]>;
};
