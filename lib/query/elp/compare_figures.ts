/**
 * The one comparison behind both checks of the ELP against the service: samkit's ELP lines
 * beside the service's figures per application × metric, every figure that differs listed with
 * what the difference means, pairs only one side has included.
 *
 * @module
 */

import type { ElpLine } from "./position.ts";

/** One figure where samkit and the service differ. */
export interface CrossCheckDifference {
  /** The application. */
  readonly applicationId: string;
  /** The metric. */
  readonly metricId: string;
  /** Which figure. */
  readonly figure: string;
  /** samkit's value (null: samkit has no line for this application and metric). */
  readonly samkit: number | null;
  /** The service's value (null: the service has no row). */
  readonly service: number | null;
  /** What the difference means. */
  readonly explanation: string;
}

/** The ELP line figures the service has a counterpart for. */
export type ElpFigure = "purchased" | "entitlements" | "requirement" | "position";

/** One compared figure: its label, samkit's field, the service's field, what a difference means. */
export type FigureRule<K extends string> = readonly [string, ElpFigure, K, string];

/** Options of {@link compareFigures}. */
export interface CompareFiguresOptions<K extends string> {
  /** samkit's ELP lines. */
  readonly lines: readonly ElpLine[];
  /** The service's figures per `applicationId\u0000metricId` (a missing figure as 0). */
  readonly service: ReadonlyMap<string, Readonly<Record<K, number>>>;
  /** The applications the service offers figures for; other lines are not compared. */
  readonly offered: ReadonlySet<string>;
  /** The figures compared, in the order differences are listed. */
  readonly figures: readonly FigureRule<K>[];
  /** What it means that the service has nothing for a line samkit has. */
  readonly noServiceRow: string;
  /** What it means that samkit has no line for figures the service has. */
  readonly noSamkitLine: string;
}

/** The key of an application × metric pair in {@link CompareFiguresOptions.service}. */
export function pairKey(applicationId: string, metricId: string): string {
  return `${applicationId}\u0000${metricId}`;
}

/**
 * Every difference between samkit's lines and the service's figures: first each line of an
 * offered application, figure by figure (a pair the service lacks differs where samkit's figure
 * is not 0), then each pair only the service has (where its figure is not 0).
 *
 * @example
 * ```ts
 * import { compareFigures, pairKey } from "./compare_figures.ts";
 * import { computeElp } from "./position.ts";
 * const lines = computeElp({
 *   licenses: [{ applicationId: "A", metricId: "M", quantity: 5 }],
 *   transfers: [],
 *   requirements: [],
 * });
 * const diff = compareFigures({
 *   lines,
 *   service: new Map([[pairKey("A", "M"), { coverage: 4 }]]),
 *   offered: new Set(["A"]),
 *   figures: [["Entitlements", "entitlements", "coverage", "coverage differs"]],
 *   noServiceRow: "no row",
 *   noSamkitLine: "no line",
 * });
 * console.log(diff.map((d) => `${d.figure}: ${d.samkit} vs ${d.service}`)); // ["Entitlements: 5 vs 4"]
 * ```
 */
export function compareFigures<K extends string>(
  options: CompareFiguresOptions<K>,
): CrossCheckDifference[] {
  const { lines, service, offered, figures } = options;
  const out: CrossCheckDifference[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    if (!offered.has(line.applicationId)) continue;
    const key = pairKey(line.applicationId, line.metricId);
    seen.add(key);
    const theirs = service.get(key);
    for (const [figure, mine, field, explanation] of figures) {
      const a = line[mine];
      const b = theirs ? theirs[field] : null;
      if (b === null ? a === 0 : Math.abs(a - b) < 1e-9) continue;
      const { applicationId, metricId } = line;
      out.push({
        applicationId,
        metricId,
        figure,
        samkit: a,
        service: b,
        explanation: b === null ? options.noServiceRow : explanation,
      });
    }
  }
  for (const [key, theirs] of service) {
    if (seen.has(key)) continue;
    const [applicationId, metricId] = key.split("\u0000");
    for (const [figure, , field] of figures) {
      if (theirs[field] === 0) continue;
      out.push({
        applicationId,
        metricId,
        figure,
        samkit: null,
        service: theirs[field],
        explanation: options.noSamkitLine,
      });
    }
  }
  return out;
}
