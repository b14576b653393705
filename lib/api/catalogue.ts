/**
 * The field catalogue: every resource of the SAM API spec (section 2) with its fields, their
 * types, their wire quirks and whether they are sensitive. The reference server, the client's
 * normaliser, the filter validator and the reports all read from this one place.
 *
 * @module
 */

import type { FlagEnumName } from "./flag_enums.ts";

export type { FlagEnumName } from "./flag_enums.ts";

/**
 * The type a field has after normalisation (the spec's s, n, b, d and Set of s). A flag enum
 * (`incompleteReasons`) is a Set of s: the names of its bits (see {@link FieldSpec.flags}).
 */
export type FieldType = "string" | "number" | "boolean" | "date" | "strings";

/**
 * How a field travels on the wire when it differs from its type:
 * - `string`: a number or boolean sent as a string (`"12"`, `"true"`);
 * - `licenseDate`: a date in the `M/d/yyyy h:mm:ss AM` form of license resources.
 */
export type WireQuirk = "string" | "licenseDate";

/**
 * Where a field is documented: `spec` only in the spec (the real service does not send it), `real`
 * only by the real service (the spec lacks it; the reference server serves it too). A field of
 * both has no origin.
 */
export type FieldOrigin = "spec" | "real";

/** One field of a resource. */
export interface FieldSpec {
  /** The field's name as the API spells it; a dotted name (`status.type`) is a nested field. */
  readonly name: string;
  /** The type after normalisation. */
  readonly type: FieldType;
  /** Sensitive content: never shown in a report, log or error unless asked for by name. */
  readonly sensitive: boolean;
  /** How the field is sent when it differs from its type. */
  readonly wire?: WireQuirk;
  /** Stored by the reference server but never sent (scoping columns, secrets). */
  readonly hidden: boolean;
  /** Documented by one side only (absent: by both). */
  readonly origin?: FieldOrigin;
  /**
   * The real service's name of a field the spec renamed (`isVMwareDRS` for `isVendorDRS`): an
   * alias, read, filtered on and normalised like the field itself.
   */
  readonly realName?: string;
  /**
   * A flag enum of the vendor's documents (`IncompleteLicenseReason`, …): the field is sent as a
   * bitmask, an array of names or comma-separated names, and normalised to the list of names
   * (`flag_enums.ts`). Its type is `strings`.
   */
  readonly flags?: FlagEnumName;
  /**
   * A money amount (a cost, price or value in a currency): read within the money bound of
   * `number_range.ts` (at most 9,999,999,999,999.99 in magnitude) rather than the general one.
   */
  readonly money?: true;
}

/** Which link-array name a resource's items carry. */
export type LinksName = "_links" | "links" | null;

/** Compact declaration of a resource: field names grouped by type. */
interface ResourceDecl {
  readonly s?: readonly string[];
  readonly n?: readonly string[];
  readonly b?: readonly string[];
  readonly d?: readonly string[];
  readonly sa?: readonly string[];
  /** Storage-only fields (never sent). */
  readonly hidden?: readonly string[];
  readonly sensitive?: readonly string[];
  readonly wireString?: readonly string[];
  readonly licenseDate?: readonly string[];
  readonly links?: LinksName;
  /** The reference server's table that holds this resource's rows. */
  readonly table: string;
  /** Field name → storage column, where the API spells a column differently. */
  readonly columns?: Readonly<Record<string, string>>;
  /** Fields the real service sends and the spec lacks (served by the reference server too). */
  readonly realOnly?: readonly string[];
  /** Fields of the spec the real service does not send. */
  readonly specOnly?: readonly string[];
  /** Spec name → the real service's name of the same field. */
  readonly aliases?: Readonly<Record<string, string>>;
  /**
   * Real-only fields holding arrays or objects (`upgrades`, `metrics`, `virtualMachines`): known
   * by name, passed through as sent, neither typed, stored, nor checked in filters.
   */
  readonly untyped?: readonly string[];
  /** Flag-enum fields (declared in `sa`) → the enum of the vendor's documents. */
  readonly flags?: Readonly<Record<string, FlagEnumName>>;
}

/** The words of a whitespace-separated list. */
const w = (text: string): string[] => text.trim().split(/\s+/);

/**
 * Every resource of the spec, declared compactly: field names grouped by type (`s` string, `n`
 * number, `b` boolean, `d` date, `sa` list of strings; `hidden` stored, never sent), with the
 * storage table, renamed and real-only fields. The source of {@link RESOURCES} and of the
 * {@link Resource} types; read {@link RESOURCES} for the fields resolved.
 *
 * @example
 * ```ts
 * import { RESOURCE_DECLARATIONS } from "./catalogue.ts";
 * console.log(RESOURCE_DECLARATIONS.Policy.table); // "policies"
 * ```
 */
export const RESOURCE_DECLARATIONS = {
  // 2.3 Estate
  Computer: {
    table: "computers",
    s: [
      "id",
      "hostName",
      "mostFrequentUser",
      "mostRecentUser",
      "manufacturer",
      "model",
      "operatingSystem",
      "vendor",
      "domain",
      "ipAddress",
      "status",
      "organizationId",
      "hostComputerId",
    ],
    n: ["processorCount", "coreCount"],
    b: ["isPortable", "isVirtual", "isServer", "isVDI"],
    d: ["lastScanDate"],
    columns: { isVDI: "isVdi" },
    realOnly: ["hostComputerId", "processorCount", "coreCount"],
  },
  ComputerDetail: {
    table: "computers",
    s: [
      "id",
      "scanIdentifier",
      "hostName",
      "domain",
      "biosSerialNumber",
      "biosVersion",
      "manufacturer",
      "model",
      "clientVersion",
      "clientSiteName",
      "clientConfigurationName",
      "scannerVersion",
      "operatingSystem",
      "operatingSystemServicePack",
      "operatingSystemSerialNumber",
      "ipAddress",
      "hostComputerId",
      "siblingComputerId",
      "hypervisorName",
      "architecture",
      "organizationId",
      "status",
      "purchaseCurrency",
      "invoiceReference",
      "notes",
      "securityCode",
      "mostRecentUser",
      "mostFrequentUser",
      "vendor",
      "manufacturerWebsite",
      "operatingSystemId",
    ],
    d: [
      "lastScanDate",
      "biosDate",
      "infoTransferDate",
      "clientInstallDate",
      "quarantineDate",
      "reportingDate",
      "purchaseDate",
      "updatedDate",
    ],
    b: [
      "isPortable",
      "isQuarantineManagementDisabled",
      "isVirtual",
      "isUpdated",
      "is64bit",
      "isServer",
      "isVdi",
      "isAutoEditingDisabled",
      "isIncludedInServerOsRequirement",
    ],
    n: ["processorValueUnit", "purchaseValue", "purchaseValueBase", "processorCount", "coreCount"],
    sensitive: ["securityCode"],
    realOnly: ["manufacturerWebsite", "operatingSystemId", "processorCount", "coreCount"],
    aliases: { isIncludedInServerOsRequirement: "isIncludedInWindowsServerRequirement" },
  },
  ComputerContract: { table: "computer_contracts", s: ["computerId", "contractId"] },
  ComputerCosts: {
    table: "computer_costs",
    s: ["computerId", "vendor", "purchaseCurrency", "invoiceReference"],
    d: ["purchaseDate"],
    n: ["purchasePrice", "totalCostOfInstalledApplications", "totalCost", "purchaseValueBase"],
    realOnly: ["purchaseValueBase"],
  },
  LogonHistory: {
    table: "logon_history",
    s: ["computerId", "userId"],
    d: ["lastLogon"],
    n: ["logonCount"],
  },
  EnvironmentVariable: {
    table: "environment_variables",
    s: ["computerId", "environmentVariableName", "environmentVariableValue"],
  },
  ComputerApplication: {
    table: "computer_applications",
    s: ["computerId", "applicationId", "bundleApplicationId", "averageUsedTime"],
    d: ["firstDiscovered", "lastUsed"],
    n: ["usedCount", "bundleUsagePercentage"],
    b: ["isVirtual", "isInstalled", "unbundled"],
    realOnly: ["bundleUsagePercentage", "unbundled"],
  },
  ComputerApplicationDetail: {
    table: "computer_applications",
    s: ["computerId", "applicationId", "bundleApplicationId", "packageGUID", "averageUsedTime"],
    d: ["firstDiscovered", "firstUsed", "lastUsed"],
    n: ["usedCount", "usedUser", "usedMinutes", "usedDays"],
    b: [
      "isInstalled",
      "isOEM",
      "isVendorDN",
      "isVirtual",
      "isOverridden",
      "isRecognized",
      "isRegistry",
      "unbundled",
    ],
    realOnly: ["unbundled"],
    aliases: { isVendorDN: "isMSDN" },
  },
  ApplicationUsage: {
    table: "application_usage",
    s: ["computerId", "userId", "bundleApplicationId", "applicationId"],
    d: ["firstUsed", "lastUsedDate"],
    n: ["usedCount", "usedMinutes", "usedDays"],
    b: ["isInstalled"],
  },
  UserApplicationUsage: {
    table: "user_application_usage",
    s: ["userId", "applicationId", "bundleApplicationId"],
    d: ["lastUsedDate"],
    realOnly: ["bundleApplicationId"],
  },
  ApplicationUsageSummary: {
    table: "application_usage_summary",
    s: ["applicationId"],
    n: ["computers", "users", "installations"],
  },
  DisplayAdapter: {
    table: "display_adapters",
    s: ["computerId", "name", "currentResolution", "maxResolution"],
    b: ["isUpdated"],
  },
  Drive: {
    table: "drives",
    s: ["computerId", "name"],
    n: ["diskSizeMB"],
    b: ["isUpdated"],
    hidden: ["kind"],
  },
  LogicalDisk: {
    table: "logical_disks",
    s: ["computerId", "name", "volumeName"],
    b: ["isSystemDisk", "isUpdated"],
    n: ["diskSizeMB", "freeSpaceMB"],
  },
  Monitor: { table: "monitors", s: ["computerId", "name", "maxResolution"], b: ["isUpdated"] },
  NetworkAdapter: {
    table: "network_adapters",
    s: ["computerId", "name", "ipAddress", "macAddress"],
  },
  Processor: {
    table: "processors",
    s: ["computerId", "processorType", "processorManufacturer"],
    n: ["processorCount", "coreCount", "processorSpeed"],
  },
  Hardware: {
    table: "hardware",
    s: ["computerId", "processorType", "processorManufacturer"],
    n: [
      "processorCount",
      "coreCount",
      "processorSpeed",
      "memorySlots",
      "memorySlotsAvailable",
      "physicalMemory",
      "systemDiskSpace",
      "systemDiskSpaceAvailable",
      "totalDiskSpace",
      "totalDiskSpaceAvailable",
      "totalDiskSpaceUsed",
      "socketCount",
      "chipModulesPerProcessor",
      "logicalProcessorCount",
    ],
    b: ["isSocketCountManualOverrideEnabled"],
  },
  SocketMap: {
    table: "socket_maps",
    s: ["computerId", "manufacturer", "model"],
    n: ["socketCount"],
  },
  RegistryEntry: {
    table: "registry_entries",
    s: ["computerId", "registryKeyName", "registryValueName", "registryValueData"],
  },
  MetricTracking: {
    table: "metric_tracking",
    s: ["computerId", "metricId", "applicationId"],
    n: [
      "initialRequirement",
      "includedInBundle",
      "outsideMetricPeriod",
      "secondaryUseRightsDesktopLaptop",
      "secondaryUseRightsDevice",
      "extendedCoverageForDcc",
      "extendedCoverageForHost",
      "multipleVersionEdition",
      "virtualDesktopInfrastructure",
      "minimumRequirement",
      "coreFactor",
      "physicalHost",
      "requirement",
      "computerAppExclusions",
      "serverOs",
      "virtualMachine",
      "unknownPhysicalHost",
      "manuallyExcluded",
      "requirementMoved",
      "serverOsFlag",
      "databaseServer",
    ],
    aliases: {
      serverOs: "windowsServer",
      serverOsFlag: "windowsServerFlag",
      databaseServer: "sqlServer",
    },
  },
  DataCenterCluster: {
    table: "data_center_clusters",
    s: ["id", "name", "description", "hypervisor", "organizationId"],
    n: ["controllerId", "virtualPeakIntervalDays", "virtualPeakIntervalType", "virtualPeakCount"],
    b: ["isAutoGenerated", "isHighAvailability", "isHypervisorFromSIM", "isVendorDRS"],
    d: ["virtualPeakDate"],
    links: "links",
    realOnly: [
      "organizationId",
      "controllerId",
      "virtualPeakIntervalDays",
      "virtualPeakIntervalType",
      "virtualPeakCount",
      "virtualPeakDate",
    ],
    aliases: { isVendorDRS: "isVMwareDRS" },
  },

  // 2.4 Licenses
  License: {
    table: "licenses",
    s: [
      "id",
      "organizationId",
      "applicationId",
      "contractId",
      "metricId",
      "purchaseCurrency",
      "agreementId",
      "assignmentTypeId",
      "mediaStorage",
      "licenseProofLocation",
      "invoiceReference",
      "vendor",
      "externalId",
      "productDescription",
      "skuId",
      "status",
    ],
    d: [
      "purchaseDate",
      "updatedDate",
      "createdDate",
      "subscriptionValidFrom",
      "subscriptionValidTo",
      "archivedDate",
    ],
    n: [
      "purchaseValue",
      "quantity",
      "initialQuantity",
      "activeMaintenanceCost",
      "totalMaintenanceCost",
      "activeSupportCost",
      "totalSupportCost",
      "totalLicenseCost",
      "upgradedLicenseCount",
    ],
    sa: ["incompleteReasons"],
    flags: { incompleteReasons: "IncompleteLicenseReason" },
    b: [
      "isSubscription",
      "isCrossEdition",
      "isCrossPlatform",
      "isUpgrade",
      "isDowngrade",
      "isIncomplete",
      "autoAllocateOnce",
      "isAutoAllocated",
      "maintenanceAccordingToAgreement",
    ],
    wireString: ["purchaseValue", "quantity"],
    licenseDate: ["purchaseDate"],
    untyped: ["upgrades"],
    realOnly: [
      "agreementId",
      "assignmentTypeId",
      "mediaStorage",
      "licenseProofLocation",
      "invoiceReference",
      "vendor",
      "externalId",
      "productDescription",
      "skuId",
      "status",
      "updatedDate",
      "createdDate",
      "subscriptionValidFrom",
      "subscriptionValidTo",
      "archivedDate",
      "initialQuantity",
      "incompleteReasons",
      "activeMaintenanceCost",
      "totalMaintenanceCost",
      "activeSupportCost",
      "totalSupportCost",
      "totalLicenseCost",
      "upgradedLicenseCount",
      "isSubscription",
      "isCrossEdition",
      "isCrossPlatform",
      "isUpgrade",
      "isDowngrade",
      "isIncomplete",
      "autoAllocateOnce",
      "isAutoAllocated",
      "maintenanceAccordingToAgreement",
    ],
  },
  LicenseDetail: {
    table: "licenses",
    s: [
      "id",
      "organizationId",
      "applicationId",
      "metricId",
      "purchaseCurrency",
      "licenseKeys",
      "mediaStorage",
      "licenseProofLocation",
      "invoiceReference",
      "vendor",
      "notes",
      "externalId",
      "productDescription",
      "contractId",
      "assignmentTypeId",
      "agreementId",
      "skuId",
      "sku",
      "status",
    ],
    d: [
      "purchaseDate",
      "updatedDate",
      "createdDate",
      "subscriptionValidFrom",
      "subscriptionValidTo",
      "archivedDate",
    ],
    n: ["purchaseValue", "quantity", "upgradedLicenseCount", "numberOfSupportedVirtualMachines"],
    sa: ["incompleteReasons"],
    flags: { incompleteReasons: "IncompleteLicenseReason" },
    b: [
      "isSubscription",
      "isCrossPlatform",
      "isUpgrade",
      "isDowngrade",
      "isCrossEdition",
      "isIncomplete",
      "autoAllocateOnce",
      "isAutoAllocated",
      "maintenanceAccordingToAgreement",
      "hasVmUseRights",
    ],
    sensitive: ["licenseKeys"],
    wireString: [
      "purchaseValue",
      "quantity",
      "isSubscription",
      "isCrossPlatform",
      "isUpgrade",
      "isDowngrade",
    ],
    licenseDate: ["purchaseDate"],
    realOnly: [
      "assignmentTypeId",
      "agreementId",
      "skuId",
      "sku",
      "status",
      "updatedDate",
      "createdDate",
      "subscriptionValidFrom",
      "subscriptionValidTo",
      "archivedDate",
      "upgradedLicenseCount",
      "numberOfSupportedVirtualMachines",
      "isCrossEdition",
      "isIncomplete",
      "autoAllocateOnce",
      "isAutoAllocated",
      "maintenanceAccordingToAgreement",
      "hasVmUseRights",
    ],
  },
  LicenseUpgrade: {
    table: "license_upgrades",
    s: ["licenseId", "upgradedLicenseId"],
    n: ["quantity", "upgradedQuantity"],
  },
  ComputerTransfer: {
    table: "computer_transfers",
    s: ["licenseId", "organizationId", "computerId", "fromApplicationId", "toApplicationId"],
  },
  ComputerTransferDetail: {
    table: "computer_transfers",
    s: [
      "id",
      "metricId",
      "fromApplicationId",
      "toApplicationId",
      "computerId",
      "licenseId",
      "organizationId",
    ],
    b: ["isUpgrade", "isDowngrade", "isCrossEdition", "isCrossPlatform"],
    n: ["quantity"],
  },
  CustomValueTransfer: {
    table: "custom_value_transfers",
    s: [
      "customCompareValueId",
      "licenseId",
      "organizationId",
      "fromApplicationId",
      "toApplicationId",
    ],
  },
  CustomValueTransferDetail: {
    table: "custom_value_transfers",
    s: [
      "id",
      "metricId",
      "licenseId",
      "organizationId",
      "customCompareValueId",
      "fromApplicationId",
      "toApplicationId",
    ],
    b: ["isUpgrade", "isDowngrade", "isCrossEdition", "isCrossPlatform"],
    n: ["quantity"],
    sa: ["useRights"],
    flags: { useRights: "UseRightType" },
  },
  ApplicationTransferSummary: {
    table: "application_transfer_summaries",
    s: ["licenseId"],
    b: ["hasComputerTransfer", "hasUserTransfer", "hasCustomCompareValueTransfer"],
    hidden: ["applicationId"],
  },
  UserTransfer: {
    table: "user_transfers",
    s: ["licenseId", "organizationId", "userId", "fromApplicationId", "toApplicationId"],
  },
  UserTransferDetail: {
    table: "user_transfers",
    s: [
      "id",
      "metricId",
      "licenseId",
      "organizationId",
      "userId",
      "fromApplicationId",
      "toApplicationId",
    ],
    b: ["isUpgrade", "isDowngrade", "isCrossPlatform", "isCrossEdition"],
    n: ["quantity"],
  },
  ComputerTracking: {
    table: "computer_tracking",
    s: ["applicationId", "computerId", "organizationId", "licenseId", "id", "metricId"],
    n: ["coverageTrait", "initialRequirement", "requirement", "receivedCoverage"],
    sa: ["primaryUseRights", "fullUseRights"],
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
    realOnly: [
      "id",
      "metricId",
      "coverageTrait",
      "initialRequirement",
      "requirement",
      "receivedCoverage",
      "primaryUseRights",
      "fullUseRights",
    ],
  },
  ComputerTrackingDetail: {
    table: "computer_tracking",
    s: ["id", "metricId", "applicationId", "computerId", "licenseId", "organizationId"],
    n: ["coverageTrait", "initialRequirement", "requirement", "receivedCoverage"],
    sa: ["primaryUseRights", "fullUseRights"],
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
    realOnly: ["requirement"],
  },
  ApplicationTrackingSummary: {
    table: "application_tracking_summaries",
    s: ["licenseId"],
    b: ["hasComputerTracking", "hasUserTracking"],
    hidden: ["applicationId"],
  },
  UserTracking: {
    table: "user_tracking",
    s: ["applicationId", "userId", "licenseId", "organizationId", "id", "metricId"],
    n: ["coverageTrait", "initialRequirement", "receivedCoverage"],
    sa: ["primaryUseRights", "fullUseRights"],
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
    realOnly: [
      "id",
      "metricId",
      "coverageTrait",
      "initialRequirement",
      "receivedCoverage",
      "primaryUseRights",
      "fullUseRights",
    ],
  },
  UserTrackingDetail: {
    table: "user_tracking",
    s: ["id", "metricId", "applicationId", "userId", "licenseId", "organizationId"],
    n: ["coverageTrait", "initialRequirement", "receivedCoverage"],
    sa: ["primaryUseRights", "fullUseRights"],
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
  },
  Policy: { table: "policies", s: ["id"] },
  PolicyField: {
    table: "policy_fields",
    s: ["id", "name", "description"],
    b: ["isRequired", "isComboBox", "isEditingAllowed"],
    sa: ["listItems"],
    hidden: ["policyId"],
    realOnly: ["isComboBox", "isEditingAllowed", "listItems"],
  },
  PolicyFieldDetail: {
    table: "policy_fields",
    s: ["id", "name", "description"],
    b: ["isRequired", "isComboBox", "isEditingAllowed"],
    sa: ["listItems"],
    hidden: ["policyId"],
  },
  Entitlement: {
    table: "entitlements",
    s: ["applicationId", "organizationId", "metricId", "assignmentType"],
    n: ["quantity"],
  },
  ComputerApplicationEntitlement: {
    table: "computer_application_entitlements",
    s: ["computerId", "applicationId", "metricId", "entitlementStateId"],
  },
  EntitlementState: { table: "entitlement_states", s: ["id", "name", "description"] },
  ExtendedCoverageType: { table: "extended_coverage_types", s: ["name"] },
  ExtendedCoverage: {
    table: "extended_coverages",
    s: [
      "id",
      "parentComputerId",
      "extendedComputerId",
      "applicationId",
      "coveredApplicationId",
      "reason",
      "reasonDescription",
    ],
    b: ["isParentComputerDatacenter"],
  },
  LicenseCost: {
    table: "license_costs",
    s: ["licenseId", "organizationId", "currency"],
    n: [
      "licenseQuantity",
      "licensePurchaseCost",
      "currentMaintenanceCost",
      "accumulatedMaintenanceCost",
      "currentSupportCost",
      "accumulatedSupportCost",
      "totalCost",
    ],
  },
  LicenseCostSummary: {
    table: "license_cost_summaries",
    s: ["licenseId", "currency"],
    n: [
      "quantity",
      "purchaseCost",
      "currentMaintenanceCost",
      "accumulatedMaintenanceCost",
      "currentSupportCost",
      "accumulatedSupportCost",
      "totalCost",
      "averageCostPerLicensePurchase",
    ],
  },
  ComputerAssignment: {
    table: "computer_assignments",
    s: ["id", "licenseId", "applicationId", "computerId"],
    n: ["quantity", "numberOfSupportedVirtualMachines"],
    sa: ["invalidAssignmentReasons"],
    flags: { invalidAssignmentReasons: "InvalidAssignmentReasons" },
    b: ["hasVmUseRights"],
    untyped: ["virtualMachines"],
    realOnly: ["numberOfSupportedVirtualMachines", "invalidAssignmentReasons", "hasVmUseRights"],
  },
  DatacenterAssignment: {
    table: "datacenter_assignments",
    s: ["id", "licenseId", "applicationId", "datacenterId"],
    n: ["quantity", "numberOfSupportedVirtualMachines"],
    sa: ["invalidAssignmentReasons"],
    flags: { invalidAssignmentReasons: "InvalidAssignmentReasons" },
    b: ["hasVmUseRights"],
    untyped: ["virtualMachines"],
    realOnly: ["numberOfSupportedVirtualMachines", "invalidAssignmentReasons", "hasVmUseRights"],
  },
  AssignmentSummary: {
    table: "assignment_summaries",
    s: ["licenseId"],
    b: [
      "hasOrganizationAssignment",
      "hasComputerAssignment",
      "hasUserAssignment",
      "hasSiteAssignment",
    ],
  },
  OrganizationAssignment: {
    table: "organization_assignments",
    s: ["id", "licenseId", "applicationId", "organizationId"],
    n: ["quantity"],
    b: ["isAutoAllocated"],
    hidden: ["kind"],
    realOnly: ["isAutoAllocated"],
  },
  UserAssignment: {
    table: "user_assignments",
    s: ["id", "licenseId", "applicationId", "userId"],
    n: ["quantity"],
    sa: ["invalidAssignmentReasons"],
    flags: { invalidAssignmentReasons: "InvalidAssignmentReasons" },
    wireString: ["quantity"],
    realOnly: ["invalidAssignmentReasons"],
  },

  // Software registry (routes.md)
  RegistryApplication: {
    table: "registry_applications",
    s: [
      "id",
      "name",
      "manufacturer",
      "version",
      "edition",
      "family",
      "familyId",
      "platform",
      "overridesApplicationId",
      "description",
      "manufacturerWebsite",
      "language",
    ],
    n: ["editionIndex", "versionIndex"],
    b: [
      "isEndOfLife",
      "isBundle",
      "isEndOfExtendedSupport",
      "isEndOfExtendedSupportDateNotAnnounced",
      "isEndOfLifeDateNotAnnounced",
      "isEndOfSupport",
      "isEndOfSupportDateNotAnnounced",
      "isGloballyGeneratedApplication",
      "isGroup",
      "isHidden",
      "isNoLicenseRequired",
      "isOs",
      "isReleaseDateNotAnnounced",
      "isWebApplication",
    ],
    d: [
      "endOfLifeDate",
      "releaseDate",
      "updatedDate",
      "endOfSupportDate",
      "endOfExtendedSupportDate",
    ],
    untyped: ["metrics"],
    specOnly: ["version", "edition", "family"],
    realOnly: [
      "familyId",
      "platform",
      "overridesApplicationId",
      "description",
      "manufacturerWebsite",
      "language",
      "editionIndex",
      "versionIndex",
      "isBundle",
      "isEndOfExtendedSupport",
      "isEndOfExtendedSupportDateNotAnnounced",
      "isEndOfLifeDateNotAnnounced",
      "isEndOfSupport",
      "isEndOfSupportDateNotAnnounced",
      "isGloballyGeneratedApplication",
      "isGroup",
      "isHidden",
      "isNoLicenseRequired",
      "isOs",
      "isReleaseDateNotAnnounced",
      "isWebApplication",
      "updatedDate",
      "endOfSupportDate",
      "endOfExtendedSupportDate",
    ],
  },

  // 2.5 Cloud connectors
  CloudConnector: {
    table: "connectors",
    s: ["id", "name", "type", "status.contextId", "status.type", "status.errorCode"],
    d: ["createdAt", "status.updatedAt"],
    hidden: [
      "requestType",
      "bucketName",
      "reportPrefix",
      "reportName",
      "region",
      "accessKey",
      "secretKey",
    ],
    sensitive: ["accessKey", "secretKey"],
    links: null,
  },
  RetrievalInfo: {
    table: "retrievals",
    s: ["contextId", "calendarMonth", "type", "errorCode"],
    d: ["updatedAt", "lastInProgressTime", "lastSuccessTime"],
    hidden: ["connectorId"],
    links: null,
  },
  UniqueResult: { table: "", b: ["unique"], links: null },
  TestResult: { table: "", s: ["status.code", "status.message"], links: null },

  // ---- Reads of the public service that the spec lacks (public-api.md) ----
  // Compliance summary per application and metric: the vendor's own ELP figures.
  ComplianceSummary: {
    table: "compliance_summaries",
    s: ["applicationId", "metricId"],
    n: [
      "availableLicenses",
      "compliance",
      "licensesPurchased",
      "incompleteLicenses",
      "expiredSubscriptionLicenses",
      "invalidAssignments",
      "unassigned",
      "assignedNamedUsers",
      "siteLicenses",
      "downgradesGiven",
      "downgradesReceived",
      "upgradesGiven",
      "upgradesReceived",
      "crossPlatformGiven",
      "crossPlatformReceived",
      "crossEditionGiven",
      "crossEditionReceived",
      "initialRequirement",
      "includedInBundle",
      "outsideMetricPeriod",
      "secondaryUseRightsDesktopLaptop",
      "secondaryUseRightsDevice",
      "extendedCoverageForDcc",
      "extendedCoverageForHosts",
      "multipleVersionEdition",
      "virtualDesktopInfrastructure",
      "minimumRequirement",
      "coreFactor",
      "physicalHost",
      "licenseRequirement",
      "computerAppExclusions",
      "windowsServer",
      "sqlServer",
      "otherMetricCoverage",
      "siteCoverage",
      "vmCoverage",
      "licenseStacking",
      "namedUserCoverage",
      "licensingOtherMetrics",
      "virtualDesktopAccess",
      "totalCoverage",
    ],
  },
  ComplianceAllocation: {
    table: "compliance_allocations",
    s: ["applicationId", "metricId", "organizationId"],
    n: ["requirement", "coverage", "compliance"],
  },
  ComplianceUsage: {
    table: "compliance_usages",
    s: ["metricId", "licenseMetricId", "applicationId"],
    n: ["otherMetricCoverage", "mainCoverage"],
    b: ["isPartial"],
  },
  OrganizationNode: {
    table: "organization_nodes",
    s: ["id", "parentId", "name", "externalId"],
    b: ["isLegal"],
    links: null,
  },
  RegistryMetric: {
    table: "registry_metrics",
    s: [
      "id",
      "name",
      "customCompareValueType",
      "licenseCostCurrency",
      "metricSetting",
      "metricSettingIntervalType",
    ],
    b: ["isDefault"],
    n: [
      "minimumRequirement",
      "metricSettingInterval",
      "concurrencyInterval",
      "licenseCost",
      "licenseCostBase",
    ],
    hidden: ["applicationId"],
  },
  MaintenancePeriod: {
    table: "maintenance_periods",
    s: ["id", "agreementPeriodId", "licenseId", "invoiceReference", "notes", "purchaseCurrency"],
    d: ["validFrom", "validTo"],
    b: ["hasUpgradeRights"],
    n: ["maintenanceCost", "supportCost"],
  },
  VirtualMachine: {
    table: "virtual_machines",
    s: ["id", "machineId", "name", "operatingSystem", "ip", "manufacturer", "model", "powerState"],
    d: ["lastScanDate"],
    n: ["processorCount", "coreCount"],
    b: ["isInventoried"],
    hidden: ["hostComputerId"],
  },
  DccMember: {
    table: "dcc_members",
    s: ["id", "computerId"],
    n: ["sourceId"],
    hidden: ["clusterId"],
  },
  DccHistory: {
    table: "dcc_history",
    s: ["id"],
    d: ["virtualMachineDate"],
    n: ["virtualMachineCount"],
    hidden: ["clusterId"],
  },
  UserEntitlement: {
    table: "user_entitlements",
    s: ["userId", "applicationId", "metricId", "entitlementStateId"],
  },
  /** The rows of `computer_tracking`, as `/licenses/tracking-computers/{computerId}` sends them. */
  ComputerLicenseTracking: {
    table: "computer_tracking",
    s: ["id", "metricId", "applicationId", "computerId"],
    sa: ["primaryUseRights"],
    flags: { primaryUseRights: "UseRightType" },
  },
  UserAccount: {
    table: "user_accounts",
    s: ["id", "userName", "status", "email", "fullName"],
  },
  UserAccountDetail: {
    table: "user_accounts",
    s: [
      "id",
      "userName",
      "status",
      "email",
      "organizationId",
      "fullName",
      "phoneNumber",
      "location",
      "roomNumber",
      "updatedBy",
    ],
    d: ["quarantineDate", "lastLogon", "lastUpdate", "updatedDate"],
  },

  // ---- Further reads of the public service (public-api.md lists them without their fields) ----
  // Typed here: the identifiers and the few fields samkit reads. Anything else the service sends
  // is kept as it came (see normalise.ts), so a field samkit has not typed cannot fail a read.
  ArticleNumber: {
    table: "article_numbers",
    s: ["id", "articleNumber", "applicationId", "description", "manufacturer"],
  },
  /** Another application a license of this one may cover (downgrade, upgrade, cross-edition). */
  RegistryCompatibility: {
    table: "registry_compatibility",
    s: ["id", "name", "manufacturer", "compatibilityType"],
    hidden: ["applicationId"],
  },
  RegistryFamily: { table: "registry_families", s: ["id", "name", "manufacturer"] },
  RegistryGroup: { table: "registry_groups", s: ["id", "name"], hidden: ["applicationId"] },
  RegistryStore: { table: "registry_stores", s: ["id", "name", "url"], hidden: ["applicationId"] },
  ApplicationType: { table: "application_types", s: ["id", "name"] },
  RegistryApplicationType: {
    table: "registry_application_types",
    s: ["id", "name"],
    hidden: ["applicationId"],
  },
  /** A component application of a bundle (an office suite's word processor). */
  RegistryBundle: {
    table: "registry_bundles",
    s: ["id", "name", "manufacturer"],
    hidden: ["applicationId"],
  },
  RegistryPlatform: { table: "registry_platforms", s: ["id", "name"] },
  /** A client that connected to a computer remotely (a terminal-services session). */
  RemoteClient: {
    table: "remote_clients",
    s: ["id", "clientName", "userId"],
    d: ["lastConnected"],
    hidden: ["computerId"],
  },
  DccApplication: {
    table: "dcc_applications",
    s: ["applicationId"],
    n: ["computerCount"],
    d: ["lastUsed"],
    hidden: ["clusterId"],
  },
  DccMemberFeature: {
    table: "dcc_member_features",
    s: ["id", "name"],
    b: ["isEnabled"],
    hidden: ["clusterId", "memberId"],
  },
  HypervisorType: { table: "hypervisor_types", s: ["id", "name"] },
  AssignmentType: { table: "assignment_types", s: ["id", "name"] },
  UserDiscovery: {
    table: "user_discoveries",
    s: ["id", "userName"],
    n: ["computerCount", "logonCount"],
    d: ["firstDiscovered", "lastDiscovered"],
  },
  UserMetering: {
    table: "user_meterings",
    s: ["userId", "applicationId", "bundleApplicationId"],
    n: ["usedCount", "usedMinutes"],
    d: ["lastUsedDate"],
  },
} as const satisfies Record<string, ResourceDecl>;

/** The name of a resource of the spec (`Computer`, `LicenseDetail`, …). */
export type ResourceName = keyof typeof RESOURCE_DECLARATIONS;

/** A resource of the spec: its fields, its link-array name and its storage table. */
export interface ResourceSpec {
  /** The resource's name in spec section 2. */
  readonly name: ResourceName;
  /** Every field, hidden ones last. */
  readonly fields: readonly FieldSpec[];
  /** The same fields by name, and by their real name where the spec renamed them. */
  readonly byName: ReadonlyMap<string, FieldSpec>;
  /** Real-only fields of no scalar type: known, passed through as sent, never stored. */
  readonly untyped?: ReadonlySet<string>;
  /** The link-array name items carry (`_links`, `links`, or none). */
  readonly links: LinksName;
  /** The reference server's table that holds the rows. */
  readonly table: string;
  /** Field name (or real name) → storage column. */
  readonly columnOf: (field: string) => string;
}

/**
 * The number fields that are money amounts, in every resource that has them (by name: the
 * catalogue spells a money field the same way wherever it appears).
 */
const MONEY_FIELDS: ReadonlySet<string> = new Set(w(`accumulatedMaintenanceCost
  accumulatedSupportCost activeMaintenanceCost activeSupportCost averageCostPerLicensePurchase
  currentMaintenanceCost currentSupportCost licenseCost licenseCostBase licensePurchaseCost
  maintenanceCost purchaseCost purchasePrice purchaseValue purchaseValueBase supportCost totalCost
  totalCostOfInstalledApplications totalLicenseCost totalMaintenanceCost totalSupportCost`));

function build(name: ResourceName, d: ResourceDecl): ResourceSpec {
  const has = (list: readonly string[] | undefined, f: string) => list?.includes(f) ?? false;
  const fields: FieldSpec[] = [];
  const add = (names: readonly string[] | undefined, type: FieldType, hidden = false) => {
    for (const f of names ?? []) {
      const wire = has(d.wireString, f)
        ? "string"
        : has(d.licenseDate, f)
        ? "licenseDate"
        : undefined;
      const origin = has(d.realOnly, f) ? "real" : has(d.specOnly, f) ? "spec" : undefined;
      const realName = d.aliases?.[f];
      const flags = d.flags?.[f];
      fields.push({
        name: f,
        type,
        sensitive: has(d.sensitive, f),
        hidden,
        ...(wire ? { wire } : {}),
        ...(origin ? { origin } : {}),
        ...(realName ? { realName } : {}),
        ...(flags ? { flags } : {}),
        ...(type === "number" && MONEY_FIELDS.has(f) ? { money: true as const } : {}),
      });
    }
  };
  add(d.s, "string");
  add(d.n, "number");
  add(d.b, "boolean");
  add(d.d, "date");
  add(d.sa, "strings");
  add(d.hidden, "string", true);
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const f of fields) if (f.realName) byName.set(f.realName, f);
  const columns: Record<string, string> = { ...d.columns };
  for (const [spec, real] of Object.entries(d.aliases ?? {})) columns[real] = columns[spec] ?? spec;
  return {
    name,
    fields,
    byName,
    ...(d.untyped ? { untyped: new Set(d.untyped) } : {}),
    links: d.links === undefined ? "_links" : d.links,
    table: d.table,
    columnOf: (field) => columns[field] ?? field.replaceAll(".", "_"),
  };
}

/**
 * Every resource of the spec by name.
 *
 * @example Which fields of a computer detail are sensitive
 * ```ts
 * import { RESOURCES } from "./catalogue.ts";
 * const secret = RESOURCES.ComputerDetail.fields.filter((f) => f.sensitive).map((f) => f.name);
 * console.log(secret); // ["securityCode"]
 * ```
 */
export const RESOURCES: Readonly<Record<ResourceName, ResourceSpec>> = Object.fromEntries(
  (Object.entries(RESOURCE_DECLARATIONS) as [ResourceName, ResourceDecl][]).map((
    [n, d],
  ) => [n, build(n, d)]),
) as Record<ResourceName, ResourceSpec>;

/**
 * The names of every sensitive field across the catalogue, plus tokens and client secrets.
 * Redaction in logs, errors and reports keys off this set.
 *
 * @example
 * ```ts
 * import { SENSITIVE_FIELDS } from "./catalogue.ts";
 * console.log(SENSITIVE_FIELDS.has("secretKey")); // true
 * ```
 */
export const SENSITIVE_FIELDS: ReadonlySet<string> = new Set([
  ...Object.values(RESOURCES).flatMap((r) =>
    r.fields.filter((f) => f.sensitive).map((f) => f.name)
  ),
  "access_token",
  "client_secret",
  "token",
  "password",
]);

/**
 * The visible (sent) fields of a resource, in catalogue order.
 *
 * @example
 * ```ts
 * import { visibleFields } from "./catalogue.ts";
 * console.log(visibleFields("Policy").map((f) => f.name)); // ["id"]
 * ```
 */
export function visibleFields(name: ResourceName): readonly FieldSpec[] {
  return RESOURCES[name].fields.filter((f) => !f.hidden);
}

// ---- Types derived from the declarations: one source of truth for shapes. ----

/** The field names a resource declaration lists under `K` (`s`, `n`, `b`, `d`, `sa`, …). */
export type DeclaredNames<D, K extends string> = D extends
  { readonly [P in K]: readonly (infer N)[] } ? N : never;
/** Field names without a dot (`hostName`, not `owner.name`). */
export type TopLevelName<N> = N extends `${string}.${string}` ? never : N;
/** What follows `P.` in a dotted field name (`name` of `owner.name` under `owner`). */
export type NestedName<N, P extends string> = N extends `${P}.${infer R}` ? R : never;
/** What precedes the dot of a dotted field name (`owner` of `owner.name`). */
export type NamePrefix<N> = N extends `${infer P}.${string}` ? P : never;
/** A declaration's typed top-level fields (hidden ones left out), each `null` when absent. */
export type FlatFields<D> =
  & {
    [K in TopLevelName<Exclude<DeclaredNames<D, "s">, DeclaredNames<D, "hidden">>> & string]:
      | string
      | null;
  }
  & { [K in TopLevelName<DeclaredNames<D, "n">> & string]: number | null }
  & { [K in TopLevelName<DeclaredNames<D, "b">> & string]: boolean | null }
  & { [K in TopLevelName<DeclaredNames<D, "d">> & string]: Date | null }
  & { [K in TopLevelName<DeclaredNames<D, "sa">> & string]: string[] | null };
/** A declaration's dotted fields as nested objects (`owner.name` → `owner: { name }`). */
export type NestedFields<D> = {
  [P in NamePrefix<DeclaredNames<D, "s"> | DeclaredNames<D, "d">> & string]:
    & {
      [K in NestedName<DeclaredNames<D, "s">, P> & string]: string | null;
    }
    & { [K in NestedName<DeclaredNames<D, "d">, P> & string]: Date | null };
};

/** A link of spec section 2.2. */
export interface Link {
  /** A relative path starting with `api/…` or `/api/…`. */
  href: string;
  /** The HTTP method. */
  method: string;
  /** `self`, `details`, `first`, `last`, `next`, `previous`. */
  rel: string;
}

/** The type of the field `K` a declaration lists. */
export type DeclaredValue<D, K> = K extends DeclaredNames<D, "s"> ? string | null
  : K extends DeclaredNames<D, "n"> ? number | null
  : K extends DeclaredNames<D, "b"> ? boolean | null
  : K extends DeclaredNames<D, "d"> ? Date | null
  : never;
/** A renamed field under its real name too, with the same type. */
export type AliasedFields<D> = D extends { readonly aliases: infer A }
  ? { [K in keyof A as A[K] & string]: DeclaredValue<D, K> }
  : unknown;
/** Untyped real-only fields, as sent (absent when not sent). */
export type UntypedFields<D> = { [K in DeclaredNames<D, "untyped"> & string]?: unknown };

/**
 * The normalised shape of a resource: typed fields (a renamed field under both its names), untyped
 * real-only fields as sent, and `links` whichever name it came under.
 */
export type Resource<N extends ResourceName> =
  & FlatFields<(typeof RESOURCE_DECLARATIONS)[N]>
  & NestedFields<(typeof RESOURCE_DECLARATIONS)[N]>
  & AliasedFields<(typeof RESOURCE_DECLARATIONS)[N]>
  & UntypedFields<(typeof RESOURCE_DECLARATIONS)[N]>
  & { links?: Link[] };
