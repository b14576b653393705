/**
 * How many of a section's rows a chart reads, and reading them: charts of the first rows read
 * only those; heat maps and line charts read up to {@link MAX_CHART_READ} rows (their grid or
 * latest points are picked from those), so a chart never holds a whole large section.
 *
 * @module
 */

import type { ChartSpec, Row } from "../../report/model.ts";
import { STACKED_BAR_TOP } from "./stacked_bar.ts";
import { TIMELINE_TOP } from "./timeline.ts";
import { clampCount } from "./scale.ts";

/**
 * The most rows a heat map or line chart reads from its section.
 *
 * @example
 * ```ts
 * import { MAX_CHART_READ } from "./read.ts";
 * console.log(MAX_CHART_READ); // 20000
 * ```
 */
export const MAX_CHART_READ = 20_000;

/**
 * The rows a chart of `spec` reads from the start of its section.
 *
 * @example
 * ```ts
 * import { chartReadLimit } from "./read.ts";
 * console.log(chartReadLimit({ type: "timeline", title: "T", label: "a", date: "d", top: 5 })); // 5
 * ```
 */
export function chartReadLimit(spec: ChartSpec): number {
  switch (spec.type) {
    case "bar":
      return Math.max(1, spec.top ?? 10);
    case "stackedBar":
      return clampCount(spec.top ?? STACKED_BAR_TOP.default, 1, STACKED_BAR_TOP.max);
    case "timeline":
      return clampCount(spec.top ?? TIMELINE_TOP.default, 1, TIMELINE_TOP.max);
    case "heatMap":
    case "line":
      return MAX_CHART_READ;
  }
}

/**
 * The first `limit` rows of a stream (the stream is closed when the limit is reached).
 *
 * @example
 * ```ts
 * import { readChartRows } from "./read.ts";
 * async function* rows() { for (let n = 0; n < 100; n++) yield { n }; }
 * console.log((await readChartRows(rows(), 3)).length); // 3
 * ```
 */
export async function readChartRows(rows: AsyncIterable<Row>, limit: number): Promise<Row[]> {
  const out: Row[] = [];
  if (limit <= 0) return out;
  for await (const row of rows) {
    out.push(row);
    if (out.length >= limit) break;
  }
  return out;
}
