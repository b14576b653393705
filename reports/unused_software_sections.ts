/**
 * How unused-software shows what harvesting idle installs gives back: the section per
 * application × metric (units in the metric's own units, the shortfall covered first, value at
 * the ELP's unit price), its chart (priced rows only, one axis per currency), and the section of
 * reclaimable value per currency. Headlines are per metric and per currency: units of different
 * metrics and amounts in different currencies are never added.
 *
 * @module
 */

import {
  boolean,
  date,
  integer,
  money,
  text,
  whenPositive,
  whenTrue,
} from "../lib/report/columns.ts";
import type { AmountConverter, Column, Section, StackedBarChartSpec } from "../lib/report/model.ts";
import { bucketLabel } from "../lib/sam/idle_buckets.ts";
import { type ReclaimRow, reclaimValueRows } from "../lib/sam/unused_rows.ts";

/** Bars drawn at most. */
const TOP = 15;

/**
 * The chart of the reclaimable value: the first rows with a value above 0 (they come first, see
 * `reclaimRows`), at most 15, one axis per currency; `undefined` when none has one.
 *
 * @example
 * ```ts
 * import { reclaimChart } from "./unused_software_sections.ts";
 * const rows = [{ reclaimValue: 5, currency: "EUR" }, { reclaimValue: null, currency: null }];
 * console.log(reclaimChart(rows as never)?.top); // 1
 * ```
 */
export function reclaimChart(rows: readonly ReclaimRow[]): StackedBarChartSpec | undefined {
  const valued = rows.filter((r) => (r.reclaimValue ?? 0) > 0).length;
  if (valued === 0) return undefined;
  return {
    type: "stackedBar",
    title: "Reclaimable license value per application and metric",
    label: "label",
    segments: [{ key: "reclaimValue", label: "Reclaimable value" }],
    currency: "currency",
    top: Math.min(valued, TOP),
    of: { count: valued, noun: "positions with a reclaimable value" },
  };
}

/**
 * The section of reclaim per application × metric, with its headlines per metric.
 *
 * @example
 * ```ts
 * import { reclaimSection } from "./unused_software_sections.ts";
 * console.log(reclaimSection([], 180).id); // "reclaim"
 * ```
 */
export function reclaimSection(rows: readonly ReclaimRow[], top: number): Section {
  return {
    id: "reclaim",
    title: "Reclaimable licenses per application and metric",
    description: `Harvest candidates: installs unused for ${top} days or more (or never used ` +
      "and of unknown age). Each counts in its metric's units what the license position " +
      "requires of it (1 per device or installation; per core its cores after core factor and " +
      "minimums; 0 for a virtual machine licensed on its host). Shortfall first: where the " +
      "position is short, harvested units cover the shortfall before any license is freed, so " +
      "only the units beyond it are reclaimable (the surplus after harvest). Valued at the " +
      "position's unit price (average paid, else list price) × reclaimable units. Blank with " +
      "a reason where unknown: no license held, or unpriced. Positions are the estate's. " +
      "Beside each, the service's own compliance usage: the units it counts covered (by " +
      "licenses of this metric and of others) and whether it counts the requirement only " +
      "partly covered (then harvested units cover its shortfall first); blank where the " +
      "service offers no usage.",
    columns: [
      text("application", "Application", { width: 30 }),
      text("metric", "Metric", { width: 16 }),
      integer("installs", "Harvest candidates"),
      integer("units", "Idle units"),
      integer("entitlements", "Entitlements"),
      integer("requirement", "Requirement"),
      integer("shortfallFirst", "Shortfall first", {
        emphasis: whenPositive("shortfallFirst", "warn"),
      }),
      integer("serviceCovered", "Covered (service)", { whenUnfilled: "drop" }),
      boolean("servicePartial", "Partly covered (service)", {
        emphasis: whenTrue("servicePartial", "warn"),
        whenUnfilled: "drop",
      }),
      integer("reclaimable", "Reclaimable units"),
      text("currency", "Currency", { width: 8 }),
      money("unitPrice", "Unit price"),
      money("reclaimValue", "Reclaimable value"),
      text("note", "Blank because", { width: 12 }),
    ],
    rows,
    chart: reclaimChart(rows),
    emptyText: `No installation has gone unused for ${top} days or more.`,
    facts: [
      {
        label: "Positions where idle units only cover a shortfall",
        count: true,
        where: (r) => (r.shortfallFirst as number) > 0 && r.reclaimable === 0,
      },
      {
        label: "Positions where the service's partial coverage disagrees with the shortfall",
        count: true,
        // As printed: the service says partly covered where the position is not short, or
        // fully covered where it is (short: requirement above entitlements).
        where: (r) =>
          typeof r.servicePartial === "boolean" &&
          r.servicePartial !== (r.requirement as number) > (r.entitlements as number),
      },
    ],
  };
}

/**
 * The section of reclaimable value per currency, with its headline per currency.
 *
 * @example
 * ```ts
 * import { reclaimValueSection } from "./unused_software_sections.ts";
 * console.log(reclaimValueSection([], 180).id); // "reclaim-value"
 * ```
 */
export function reclaimValueSection(
  rows: readonly ReclaimRow[],
  top: number,
  fx?: AmountConverter,
): Section {
  return {
    id: "reclaim-value",
    title: "Reclaimable license value per currency",
    description: "Value of the reclaimable units per currency (amounts in different currencies " +
      "are never added). A row without a currency counts the positions with units to reclaim " +
      "but no price: their value is unknown, not 0.",
    columns: [
      text("currency", "Currency", { width: 8 }),
      integer("positions", "Positions to reclaim"),
      money("value", "Value"),
      text("note", "Blank because", { width: 12 }),
    ],
    rows: reclaimValueRows(rows, fx),
    // Money in different currencies is added only once converted to a reporting currency.
    totals: { sum: ["positions"], converted: ["value"] },
    emptyText: `No license can be reclaimed from installs unused for ${top} days or more.`,
  };
}

/**
 * The columns of `idleCounts`' counts, labelled by `thresholds` (never-used installs
 * emphasised).
 *
 * @example
 * ```ts
 * import { countColumns } from "./unused_software_sections.ts";
 * console.log(countColumns([30, 90]).map((c) => c.label));
 * // ["Installations", "Used within 30 days", "Unused 30–89 days", "Unused 90+ days", "Never used", "Harvest candidates"]
 * ```
 */
export function countColumns(thresholds: readonly number[]): Column[] {
  return [
    integer("installations", "Installations"),
    integer("recent", `Used within ${thresholds[0]} days`),
    ...thresholds.map((t, b) => integer(`idle${t}`, `Unused ${bucketLabel(thresholds, b)}`)),
    integer("never", "Never used", { emphasis: whenPositive("never", "warn") }),
    integer("candidates", "Harvest candidates"),
  ];
}

/**
 * The columns of the "applications" section: the application, its version and manufacturer,
 * and its installations per idle bucket of `thresholds`.
 *
 * @example
 * ```ts
 * import { applicationColumns } from "./unused_software_sections.ts";
 * console.log(applicationColumns([30, 90]).length); // 9
 * ```
 */
export function applicationColumns(thresholds: readonly number[]): Column[] {
  return [
    text("application", "Application", { width: 30 }),
    text("version", "Version", { width: 10, whenUnfilled: "drop" }),
    text("manufacturer", "Manufacturer", { width: 18 }),
    ...countColumns(thresholds),
  ];
}

/**
 * The columns of the "installations" section: one idle install per computer and application.
 *
 * @example
 * ```ts
 * import { INSTALLATION_COLUMNS } from "./unused_software_sections.ts";
 * console.log(INSTALLATION_COLUMNS.map((c) => c.key).includes("candidate")); // true
 * ```
 */
export const INSTALLATION_COLUMNS: Column[] = [
  text("organization", "Organization", { width: 16 }),
  text("computer", "Computer", { width: 22 }),
  text("application", "Application", { width: 30 }),
  text("version", "Version", { width: 10, whenUnfilled: "drop" }),
  date("lastUsed", "Last used"),
  date("firstDiscovered", "First discovered"),
  integer("idleDays", "Days unused"),
  text("bucket", "Bucket", { width: 14 }),
  boolean("licensed", "Licensed"),
  boolean("candidate", "Harvest candidate", { emphasis: whenTrue("candidate", "warn") }),
];
