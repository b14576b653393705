/**
 * The vendor's own compliance figures (`/api/sam/v1/compliance/summary/{applicationId}`, its
 * `/allocation` and `/usage` views), tallied from the rows the estate generator emits, so they
 * agree with the estate by construction.
 *
 * The rule, per application and metric (the metric of the product's license family):
 * - requirement: `licenseRequirement` is the sum of `requirement` over the application's
 *   `metric_tracking` rows (installs after exclusions, extended coverage and secondary use);
 *   `initialRequirement`, `minimumRequirement`, `includedInBundle`, `outsideMetricPeriod`,
 *   secondary use, extended coverage (`extendedCoverageForHost` → `…ForHosts`),
 *   `multipleVersionEdition`, `virtualDesktopInfrastructure`, `physicalHost`,
 *   `computerAppExclusions`, `serverOs` → `windowsServer` and `databaseServer` → `sqlServer` are
 *   the sums of the same columns; `coreFactor` is the largest factor applied;
 * - coverage: `licensesPurchased` is the sum of `quantity` of the application's licenses with
 *   that metric; a transfer (`computer_transfers`, `user_transfers`) of `quantity` units from the
 *   licensed product to the installed one counts as given by the first and received by the
 *   second, split by the first of `isDowngrade`, `isUpgrade`, `isCrossEdition`,
 *   `isCrossPlatform` that holds (downgrades, upgrades, cross-edition, cross-platform; a
 *   transfer with none of them counts in the totals only);
 *   `totalCoverage = licensesPurchased + received − given`;
 * - `compliance = totalCoverage − licenseRequirement`, `availableLicenses = max(0, compliance)`,
 *   `incompleteLicenses` counts the licenses with incomplete reasons; the figures samkit's
 *   generator does not model (site, named-user, VM and stacking coverage…) are 0.
 *
 * Allocation splits the same figures by organisation: requirement by the organisation of the
 * computer, coverage by the license entitlements allocated to each organisation, transfers
 * received by the holder's organisation and given from the allocations they draw on
 * (`generator_org_coverage.ts`), so the allocation rows of an application and metric add up to
 * its summary and each organisation's agree with its scoped license position. Usage has one row per
 * application and metric: `mainCoverage = min(licenseRequirement, totalCoverage)` by licenses
 * of the same metric, `otherMetricCoverage` 0, `isPartial` when that is short of the requirement.
 *
 * @module
 */

import type { Row } from "./generator_context.ts";
import { OrgCoverage } from "./generator_org_coverage.ts";

/** The `metric_tracking` columns summed into the summary field of the same (or mapped) name. */
const SUMMED: readonly (readonly [string, string])[] = [
  ["initialRequirement", "initialRequirement"],
  ["includedInBundle", "includedInBundle"],
  ["outsideMetricPeriod", "outsideMetricPeriod"],
  ["secondaryUseRightsDesktopLaptop", "secondaryUseRightsDesktopLaptop"],
  ["secondaryUseRightsDevice", "secondaryUseRightsDevice"],
  ["extendedCoverageForDcc", "extendedCoverageForDcc"],
  ["extendedCoverageForHost", "extendedCoverageForHosts"],
  ["multipleVersionEdition", "multipleVersionEdition"],
  ["virtualDesktopInfrastructure", "virtualDesktopInfrastructure"],
  ["minimumRequirement", "minimumRequirement"],
  ["physicalHost", "physicalHost"],
  ["requirement", "licenseRequirement"],
  ["computerAppExclusions", "computerAppExclusions"],
  ["serverOs", "windowsServer"],
  ["databaseServer", "sqlServer"],
];

/** The summary fields no generated row feeds (always 0). */
const ZERO = [
  "expiredSubscriptionLicenses",
  "invalidAssignments",
  "unassigned",
  "assignedNamedUsers",
  "siteLicenses",
  "otherMetricCoverage",
  "siteCoverage",
  "vmCoverage",
  "licenseStacking",
  "namedUserCoverage",
  "licensingOtherMetrics",
  "virtualDesktopAccess",
] as const;

/** Transfer flags in the order that decides a transfer's kind, with the kind's field prefix. */
const TRANSFER_KINDS: readonly (readonly [string, string])[] = [
  ["isDowngrade", "downgrades"],
  ["isUpgrade", "upgrades"],
  ["isCrossEdition", "crossEdition"],
  ["isCrossPlatform", "crossPlatform"],
];

/** Running figures of one application and metric. */
interface Tally {
  readonly applicationId: string;
  readonly metricId: string;
  readonly sums: Record<string, number>;
  coreFactor: number;
  purchased: number;
  incomplete: number;
  /** Units given and received by transfer kind (`downgradesGiven` …, `otherReceived`). */
  readonly moved: Record<string, number>;
  /** Organisation id → [requirement, coverage]. */
  readonly orgs: Map<string, [number, number]>;
}

const num = (v: unknown): number =>
  typeof v === "number" && Number.isFinite(v) ? v : Number(v) || 0;

/**
 * Tallies compliance figures from generated rows and emits the three compliance tables.
 *
 * @example
 * ```ts
 * import { ComplianceTally } from "./generator_compliance.ts";
 * const tally = new ComplianceTally();
 * tally.license({ applicationId: "APP0001", metricId: "MET01", organizationId: "ORG01", quantity: 10 });
 * tally.entitlement({ applicationId: "APP0001", metricId: "MET01", organizationId: "ORG01", quantity: 10 });
 * tally.metric({ applicationId: "APP0001", metricId: "MET01", requirement: 12 }, "ORG01");
 * const rows: Record<string, unknown>[] = [];
 * tally.emit((table, row) => table === "compliance_summaries" && rows.push(row));
 * console.log(rows[0].compliance); // -2
 * ```
 */
export class ComplianceTally {
  #tallies = new Map<string, Tally>();
  #coverage = new OrgCoverage();

  #of(applicationId: unknown, metricId: unknown): Tally {
    const key = `${applicationId}|${metricId}`;
    let t = this.#tallies.get(key);
    if (!t) {
      t = {
        applicationId: String(applicationId),
        metricId: String(metricId),
        sums: Object.fromEntries(SUMMED.map(([, to]) => [to, 0])),
        coreFactor: 0,
        purchased: 0,
        incomplete: 0,
        moved: Object.fromEntries(
          [...TRANSFER_KINDS.map(([, kind]) => kind), "other"].flatMap((kind) => [
            [`${kind}Given`, 0],
            [`${kind}Received`, 0],
          ]),
        ),
        orgs: new Map(),
      };
      this.#tallies.set(key, t);
    }
    return t;
  }

  #org(t: Tally, org: unknown): [number, number] {
    const id = String(org);
    let pair = t.orgs.get(id);
    if (!pair) t.orgs.set(id, pair = [0, 0]);
    return pair;
  }

  /** A `licenses` row: its quantity covers its application and metric. */
  license(row: Row): void {
    const t = this.#of(row.applicationId, row.metricId);
    t.purchased += num(row.quantity);
    if (num(row.incompleteReasons) > 0) t.incomplete++;
    this.#coverage.license(row);
  }

  /** An `entitlements` row: units of a product and metric allocated to an organisation. */
  entitlement(row: Row): void {
    this.#coverage.allocation(row);
  }

  /** A `metric_tracking` row of a computer of organisation `org`. */
  metric(row: Row, org: string): void {
    const t = this.#of(row.applicationId, row.metricId);
    for (const [from, to] of SUMMED) {
      t.sums[to] += num(
        row[from] ?? (from === "serverOs" ? row.windowsServer : undefined) ??
          (from === "databaseServer" ? row.sqlServer : undefined),
      );
    }
    t.coreFactor = Math.max(t.coreFactor, num(row.coreFactor));
    this.#org(t, org)[0] += num(row.requirement);
  }

  /** A `computer_transfers` or `user_transfers` row: coverage moved between products. */
  transfer(row: Row): void {
    const q = num(row.quantity);
    const kind = TRANSFER_KINDS.find(([flag]) => row[flag] === true || row[flag] === "true")?.[1] ??
      "other";
    const from = this.#of(row.fromApplicationId, row.metricId);
    const to = this.#of(row.toApplicationId, row.metricId);
    from.moved[`${kind}Given`] += q;
    to.moved[`${kind}Received`] += q;
    this.#coverage.transfer(row);
  }

  /** Each organisation's coverage, into the tallies' allocation pairs. */
  #allocate(): void {
    for (const [key, orgs] of this.#coverage.coverage()) {
      const [applicationId, metricId] = key.split("|");
      const t = this.#of(applicationId, metricId);
      for (const [org, coverage] of orgs) this.#org(t, org)[1] += coverage;
    }
  }

  /** Emit `compliance_summaries`, `compliance_allocations` and `compliance_usages`. */
  emit(emit: (table: string, row: Row) => void): void {
    this.#allocate();
    const keys = [...this.#tallies.keys()].sort();
    for (const key of keys) {
      const t = this.#tallies.get(key)!;
      // "other" transfers count in the totals but have no summary field of their own.
      const { otherGiven: _given, otherReceived: _received, ...m } = t.moved;
      const sumOf = (suffix: string) =>
        Object.entries(t.moved).reduce((s, [k, v]) => k.endsWith(suffix) ? s + v : s, 0);
      const given = sumOf("Given");
      const received = sumOf("Received");
      const totalCoverage = t.purchased + received - given;
      const requirement = t.sums.licenseRequirement;
      const compliance = totalCoverage - requirement;
      const ids = { applicationId: t.applicationId, metricId: t.metricId };
      emit("compliance_summaries", {
        ...ids,
        ...t.sums,
        ...m,
        ...Object.fromEntries(ZERO.map((f) => [f, 0])),
        coreFactor: t.coreFactor,
        availableLicenses: Math.max(0, compliance),
        compliance,
        licensesPurchased: t.purchased,
        incompleteLicenses: t.incomplete,
        totalCoverage,
      });
      for (const org of [...t.orgs.keys()].sort()) {
        const [req, cov] = t.orgs.get(org)!;
        if (req === 0 && cov === 0) continue;
        emit("compliance_allocations", {
          ...ids,
          organizationId: org,
          requirement: req,
          coverage: cov,
          compliance: cov - req,
        });
      }
      const main = Math.max(0, Math.min(requirement, totalCoverage));
      emit("compliance_usages", {
        ...ids,
        licenseMetricId: t.metricId,
        otherMetricCoverage: 0,
        mainCoverage: main,
        isPartial: main < requirement,
      });
    }
  }
}
