/**
 * The rule of one metric-tracking row in words: why the service counts what it counts for an
 * install (per install, per user, per core with its core factor and minimum, a virtual machine
 * licensed on its host or cluster, extended coverage, exclusions, secondary use). The figure
 * itself is always the row's own `requirement`, which the effective license position adds up;
 * the rule only states the row's counted units, core factor and minimum beside it.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";

/** What {@link requirementRule} reads besides the row. */
export interface RuleContext {
  /** The metric's name (`Processor cores`, `Users`, `Installations` …). */
  readonly metric: string;
  /** The name of the row's computer's host, when it is a virtual machine. */
  readonly host?: string | null;
  /** Whether the row's computer has no hardware data (its requirement is a minimum). */
  readonly withoutHardware?: boolean;
}

type Tracking = Resource<"MetricTracking">;

const on = (n: number | null | undefined) => (n ?? 0) > 0;

/** A number as a person reads it: no float noise, no needless decimals. */
function figure(n: number | null | undefined): string {
  return String(Number((n ?? 0).toPrecision(12)));
}

/** The unit a metric counts, in the singular ("core", "user", "install" …). */
function unitOf(metric: string): string {
  const m = metric.toLowerCase();
  if (/core/.test(m)) return "core";
  if (/pvu|value unit/.test(m)) return "PVU";
  if (/processor/.test(m)) return "processor";
  if (/user/.test(m)) return "user";
  if (/device/.test(m)) return "device";
  if (/install/.test(m)) return "install";
  return "unit";
}

const plural = (n: number, unit: string) =>
  `${figure(n)} ${unit}${n === 1 || unit === "PVU" ? "" : "s"}`;

/** The words of a counted requirement: units × core factor, the minimum when it applies. */
function counted(row: Tracking, metric: string): string {
  const unit = unitOf(metric);
  const initial = row.initialRequirement ?? 0;
  const factor = row.coreFactor ?? 1;
  const minimum = row.minimumRequirement ?? 0;
  const requirement = row.requirement ?? 0;
  if (initial <= 1 && factor === 1 && minimum <= 0) {
    return `Per ${unit}: ${figure(requirement)}`;
  }
  const product = initial * factor;
  const parts = [
    factor === 1
      ? plural(initial, unit)
      : `${plural(initial, unit)} × core factor ${figure(factor)} = ${figure(product)}`,
  ];
  if (minimum > 0) {
    parts.push(
      minimum > Math.ceil(product) && requirement <= minimum
        ? `minimum ${figure(minimum)} applies`
        : `minimum ${figure(minimum)}`,
    );
  }
  return `${parts.join("; ")} → ${figure(requirement)}`;
}

/**
 * Why a metric-tracking row counts what it counts, in one line.
 *
 * @example
 * ```ts
 * import { requirementRule } from "./explain_rule.ts";
 * const row = {
 *   computerId: "C1", applicationId: "A", metricId: "MET02", initialRequirement: 24,
 *   coreFactor: 0.5, minimumRequirement: 16, requirement: 16,
 * };
 * console.log(requirementRule(row as never, { metric: "Processor cores" }));
 * // "Per core: 24 cores × core factor 0.5 = 12; minimum 16 applies → 16"
 * const vm = { virtualMachine: 1, requirementMoved: 1, requirement: 0 };
 * console.log(requirementRule(vm as never, { metric: "Processor cores", host: "ESX-01" }));
 * // "Virtual machine: licensed on its host ESX-01, which counts its physical cores → 0 here"
 * ```
 */
export function requirementRule(row: Tracking, context: RuleContext): string {
  const excluded = exclusion(row);
  if (excluded) return excluded;
  if (on(row.requirementMoved)) return moved(row, context);
  const what = counted(row, context.metric);
  const unit = unitOf(context.metric);
  if (
    context.withoutHardware && on(row.requirement) &&
    (row.initialRequirement === 0 || on(row.unknownPhysicalHost))
  ) {
    return `No hardware data: the minimum is counted (understated): ${what}`;
  }
  if (on(row.physicalHost)) {
    return `Physical host: all its ${unit}s, for the virtual machines it runs: ${
      what.replace(/^Per \w+: /, "")
    }`;
  }
  if (what.startsWith("Per ")) return what;
  return `Per ${unit}: ${what}`;
}

/** The exclusion a row is under, in words, or null. */
function exclusion(row: Tracking): string | null {
  if (on(row.manuallyExcluded) || on(row.computerAppExclusions)) {
    return "Excluded (by hand, on this computer or application): not counted → 0";
  }
  if (on(row.outsideMetricPeriod)) {
    return "Outside the metric period (not seen in use in it): not counted → 0";
  }
  if (on(row.secondaryUseRightsDesktopLaptop) || on(row.secondaryUseRightsDevice)) {
    return "Secondary use rights (a second device of the same user): not counted → 0";
  }
  if (on(row.includedInBundle)) return "Included in a bundle: counted by the bundle → 0";
  return null;
}

/** A row whose requirement moved to another device (its host, its cluster). */
function moved(row: Tracking, context: RuleContext): string {
  const host = context.host ? ` ${context.host}` : "";
  if (on(row.extendedCoverageForDcc)) {
    return "Extended coverage through its data-center cluster: counted on the cluster's hosts " +
      `→ ${figure(row.requirement)} here`;
  }
  if (on(row.extendedCoverageForHost)) {
    return `Extended coverage through its host${host}: counted on the host → ${
      figure(row.requirement)
    } here`;
  }
  if (on(row.virtualMachine)) {
    return `Virtual machine: licensed on its host${host}, which counts its physical cores → ${
      figure(row.requirement)
    } here`;
  }
  return `Requirement moved to another device → ${figure(row.requirement)} here`;
}
