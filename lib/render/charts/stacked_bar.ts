/**
 * Stacked horizontal bars: one bar per row, one segment per series (e.g. installations per
 * entitlement state of each application), a legend, a value axis, and "First N of M rows." when
 * the section has more rows (or "First N of M <noun>." when the spec says what its rows are the
 * first of). When the spec names a currency key, each currency is a chart (an SVG) of its own with
 * its own axis, legend and title, so a page prints each as large as it allows rather than every
 * currency squeezed into one tall picture. Labels get the room the longest needs (up to 40
 * characters), the bars the rest.
 *
 * @module
 */

import type { Row, StackedBarChartSpec } from "../../report/model.ts";
import { type ChartContext, cutNote, labelOf, numberOf, valueText } from "./context.ts";
import { legend } from "./legend.ts";
import { clampCount, linearScale, niceTicks, tickLabel, valueRoom } from "./scale.ts";
import { filledRect, seriesFill } from "./styles.ts";
import { escapeXml, svgLine, svgRoot, svgText } from "./svg.ts";

/** Bars drawn when the spec gives no `top`, and the most ever drawn. */
export const STACKED_BAR_TOP = { default: 15, max: 50 } as const;

const WIDTH = 760, LABEL_W = 262, PITCH = 22, BAR_H = 15, AXIS_H = 18;
/** The narrowest label room (px) and the longest label drawn whole (characters). */
const LABEL_MIN = 60, LABEL_CHARS = 40;
/** Room right of the longest bar for its total: 11 px text 6 px after the bar, at least 110 px. */
const VALUE_ROOM = { size: 11, gap: 6, min: 110, max: 300 } as const;

interface Panel {
  readonly currency?: string;
  readonly rows: readonly Row[];
}

/**
 * The chart as an SVG string, one `<svg>` per currency when the spec names a currency key ("" when
 * no row has a label to draw).
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
  const note = cutNote(
    "First",
    picked.length,
    spec.of?.count ?? Math.max(ctx.total, rows.length),
    spec.of?.noun ?? "rows",
    ctx.locale,
  );
  const labelW = labelWidth(picked.map((row) => labelOf(row, spec.label, ctx)));
  // Every panel's bars end where the widest total (a large amount with its code) still fits.
  const valueW = valueRoom(picked.map((row) => totalText(spec, row, ctx)), VALUE_ROOM);
  const all = panels(picked, spec.currency);
  // Several currencies: a chart each, so each prints as large as one page allows.
  return all.map((panel, i) =>
    panelSvg(spec, panel, {
      ctx,
      labelW,
      valueW,
      id: all.length === 1 ? ctx.id : `${ctx.id}-${i + 1}`,
      note: i === all.length - 1 ? note : "",
      count: picked.length,
    })
  ).join("");
}

/** What {@link panelSvg} needs besides the spec and the panel. */
interface PanelOptions {
  readonly ctx: ChartContext;
  /** Room for the bar labels (px). */
  readonly labelW: number;
  /** Room right of the longest bar for its total (px). */
  readonly valueW: number;
  /** The SVG's id. */
  readonly id: string;
  /** The "First N of M" note under it ("" for none). */
  readonly note: string;
  /** Rows drawn over every panel. */
  readonly count: number;
}

/** One panel (a currency's bars, or every bar) as a whole SVG: legend, bars, axis, note. */
function panelSvg(spec: StackedBarChartSpec, panel: Panel, options: PanelOptions): string {
  const keyItems = spec.segments.map((s, i) => ({
    label: s.label,
    swatch: filledRect(0, 0, 12, 12, seriesFill(i)),
  }));
  const head = legend(keyItems, 0, 0, WIDTH);
  const drawn = drawPanel(spec, panel, head.height + 6, options);
  const parts = [head.markup, drawn.markup];
  let y = drawn.bottom + 8;
  if (options.note) {
    parts.push(svgText(options.note, { x: 0, y: y + 10, size: 10, fill: "#595959" }));
    y += 16;
  }
  const title = panel.currency === undefined ? spec.title : `${spec.title} (${panel.currency})`;
  const desc = `Stacked bars of ${spec.segments.map((s) => s.label).join(", ")} for ` +
    `${options.count} ${options.count === 1 ? "row" : "rows"}` +
    `${spec.currency ? `, amounts in ${panel.currency}` : ""}. ${options.note}`.trim();
  return svgRoot(
    { id: options.id, kind: "stacked-bar", title, desc, width: WIDTH, height: y },
    parts.join(""),
  );
}

/**
 * Room for the bar labels: the longest label's (about 6.2 px a character at 11 px), at least
 * {@link LABEL_MIN} and at most {@link LABEL_W}; the bars take the rest.
 */
function labelWidth(labels: readonly string[]): number {
  const longest = Math.max(0, ...labels.map((l) => Math.min([...l].length, LABEL_CHARS)));
  return Math.min(LABEL_W, Math.max(LABEL_MIN, Math.ceil(longest * 6.2) + 14));
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
  { ctx, labelW, valueW }: PanelOptions,
): { markup: string; bottom: number } {
  const out: string[] = [];
  let y = y0;
  if (panel.currency !== undefined) {
    out.push(svgText(`Amounts in ${panel.currency}`, { x: 0, y: y + 11, bold: true, max: 60 }));
    y += 18;
  }
  const sums = panel.rows.map((row) => rowSum(spec, row));
  const ticks = niceTicks(0, Math.max(0, ...sums), 4);
  const x = linearScale(0, ticks.at(-1)!, labelW, WIDTH - valueW);
  const height = panel.rows.length * PITCH;
  out.push(grid(ticks, x, y, height, ctx.locale));
  panel.rows.forEach((row, i) =>
    out.push(drawBar(spec, row, sums[i], x, y + i * PITCH, { ctx, labelW }))
  );
  return { markup: out.join(""), bottom: y + height + AXIS_H };
}

function rowSum(spec: StackedBarChartSpec, row: Row): number {
  return spec.segments.reduce((sum, s) => sum + Math.max(0, numberOf(row, s.key) ?? 0), 0);
}

/** A bar's total as printed after it (formatted as its first segment's column). */
function totalText(spec: StackedBarChartSpec, row: Row, ctx: ChartContext): string {
  return valueText(row, spec.segments[0].key, rowSum(spec, row), ctx);
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
  { ctx, labelW }: { ctx: ChartContext; labelW: number },
): string {
  const label = labelOf(row, spec.label, ctx);
  const out = [svgText(label, { x: labelW - 8, y: y + 11.5, anchor: "end", max: LABEL_CHARS })];
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
  // The total may sit across a grid line: its halo keeps the line off its letters.
  out.push(
    svgText(totalText(spec, row, ctx), { x: x(sum) + 6, y: y + 11.5, fill: "#1a1a1a", halo: true }),
  );
  return `<g class="bar-row">${out.join("")}</g>`;
}
