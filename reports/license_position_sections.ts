/**
 * The sections of the license-position report that repeat per currency (exposure by publisher)
 * or give the evidence behind the positions (reconciliation with entitlement states, cross-check
 * with the service's compliance summary, requirement per device): declarations only, their rows
 * from `elp_rows.ts`.
 *
 * @module
 */

import type { ElpResult } from "../lib/query/elp/elp.ts";
import { integer, money, number, percent, text, whenPositive } from "../lib/report/columns.ts";
import type { AmountConverter, Column, Section } from "../lib/report/model.ts";
import { distinctNames } from "../lib/fs/safe_name.ts";
import {
  deviceRows,
  differenceRows,
  type ElpNames,
  exposureRows,
  type PositionRow,
  publisherRows,
} from "../lib/sam/elp_rows.ts";

/**
 * The application and metric columns every position table starts with.
 *
 * @example
 * ```ts
 * import { APPLICATION_METRIC } from "./license_position_sections.ts";
 * console.log(APPLICATION_METRIC.map((c) => c.key)); // ["application", "metric"]
 * ```
 */
export const APPLICATION_METRIC = [
  text("application", "Application", { width: 30 }),
  text("metric", "Metric", { width: 14 }),
];

/**
 * One "Exposure by publisher" section per currency, each with its bar chart (currencies are
 * never added or charted together); with a reporting currency `fx`, each publisher's converted
 * amounts are the sums of its positions' converted amounts.
 *
 * @example
 * ```ts ignore
 * const sections = exposureSections(positionRows(elp, names));
 * ```
 */
export function exposureSections(
  positions: readonly PositionRow[],
  fx?: AmountConverter,
): Section[] {
  const byCurrency = [...exposureRows(positions, fx)];
  const parts = distinctNames(byCurrency.map(([currency]) => currency));
  return byCurrency.map(([currency, rows]) => ({
    id: `exposure-${parts.get(currency)}`,
    title: `Exposure by publisher (${currency})`,
    description: `Shortfall cost and surplus value per publisher, in ${currency} only.`,
    columns: [
      text("publisher", "Publisher", { width: 28 }),
      integer("short", "Positions short"),
      money("shortfallCost", "Shortfall cost", { width: 14 }),
      money("surplusValue", "Surplus value", { width: 14 }),
    ],
    rows,
    totals: { sum: ["short", "shortfallCost", "surplusValue"], perCurrency: "currency" },
    chart: {
      type: "bar",
      title: `Shortfall cost by publisher (${currency})`,
      label: "publisher",
      value: "shortfallCost",
      top: 12,
    },
  }));
}

/**
 * The positions short without a price (no price paid, list price or price-file entry): named
 * and counted, their units shown, no money (a price file prices them).
 *
 * @example
 * ```ts
 * import { unpricedSection } from "./license_position_sections.ts";
 * console.log(unpricedSection([]).id); // "unpriced"
 * ```
 */
export function unpricedSection(positions: readonly PositionRow[]): Section {
  return {
    id: "unpriced",
    title: "Unpriced shortfalls",
    description: "Positions short with no price paid, no registry list price and no price-file " +
      "entry: their cost is unknown, not 0, and is in no total. A price file (application, " +
      "metric, currency, unit price) given with the report prices them.",
    columns: [
      ...APPLICATION_METRIC,
      text("publisher", "Publisher", { width: 24 }),
      integer("shortfall", "Shortfall"),
      integer("requirement", "Requirement"),
    ],
    rows: positions.filter((p) => p.unpricedShortfall),
    emptyText: positions.some((p) => p.shortfall > 0)
      ? "Every shortfall is priced."
      : "No position is short, so no shortfall is unpriced.",
  };
}

/** The reconciliation's description over the whole estate. */
const ESTATE_RECONCILIATION = "Positions whose ELP differs from the entitlement states the " +
  "service reports for their installs (a shortfall with no install Unlicensed or " +
  "Under-licensed, or such an install beside a surplus), each with its reason.";

/** The reconciliation's description scoped to an organisation. */
const SCOPED_RECONCILIATION = "Positions whose ELP differs from the entitlement states the " +
  "service reports for the scope's installs, each with its reason. The service gives an " +
  "install its state from the whole estate's licenses, every organisation's pooled; this " +
  "position counts only the licenses allocated to the scope, as the service's compliance " +
  "allocation does (the cross-check below compares with it). So the scope can be short while " +
  "the service covers its installs with licenses allocated elsewhere (the estate has units " +
  "to spare, or is short elsewhere), or have a surplus while some of its installs are " +
  "uncovered (the estate as a whole is short): the estate's position and uncovered installs " +
  "for the same application and metric are printed beside each, from the same reads.";

/** What the cross-check section says, by what the ELP was compared with. */
const CROSS_CHECK = {
  summary: {
    description: (notOffered: number) =>
      `Figures that differ from the service's own summary (${notOffered} applications ` +
      "without one).",
    emptyText: "No differences found: samkit's ELP equals the service's compliance summary.",
  },
  allocation: {
    description: (notOffered: number) =>
      "Figures that differ from the service's compliance allocation to this organization and " +
      "its sub-organizations (the sum of their allocation rows: coverage, requirement and " +
      `compliance; the summary's purchases are the whole estate's; ${notOffered} applications ` +
      "without an allocation).",
    emptyText: "No differences found: samkit's ELP equals the service's compliance " +
      "allocation to this organization and its sub-organizations.",
  },
} as const;

/**
 * The evidence sections: reconciliation, cross-check and requirement per device.
 *
 * @example
 * ```ts ignore
 * const sections = evidenceSections(elp, positionRows(elp, names), names);
 * ```
 */
export function evidenceSections(
  elp: ElpResult,
  positions: readonly PositionRow[],
  names: ElpNames,
  scoped = false,
): Section[] {
  return [
    {
      id: "reconciliation",
      title: "Reconciliation with entitlement states",
      description: scoped ? SCOPED_RECONCILIATION : ESTATE_RECONCILIATION,
      columns: [
        ...APPLICATION_METRIC,
        integer("position", "Position"),
        integer("coveredInstalls", "Covered installs"),
        integer("uncoveredInstalls", "Uncovered installs"),
        ...(scoped
          ? [
            integer("estatePosition", "Estate position (all organisations)"),
            integer("estateUncoveredInstalls", "Estate uncovered installs"),
          ]
          : []),
        text("disagreement", "Difference", { width: 34 }),
        text("reason", "Reason", { width: 60 }),
      ],
      rows: positions.filter((p) => p.reason),
      emptyText: positions.length
        ? "No differences found: the ELP agrees with the service's entitlement states for " +
          "every position."
        : "No position to reconcile: no license or requirement was read.",
      facts: [
        { label: "Differences from entitlement states", count: true },
        {
          label: "Differences unexplained",
          count: true,
          where: (r) => String(r.reason).startsWith("Unexplained"),
        },
      ],
    },
    {
      id: "cross-check",
      title: "Cross-check with the service's compliance summary",
      description: CROSS_CHECK[elp.crossCheckedWith].description(elp.notOffered.length),
      columns: [
        ...APPLICATION_METRIC,
        text("figure", "Figure"),
        integer("samkit", "samkit"),
        integer("service", "Service"),
        text("explanation", "Explanation", { width: 50 }),
      ],
      rows: differenceRows(elp, names),
      emptyText: positions.length
        ? CROSS_CHECK[elp.crossCheckedWith].emptyText
        : "Nothing to cross-check: no license or requirement was read.",
    },
    {
      id: "devices",
      title: "Requirement per device",
      description: "What each computer or host requires, and why.",
      columns: [
        text("computer", "Computer", { width: 18 }),
        text("host", "Host", { width: 14 }),
        text("application", "Application", { width: 28 }),
        text("metric", "Metric"),
        integer("counted", "Counted"),
        number("coreFactor", "Core factor", { decimals: 2 }),
        integer("minimum", "Minimum"),
        integer("requirement", "Requirement"),
        text("basis", "Basis", { width: 24 }),
        text("licenses", "Covered by", { width: 16 }),
      ],
      rows: deviceRows(elp, names),
    },
  ];
}

/**
 * The computers whose requirement was counted without hardware data (the service counts only the
 * minimum for them, so every position resting on one is understated), one row each, by name.
 *
 * @example
 * ```ts ignore
 * import { understatedHostsSection } from "./license_position_sections.ts";
 * const section = understatedHostsSection(elp);
 * ```
 */
export function understatedHostsSection(elp: ElpResult): Section {
  const names = new Map<string | null | undefined, string | null | undefined>();
  for (const d of elp.devices) {
    if (elp.withoutHardware.has(d.computer?.id ?? "")) {
      names.set(d.computer?.id, d.computer?.hostName);
    }
  }
  const rows = [...elp.withoutHardware].map((id) => ({
    computer: names.get(id) ?? id,
    computerId: id,
  }))
    .sort((a, b) =>
      String(a.computer).localeCompare(String(b.computer)) ||
      a.computerId.localeCompare(b.computerId)
    );
  return {
    id: "hosts-without-hardware",
    title: "Hosts without hardware data",
    description: "Computers whose requirement the service counted without hardware data (no " +
      "sockets or cores: only the metric's minimum applies), so the positions resting on them " +
      "are understated (their 'Requirement understated' column says by how many hosts); " +
      "hardware-socket-map marks them 'No hardware data'.",
    columns: [
      text("computer", "Computer", { width: 24 }),
      text("computerId", "Computer id", { width: 38 }),
    ],
    rows,
    emptyText: elp.devices.length
      ? "Every computer the requirement rests on has hardware data."
      : "No computer has a requirement.",
    facts: [{ label: "Hosts without hardware data (requirement understated)", count: true }],
  };
}

/**
 * The columns of the "positions" section: application and metric, the entitlements against the
 * requirement, the shortfall and how it is priced.
 *
 * @example
 * ```ts
 * import { POSITION_COLUMNS } from "./license_position_sections.ts";
 * console.log(POSITION_COLUMNS.some((c) => c.key === "shortfallCost")); // true
 * ```
 */
export const POSITION_COLUMNS: Column[] = [
  ...APPLICATION_METRIC,
  // Printed in every format (XLSX and CSV draw no group headers): the publisher roll-up and the
  // exposure per publisher recompute from these rows.
  text("publisher", "Publisher", { width: 18 }),
  integer("purchased", "Purchased"),
  integer("received", "Received"),
  integer("given", "Given"),
  integer("entitlements", "Entitlements", { formula: "purchased + received - given" }),
  integer("requirement", "Requirement"),
  integer("position", "Position", { formula: "entitlements - requirement" }),
  percent("compliance", "Entitled ÷ required"),
  integer("shortfall", "Shortfall", { emphasis: whenPositive("shortfall", "bad") }),
  integer("uncoveredInstalls", "Uncovered installs"),
  text("priceSource", "Priced at", { width: 14 }),
  money("unitPrice", "Unit price"),
  money("shortfallCost", "Shortfall cost (unit price × shortfall)", {
    width: 14,
    formula: 'IF(OR(unitPrice = "", shortfall <= 0), "", ' +
      "ROUND(ROUND(unitPrice * 100, 0) * shortfall, 0) / 100)",
  }),
  money("surplusValue", "Surplus value (unit price × surplus)", {
    width: 14,
    formula: 'IF(OR(unitPrice = "", position <= 0), "", ' +
      "ROUND(ROUND(unitPrice * 100, 0) * position, 0) / 100)",
  }),
  text("currency", "Currency", { width: 8 }),
  text("understated", "Requirement understated", { width: 20 }),
];

/**
 * The rule every row of the publisher roll-up obeys, as its description states it.
 *
 * @example
 * ```ts
 * import { PUBLISHER_RULE } from "./license_position_sections.ts";
 * console.log(PUBLISHER_RULE.includes("Net position = Entitlements − Requirement")); // true
 * ```
 */
export const PUBLISHER_RULE = "Per publisher within one metric (units of different metrics " +
  "are never added). Net position = Entitlements − Requirement = Surplus − Shortfall, where " +
  "Shortfall adds the shortfalls of the applications short and Surplus the surpluses of the " +
  "others: one application's surplus does not cover another's shortfall, so a publisher whose " +
  "net position is positive (Entitled ÷ required over 100%) can still have applications short.";

/**
 * The "publishers" section: compliance by publisher and metric of the positions `positions`.
 *
 * @example
 * ```ts
 * import { publishersSection } from "./license_position_sections.ts";
 * console.log(publishersSection([]).id); // "publishers"
 * ```
 */
export function publishersSection(positions: readonly PositionRow[]): Section {
  return {
    id: "publishers",
    title: "Compliance by publisher and metric",
    description: PUBLISHER_RULE,
    columns: [
      text("publisher", "Publisher", { width: 28 }),
      text("metric", "Metric", { width: 16 }),
      integer("applications", "Applications"),
      integer("short", "Applications short", { emphasis: whenPositive("short", "bad") }),
      integer("entitlements", "Entitlements"),
      integer("requirement", "Requirement"),
      integer("position", "Net position"),
      integer("shortfall", "Shortfall (short applications)", {
        emphasis: whenPositive("shortfall", "bad"),
      }),
      integer("surplus", "Surplus (other applications)"),
      percent("compliance", "Entitled ÷ required (net)"),
    ],
    rows: publisherRows(positions),
  };
}
