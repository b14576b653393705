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

/** A string with its newlines turned into spaces (tail-recursive, so long lists check fast). */
type OneLine<S extends string> = S extends `${infer A}\n${infer B}` ? OneLine<`${A} ${B}`> : S;
/** The space-separated words of a string, as a union of string literal types. */
type Split<S extends string, Acc extends string = never> = S extends `${infer A} ${infer B}`
  ? Split<B, Acc | A>
  : Exclude<Acc | S, "">;
/** The words of a whitespace-separated list. */
type Words<S extends string> = Split<OneLine<S>>;

const w = <T extends string>(text: T): readonly Words<T>[] =>
  text.trim().split(/\s+/) as Words<T>[];

/** Every resource of the spec, declared compactly. The source for {@link RESOURCES}. */
const DECLS = {
  // 2.3 Estate
  Computer: {
    table: "computers",
    s: w(`id hostName mostFrequentUser mostRecentUser manufacturer model operatingSystem vendor
      domain ipAddress status organizationId hostComputerId`),
    n: w("processorCount coreCount"),
    b: w("isPortable isVirtual isServer isVDI"),
    d: w("lastScanDate"),
    columns: { isVDI: "isVdi" },
    realOnly: w("hostComputerId processorCount coreCount"),
  },
  ComputerDetail: {
    table: "computers",
    s: w(`id scanIdentifier hostName domain biosSerialNumber biosVersion manufacturer model
      clientVersion clientSiteName clientConfigurationName scannerVersion operatingSystem
      operatingSystemServicePack operatingSystemSerialNumber ipAddress hostComputerId
      siblingComputerId hypervisorName architecture organizationId status purchaseCurrency
      invoiceReference notes securityCode mostRecentUser mostFrequentUser vendor manufacturerWebsite
      operatingSystemId`),
    d: w(`lastScanDate biosDate infoTransferDate clientInstallDate quarantineDate reportingDate
      purchaseDate updatedDate`),
    b: w(`isPortable isQuarantineManagementDisabled isVirtual isUpdated is64bit isServer isVdi
      isAutoEditingDisabled isIncludedInServerOsRequirement`),
    n: w("processorValueUnit purchaseValue purchaseValueBase processorCount coreCount"),
    sensitive: w("securityCode"),
    realOnly: w("manufacturerWebsite operatingSystemId processorCount coreCount"),
    aliases: { isIncludedInServerOsRequirement: "isIncludedInWindowsServerRequirement" },
  },
  ComputerContract: { table: "computer_contracts", s: w("computerId contractId") },
  ComputerCosts: {
    table: "computer_costs",
    s: w("computerId vendor purchaseCurrency invoiceReference"),
    d: w("purchaseDate"),
    n: w("purchasePrice totalCostOfInstalledApplications totalCost purchaseValueBase"),
    realOnly: w("purchaseValueBase"),
  },
  LogonHistory: {
    table: "logon_history",
    s: w("computerId userId"),
    d: w("lastLogon"),
    n: w("logonCount"),
  },
  EnvironmentVariable: {
    table: "environment_variables",
    s: w("computerId environmentVariableName environmentVariableValue"),
  },
  ComputerApplication: {
    table: "computer_applications",
    s: w("computerId applicationId bundleApplicationId averageUsedTime"),
    d: w("firstDiscovered lastUsed"),
    n: w("usedCount bundleUsagePercentage"),
    b: w("isVirtual isInstalled unbundled"),
    realOnly: w("bundleUsagePercentage unbundled"),
  },
  ComputerApplicationDetail: {
    table: "computer_applications",
    s: w("computerId applicationId bundleApplicationId packageGUID averageUsedTime"),
    d: w("firstDiscovered firstUsed lastUsed"),
    n: w("usedCount usedUser usedMinutes usedDays"),
    b: w("isInstalled isOEM isVendorDN isVirtual isOverridden isRecognized isRegistry unbundled"),
    realOnly: w("unbundled"),
    aliases: { isVendorDN: "isMSDN" },
  },
  ApplicationUsage: {
    table: "application_usage",
    s: w("computerId userId bundleApplicationId applicationId"),
    d: w("firstUsed lastUsedDate"),
    n: w("usedCount usedMinutes usedDays"),
    b: w("isInstalled"),
  },
  UserApplicationUsage: {
    table: "user_application_usage",
    s: w("userId applicationId bundleApplicationId"),
    d: w("lastUsedDate"),
    realOnly: w("bundleApplicationId"),
  },
  ApplicationUsageSummary: {
    table: "application_usage_summary",
    s: w("applicationId"),
    n: w("computers users installations"),
  },
  DisplayAdapter: {
    table: "display_adapters",
    s: w("computerId name currentResolution maxResolution"),
    b: w("isUpdated"),
  },
  Drive: {
    table: "drives",
    s: w("computerId name"),
    n: w("diskSizeMB"),
    b: w("isUpdated"),
    hidden: w("kind"),
  },
  LogicalDisk: {
    table: "logical_disks",
    s: w("computerId name volumeName"),
    b: w("isSystemDisk isUpdated"),
    n: w("diskSizeMB freeSpaceMB"),
  },
  Monitor: { table: "monitors", s: w("computerId name maxResolution"), b: w("isUpdated") },
  NetworkAdapter: { table: "network_adapters", s: w("computerId name ipAddress macAddress") },
  Processor: {
    table: "processors",
    s: w("computerId processorType processorManufacturer"),
    n: w("processorCount coreCount processorSpeed"),
  },
  Hardware: {
    table: "hardware",
    s: w("computerId processorType processorManufacturer"),
    n: w(`processorCount coreCount processorSpeed memorySlots memorySlotsAvailable physicalMemory
      systemDiskSpace systemDiskSpaceAvailable totalDiskSpace totalDiskSpaceAvailable
      totalDiskSpaceUsed socketCount chipModulesPerProcessor logicalProcessorCount`),
    b: w("isSocketCountManualOverrideEnabled"),
  },
  SocketMap: {
    table: "socket_maps",
    s: w("computerId manufacturer model"),
    n: w("socketCount"),
  },
  RegistryEntry: {
    table: "registry_entries",
    s: w("computerId registryKeyName registryValueName registryValueData"),
  },
  MetricTracking: {
    table: "metric_tracking",
    s: w("computerId metricId applicationId"),
    n: w(`initialRequirement includedInBundle outsideMetricPeriod secondaryUseRightsDesktopLaptop
      secondaryUseRightsDevice extendedCoverageForDcc extendedCoverageForHost
      multipleVersionEdition virtualDesktopInfrastructure minimumRequirement coreFactor
      physicalHost requirement computerAppExclusions serverOs virtualMachine unknownPhysicalHost
      manuallyExcluded requirementMoved serverOsFlag databaseServer`),
    aliases: {
      serverOs: "windowsServer",
      serverOsFlag: "windowsServerFlag",
      databaseServer: "sqlServer",
    },
  },
  DataCenterCluster: {
    table: "data_center_clusters",
    s: w("id name description hypervisor organizationId"),
    n: w("controllerId virtualPeakIntervalDays virtualPeakIntervalType virtualPeakCount"),
    b: w("isAutoGenerated isHighAvailability isHypervisorFromSIM isVendorDRS"),
    d: w("virtualPeakDate"),
    links: "links",
    realOnly: w(`organizationId controllerId virtualPeakIntervalDays virtualPeakIntervalType
      virtualPeakCount virtualPeakDate`),
    aliases: { isVendorDRS: "isVMwareDRS" },
  },

  // 2.4 Licenses
  License: {
    table: "licenses",
    s: w(`id organizationId applicationId contractId metricId purchaseCurrency agreementId
      assignmentTypeId mediaStorage licenseProofLocation invoiceReference vendor externalId
      productDescription skuId status`),
    d: w(`purchaseDate updatedDate createdDate subscriptionValidFrom subscriptionValidTo
      archivedDate`),
    n: w(`purchaseValue quantity initialQuantity activeMaintenanceCost totalMaintenanceCost
      activeSupportCost totalSupportCost totalLicenseCost upgradedLicenseCount`),
    sa: w("incompleteReasons"),
    flags: { incompleteReasons: "IncompleteLicenseReason" },
    b: w(`isSubscription isCrossEdition isCrossPlatform isUpgrade isDowngrade isIncomplete
      autoAllocateOnce isAutoAllocated maintenanceAccordingToAgreement`),
    wireString: w("purchaseValue quantity"),
    licenseDate: w("purchaseDate"),
    untyped: w("upgrades"),
    realOnly: w(`agreementId assignmentTypeId mediaStorage licenseProofLocation invoiceReference
      vendor externalId productDescription skuId status updatedDate createdDate
      subscriptionValidFrom subscriptionValidTo archivedDate initialQuantity incompleteReasons
      activeMaintenanceCost totalMaintenanceCost activeSupportCost totalSupportCost totalLicenseCost
      upgradedLicenseCount isSubscription isCrossEdition isCrossPlatform isUpgrade isDowngrade
      isIncomplete autoAllocateOnce isAutoAllocated maintenanceAccordingToAgreement`),
  },
  LicenseDetail: {
    table: "licenses",
    s: w(`id organizationId applicationId metricId purchaseCurrency licenseKeys mediaStorage
      licenseProofLocation invoiceReference vendor notes externalId productDescription contractId
      assignmentTypeId agreementId skuId sku status`),
    d: w(`purchaseDate updatedDate createdDate subscriptionValidFrom subscriptionValidTo
      archivedDate`),
    n: w("purchaseValue quantity upgradedLicenseCount numberOfSupportedVirtualMachines"),
    sa: w("incompleteReasons"),
    flags: { incompleteReasons: "IncompleteLicenseReason" },
    b: w(`isSubscription isCrossPlatform isUpgrade isDowngrade isCrossEdition isIncomplete
      autoAllocateOnce isAutoAllocated maintenanceAccordingToAgreement hasVmUseRights`),
    sensitive: w("licenseKeys"),
    wireString: w("purchaseValue quantity isSubscription isCrossPlatform isUpgrade isDowngrade"),
    licenseDate: w("purchaseDate"),
    realOnly: w(`assignmentTypeId agreementId skuId sku status updatedDate createdDate
      subscriptionValidFrom subscriptionValidTo archivedDate upgradedLicenseCount
      numberOfSupportedVirtualMachines isCrossEdition isIncomplete autoAllocateOnce isAutoAllocated
      maintenanceAccordingToAgreement hasVmUseRights`),
  },
  LicenseUpgrade: {
    table: "license_upgrades",
    s: w("licenseId upgradedLicenseId"),
    n: w("quantity upgradedQuantity"),
  },
  ComputerTransfer: {
    table: "computer_transfers",
    s: w("licenseId organizationId computerId fromApplicationId toApplicationId"),
  },
  ComputerTransferDetail: {
    table: "computer_transfers",
    s: w("id metricId fromApplicationId toApplicationId computerId licenseId organizationId"),
    b: w("isUpgrade isDowngrade isCrossEdition isCrossPlatform"),
    n: w("quantity"),
  },
  CustomValueTransfer: {
    table: "custom_value_transfers",
    s: w("customCompareValueId licenseId organizationId fromApplicationId toApplicationId"),
  },
  CustomValueTransferDetail: {
    table: "custom_value_transfers",
    s: w(`id metricId licenseId organizationId customCompareValueId fromApplicationId
      toApplicationId`),
    b: w("isUpgrade isDowngrade isCrossEdition isCrossPlatform"),
    n: w("quantity"),
    sa: w("useRights"),
    flags: { useRights: "UseRightType" },
  },
  ApplicationTransferSummary: {
    table: "application_transfer_summaries",
    s: w("licenseId"),
    b: w("hasComputerTransfer hasUserTransfer hasCustomCompareValueTransfer"),
    hidden: w("applicationId"),
  },
  UserTransfer: {
    table: "user_transfers",
    s: w("licenseId organizationId userId fromApplicationId toApplicationId"),
  },
  UserTransferDetail: {
    table: "user_transfers",
    s: w("id metricId licenseId organizationId userId fromApplicationId toApplicationId"),
    b: w("isUpgrade isDowngrade isCrossPlatform isCrossEdition"),
    n: w("quantity"),
  },
  ComputerTracking: {
    table: "computer_tracking",
    s: w("applicationId computerId organizationId licenseId id metricId"),
    n: w("coverageTrait initialRequirement requirement receivedCoverage"),
    sa: w("primaryUseRights fullUseRights"),
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
    realOnly: w(`id metricId coverageTrait initialRequirement requirement receivedCoverage
      primaryUseRights fullUseRights`),
  },
  ComputerTrackingDetail: {
    table: "computer_tracking",
    s: w("id metricId applicationId computerId licenseId organizationId"),
    n: w("coverageTrait initialRequirement requirement receivedCoverage"),
    sa: w("primaryUseRights fullUseRights"),
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
    realOnly: w("requirement"),
  },
  ApplicationTrackingSummary: {
    table: "application_tracking_summaries",
    s: w("licenseId"),
    b: w("hasComputerTracking hasUserTracking"),
    hidden: w("applicationId"),
  },
  UserTracking: {
    table: "user_tracking",
    s: w("applicationId userId licenseId organizationId id metricId"),
    n: w("coverageTrait initialRequirement receivedCoverage"),
    sa: w("primaryUseRights fullUseRights"),
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
    realOnly: w(`id metricId coverageTrait initialRequirement receivedCoverage primaryUseRights
      fullUseRights`),
  },
  UserTrackingDetail: {
    table: "user_tracking",
    s: w("id metricId applicationId userId licenseId organizationId"),
    n: w("coverageTrait initialRequirement receivedCoverage"),
    sa: w("primaryUseRights fullUseRights"),
    flags: { primaryUseRights: "UseRightType", fullUseRights: "UseRightType" },
  },
  Policy: { table: "policies", s: w("id") },
  PolicyField: {
    table: "policy_fields",
    s: w("id name description"),
    b: w("isRequired isComboBox isEditingAllowed"),
    sa: w("listItems"),
    hidden: w("policyId"),
    realOnly: w("isComboBox isEditingAllowed listItems"),
  },
  PolicyFieldDetail: {
    table: "policy_fields",
    s: w("id name description"),
    b: w("isRequired isComboBox isEditingAllowed"),
    sa: w("listItems"),
    hidden: w("policyId"),
  },
  Entitlement: {
    table: "entitlements",
    s: w("applicationId organizationId metricId assignmentType"),
    n: w("quantity"),
  },
  ComputerApplicationEntitlement: {
    table: "computer_application_entitlements",
    s: w("computerId applicationId metricId entitlementStateId"),
  },
  EntitlementState: { table: "entitlement_states", s: w("id name description") },
  ExtendedCoverageType: { table: "extended_coverage_types", s: w("name") },
  ExtendedCoverage: {
    table: "extended_coverages",
    s: w(`id parentComputerId extendedComputerId applicationId coveredApplicationId reason
      reasonDescription`),
    b: w("isParentComputerDatacenter"),
  },
  LicenseCost: {
    table: "license_costs",
    s: w("licenseId organizationId currency"),
    n: w(`licenseQuantity licensePurchaseCost currentMaintenanceCost accumulatedMaintenanceCost
      currentSupportCost accumulatedSupportCost totalCost`),
  },
  LicenseCostSummary: {
    table: "license_cost_summaries",
    s: w("licenseId currency"),
    n: w(`quantity purchaseCost currentMaintenanceCost accumulatedMaintenanceCost currentSupportCost
      accumulatedSupportCost totalCost averageCostPerLicensePurchase`),
  },
  ComputerAssignment: {
    table: "computer_assignments",
    s: w("id licenseId applicationId computerId"),
    n: w("quantity numberOfSupportedVirtualMachines"),
    sa: w("invalidAssignmentReasons"),
    flags: { invalidAssignmentReasons: "InvalidAssignmentReasons" },
    b: w("hasVmUseRights"),
    untyped: w("virtualMachines"),
    realOnly: w("numberOfSupportedVirtualMachines invalidAssignmentReasons hasVmUseRights"),
  },
  DatacenterAssignment: {
    table: "datacenter_assignments",
    s: w("id licenseId applicationId datacenterId"),
    n: w("quantity numberOfSupportedVirtualMachines"),
    sa: w("invalidAssignmentReasons"),
    flags: { invalidAssignmentReasons: "InvalidAssignmentReasons" },
    b: w("hasVmUseRights"),
    untyped: w("virtualMachines"),
    realOnly: w("numberOfSupportedVirtualMachines invalidAssignmentReasons hasVmUseRights"),
  },
  AssignmentSummary: {
    table: "assignment_summaries",
    s: w("licenseId"),
    b: w("hasOrganizationAssignment hasComputerAssignment hasUserAssignment hasSiteAssignment"),
  },
  OrganizationAssignment: {
    table: "organization_assignments",
    s: w("id licenseId applicationId organizationId"),
    n: w("quantity"),
    b: w("isAutoAllocated"),
    hidden: w("kind"),
    realOnly: w("isAutoAllocated"),
  },
  UserAssignment: {
    table: "user_assignments",
    s: w("id licenseId applicationId userId"),
    n: w("quantity"),
    sa: w("invalidAssignmentReasons"),
    flags: { invalidAssignmentReasons: "InvalidAssignmentReasons" },
    wireString: w("quantity"),
    realOnly: w("invalidAssignmentReasons"),
  },

  // Software registry (routes.md)
  RegistryApplication: {
    table: "registry_applications",
    s: w(`id name manufacturer version edition family familyId platform overridesApplicationId
      description manufacturerWebsite language`),
    n: w("editionIndex versionIndex"),
    b: w(`isEndOfLife isBundle isEndOfExtendedSupport isEndOfExtendedSupportDateNotAnnounced
      isEndOfLifeDateNotAnnounced isEndOfSupport isEndOfSupportDateNotAnnounced
      isGloballyGeneratedApplication isGroup isHidden isNoLicenseRequired isOs
      isReleaseDateNotAnnounced isWebApplication`),
    d: w("endOfLifeDate releaseDate updatedDate endOfSupportDate endOfExtendedSupportDate"),
    untyped: w("metrics"),
    specOnly: w("version edition family"),
    realOnly: w(`familyId platform overridesApplicationId description manufacturerWebsite language
      editionIndex versionIndex isBundle isEndOfExtendedSupport
      isEndOfExtendedSupportDateNotAnnounced isEndOfLifeDateNotAnnounced isEndOfSupport
      isEndOfSupportDateNotAnnounced isGloballyGeneratedApplication isGroup isHidden
      isNoLicenseRequired isOs isReleaseDateNotAnnounced isWebApplication updatedDate
      endOfSupportDate endOfExtendedSupportDate`),
  },

  // 2.5 Cloud connectors
  CloudConnector: {
    table: "connectors",
    s: w("id name type status.contextId status.type status.errorCode"),
    d: w("createdAt status.updatedAt"),
    hidden: w("requestType bucketName reportPrefix reportName region accessKey secretKey"),
    sensitive: w("accessKey secretKey"),
    links: null,
  },
  RetrievalInfo: {
    table: "retrievals",
    s: w("contextId calendarMonth type errorCode"),
    d: w("updatedAt lastInProgressTime lastSuccessTime"),
    hidden: w("connectorId"),
    links: null,
  },
  UniqueResult: { table: "", b: w("unique"), links: null },
  TestResult: { table: "", s: w("status.code status.message"), links: null },

  // ---- Reads of the public service that the spec lacks (public-api.md) ----
  // Compliance summary per application and metric: the vendor's own ELP figures.
  ComplianceSummary: {
    table: "compliance_summaries",
    s: w("applicationId metricId"),
    n: w(`availableLicenses compliance licensesPurchased incompleteLicenses
      expiredSubscriptionLicenses invalidAssignments unassigned assignedNamedUsers siteLicenses
      downgradesGiven downgradesReceived upgradesGiven upgradesReceived crossPlatformGiven
      crossPlatformReceived crossEditionGiven crossEditionReceived initialRequirement
      includedInBundle outsideMetricPeriod secondaryUseRightsDesktopLaptop
      secondaryUseRightsDevice extendedCoverageForDcc extendedCoverageForHosts
      multipleVersionEdition virtualDesktopInfrastructure minimumRequirement coreFactor
      physicalHost licenseRequirement computerAppExclusions windowsServer sqlServer
      otherMetricCoverage siteCoverage vmCoverage licenseStacking namedUserCoverage
      licensingOtherMetrics virtualDesktopAccess totalCoverage`),
  },
  ComplianceAllocation: {
    table: "compliance_allocations",
    s: w("applicationId metricId organizationId"),
    n: w("requirement coverage compliance"),
  },
  ComplianceUsage: {
    table: "compliance_usages",
    s: w("metricId licenseMetricId applicationId"),
    n: w("otherMetricCoverage mainCoverage"),
    b: w("isPartial"),
  },
  OrganizationNode: {
    table: "organization_nodes",
    s: w("id parentId name externalId"),
    b: w("isLegal"),
    links: null,
  },
  RegistryMetric: {
    table: "registry_metrics",
    s: w(`id name customCompareValueType licenseCostCurrency metricSetting
      metricSettingIntervalType`),
    b: w("isDefault"),
    n: w(`minimumRequirement metricSettingInterval concurrencyInterval licenseCost
      licenseCostBase`),
    hidden: w("applicationId"),
  },
  MaintenancePeriod: {
    table: "maintenance_periods",
    s: w("id agreementPeriodId licenseId invoiceReference notes purchaseCurrency"),
    d: w("validFrom validTo"),
    b: w("hasUpgradeRights"),
    n: w("maintenanceCost supportCost"),
  },
  VirtualMachine: {
    table: "virtual_machines",
    s: w("id machineId name operatingSystem ip manufacturer model powerState"),
    d: w("lastScanDate"),
    n: w("processorCount coreCount"),
    b: w("isInventoried"),
    hidden: w("hostComputerId"),
  },
  DccMember: {
    table: "dcc_members",
    s: w("id computerId"),
    n: w("sourceId"),
    hidden: w("clusterId"),
  },
  DccHistory: {
    table: "dcc_history",
    s: w("id"),
    d: w("virtualMachineDate"),
    n: w("virtualMachineCount"),
    hidden: w("clusterId"),
  },
  UserEntitlement: {
    table: "user_entitlements",
    s: w("userId applicationId metricId entitlementStateId"),
  },
  /** The rows of `computer_tracking`, as `/licenses/tracking-computers/{computerId}` sends them. */
  ComputerLicenseTracking: {
    table: "computer_tracking",
    s: w("id metricId applicationId computerId"),
    sa: w("primaryUseRights"),
    flags: { primaryUseRights: "UseRightType" },
  },
  UserAccount: {
    table: "user_accounts",
    s: w("id userName status email fullName"),
  },
  UserAccountDetail: {
    table: "user_accounts",
    s: w(`id userName status email organizationId fullName phoneNumber location roomNumber
      updatedBy`),
    d: w("quarantineDate lastLogon lastUpdate updatedDate"),
  },

  // ---- Further reads of the public service (public-api.md lists them without their fields) ----
  // Typed here: the identifiers and the few fields samkit reads. Anything else the service sends
  // is kept as it came (see normalise.ts), so a field samkit has not typed cannot fail a read.
  ArticleNumber: {
    table: "article_numbers",
    s: w("id articleNumber applicationId description manufacturer"),
  },
  /** Another application a license of this one may cover (downgrade, upgrade, cross-edition). */
  RegistryCompatibility: {
    table: "registry_compatibility",
    s: w("id name manufacturer compatibilityType"),
    hidden: w("applicationId"),
  },
  RegistryFamily: { table: "registry_families", s: w("id name manufacturer") },
  RegistryGroup: { table: "registry_groups", s: w("id name"), hidden: w("applicationId") },
  RegistryStore: { table: "registry_stores", s: w("id name url"), hidden: w("applicationId") },
  ApplicationType: { table: "application_types", s: w("id name") },
  RegistryApplicationType: {
    table: "registry_application_types",
    s: w("id name"),
    hidden: w("applicationId"),
  },
  /** A component application of a bundle (an office suite's word processor). */
  RegistryBundle: {
    table: "registry_bundles",
    s: w("id name manufacturer"),
    hidden: w("applicationId"),
  },
  RegistryPlatform: { table: "registry_platforms", s: w("id name") },
  /** A client that connected to a computer remotely (a terminal-services session). */
  RemoteClient: {
    table: "remote_clients",
    s: w("id clientName userId"),
    d: w("lastConnected"),
    hidden: w("computerId"),
  },
  DccApplication: {
    table: "dcc_applications",
    s: w("applicationId"),
    n: w("computerCount"),
    d: w("lastUsed"),
    hidden: w("clusterId"),
  },
  DccMemberFeature: {
    table: "dcc_member_features",
    s: w("id name"),
    b: w("isEnabled"),
    hidden: w("clusterId memberId"),
  },
  HypervisorType: { table: "hypervisor_types", s: w("id name") },
  AssignmentType: { table: "assignment_types", s: w("id name") },
  UserDiscovery: {
    table: "user_discoveries",
    s: w("id userName"),
    n: w("computerCount logonCount"),
    d: w("firstDiscovered lastDiscovered"),
  },
  UserMetering: {
    table: "user_meterings",
    s: w("userId applicationId bundleApplicationId"),
    n: w("usedCount usedMinutes"),
    d: w("lastUsedDate"),
  },
} as const satisfies Record<string, ResourceDecl>;

/** The name of a resource of the spec (`Computer`, `LicenseDetail`, …). */
export type ResourceName = keyof typeof DECLS;

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
  (Object.entries(DECLS) as [ResourceName, ResourceDecl][]).map(([n, d]) => [n, build(n, d)]),
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

type Names<D, K extends string> = D extends { readonly [P in K]: readonly (infer N)[] } ? N : never;
type Hidden<D> = Names<D, "hidden">;
type TopLevel<N> = N extends `${string}.${string}` ? never : N;
type Nested<N, P extends string> = N extends `${P}.${infer R}` ? R : never;
type Prefixes<N> = N extends `${infer P}.${string}` ? P : never;
type Flat<D> =
  & { [K in TopLevel<Exclude<Names<D, "s">, Hidden<D>>> & string]: string | null }
  & { [K in TopLevel<Names<D, "n">> & string]: number | null }
  & { [K in TopLevel<Names<D, "b">> & string]: boolean | null }
  & { [K in TopLevel<Names<D, "d">> & string]: Date | null }
  & { [K in TopLevel<Names<D, "sa">> & string]: string[] | null };
type Objects<D> = {
  [P in Prefixes<Names<D, "s"> | Names<D, "d">> & string]:
    & {
      [K in Nested<Names<D, "s">, P> & string]: string | null;
    }
    & { [K in Nested<Names<D, "d">, P> & string]: Date | null };
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

type ValueOf<D, K> = K extends Names<D, "s"> ? string | null
  : K extends Names<D, "n"> ? number | null
  : K extends Names<D, "b"> ? boolean | null
  : K extends Names<D, "d"> ? Date | null
  : never;
/** A renamed field under its real name too, with the same type. */
type Aliased<D> = D extends { readonly aliases: infer A }
  ? { [K in keyof A as A[K] & string]: ValueOf<D, K> }
  : unknown;
/** Untyped real-only fields, as sent (absent when not sent). */
type Untyped<D> = { [K in Names<D, "untyped"> & string]?: unknown };

/**
 * The normalised shape of a resource: typed fields (a renamed field under both its names), untyped
 * real-only fields as sent, and `links` whichever name it came under.
 */
export type Resource<N extends ResourceName> =
  & Flat<(typeof DECLS)[N]>
  & Objects<(typeof DECLS)[N]>
  & Aliased<(typeof DECLS)[N]>
  & Untyped<(typeof DECLS)[N]>
  & { links?: Link[] };
