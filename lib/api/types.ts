/**
 * Named types of every resource of the catalogue, as the client returns them (normalised:
 * numbers are numbers, dates are `Date`s, links under `links`), plus the client's shared types.
 * A field the spec renamed is there under both names (`isVendorDRS` and `isVMwareDRS`), and the
 * real service's untyped fields (`License.upgrades`, `RegistryApplication.metrics`) as `unknown`.
 *
 * @example
 * ```ts
 * import type { Computer, LicenseDetail } from "./types.ts";
 * const describe = (c: Computer) => `${c.hostName} (${c.isVirtual ? "virtual" : "physical"})`;
 * const keys = (l: LicenseDetail) => l.licenseKeys; // sensitive: never print it
 * console.log(typeof describe, typeof keys); // "function" "function"
 * ```
 *
 * @module
 */

import type { Resource } from "./catalogue.ts";

export type { Link, Resource, ResourceName } from "./catalogue.ts";
export type { Page, Paged, ParallelOption } from "./paginate.ts";
export type { ClientEvent, ClientStats } from "./request.ts";

/** The normalised `Computer` resource (spec section 2). */
export type Computer = Resource<"Computer">;
/** The normalised `ComputerDetail` resource (spec section 2). */
export type ComputerDetail = Resource<"ComputerDetail">;
/** The normalised `ComputerContract` resource (spec section 2). */
export type ComputerContract = Resource<"ComputerContract">;
/** The normalised `ComputerCosts` resource (spec section 2). */
export type ComputerCosts = Resource<"ComputerCosts">;
/** The normalised `LogonHistory` resource (spec section 2). */
export type LogonHistory = Resource<"LogonHistory">;
/** The normalised `EnvironmentVariable` resource (spec section 2). */
export type EnvironmentVariable = Resource<"EnvironmentVariable">;
/** The normalised `ComputerApplication` resource (spec section 2). */
export type ComputerApplication = Resource<"ComputerApplication">;
/** The normalised `ComputerApplicationDetail` resource (spec section 2). */
export type ComputerApplicationDetail = Resource<"ComputerApplicationDetail">;
/** The normalised `ApplicationUsage` resource (spec section 2). */
export type ApplicationUsage = Resource<"ApplicationUsage">;
/** The normalised `UserApplicationUsage` resource (spec section 2). */
export type UserApplicationUsage = Resource<"UserApplicationUsage">;
/** The normalised `ApplicationUsageSummary` resource (spec section 2). */
export type ApplicationUsageSummary = Resource<"ApplicationUsageSummary">;
/** The normalised `DisplayAdapter` resource (spec section 2). */
export type DisplayAdapter = Resource<"DisplayAdapter">;
/** The normalised `Drive` resource (spec section 2). */
export type Drive = Resource<"Drive">;
/** The normalised `LogicalDisk` resource (spec section 2). */
export type LogicalDisk = Resource<"LogicalDisk">;
/** The normalised `Monitor` resource (spec section 2). */
export type Monitor = Resource<"Monitor">;
/** The normalised `NetworkAdapter` resource (spec section 2). */
export type NetworkAdapter = Resource<"NetworkAdapter">;
/** The normalised `Processor` resource (spec section 2). */
export type Processor = Resource<"Processor">;
/** The normalised `Hardware` resource (spec section 2). */
export type Hardware = Resource<"Hardware">;
/** The normalised `SocketMap` resource (spec section 2). */
export type SocketMap = Resource<"SocketMap">;
/** The normalised `RegistryEntry` resource (spec section 2). */
export type RegistryEntry = Resource<"RegistryEntry">;
/** The normalised `MetricTracking` resource (spec section 2). */
export type MetricTracking = Resource<"MetricTracking">;
/** The normalised `DataCenterCluster` resource (spec section 2). */
export type DataCenterCluster = Resource<"DataCenterCluster">;
/** The normalised `License` resource (spec section 2). */
export type License = Resource<"License">;
/** The normalised `LicenseDetail` resource (spec section 2). */
export type LicenseDetail = Resource<"LicenseDetail">;
/** The normalised `LicenseUpgrade` resource (spec section 2). */
export type LicenseUpgrade = Resource<"LicenseUpgrade">;
/** The normalised `ComputerTransfer` resource (spec section 2). */
export type ComputerTransfer = Resource<"ComputerTransfer">;
/** The normalised `ComputerTransferDetail` resource (spec section 2). */
export type ComputerTransferDetail = Resource<"ComputerTransferDetail">;
/** The normalised `CustomValueTransfer` resource (spec section 2). */
export type CustomValueTransfer = Resource<"CustomValueTransfer">;
/** The normalised `CustomValueTransferDetail` resource (spec section 2). */
export type CustomValueTransferDetail = Resource<"CustomValueTransferDetail">;
/** The normalised `ApplicationTransferSummary` resource (spec section 2). */
export type ApplicationTransferSummary = Resource<"ApplicationTransferSummary">;
/** The normalised `UserTransfer` resource (spec section 2). */
export type UserTransfer = Resource<"UserTransfer">;
/** The normalised `UserTransferDetail` resource (spec section 2). */
export type UserTransferDetail = Resource<"UserTransferDetail">;
/** The normalised `ComputerTracking` resource (spec section 2). */
export type ComputerTracking = Resource<"ComputerTracking">;
/** The normalised `ComputerTrackingDetail` resource (spec section 2). */
export type ComputerTrackingDetail = Resource<"ComputerTrackingDetail">;
/** The normalised `ApplicationTrackingSummary` resource (spec section 2). */
export type ApplicationTrackingSummary = Resource<"ApplicationTrackingSummary">;
/** The normalised `UserTracking` resource (spec section 2). */
export type UserTracking = Resource<"UserTracking">;
/** The normalised `UserTrackingDetail` resource (spec section 2). */
export type UserTrackingDetail = Resource<"UserTrackingDetail">;
/** The normalised `Policy` resource (spec section 2). */
export type Policy = Resource<"Policy">;
/** The normalised `PolicyField` resource (spec section 2). */
export type PolicyField = Resource<"PolicyField">;
/** The normalised `PolicyFieldDetail` resource (spec section 2). */
export type PolicyFieldDetail = Resource<"PolicyFieldDetail">;
/** The normalised `Entitlement` resource (spec section 2). */
export type Entitlement = Resource<"Entitlement">;
/** The normalised `ComputerApplicationEntitlement` resource (spec section 2). */
export type ComputerApplicationEntitlement = Resource<"ComputerApplicationEntitlement">;
/** The normalised `EntitlementState` resource (spec section 2). */
export type EntitlementState = Resource<"EntitlementState">;
/** The normalised `ExtendedCoverageType` resource (spec section 2). */
export type ExtendedCoverageType = Resource<"ExtendedCoverageType">;
/** The normalised `ExtendedCoverage` resource (spec section 2). */
export type ExtendedCoverage = Resource<"ExtendedCoverage">;
/** The normalised `LicenseCost` resource (spec section 2). */
export type LicenseCost = Resource<"LicenseCost">;
/** The normalised `LicenseCostSummary` resource (spec section 2). */
export type LicenseCostSummary = Resource<"LicenseCostSummary">;
/** The normalised `ComputerAssignment` resource (spec section 2). */
export type ComputerAssignment = Resource<"ComputerAssignment">;
/** The normalised `DatacenterAssignment` resource (spec section 2). */
export type DatacenterAssignment = Resource<"DatacenterAssignment">;
/** The normalised `AssignmentSummary` resource (spec section 2). */
export type AssignmentSummary = Resource<"AssignmentSummary">;
/** The normalised `OrganizationAssignment` resource (spec section 2). */
export type OrganizationAssignment = Resource<"OrganizationAssignment">;
/** The normalised `UserAssignment` resource (spec section 2). */
export type UserAssignment = Resource<"UserAssignment">;
/** The normalised `RegistryApplication` resource (spec section 2). */
export type RegistryApplication = Resource<"RegistryApplication">;
/** The normalised `CloudConnector` resource (spec section 2). */
export type CloudConnector = Resource<"CloudConnector">;
/** The normalised `RetrievalInfo` resource (spec section 2). */
export type RetrievalInfo = Resource<"RetrievalInfo">;
/** The normalised `ComplianceUsage` resource (spec section 2). */
export type ComplianceUsage = Resource<"ComplianceUsage">;
/** The normalised `UniqueResult` resource (spec section 2). */
export type UniqueResult = Resource<"UniqueResult">;
/**
 * The normalised `TestResult` resource (spec section 2). Its nested `status` is spelt out here
 * because `Resource<N>` derives nested objects only for resources that have both string and date
 * fields (catalogue.ts `NestedFields<D>` reads `DeclaredNames<D, "s" | "d">`, which needs both keys).
 */
export type TestResult = Resource<"TestResult"> & {
  status: { code: string | null; message: string | null };
};
