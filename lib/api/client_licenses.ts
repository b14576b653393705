/**
 * The license area of the client (`/api/sam/v1`): licenses, their costs, assignments, upgrades,
 * transfers and tracking, policies, entitlements, extended coverages, compliance summaries and
 * maintenance periods. Every function is the generic one of its operation.
 *
 * @module
 */

import type { Resource } from "./catalogue.ts";
import { bindOperations } from "./client_bind.ts";
import type { ClientCore } from "./client_core.ts";
import type { LicensesFurtherReads } from "./client_further_reads.ts";
import type { CallOptions, FilterOptions, PageOptions } from "./client_options.ts";
import type { Paged } from "./paginate.ts";
import type {
  ApplicationTrackingSummary,
  ApplicationTransferSummary,
  AssignmentSummary,
  ComputerApplicationEntitlement,
  ComputerAssignment,
  ComputerTracking,
  ComputerTrackingDetail,
  ComputerTransfer,
  ComputerTransferDetail,
  CustomValueTransfer,
  CustomValueTransferDetail,
  DatacenterAssignment,
  Entitlement,
  EntitlementState,
  ExtendedCoverage,
  ExtendedCoverageType,
  License,
  LicenseCost,
  LicenseCostSummary,
  LicenseDetail,
  LicenseUpgrade,
  OrganizationAssignment,
  Policy,
  PolicyField,
  PolicyFieldDetail,
  UserAssignment,
  UserTracking,
  UserTrackingDetail,
  UserTransfer,
  UserTransferDetail,
} from "./types.ts";

/**
 * The license area (`/api/sam/v1`).
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
 * const [first] = await client.licenses.list({ pageSize: 1 }).toArray();
 * const license = await client.licenses.get(first.id!);
 * const costs = await client.licenses.costsSummary(first.id!);
 * console.log(license.quantity, license.purchaseDate, costs.totalCost);
 * await server.close();
 * ```
 */
export interface LicensesApi extends LicensesFurtherReads {
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
}

/**
 * The licenses area's functions over the client's core, one per operation.
 *
 * @example
 * ```ts
 * import { createLicensesApi } from "./client_licenses.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { createRequest } from "./request.ts";
 * const api = createLicensesApi(createClientCore({
 *   request: createRequest({ baseUrl: "http://127.0.0.1:8080" }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * }));
 * console.log(typeof api.list); // "function"
 * ```
 */
export function createLicensesApi(core: ClientCore): LicensesApi {
  return bindOperations(core, "licenses") as unknown as LicensesApi;
}
