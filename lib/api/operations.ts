/**
 * The operation table: every operation of the spec (sections 4.2 and 4.3) with the method and
 * path of `routes.md`, its query set, its response shape and how its path parameters select rows.
 * The reference server routes from this table and the client is checked against it.
 *
 * @module
 */

import type { ResourceName } from "./catalogue.ts";

/** The API areas, each under its own path prefix. */
export type Area = "estate" | "licenses" | "registry" | "connectors" | "organizations";

/**
 * The query parameter set of spec 4.1 rule 2: `Q1` paging and filter, `Q2` paging only, `QC`
 * connector paging, `none` no query.
 */
export type QuerySet = "Q1" | "Q2" | "QC" | "none";

/**
 * The response shape:
 * - `collection`: the envelope of spec 2.2 (`items`, `pagination`, links);
 * - `object`: one flat object with `_links`;
 * - `flatCollection`: announced as a collection but sent as one flat object (display adapters,
 *   monitors, entitlement states). The reference server sends one item per page with
 *   `next`/`previous` links, so a client reads them all by following `next`;
 * - `nodes`: one object whose `nodes` array holds every item, unpaged and without links (the
 *   organisation tree of the public service, `/api/organizations/v1/tree`).
 */
export type Shape = "collection" | "object" | "flatCollection" | "nodes";

/** One operation of the spec. */
export interface OperationSpec {
  /** Stable id, `area.name`, also the client's method path (`estate.computers`). */
  readonly id: string;
  /** The spec's name for the operation. */
  readonly summary: string;
  /** The area, which fixes the path prefix. */
  readonly area: Area;
  /** The HTTP method. */
  readonly method: "GET" | "POST" | "PATCH";
  /** The path below the area prefix, with `{param}` placeholders. */
  readonly path: string;
  /** The query set accepted. */
  readonly query: QuerySet;
  /** The response shape. */
  readonly shape: Shape;
  /** The resource returned. */
  readonly resource: ResourceName;
  /** Path parameter → the resource field it selects on. */
  readonly scope: Readonly<Record<string, string>>;
  /** Fixed selections on hidden fields (for tables shared by two operations). */
  readonly fixed: Readonly<Record<string, string>>;
  /**
   * Where the operation documents 404 for an unknown parent: the parameter, and the resource and
   * field that must hold it.
   */
  readonly parent?: {
    readonly param: string;
    readonly resource: ResourceName;
    readonly field: string;
  };
  /** The success status (200, or 201 for a create). */
  readonly status: 200 | 201;
  /**
   * The spec gives the operation no filter (`Q2`) but the public service takes one: the client
   * sends a filter and also applies it to what comes back, so a server that ignores the
   * parameter cannot widen the result.
   */
  readonly filterBeyondSpec?: true;
  /**
   * The spec answers one object (`shape: "object"`) where the public service answers a paged
   * collection: the client reads it as a collection either way, an object as a page of one item.
   */
  readonly eitherShape?: true;
  /** The OAuth2 scope a token needs for it on the public service (see {@link TokenScope}). */
  readonly tokenScope: TokenScope;
}

/**
 * The OAuth2 scope a token needs for an operation on the public service, as its public documents
 * declare it (public-api.md: `sam.computer.r`, `sam.license.r`, `sam.estate.dcc.r`,
 * `sam.application.r`):
 * - `named`: the scope is known, `name`;
 * - `unnamed`: no public document says which scope, and `why` says so in words (a 403 then asks
 *   the tenant administrator rather than naming a scope samkit would have to invent).
 */
export type TokenScope =
  | { readonly kind: "named"; readonly name: string }
  | { readonly kind: "unnamed"; readonly why: string };

/** The path prefix of each area. */
export const AREA_PREFIX: Readonly<Record<Area, string>> = {
  estate: "/api/sam/estate/v1",
  licenses: "/api/sam/v1",
  registry: "/api/sam/softwareregistry/v1",
  connectors: "/api/cloud-cost/v1",
  organizations: "/api/organizations/v1",
};

/** The token endpoint of OAuth2 client credentials (routes.md). */
export const TOKEN_PATH = "/idp/api/connect/token";

type Decl = [
  id: string,
  summary: string,
  method: OperationSpec["method"],
  path: string,
  query: QuerySet,
  shape: Shape,
  resource: ResourceName,
  extra?: {
    scope?: Record<string, string>;
    fixed?: Record<string, string>;
    parent?: OperationSpec["parent"];
    status?: 201;
    filterBeyondSpec?: true;
    eitherShape?: true;
  },
];

const COMPUTER = (param = "id") => ({ param, resource: "ComputerDetail" as const, field: "id" });
const ID = { id: "computerId" };
const DCC = { param: "id", resource: "DataCenterCluster" as const, field: "id" };
const APPLICATION = {
  param: "applicationId",
  resource: "RegistryApplication" as const,
  field: "id",
};

const REGISTRY_APP = { ...APPLICATION, param: "id" };
const USER = { param: "id", resource: "UserAccount" as const, field: "id" };

/**
 * The remaining reads of the public service (public-api.md): the registry's article numbers,
 * families, platforms, types, and each application's compatibility, groups, store, types and
 * bundle; a computer's remote clients; a cluster's applications and a member's features, the
 * hypervisor types; the license assignment types; user discovery and metering. Small lookup
 * lists are collections like every other list, so a server that pages them is read whole.
 */
const FURTHER_READS: Decl[] = [
  [
    "registry.articleNumbers",
    "Get article numbers",
    "GET",
    "/article-numbers",
    "Q1",
    "collection",
    "ArticleNumber",
  ],
  [
    "registry.articleNumber",
    "Get article number",
    "GET",
    "/article-numbers/{id}",
    "none",
    "object",
    "ArticleNumber",
    { scope: { id: "id" } },
  ],
  [
    "registry.compatibility",
    "Get compatible applications",
    "GET",
    "/applications/{id}/compatibility",
    "Q1",
    "collection",
    "RegistryCompatibility",
    { scope: { id: "applicationId" }, parent: REGISTRY_APP },
  ],
  [
    "registry.compatibleApplication",
    "Get compatible application",
    "GET",
    "/applications/{id}/compatibility/{compatibilityId}",
    "none",
    "object",
    "RegistryCompatibility",
    { scope: { id: "applicationId", compatibilityId: "id" } },
  ],
  ["registry.families", "Get families", "GET", "/families", "Q1", "collection", "RegistryFamily"],
  ["registry.family", "Get family", "GET", "/families/{id}", "none", "object", "RegistryFamily", {
    scope: { id: "id" },
  }],
  [
    "registry.groups",
    "Get groups",
    "GET",
    "/applications/{id}/group",
    "Q1",
    "collection",
    "RegistryGroup",
    { scope: { id: "applicationId" }, parent: REGISTRY_APP },
  ],
  [
    "registry.store",
    "Get store",
    "GET",
    "/applications/{id}/store",
    "Q2",
    "collection",
    "RegistryStore",
    { scope: { id: "applicationId" }, parent: REGISTRY_APP },
  ],
  [
    "registry.applicationTypes",
    "Get applications types",
    "GET",
    "/types",
    "Q1",
    "collection",
    "ApplicationType",
  ],
  [
    "registry.typesOfApplication",
    "Get application types",
    "GET",
    "/applications/{id}/types",
    "Q1",
    "collection",
    "RegistryApplicationType",
    { scope: { id: "applicationId" }, parent: REGISTRY_APP },
  ],
  [
    "registry.applicationType",
    "Get application type",
    "GET",
    "/types/{id}",
    "none",
    "object",
    "ApplicationType",
    { scope: { id: "id" } },
  ],
  [
    "registry.bundles",
    "Get bundles",
    "GET",
    "/applications/{id}/bundle",
    "Q1",
    "collection",
    "RegistryBundle",
    { scope: { id: "applicationId" }, parent: REGISTRY_APP },
  ],
  [
    "registry.bundle",
    "Get bundle",
    "GET",
    "/applications/{id}/bundle/{childId}",
    "none",
    "object",
    "RegistryBundle",
    { scope: { id: "applicationId", childId: "id" } },
  ],
  [
    "registry.platforms",
    "Get platforms",
    "GET",
    "/platforms",
    "Q1",
    "collection",
    "RegistryPlatform",
  ],
  [
    "estate.remoteClients",
    "Get computer's remote clients",
    "GET",
    "/computers/{id}/remote-clients",
    "Q1",
    "collection",
    "RemoteClient",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.dccApplications",
    "Get applications",
    "GET",
    "/dcc/{id}/applications",
    "Q1",
    "collection",
    "DccApplication",
    { scope: { id: "clusterId" }, parent: DCC },
  ],
  [
    "estate.dccMemberFeatures",
    "Get features",
    "GET",
    "/dcc/{id}/members/{memberId}/features",
    "Q1",
    "collection",
    "DccMemberFeature",
    { scope: { id: "clusterId", memberId: "memberId" }, parent: DCC },
  ],
  [
    "estate.hypervisorTypes",
    "Get hypervisor types",
    "GET",
    "/dcc-hypervisors",
    "Q1",
    "collection",
    "HypervisorType",
  ],
  [
    "estate.hypervisorType",
    "Get hypervisor type",
    "GET",
    "/dcc-hypervisors/{id}",
    "none",
    "object",
    "HypervisorType",
    { scope: { id: "id" } },
  ],
  [
    "licenses.assignmentTypes",
    "Get assignment types",
    "GET",
    "/assignment-types",
    "Q1",
    "collection",
    "AssignmentType",
  ],
  [
    "estate.userDiscoveries",
    "Get users discovery data",
    "GET",
    "/user-accounts-discovery",
    "Q1",
    "collection",
    "UserDiscovery",
  ],
  [
    "estate.userDiscovery",
    "Get user discovery data",
    "GET",
    "/user-accounts-discovery/{id}",
    "none",
    "object",
    "UserDiscovery",
    { scope: { id: "id" } },
  ],
  [
    "estate.userMeterings",
    "Get users metering data",
    "GET",
    "/user-accounts-metering",
    "Q1",
    "collection",
    "UserMetering",
  ],
  [
    "estate.userMetering",
    "Get user metering data",
    "GET",
    "/user-accounts/{id}/metering",
    "Q1",
    "collection",
    "UserMetering",
    { scope: { id: "userId" }, parent: USER },
  ],
];

const DECLS: Decl[] = [
  // Estate
  ["estate.computers", "Get computers", "GET", "/computers", "Q1", "collection", "Computer"],
  [
    "estate.dataCenterClusters",
    "Get data center clusters",
    "GET",
    "/dcc",
    "Q1",
    "collection",
    "DataCenterCluster",
    { filterBeyondSpec: true },
  ],
  ["estate.computer", "Get computer", "GET", "/computers/{id}", "Q1", "object", "ComputerDetail", {
    scope: { id: "id" },
  }],
  [
    "estate.contracts",
    "Get computer contracts",
    "GET",
    "/computers/{id}/contracts",
    "Q1",
    "collection",
    "ComputerContract",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.costs",
    "Get computer costs",
    "GET",
    "/computers/{id}/costs",
    "none",
    "object",
    "ComputerCosts",
    { scope: ID },
  ],
  [
    "estate.logonHistory",
    "Get computer logon histories",
    "GET",
    "/computers/{id}/logonhistory",
    "Q1",
    "collection",
    "LogonHistory",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.userLogonHistory",
    "Get user computer logon history",
    "GET",
    "/computers-logonhistory/{userid}",
    "Q1",
    "collection",
    "LogonHistory",
    {
      scope: { userid: "userId" },
      parent: { param: "userid", resource: "LogonHistory", field: "userId" },
    },
  ],
  [
    "estate.computerUserLogonHistory",
    "Get computer user logon history",
    "GET",
    "/computers/{id}/logonhistory/{userid}",
    "none",
    "object",
    "LogonHistory",
    { scope: { id: "computerId", userid: "userId" } },
  ],
  [
    "estate.environmentVariables",
    "Get computers environment variables",
    "GET",
    "/computers-environment-variables",
    "Q1",
    "collection",
    "EnvironmentVariable",
  ],
  [
    "estate.computerEnvironmentVariables",
    "Get computer environment variables",
    "GET",
    "/computers/{id}/environment-variables",
    "Q1",
    "collection",
    "EnvironmentVariable",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.computerApplications",
    "Get computer applications",
    "GET",
    "/computers/{id}/applications",
    "Q1",
    "collection",
    "ComputerApplication",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.applications",
    "Get computers applications",
    "GET",
    "/computers-applications",
    "Q1",
    "collection",
    "ComputerApplication",
  ],
  [
    "estate.computerApplication",
    "Get computer application",
    "GET",
    "/computers/{id}/applications/{applicationid}",
    "none",
    "object",
    "ComputerApplicationDetail",
    { scope: { id: "computerId", applicationid: "applicationId" } },
  ],
  [
    "estate.applicationUsage",
    "Get computers application usage",
    "GET",
    "/computers-application-usage",
    "Q1",
    "collection",
    "ApplicationUsage",
  ],
  [
    "estate.userApplicationUsage",
    "Get user computer application usage",
    "GET",
    "/computers-application-user-usage",
    "Q1",
    "collection",
    "UserApplicationUsage",
  ],
  [
    "estate.applicationUsageSummaries",
    "Get computers application usage summary",
    "GET",
    "/computers-application-usage/summaries",
    "Q1",
    "collection",
    "ApplicationUsageSummary",
  ],
  [
    "estate.displayAdapters",
    "Get computer display adapters",
    "GET",
    "/computers/{id}/hardware/displayadapters",
    "Q1",
    "flatCollection",
    "DisplayAdapter",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.hardDrives",
    "Get computer hard drives",
    "GET",
    "/computers/{id}/hardware/harddrives",
    "Q1",
    "collection",
    "Drive",
    { scope: ID, fixed: { kind: "hard" }, parent: COMPUTER() },
  ],
  [
    "estate.opticalDrives",
    "Get computer optical drives",
    "GET",
    "/computers/{id}/hardware/opticaldrives",
    "Q1",
    "collection",
    "Drive",
    { scope: ID, fixed: { kind: "optical" }, parent: COMPUTER() },
  ],
  [
    "estate.hardware",
    "Get computer hardware",
    "GET",
    "/computers/{id}/hardware",
    "none",
    "object",
    "Hardware",
    { scope: ID },
  ],
  [
    "estate.logicalDisks",
    "Get computer logical disk",
    "GET",
    "/computers/{id}/hardware/disks/logical",
    "Q1",
    "collection",
    "LogicalDisk",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.monitors",
    "Get computer monitors",
    "GET",
    "/computers/{id}/hardware/monitors",
    "Q1",
    "flatCollection",
    "Monitor",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.networkAdapters",
    "Get computers network adapters",
    "GET",
    "/computers-networkadapters",
    "Q1",
    "collection",
    "NetworkAdapter",
  ],
  [
    "estate.computerNetworkAdapters",
    "Get computer network adapters",
    "GET",
    "/computers/{id}/hardware/networkadapters",
    "Q1",
    "collection",
    "NetworkAdapter",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.processors",
    "Get computer processors",
    "GET",
    "/computers/{id}/hardware/cpu",
    "Q1",
    "collection",
    "Processor",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.socketMap",
    "Get socket map",
    "GET",
    "/computers/{id}/hardware/cpu/socketmap",
    "none",
    "object",
    "SocketMap",
    { scope: ID },
  ],
  [
    "estate.registry",
    "Get computer registries",
    "GET",
    "/computers/{id}/registry",
    "Q1",
    "collection",
    "RegistryEntry",
    { scope: ID, parent: COMPUTER() },
  ],
  [
    "estate.metrics",
    "Get computers metrics",
    "GET",
    "/computers-metering",
    "Q1",
    "collection",
    "MetricTracking",
  ],
  [
    "estate.computerMetrics",
    "Get computer metrics",
    "GET",
    "/computers/{id}/metering",
    "Q1",
    "collection",
    "MetricTracking",
    { scope: ID, parent: COMPUTER() },
  ],

  // Licenses
  ["licenses.list", "Get licenses", "GET", "/licenses", "Q1", "collection", "License"],
  [
    "licenses.get",
    "Get license details",
    "GET",
    "/licenses/{id}",
    "none",
    "object",
    "LicenseDetail",
    { scope: { id: "id" } },
  ],
  [
    "licenses.upgrades",
    "Get license upgrades",
    "GET",
    "/licenses/{id}/upgrades",
    "Q1",
    "collection",
    "LicenseUpgrade",
    { scope: { id: "licenseId" } },
  ],
  [
    "licenses.upgrade",
    "Get license upgrade details",
    "GET",
    "/licenses/{id}/upgrades/{upgradedLicenseId}",
    "none",
    "object",
    "LicenseUpgrade",
    { scope: { id: "licenseId", upgradedLicenseId: "upgradedLicenseId" } },
  ],
  [
    "licenses.transferSummary",
    "Get application license transfers (summary per application)",
    "GET",
    "/licenses/transfers/{applicationId}",
    "Q1",
    "collection",
    "ApplicationTransferSummary",
    { scope: { applicationId: "applicationId" } },
  ],
  [
    "licenses.computerTransfers",
    "Get application license transfers (computer transfers)",
    "GET",
    "/licenses/transfers/{applicationId}/computers",
    "Q1",
    "collection",
    "ComputerTransfer",
    { scope: { applicationId: "toApplicationId" } },
  ],
  [
    "licenses.computerTransfer",
    "Get application license transfers for a computer",
    "GET",
    "/licenses/transfers/{applicationId}/computers/{computerId}",
    "Q1",
    "object",
    "ComputerTransferDetail",
    { scope: { applicationId: "toApplicationId", computerId: "computerId" }, eitherShape: true },
  ],
  [
    "licenses.customValueTransfers",
    "Get custom value license transfers",
    "GET",
    "/licenses/transfers/{applicationId}/custom-values",
    "Q1",
    "collection",
    "CustomValueTransfer",
    { scope: { applicationId: "toApplicationId" } },
  ],
  [
    "licenses.customValueTransfer",
    "Get license upgrade details (transfers for a custom value)",
    "GET",
    "/licenses/transfers/{applicationId}/custom-values/{customId}",
    "Q1",
    "collection",
    "CustomValueTransferDetail",
    { scope: { applicationId: "toApplicationId", customId: "customCompareValueId" } },
  ],
  [
    "licenses.userTransfers",
    "Get users license transfer details",
    "GET",
    "/licenses/transfers/{applicationId}/users",
    "Q1",
    "collection",
    "UserTransfer",
    { scope: { applicationId: "toApplicationId" } },
  ],
  [
    "licenses.userTransfer",
    "Get user license transfer details",
    "GET",
    "/licenses/transfers/{applicationId}/users/{userId}",
    "Q1",
    "collection",
    "UserTransferDetail",
    { scope: { applicationId: "toApplicationId", userId: "userId" } },
  ],
  [
    "licenses.trackingSummary",
    "Get application license tracking details",
    "GET",
    "/licenses/tracking/{applicationId}",
    "Q1",
    "collection",
    "ApplicationTrackingSummary",
    { scope: { applicationId: "applicationId" } },
  ],
  [
    "licenses.computerTracking",
    "Get computer license tracking for a given application",
    "GET",
    "/licenses/tracking/{applicationId}/computers",
    "Q1",
    "collection",
    "ComputerTracking",
    { scope: { applicationId: "applicationId" } },
  ],
  [
    "licenses.computerTrackingDetail",
    "Get application license tracking for a computer",
    "GET",
    "/licenses/tracking/{applicationId}/computers/{computerId}",
    "Q1",
    "collection",
    "ComputerTrackingDetail",
    { scope: { applicationId: "applicationId", computerId: "computerId" } },
  ],
  [
    "licenses.userTracking",
    "Get users license tracking details",
    "GET",
    "/licenses/tracking/{applicationId}/users",
    "Q1",
    "collection",
    "UserTracking",
    { scope: { applicationId: "applicationId" } },
  ],
  [
    "licenses.userTrackingDetail",
    "Get application license tracking for a user",
    "GET",
    "/licenses/tracking/{applicationId}/users/{userId}",
    "Q1",
    "collection",
    "UserTrackingDetail",
    { scope: { applicationId: "applicationId", userId: "userId" } },
  ],
  [
    "licenses.policies",
    "Get license policies",
    "GET",
    "/licenses-policies",
    "Q1",
    "collection",
    "Policy",
  ],
  [
    "licenses.policy",
    "Get license policy details",
    "GET",
    "/licenses-policies/{policyId}",
    "none",
    "object",
    "Policy",
    { scope: { policyId: "id" } },
  ],
  [
    "licenses.policyFields",
    "Get license policy fields",
    "GET",
    "/licenses-policies/{policyId}/fields",
    "Q1",
    "collection",
    "PolicyField",
    { scope: { policyId: "policyId" } },
  ],
  [
    "licenses.policyField",
    "Get license policy field details",
    "GET",
    "/licenses-policies/{policyId}/fields/{fieldId}",
    "none",
    "object",
    "PolicyFieldDetail",
    { scope: { policyId: "policyId", fieldId: "id" } },
  ],
  [
    "licenses.entitlements",
    "Get license entitlements",
    "GET",
    "/licenses-entitlements",
    "Q1",
    "collection",
    "Entitlement",
  ],
  [
    "licenses.computerEntitlements",
    "Get computers applications entitlements",
    "GET",
    "/licenses/entitlements/computers",
    "Q1",
    "collection",
    "ComputerApplicationEntitlement",
  ],
  [
    "licenses.entitlementStates",
    "Get license entitlement states",
    "GET",
    "/licenses/entitlements/entitlement-states",
    "Q2",
    "flatCollection",
    "EntitlementState",
  ],
  [
    "licenses.extendedCoverageTypes",
    "Get license extended coverage types",
    "GET",
    "/licenses-extended-coverage-types",
    "Q1",
    "collection",
    "ExtendedCoverageType",
  ],
  [
    "licenses.extendedCoverages",
    "Get extended coverages",
    "GET",
    "/extended-coverage",
    "Q1",
    "collection",
    "ExtendedCoverage",
  ],
  [
    "licenses.extendedCoverage",
    "Get extended coverage details",
    "GET",
    "/extended-coverage/{coverageId}",
    "none",
    "object",
    "ExtendedCoverage",
    { scope: { coverageId: "id" } },
  ],
  [
    "licenses.costs",
    "Get license costs",
    "GET",
    "/licenses/{id}/costs",
    "Q1",
    "collection",
    "LicenseCost",
    { scope: { id: "licenseId" } },
  ],
  [
    "licenses.organizationCosts",
    "Get a license costs for an organization",
    "GET",
    "/licenses/{id}/costs/{organizationId}",
    "none",
    "object",
    "LicenseCost",
    { scope: { id: "licenseId", organizationId: "organizationId" } },
  ],
  [
    "licenses.costsSummary",
    "Get a license costs summary",
    "GET",
    "/licenses/{id}/costs-summary",
    "none",
    "object",
    "LicenseCostSummary",
    { scope: { id: "licenseId" } },
  ],
  [
    "licenses.assignmentsSummary",
    "Get license assignments summary",
    "GET",
    "/licenses/{id}/assignments-summary",
    "none",
    "object",
    "AssignmentSummary",
    { scope: { id: "licenseId" } },
  ],
  [
    "licenses.computerAssignments",
    "Get computer assignments for a license",
    "GET",
    "/licenses/{id}/assignments/computers",
    "Q1",
    "collection",
    "ComputerAssignment",
    { scope: { id: "licenseId" } },
  ],
  [
    "licenses.computerAssignment",
    "Get assignment details for a computers license",
    "GET",
    "/licenses/{id}/assignments/computers/{assignmentId}",
    "none",
    "object",
    "ComputerAssignment",
    { scope: { id: "licenseId", assignmentId: "id" } },
  ],
  [
    "licenses.datacenterAssignments",
    "Get datacenter license assignments",
    "GET",
    "/licenses/{id}/assignments/datacenters",
    "Q1",
    "collection",
    "DatacenterAssignment",
    { scope: { id: "licenseId" } },
  ],
  [
    "licenses.datacenterAssignment",
    "Get datacenter assignment details for a license",
    "GET",
    "/licenses/{id}/assignments/datacenters/{assignmentId}",
    "Q2",
    "object",
    "DatacenterAssignment",
    { scope: { id: "licenseId", assignmentId: "id" } },
  ],
  [
    "licenses.organizationAssignments",
    "Get organization assignments for a license",
    "GET",
    "/licenses/{id}/assignments/organizations",
    "Q1",
    "collection",
    "OrganizationAssignment",
    { scope: { id: "licenseId" }, fixed: { kind: "organization" } },
  ],
  [
    "licenses.organizationAssignment",
    "Get license details for an organization by assignment",
    "GET",
    "/licenses/{id}/assignments/organizations/{assignmentId}",
    "none",
    "object",
    "OrganizationAssignment",
    { scope: { id: "licenseId", assignmentId: "id" }, fixed: { kind: "organization" } },
  ],
  [
    "licenses.siteAssignment",
    "Get site details for a license",
    "GET",
    "/licenses/{id}/assignments/site",
    "none",
    "object",
    "OrganizationAssignment",
    { scope: { id: "licenseId" }, fixed: { kind: "site" } },
  ],
  [
    "licenses.userAssignments",
    "Get license user assignments",
    "GET",
    "/licenses/{id}/assignments/users",
    "Q1",
    "collection",
    "UserAssignment",
    { scope: { id: "licenseId" } },
  ],
  [
    "licenses.userAssignment",
    "Get license details by users assignment",
    "GET",
    "/licenses/{id}/assignments/users/{assignmentId}",
    "none",
    "object",
    "UserAssignment",
    { scope: { id: "licenseId", assignmentId: "id" } },
  ],

  // Software registry
  [
    "registry.applications",
    "Application registry collection",
    "GET",
    "/applications",
    "Q1",
    "collection",
    "RegistryApplication",
  ],
  [
    "registry.application",
    "One registry application",
    "GET",
    "/applications/{id}",
    "none",
    "object",
    "RegistryApplication",
    { scope: { id: "id" } },
  ],

  // Cloud connectors
  [
    "connectors.list",
    "Get cloud connectors",
    "GET",
    "/connectors",
    "QC",
    "collection",
    "CloudConnector",
  ],
  [
    "connectors.add",
    "Add cloud connector configuration",
    "POST",
    "/connectors",
    "none",
    "object",
    "CloudConnector",
    { status: 201 },
  ],
  [
    "connectors.retrievals",
    "Get retrieval information",
    "GET",
    "/connectors/{id}/retrievals",
    "QC",
    "collection",
    "RetrievalInfo",
    {
      scope: { id: "connectorId" },
      parent: { param: "id", resource: "CloudConnector", field: "id" },
    },
  ],
  [
    "connectors.updateCredentials",
    "Update credentials",
    "PATCH",
    "/connectors/{id}",
    "none",
    "object",
    "CloudConnector",
    { scope: { id: "id" } },
  ],
  [
    "connectors.validateReportName",
    "Validate report name",
    "POST",
    "/connectors/validate-report-name",
    "none",
    "object",
    "UniqueResult",
  ],
  [
    "connectors.test",
    "Test cloud connector configuration",
    "POST",
    "/connectors/test",
    "none",
    "object",
    "TestResult",
  ],

  // Reads of the public service that the spec lacks (public-api.md).
  [
    "estate.virtualMachines",
    "Get computer's virtual machines",
    "GET",
    "/computers/{id}/virtual-machines",
    "Q1",
    "collection",
    "VirtualMachine",
    { scope: { id: "hostComputerId" }, parent: COMPUTER() },
  ],
  [
    "estate.dataCenterCluster",
    "Get datacenter/cluster",
    "GET",
    "/dcc/{id}",
    "none",
    "object",
    "DataCenterCluster",
    { scope: { id: "id" } },
  ],
  [
    "estate.dccMembers",
    "Get members",
    "GET",
    "/dcc/{id}/members",
    "Q1",
    "collection",
    "DccMember",
    { scope: { id: "clusterId" }, parent: DCC },
  ],
  [
    "estate.dccMember",
    "Get member",
    "GET",
    "/dcc/{id}/members/{memberId}",
    "none",
    "object",
    "DccMember",
    { scope: { id: "clusterId", memberId: "id" } },
  ],
  [
    "estate.dccHistory",
    "Get histories",
    "GET",
    "/dcc/{id}/history",
    "Q1",
    "collection",
    "DccHistory",
    { scope: { id: "clusterId" }, parent: DCC },
  ],
  ["estate.userAccounts", "Get users", "GET", "/user-accounts", "Q1", "collection", "UserAccount"],
  [
    "estate.userAccount",
    "Get user",
    "GET",
    "/user-accounts/{id}",
    "none",
    "object",
    "UserAccountDetail",
    { scope: { id: "id" } },
  ],
  [
    "licenses.complianceSummary",
    "Get compliance summary",
    "GET",
    "/compliance/summary/{applicationId}",
    "Q2",
    "collection",
    "ComplianceSummary",
    { scope: { applicationId: "applicationId" }, parent: APPLICATION },
  ],
  [
    "licenses.complianceAllocation",
    "Get compliance allocation summary",
    "GET",
    "/compliance/summary/{applicationId}/allocation",
    "Q2",
    "collection",
    "ComplianceAllocation",
    { scope: { applicationId: "applicationId" }, parent: APPLICATION },
  ],
  [
    "licenses.complianceUsage",
    "Get compliance usage summary",
    "GET",
    "/compliance/summary/{applicationId}/usage",
    "Q2",
    "collection",
    "ComplianceUsage",
    { scope: { applicationId: "applicationId" }, parent: APPLICATION },
  ],
  [
    "licenses.maintenancePeriods",
    "Get maintenance and support periods",
    "GET",
    "/licenses/maintenance-periods",
    "Q1",
    "collection",
    "MaintenancePeriod",
  ],
  [
    "licenses.licenseMaintenancePeriods",
    "Get license's maintenance and support periods",
    "GET",
    "/licenses/{id}/maintenance-periods",
    "Q1",
    "collection",
    "MaintenancePeriod",
    { scope: { id: "licenseId" }, parent: { param: "id", resource: "License", field: "id" } },
  ],
  [
    "licenses.userEntitlements",
    "Get user license entitlements",
    "GET",
    "/licenses/entitlements/users",
    "Q1",
    "collection",
    "UserEntitlement",
  ],
  [
    "licenses.computerLicenseTracking",
    "Get computer license tracking",
    "GET",
    "/licenses/tracking-computers/{computerId}",
    "Q1",
    "collection",
    "ComputerLicenseTracking",
    { scope: { computerId: "computerId" }, parent: COMPUTER("computerId") },
  ],
  [
    "registry.metrics",
    "Get metrics",
    "GET",
    "/applications/{id}/metrics",
    "Q1",
    "collection",
    "RegistryMetric",
    { scope: { id: "applicationId" }, parent: { ...APPLICATION, param: "id" } },
  ],
  [
    "registry.metric",
    "Get metric",
    "GET",
    "/applications/{id}/metrics/{metricId}",
    "none",
    "object",
    "RegistryMetric",
    { scope: { id: "applicationId", metricId: "id" } },
  ],
  ["organizations.tree", "Get organizations", "GET", "/tree", "none", "nodes", "OrganizationNode"],
  [
    "organizations.node",
    "Get organization",
    "GET",
    "/node/{nodeId}",
    "none",
    "object",
    "OrganizationNode",
    { scope: { nodeId: "id" } },
  ],
  ...FURTHER_READS,
];

/** The scopes the public service's documents declare (public-api.md). */
const PUBLIC_SCOPES = "sam.computer.r, sam.license.r, sam.estate.dcc.r and sam.application.r";
const named = (name: string): TokenScope => ({ kind: "named", name });
const unnamed = (why: string): TokenScope => ({ kind: "unnamed", why });

/**
 * The scope of every operation, by area and path: the first rule whose area matches and whose
 * path prefix starts the operation's path decides. Every operation must match one rule.
 */
const SCOPE_RULES: readonly [area: Area, pathPrefix: string, scope: TokenScope][] = [
  ["estate", "/dcc", named("sam.estate.dcc.r")],
  ["estate", "/computers", named("sam.computer.r")],
  [
    "estate",
    "/user-accounts",
    unnamed(
      `the public service's scopes are ${PUBLIC_SCOPES}, but its documents as samkit knows ` +
        "them do not say which one the user-account reads need",
    ),
  ],
  ["licenses", "/", named("sam.license.r")],
  ["registry", "/", named("sam.application.r")],
  [
    "organizations",
    "/",
    unnamed(
      `the public service's scopes are ${PUBLIC_SCOPES}, but its documents as samkit knows ` +
        "them do not say which one the organisation reads need",
    ),
  ],
  [
    "connectors",
    "/",
    unnamed(
      "no public document describes the cloud-connector API (its path is samkit's guess), so " +
        "samkit cannot name the scope it needs",
    ),
  ],
];

function tokenScopeOf(id: string, area: Area, path: string): TokenScope {
  const rule = SCOPE_RULES.find(([a, prefix]) => a === area && path.startsWith(prefix));
  if (!rule) throw new Error(`${id}: no token scope rule covers ${area} ${path}`);
  return rule[2];
}

/**
 * Every operation of the spec, in the order of routes.md.
 *
 * @example List the estate's paths
 * ```ts
 * import { OPERATIONS } from "./operations.ts";
 * for (const op of OPERATIONS.filter((o) => o.area === "estate")) console.log(op.method, op.path);
 * ```
 */
export const OPERATIONS: readonly OperationSpec[] = DECLS.map((
  [id, summary, method, path, query, shape, resource, extra = {}],
) => ({
  id,
  summary,
  area: id.split(".")[0] as Area,
  method,
  path,
  query,
  shape,
  resource,
  scope: extra.scope ?? {},
  fixed: extra.fixed ?? {},
  ...(extra.parent ? { parent: extra.parent } : {}),
  status: extra.status ?? 200,
  ...(extra.filterBeyondSpec ? { filterBeyondSpec: true as const } : {}),
  ...(extra.eitherShape ? { eitherShape: true as const } : {}),
  tokenScope: tokenScopeOf(id, id.split(".")[0] as Area, path),
}));

/**
 * The operation with the given id; throws for an unknown id.
 *
 * @example
 * ```ts
 * import { operation } from "./operations.ts";
 * console.log(operation("licenses.costsSummary").path); // "/licenses/{id}/costs-summary"
 * ```
 */
export function operation(id: string): OperationSpec {
  const op = OPERATIONS.find((o) => o.id === id);
  if (!op) throw new RangeError(`Unknown operation "${id}"`);
  return op;
}

/**
 * The full path of an operation with its parameters filled in (each URI-encoded).
 *
 * @example
 * ```ts
 * import { operation, expandPath } from "./operations.ts";
 * console.log(expandPath(operation("estate.computer"), { id: "C 1" }));
 * // "/api/sam/estate/v1/computers/C%201"
 * ```
 */
export function expandPath(op: OperationSpec, params: Readonly<Record<string, string>>): string {
  return AREA_PREFIX[op.area] + op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") {
      throw new TypeError(`${op.id}: path parameter "${name}" is required`);
    }
    return encodeURIComponent(value);
  });
}
