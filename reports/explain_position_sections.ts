/**
 * The sections of the explain-position report: declarations only, their rows from
 * `lib/sam/explain_position.ts`.
 *
 * @module
 */

import { date, integer, money, number, text, whenPositive } from "../lib/report/columns.ts";
import type { Row, Section } from "../lib/report/model.ts";
import type { PositionExplanation } from "../lib/sam/explain_position.ts";
import { POSITION_COLUMNS } from "./license_position_sections.ts";

const APPLICATION = text("application", "Application", { width: 28 });
const METRIC = text("metric", "Metric", { width: 14 });

/** The columns of a metric-tracking row: computer, counted units, rule, state, cover. */
const TRACKING_COLUMNS = [
  text("computer", "Computer", { width: 16 }),
  text("computerId", "Computer id", { width: 10 }),
  text("organization", "Organisation", { width: 18 }),
  text("host", "Host", { width: 14 }),
  METRIC,
  number("counted", "Counted", { decimals: 0 }),
  number("coreFactor", "Core factor", { decimals: 2 }),
  number("minimum", "Minimum", { decimals: 0 }),
  number("requirement", "Requirement", { decimals: 0 }),
  text("rule", "Rule", { width: 44 }),
  text("state", "Entitlement state (service)", { width: 18 }),
  text("coveredBy", "Covered by", { width: 14 }),
];

/**
 * The sections of one application's explanation, in reading order: the position, how it adds
 * up, the lines of its entitlements, of its requirement, what counts nothing, and its price.
 *
 * @example
 * ```ts
 * import { applicationSections } from "./explain_position_sections.ts";
 * const none = { positions: [], entitlements: [], installs: [], notCounted: [], price: [], sums: [] };
 * console.log(applicationSections(none, "Effective license position of Visio").map((s) => s.id));
 * // ["position", "sums", "entitlements", "installs", "not-counted", "price"]
 * ```
 */
export function applicationSections(why: PositionExplanation, title: string): Section[] {
  return [
    {
      id: "position",
      title,
      description: "The license-position row explained below, per metric, as license-position " +
        "prints it for the same parameters.",
      columns: POSITION_COLUMNS,
      rows: why.positions,
      facts: [
        // Units of different metrics are never added: one figure per metric.
        { label: "Shortfall", sum: "shortfall", perCurrency: "metric" },
        { label: "Shortfall cost", sum: "shortfallCost", perCurrency: "currency" },
      ],
    },
    {
      id: "sums",
      title: "How the position adds up",
      description: "Each figure of the position from the lines below: purchased, received and " +
        "given are sums of the license and transfer lines, the requirement the sum of the " +
        "device requirements, the cost the printed unit price × units. samkit checks every " +
        "step against the position before it writes the report.",
      columns: [
        APPLICATION,
        METRIC,
        text("figure", "Figure", { width: 14 }),
        number("units", "Units", { decimals: 0 }),
        money("amount", "Amount"),
        text("currency", "Currency", { width: 8 }),
        text("how", "How", { width: 48 }),
      ],
      rows: why.sums,
    },
    {
      id: "entitlements",
      title: "Licenses and transfers that make the entitlements",
      description: "Each license of the application and metric (for an organisation's scope: " +
        "the units allocated to each of its organisations), each transfer received from " +
        "another version or edition (+) and each given to one (−).",
      columns: [
        APPLICATION,
        METRIC,
        text("line", "Line", { width: 20 }),
        text("id", "Id", { width: 10 }),
        text("license", "License", { width: 10 }),
        text("kind", "Kind", { width: 12 }),
        text("from", "From application", { width: 22 }),
        text("to", "To application", { width: 22 }),
        text("holder", "Computer or user", { width: 14 }),
        text("organization", "Organisation", { width: 18 }),
        date("validFrom", "Purchased or valid from"),
        date("validTo", "Valid to"),
        number("units", "Units", { decimals: 0 }),
      ],
      rows: why.entitlements,
      emptyText: "No license or transfer: the entitlements are 0.",
    },
    {
      id: "installs",
      title: "Installs that make the requirement",
      description: "Each metric-tracking row with a requirement, or whose requirement moved to " +
        "its host or cluster (0 here): the devices license-position lists for this position, " +
        "with the rule the service applied and the entitlement state it reports.",
      columns: [APPLICATION, ...TRACKING_COLUMNS],
      rows: why.installs,
      emptyText: "No install requires a license.",
      facts: [{ label: "Installs counted", count: true }],
    },
    {
      id: "not-counted",
      title: "Installs that count nothing",
      description: "Metric-tracking rows with no requirement (exclusions, outside the metric " +
        "period, secondary use, bundles) and installs with no metric-tracking row: 0 each.",
      columns: [APPLICATION, ...TRACKING_COLUMNS],
      rows: why.notCounted,
      emptyText: why.installs.length
        ? "None: every install of the application counts."
        : "No install of the application was read.",
    },
    {
      id: "price",
      title: "Where the unit price comes from",
      description: "For an average price paid: each license of the application and metric " +
        "bought in the price's currency with a purchase value (Σ value ÷ Σ units). Otherwise " +
        "the registry's list price or the price file's.",
      columns: [
        APPLICATION,
        METRIC,
        text("source", "Priced at", { width: 18 }),
        text("license", "License", { width: 10 }),
        number("units", "Units", { decimals: 0 }),
        money("amount", "Amount"),
        text("currency", "Currency", { width: 8 }),
      ],
      rows: why.price,
      emptyText: "Unpriced: no price paid, list price or price-file entry.",
    },
  ];
}

/**
 * The section of one computer: every application on it, with its rule, state and position.
 *
 * @example
 * ```ts
 * import { computerSection } from "./explain_position_sections.ts";
 * console.log(computerSection([], "DE-LT-00062").id); // "computer"
 * ```
 */
export function computerSection(
  rows: readonly Row[],
  computer: string,
): Section {
  return {
    id: "computer",
    title: `Applications of ${computer}`,
    description: "Every application of the computer: what its metric-tracking row counts and " +
      "why, the entitlement state the service reports, the licenses covering it, and the " +
      "position of the application and metric.",
    columns: [
      APPLICATION,
      ...TRACKING_COLUMNS.slice(4),
      text("positionStatus", "Position", { width: 10 }),
      integer("positionShortfall", "Shortfall", {
        emphasis: whenPositive("positionShortfall", "bad"),
      }),
    ],
    rows,
    emptyText: "No application of this computer is tracked or entitled.",
  };
}
