/**
 * Draws a chart of any kind but `bar` (which the `chart` template draws) as an SVG string.
 *
 * @module
 */

import type { BarChartSpec, ChartSpec, Row } from "../../report/model.ts";
import type { ChartContext } from "./context.ts";
import { heatMapSvg } from "./heat_map.ts";
import { lineSvg } from "./line.ts";
import { stackedBarSvg } from "./stacked_bar.ts";
import { timelineSvg } from "./timeline.ts";

/** A chart spec drawn by {@link chartSvg} (every kind but `bar`). */
export type SvgChartSpec = Exclude<ChartSpec, BarChartSpec>;

/**
 * The chart's SVG ("" when there is nothing to draw).
 *
 * @example
 * ```ts
 * import { chartSvg } from "./chart_svg.ts";
 * const svg = chartSvg(
 *   { type: "line", title: "Runs", x: "run", series: [{ key: "n", label: "N" }] },
 *   [{ run: "1", n: 1 }, { run: "2", n: 3 }],
 *   { id: "c", locale: "en-US", columns: [], now: new Date(), total: 2 },
 * );
 * console.log(svg.startsWith("<svg")); // true
 * ```
 */
export function chartSvg(spec: SvgChartSpec, rows: readonly Row[], ctx: ChartContext): string {
  switch (spec.type) {
    case "stackedBar":
      return stackedBarSvg(spec, rows, ctx);
    case "heatMap":
      return heatMapSvg(spec, rows, ctx);
    case "timeline":
      return timelineSvg(spec, rows, ctx);
    case "line":
      return lineSvg(spec, rows, ctx);
  }
}
