/**
 * Stacked horizontal bars: one bar per row, one segment per series (e.g. installations per
 * entitlement state of each application), a legend, a value axis, one axis per currency when the
 * spec names a currency key, and "First N of M rows." when the section has more rows (or "First N
 * of M <noun>." when the spec says what its rows are the first of).
 *
 * @module
 */

import type { Row, StackedBarChartSpec } from "../../report/model.ts";
import { type ChartContext, cutNote, labelOf, numberOf, valueText } from "./context.ts";
import { legend } from "./legend.ts";
import { clampCount, linearScale, niceTicks, tickLabel } from "./scale.ts";
import { filledRect, seriesFill } from "./styles.ts";
import { escapeXml, svgLine, svgRoot, svgText } from "./svg.ts";

/** Bars drawn when the spec gives no `top`, and the most ever drawn. */
export const STACKED_BAR_TOP = { default: 15, max: 50 } as const;

const WIDTH = 760, LABEL_W = 230, AREA = 420, PITCH = 22, BAR_H = 15, AXIS_H = 18;

interface Panel {
  readonly currency?: string;
  readonly rows: readonly Row[];
}

/**
 * The chart as an SVG string ("" when no row has a label to draw).
 *
 * @example
 * ```ts
 * import { stackedBarSvg } from "./stacked_bar.ts";
 * const svg = stackedBarSvg(
 *   {
 *     type: "stackedBar",
 *     title: "Installations per state",
 *     label: "app",
 *     segments: [{ key: "covered", label: "Covered" }, { key: "uncovered", label: "Uncovered" }],
 *   },
 *   [{ app: "Visio", covered: 8, uncovered: 2 }],
 *   { id: "s1-chart", locale: "en-US", columns: [], now: new Date(), total: 1 },
 * );
 * console.log(svg.includes(">Uncovered</text>")); // true
 * ```
 */
export function stackedBarSvg(
  spec: StackedBarChartSpec,
  rows: readonly Row[],
  ctx: ChartContext,
): string {
  const top = clampCount(spec.top ?? STACKED_BAR_TOP.default, 1, STACKED_BAR_TOP.max);
  const picked = rows.slice(0, top);
  if (picked.length === 0 || spec.segments.length === 0) return "";
  const keyItems = spec.segments.map((s, i) => ({
    label: s.label,
    swatch: filledRect(0, 0, 12, 12, seriesFill(i)),
  }));
  const head = legend(keyItems, 0, 0, WIDTH);
  const parts = [head.markup];
  let y = head.height + 6;
  for (const panel of panels(picked, spec.currency)) {
    const drawn = drawPanel(spec, panel, y, ctx);
    parts.push(drawn.markup);
    y = drawn.bottom + 8;
  }
  const note = cutNote(
    "First",
    picked.length,
    spec.of?.count ?? Math.max(ctx.total, rows.length),
    spec.of?.noun ?? "rows",
    ctx.locale,
  );
  if (note) parts.push(svgText(note, { x: 0, y: y + 10, size: 10, fill: "#595959" }));
  const desc = `Stacked bars of ${spec.segments.map((s) => s.label).join(", ")} for ` +
    `${picked.length} ${picked.length === 1 ? "row" : "rows"}` +
    `${spec.currency ? ", one axis per currency" : ""}. ${note}`.trim();
  return svgRoot(
    {
      id: ctx.id,
      kind: "stacked-bar",
      title: spec.title,
      desc,
      width: WIDTH,
      height: y + (note ? 16 : 0),
    },
    parts.join(""),
  );
}

/** Rows split by currency (first appearance order), or one panel. */
function panels(rows: readonly Row[], currencyKey?: string): Panel[] {
  if (!currencyKey) return [{ rows }];
  const by = new Map<string, Row[]>();
  for (const row of rows) {
    const code = typeof row[currencyKey] === "string" ? row[currencyKey] as string : "";
    by.set(code, [...(by.get(code) ?? []), row]);
  }
  return [...by].map(([currency, rows]) => ({ currency: currency || "(no currency)", rows }));
}

/** One axis of bars from `y`; returns its markup and bottom edge. */
function drawPanel(
  spec: StackedBarChartSpec,
  panel: Panel,
  y0: number,
  ctx: ChartContext,
): { markup: string; bottom: number } {
  const out: string[] = [];
  let y = y0;
  if (panel.currency !== undefined) {
    out.push(svgText(`Amounts in ${panel.currency}`, { x: 0, y: y + 11, bold: true, max: 60 }));
    y += 18;
  }
  const sums = panel.rows.map((row) => rowSum(spec, row));
  const ticks = niceTicks(0, Math.max(0, ...sums), 4);
  const x = linearScale(0, ticks.at(-1)!, LABEL_W, LABEL_W + AREA);
  const height = panel.rows.length * PITCH;
  out.push(grid(ticks, x, y, height, ctx.locale));
  panel.rows.forEach((row, i) => out.push(drawBar(spec, row, sums[i], x, y + i * PITCH, ctx)));
  return { markup: out.join(""), bottom: y + height + AXIS_H };
}

function rowSum(spec: StackedBarChartSpec, row: Row): number {
  return spec.segments.reduce((sum, s) => sum + Math.max(0, numberOf(row, s.key) ?? 0), 0);
}

/** Vertical grid lines with their tick labels under the bars. */
function grid(
  ticks: readonly number[],
  x: (v: number) => number,
  y: number,
  height: number,
  locale: string,
): string {
  return ticks.map((t) =>
    svgLine(x(t), y, x(t), y + height, "#d9d9d9", 'stroke-width="0.6"') +
    svgText(tickLabel(t, locale), { x: x(t), y: y + height + 12, anchor: "middle", size: 9.5 })
  ).join("");
}

/** One bar: label, segments (each with a hover title) and the total after it. */
function drawBar(
  spec: StackedBarChartSpec,
  row: Row,
  sum: number,
  x: (v: number) => number,
  y: number,
  ctx: ChartContext,
): string {
  const label = labelOf(row, spec.label, ctx);
  const out = [svgText(label, { x: LABEL_W - 8, y: y + 11.5, anchor: "end", max: 34 })];
  let at = 0;
  spec.segments.forEach((s, i) => {
    const value = Math.max(0, numberOf(row, s.key) ?? 0);
    if (value <= 0) return;
    const title = `<title>${
      escapeXml(`${label} · ${s.label}: ${valueText(row, s.key, value, ctx)}`)
    }</title>`;
    out.push(filledRect(x(at), y, x(at + value) - x(at), BAR_H, seriesFill(i), title));
    at += value;
  });
  const total = valueText(row, spec.segments[0].key, sum, ctx);
  out.push(svgText(total, { x: x(sum) + 6, y: y + 11.5, fill: "#1a1a1a" }));
  return `<g class="bar-row">${out.join("")}</g>`;
}
