/**
 * The read routes of the mock service: each GET path of the real service (as its OpenAPI
 * documents spell it), what it answers from the fixtures, its shape on the real service and in the
 * spec's dialect, and path parameters that find data (for the contract tests).
 *
 * @module
 */

import {
  APP,
  APPLICATION_IDS,
  APPLICATION_METRICS,
  COMPLIANCE_APP,
  complianceAllocation,
  complianceSummary,
  complianceUsage,
  COMPUTER_APPLICATION_DETAILS,
  COMPUTER_APPLICATIONS,
  COMPUTER_DETAILS,
  COMPUTERS,
  COST_SUMMARIES,
  hardwareOf,
  IDS,
  LIC,
  LICENSE_COSTS,
  LICENSE_DETAILS,
  LICENSES,
  MAINTENANCE_PERIODS,
  METRIC,
  METRIC_TRACKING,
  ORG,
  ORGANIZATIONS,
  PC,
  REGISTRY_APPLICATION_DETAILS,
  REGISTRY_APPLICATIONS,
  type Row,
  selfLink,
} from "./fixtures/tenant.ts";
import {
  DATA_CENTER_CLUSTERS,
  DCC_HISTORY,
  DCC_MEMBERS,
  ENTITLEMENT_STATES,
  ESTATE_EXTRAS,
  LICENSE_EXTRAS,
  USER_ACCOUNTS,
  VIRTUAL_MACHINES,
} from "./fixtures/tenant_extras.ts";

/**
 * How a route answers:
 * - `collection`: the paged envelope (`items`, `pagination`, `_links`);
 * - `object`: one object;
 * - `flat`: one flat object per `page_number`, with a `next` link while there are more (display
 *   adapters, monitors, the spec's entitlement states); 404 when there are none;
 * - `tree`: the organisation tree's `{nodes}` (not paged).
 */
export type RouteKind = "collection" | "object" | "flat" | "tree";

/** One GET route of the mock. */
export interface MockRoute {
  /** The path as the real service spells it, with `{param}` placeholders. */
  readonly template: string;
  /** The shape on the real service. */
  readonly kind: RouteKind;
  /** The shape in the spec's dialect, when it differs. */
  readonly specKind?: RouteKind;
  /** Whether the envelope carries `total_items` on the real service (estate, licenses). */
  readonly totalItems: boolean;
  /** Path parameters that select data (every route's sample answers at least one item). */
  readonly sample: Readonly<Record<string, string>>;
  /** The rows for the parameters (an object route answers the first; none is a 404). */
  readonly rows: (params: Readonly<Record<string, string>>) => Row[];
  /** The spec's transform family for this route's rows (license forms, registry fields). */
  readonly specForm?: "License" | "LicenseDetail" | "UserAssignment" | "Registry";
  /** Absent from the spec: an operation the issue adds (the contract expects it anyway). */
  readonly added?: boolean;
  /** The spec's query set is Q2 (no filter), though the real service takes one. */
  readonly specNoFilter?: boolean;
}

const E = "/api/sam/estate/v1";
const L = "/api/sam/v1";
const R = "/api/sam/software-registry/v1";
const O = "/api/organizations/v1";

const by = (rows: Row[], field: string, param: string) => (p: Readonly<Record<string, string>>) =>
  rows.filter((r) => r[field] === p[param]);
const where = (rows: Row[], match: Record<string, string>) =>
(
  p: Readonly<Record<string, string>>,
) => rows.filter((r) => Object.entries(match).every(([f, param]) => r[f] === p[param]));
const all = (rows: Row[]) => () => rows;
const one = (row: Row | undefined) => (row ? [row] : []);
const without = (rows: Row[], ...fields: string[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !fields.includes(k))));

const X = ESTATE_EXTRAS;
const Y = LICENSE_EXTRAS;
const id = { id: PC.sql };
const licenseId = { id: LIC.sqlEur };

type Decl = [
  template: string,
  kind: RouteKind,
  sample: Record<string, string>,
  rows: MockRoute["rows"],
  extra?: Partial<Pick<MockRoute, "specKind" | "specForm" | "added" | "specNoFilter">>,
];

const ESTATE: Decl[] = [
  ["/computers", "collection", {}, all(COMPUTERS)],
  ["/dcc", "collection", {}, all(DATA_CENTER_CLUSTERS), { specNoFilter: true }],
  ["/computers/{id}", "object", id, (p) => one(COMPUTER_DETAILS.get(p.id!))],
  ["/computers/{id}/contracts", "collection", id, by(X.contracts, "computerId", "id")],
  ["/computers/{id}/costs", "object", id, by(X.costs, "computerId", "id")],
  ["/computers/{id}/logonhistory", "collection", id, by(X.logons, "computerId", "id")],
  [
    "/computers-logonhistory/{userid}",
    "collection",
    { userid: IDS.userBob },
    by(
      X.logons,
      "userId",
      "userid",
    ),
  ],
  [
    "/computers/{id}/logonhistory/{userid}",
    "object",
    { id: PC.sql, userid: IDS.userBob },
    where(X.logons, { computerId: "id", userId: "userid" }),
  ],
  ["/computers-environment-variables", "collection", {}, all(X.environment)],
  [
    "/computers/{id}/environment-variables",
    "collection",
    id,
    by(
      X.environment,
      "computerId",
      "id",
    ),
  ],
  ["/computers/{id}/applications", "collection", id, by(COMPUTER_APPLICATIONS, "computerId", "id")],
  ["/computers-applications", "collection", {}, all(COMPUTER_APPLICATIONS)],
  [
    "/computers/{id}/applications/{applicationid}",
    "object",
    { id: PC.quarantined, applicationid: APP.office2016 },
    where(COMPUTER_APPLICATION_DETAILS, { computerId: "id", applicationId: "applicationid" }),
  ],
  ["/computers-application-usage", "collection", {}, all(X.usage)],
  ["/computers-application-user-usage", "collection", {}, all(X.userUsage)],
  ["/computers-application-usage/summaries", "collection", {}, all(X.usageSummaries)],
  ["/computers/{id}/hardware/displayadapters", "flat", id, by(X.displays, "computerId", "id")],
  ["/computers/{id}/hardware/harddrives", "collection", id, by(X.hardDrives, "computerId", "id")],
  [
    "/computers/{id}/hardware/opticaldrives",
    "collection",
    { id: PC.laptop },
    by(
      X.opticalDrives,
      "computerId",
      "id",
    ),
  ],
  ["/computers/{id}/hardware", "object", id, (p) => one(hardwareOf(p.id!))],
  ["/computers/{id}/hardware/disks/logical", "collection", id, by(X.disks, "computerId", "id")],
  [
    "/computers/{id}/hardware/monitors",
    "flat",
    { id: PC.laptop },
    by(
      X.monitors,
      "computerId",
      "id",
    ),
  ],
  ["/computers-networkadapters", "collection", {}, all(X.adapters)],
  [
    "/computers/{id}/hardware/networkadapters",
    "collection",
    id,
    by(
      X.adapters,
      "computerId",
      "id",
    ),
  ],
  ["/computers/{id}/hardware/cpu", "collection", id, by(X.processors, "computerId", "id")],
  ["/computers/{id}/hardware/cpu/socketmap", "object", id, by(X.socketMaps, "computerId", "id")],
  ["/computers/{id}/registry", "collection", id, by(X.registry, "computerId", "id")],
  ["/computers-metering", "collection", {}, all(METRIC_TRACKING)],
  ["/computers/{id}/metering", "collection", id, by(METRIC_TRACKING, "computerId", "id")],
  // Added by the issue.
  [
    "/computers/{id}/virtual-machines",
    "collection",
    { id: PC.host },
    by(
      VIRTUAL_MACHINES,
      "hostId",
      "id",
    ),
    { added: true },
  ],
  // The vendor's document declares this read as a paged envelope of hypervisor types (id, name),
  // which we take for a documentation slip: the path and summary ("Get datacenter/cluster") name
  // one cluster. samkit reads one cluster object; an envelope would fail loudly as a ShapeError.
  [
    "/dcc/{id}",
    "object",
    { id: IDS.dcc },
    (p) => DATA_CENTER_CLUSTERS.filter((d) => d.id === p.id),
    { added: true },
  ],
  ["/dcc/{id}/members", "collection", { id: IDS.dcc }, by(DCC_MEMBERS, "dccId", "id"), {
    added: true,
  }],
  [
    "/dcc/{id}/members/{memberId}",
    "object",
    { id: IDS.dcc, memberId: IDS.dccMember },
    where(DCC_MEMBERS, { dccId: "id", id: "memberId" }),
    { added: true },
  ],
  ["/dcc/{id}/history", "collection", { id: IDS.dcc }, by(DCC_HISTORY, "dccId", "id"), {
    added: true,
  }],
  ["/user-accounts", "collection", {}, () =>
    USER_ACCOUNTS.map((u) => ({
      id: u.id,
      userName: u.userName,
      status: u.status,
      email: u.email,
      fullName: u.fullName,
      _links: u._links,
    })), { added: true }],
  ["/user-accounts/{id}", "object", { id: IDS.userAlice }, by(USER_ACCOUNTS, "id", "id"), {
    added: true,
  }],
];

const LICENSES_ROUTES: Decl[] = [
  ["/licenses", "collection", {}, all(LICENSES), { specForm: "License" }],
  ["/licenses/{id}", "object", licenseId, by(LICENSE_DETAILS, "id", "id"), {
    specForm: "LicenseDetail",
  }],
  [
    "/licenses/{id}/upgrades",
    "collection",
    { id: LIC.officeEng },
    by(
      Y.upgrades,
      "licenseId",
      "id",
    ),
  ],
  [
    "/licenses/{id}/upgrades/{upgradedLicenseId}",
    "object",
    { id: LIC.officeEng, upgradedLicenseId: LIC.officeSales },
    where(Y.upgrades, { licenseId: "id", upgradedLicenseId: "upgradedLicenseId" }),
  ],
  [
    "/licenses/transfers/{applicationId}",
    "collection",
    { applicationId: APP.office2016 },
    by(
      Y.transferSummaries,
      "scopeAppId",
      "applicationId",
    ),
  ],
  ["/licenses/transfers/{applicationId}/computers", "collection", {
    applicationId: APP.office2016,
  }, (p) =>
    without(
      Y.computerTransfers.filter((t) => t.toApplicationId === p.applicationId),
      "id",
      "metricId",
      "isUpgrade",
      "isDowngrade",
      "isCrossEdition",
      "isCrossPlatform",
      "quantity",
    )],
  [
    "/licenses/transfers/{applicationId}/computers/{computerId}",
    "collection",
    { applicationId: APP.office2016, computerId: PC.quarantined },
    where(Y.computerTransfers, { toApplicationId: "applicationId", computerId: "computerId" }),
    { specKind: "object" },
  ],
  ["/licenses/transfers/{applicationId}/custom-values", "collection", {
    applicationId: APP.office2016,
  }, (p) =>
    without(
      Y.customTransfers.filter((t) => t.toApplicationId === p.applicationId),
      "id",
      "metricId",
      "isUpgrade",
      "isDowngrade",
      "isCrossEdition",
      "isCrossPlatform",
      "quantity",
      "useRights",
    )],
  [
    "/licenses/transfers/{applicationId}/custom-values/{customId}",
    "collection",
    { applicationId: APP.office2016, customId: IDS.customValue },
    where(Y.customTransfers, {
      toApplicationId: "applicationId",
      customCompareValueId: "customId",
    }),
  ],
  ["/licenses/transfers/{applicationId}/users", "collection", { applicationId: APP.office2016 }, (
    p,
  ) =>
    without(
      Y.userTransfers.filter((t) => t.toApplicationId === p.applicationId),
      "id",
      "metricId",
      "isUpgrade",
      "isDowngrade",
      "isCrossEdition",
      "isCrossPlatform",
      "quantity",
    )],
  [
    "/licenses/transfers/{applicationId}/users/{userId}",
    "collection",
    { applicationId: APP.office2016, userId: IDS.userAlice },
    where(Y.userTransfers, { toApplicationId: "applicationId", userId: "userId" }),
  ],
  [
    "/licenses/tracking/{applicationId}",
    "collection",
    { applicationId: APP.sql2016 },
    by(
      Y.trackingSummaries,
      "scopeAppId",
      "applicationId",
    ),
  ],
  [
    "/licenses/tracking/{applicationId}/computers",
    "collection",
    { applicationId: APP.sql2016 },
    by(
      Y.computerTracking,
      "applicationId",
      "applicationId",
    ),
  ],
  [
    "/licenses/tracking/{applicationId}/computers/{computerId}",
    "collection",
    { applicationId: APP.sql2016, computerId: PC.sql },
    where(Y.computerTracking, { applicationId: "applicationId", computerId: "computerId" }),
  ],
  [
    "/licenses/tracking/{applicationId}/users",
    "collection",
    { applicationId: APP.office2019 },
    by(
      Y.userTracking,
      "applicationId",
      "applicationId",
    ),
  ],
  [
    "/licenses/tracking/{applicationId}/users/{userId}",
    "collection",
    { applicationId: APP.office2019, userId: IDS.userAlice },
    where(Y.userTracking, { applicationId: "applicationId", userId: "userId" }),
  ],
  ["/licenses-policies", "collection", {}, all(Y.policies)],
  [
    "/licenses-policies/{policyId}",
    "object",
    { policyId: IDS.policy },
    by(
      Y.policies,
      "id",
      "policyId",
    ),
  ],
  [
    "/licenses-policies/{policyId}/fields",
    "collection",
    { policyId: IDS.policy },
    (p) => p.policyId === IDS.policy ? Y.policyFields : [],
  ],
  [
    "/licenses-policies/{policyId}/fields/{fieldId}",
    "object",
    { policyId: IDS.policy, fieldId: IDS.policyField },
    (p) => p.policyId === IDS.policy ? Y.policyFields.filter((f) => f.id === p.fieldId) : [],
  ],
  ["/licenses-entitlements", "collection", {}, all(Y.entitlements)],
  ["/licenses/entitlements/computers", "collection", {}, all(Y.computerEntitlements)],
  ["/licenses/entitlements/entitlement-states", "collection", {}, all(ENTITLEMENT_STATES), {
    specKind: "flat",
  }],
  ["/licenses-extended-coverage-types", "collection", {}, all(Y.coverageTypes)],
  ["/extended-coverage", "collection", {}, all(Y.coverages)],
  [
    "/extended-coverage/{coverageId}",
    "object",
    { coverageId: IDS.coverage },
    by(
      Y.coverages,
      "id",
      "coverageId",
    ),
  ],
  ["/licenses/{id}/costs", "collection", licenseId, by(LICENSE_COSTS, "licenseId", "id")],
  [
    "/licenses/{id}/costs/{organizationId}",
    "object",
    { id: LIC.sqlEur, organizationId: ORG.engineering },
    where(LICENSE_COSTS, { licenseId: "id", organizationId: "organizationId" }),
  ],
  ["/licenses/{id}/costs-summary", "object", licenseId, by(COST_SUMMARIES, "licenseId", "id")],
  [
    "/licenses/{id}/assignments-summary",
    "object",
    licenseId,
    by(
      Y.assignmentSummaries,
      "licenseId",
      "id",
    ),
  ],
  [
    "/licenses/{id}/assignments/computers",
    "collection",
    licenseId,
    by(
      Y.computerAssignments,
      "licenseId",
      "id",
    ),
  ],
  [
    "/licenses/{id}/assignments/computers/{assignmentId}",
    "object",
    { id: LIC.sqlEur, assignmentId: IDS.assignmentComputer },
    where(Y.computerAssignments, { licenseId: "id", id: "assignmentId" }),
  ],
  [
    "/licenses/{id}/assignments/datacenters",
    "collection",
    { id: LIC.winEur },
    by(
      Y.datacenterAssignments,
      "licenseId",
      "id",
    ),
  ],
  [
    "/licenses/{id}/assignments/datacenters/{assignmentId}",
    "object",
    { id: LIC.winEur, assignmentId: IDS.assignmentDatacenter },
    where(Y.datacenterAssignments, { licenseId: "id", id: "assignmentId" }),
  ],
  [
    "/licenses/{id}/assignments/organizations",
    "collection",
    { id: LIC.officeSales },
    by(
      Y.organizationAssignments,
      "licenseId",
      "id",
    ),
  ],
  [
    "/licenses/{id}/assignments/organizations/{assignmentId}",
    "object",
    { id: LIC.officeSales, assignmentId: IDS.assignmentOrganization },
    where(Y.organizationAssignments, { licenseId: "id", id: "assignmentId" }),
  ],
  [
    "/licenses/{id}/assignments/site",
    "object",
    { id: LIC.officeEng },
    by(
      Y.siteAssignments,
      "licenseId",
      "id",
    ),
  ],
  [
    "/licenses/{id}/assignments/users",
    "collection",
    { id: LIC.officeSales },
    by(
      Y.userAssignments,
      "licenseId",
      "id",
    ),
    { specForm: "UserAssignment" },
  ],
  [
    "/licenses/{id}/assignments/users/{assignmentId}",
    "object",
    { id: LIC.officeSales, assignmentId: IDS.assignmentUser },
    where(Y.userAssignments, { licenseId: "id", id: "assignmentId" }),
    { specForm: "UserAssignment" },
  ],
  // Added by the issue.
  ["/licenses/maintenance-periods", "collection", {}, all(MAINTENANCE_PERIODS), { added: true }],
  [
    "/licenses/{id}/maintenance-periods",
    "collection",
    licenseId,
    by(
      MAINTENANCE_PERIODS,
      "licenseId",
      "id",
    ),
    { added: true },
  ],
  ["/licenses/entitlements/users", "collection", {}, all(Y.userEntitlements), { added: true }],
  [
    "/licenses/tracking-computers/{computerId}",
    "collection",
    { computerId: PC.sql },
    (p) =>
      Y.computerTracking.filter((t) => t.computerId === p.computerId).map((t) => ({
        _links: t._links,
        id: t.id,
        metricId: t.metricId,
        applicationId: t.applicationId,
        computerId: t.computerId,
        primaryUseRights: t.primaryUseRights,
      })),
    { added: true },
  ],
  [
    "/compliance/summary/{applicationId}",
    "collection",
    { applicationId: COMPLIANCE_APP },
    (p) => complianceSummary(p.applicationId!),
    { added: true },
  ],
  [
    "/compliance/summary/{applicationId}/allocation",
    "collection",
    {
      applicationId: COMPLIANCE_APP,
    },
    (p) => complianceAllocation(p.applicationId!),
    { added: true },
  ],
  ["/compliance/summary/{applicationId}/usage", "collection", { applicationId: COMPLIANCE_APP }, (
    p,
  ) => complianceUsage(p.applicationId!), { added: true }],
];

const REGISTRY: Decl[] = [
  ["/applications", "collection", {}, all(REGISTRY_APPLICATIONS), { specForm: "Registry" }],
  [
    "/applications/{id}",
    "object",
    { id: APP.sql2016 },
    by(REGISTRY_APPLICATION_DETAILS, "id", "id"),
    {
      specForm: "Registry",
    },
  ],
  // Added by the issue.
  [
    "/applications/{id}/metrics",
    "collection",
    { id: APP.sql2016 },
    (p) => without(APPLICATION_METRICS.filter((m) => m.applicationId === p.id), "applicationId"),
    {
      added: true,
    },
  ],
  [
    "/applications/{id}/metrics/{metricId}",
    "object",
    { id: APP.sql2016, metricId: METRIC.cores },
    (p) =>
      without(
        APPLICATION_METRICS.filter((m) => m.applicationId === p.id && m.id === p.metricId),
        "applicationId",
      ),
    { added: true },
  ],
];

const ORGANIZATION_ROUTES: Decl[] = [
  ["/tree", "tree", {}, all(ORGANIZATIONS), { added: true }],
  ["/node/{nodeId}", "object", { nodeId: ORG.sales }, by(ORGANIZATIONS, "id", "nodeId"), {
    added: true,
  }],
];

const build = (prefix: string, totalItems: boolean, decls: Decl[]): MockRoute[] =>
  decls.map(([template, kind, sample, rows, extra = {}]) => ({
    template: prefix + template,
    kind,
    totalItems,
    sample,
    rows,
    ...extra,
  }));

/**
 * Every GET route of the mock, real paths. Scoping columns that the service does not send
 * (`hostId`, `dccId`, a summary's `applicationId`) are dropped by the server before answering.
 *
 * @example
 * ```ts
 * import { ROUTES } from "./mock_routes.ts";
 * console.log(ROUTES.filter((r) => r.added).length > 0); // true
 * ```
 */
export const ROUTES: readonly MockRoute[] = [
  ...build(E, true, ESTATE),
  ...build(L, true, LICENSES_ROUTES),
  ...build(R, false, REGISTRY),
  ...build(O, false, ORGANIZATION_ROUTES),
].map((r) => r.template.startsWith(`${E}/dcc`) ? { ...r, totalItems: false } : r);

/** Fields used only to scope rows in the fixtures; never sent. */
export const SCOPING_FIELDS: ReadonlySet<string> = new Set(["hostId", "dccId", "scopeAppId"]);

/** The metric of the compliance sample, with its id (for tests). */
export const COMPLIANCE_METRIC: string = METRIC.cores;

/** Every application id (per-application reads in tests). */
export const ALL_APPLICATIONS: readonly string[] = APPLICATION_IDS;

/** `selfLink` re-exported for fixture modules. */
export const routeLink: typeof selfLink = selfLink;
