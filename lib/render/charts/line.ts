/**
 * A line chart: one or more series over ordered x values (e.g. figures per pack run), one axis
 * per currency when the spec names a currency key (amounts of different currencies never share
 * an axis). Series differ by colour, dash and marker shape, so they stay apart in greyscale; the
 * latest points are kept and the chart says so when it cuts.
 *
 * @module
 */

import type { LineChartSpec, Row } from "../../report/model.ts";
import { type ChartContext, cutNote, labelOf, numberOf, valueText } from "./context.ts";
import { legend, type LegendItem } from "./legend.ts";
import { clampCount, labelStep, linearScale, niceTicks, textWidth, tickLabel } from "./scale.ts";
import { escapeXml, num, svgLine, svgRoot, svgText } from "./svg.ts";

/** Points per line when the spec gives no `points`, and the most ever drawn. */
export const LINE_POINTS = { default: 24, max: 120 } as const;

const WIDTH = 760, PLOT_X = 70, PLOT_W = 640, PLOT_H = 150, X_AXIS_H = 20;
/** The widest x label (px at 9.5 px): longer ones end in "…". */
const X_LABEL_W = 140;

/** Stroke colour, dash and marker of each series (repeating). */
const LINE_STYLES: readonly { stroke: string; dash: string; mark: Mark }[] = [
  { stroke: "#1f4e79", dash: "", mark: "circle" },
  { stroke: "#c55a11", dash: "6 3", mark: "square" },
  { stroke: "#548235", dash: "2 2", mark: "triangle" },
  { stroke: "#7030a0", dash: "8 3 2 3", mark: "diamond" },
  { stroke: "#404040", dash: "1 3", mark: "cross" },
];

type Mark = "circle" | "square" | "triangle" | "diamond" | "cross";

interface Panel {
  readonly currency?: string;
  readonly rows: readonly Row[];
  readonly total: number;
}

/**
 * The chart as an SVG string ("" when there is no row or no series).
 *
 * @example
 * ```ts
 * import { lineSvg } from "./line.ts";
 * const svg = lineSvg(
 *   { type: "line", title: "Spend per run", x: "run", series: [{ key: "spend", label: "Spend" }] },
 *   [{ run: "May", spend: 10 }, { run: "June", spend: 12 }],
 *   { id: "s4-chart", locale: "en-US", columns: [], now: new Date(), total: 2 },
 * );
 * console.log(svg.includes("<polyline")); // true
 * ```
 */
export function lineSvg(spec: LineChartSpec, rows: readonly Row[], ctx: ChartContext): string {
  if (rows.length === 0 || spec.series.length === 0) return "";
  const points = clampCount(spec.points ?? LINE_POINTS.default, 1, LINE_POINTS.max);
  const key = legend(spec.series.map(legendItem), 0, 0, WIDTH);
  const parts = [key.markup];
  let y = key.height + 4;
  const notes: string[] = [];
  for (const panel of panels(rows, spec.currency, points)) {
    parts.push(drawPanel(spec, panel, y, ctx));
    y += (panel.currency === undefined ? 0 : 18) + 8 + PLOT_H + X_AXIS_H + 10;
    const note = cutNote("Latest", panel.rows.length, panel.total, "points", ctx.locale);
    if (note) notes.push(panel.currency ? `${panel.currency}: ${note}` : note);
  }
  if (rows.length < ctx.total) {
    notes.push(`Drawn from the first ${rows.length} of ${ctx.total} rows.`);
  }
  const note = notes.join(" ");
  if (note) {
    parts.push(svgText(note, { x: 0, y: y + 4, size: 10, fill: "#595959", max: 130 }));
    y += 12;
  }
  const xName = ctx.columns.find((c) => c.key === spec.x)?.label ?? spec.x;
  const desc = `Lines of ${spec.series.map((s) => s.label).join(", ")} per ${xName}` +
    `${spec.currency ? ", one axis per currency" : ""}. ${note}`;
  return svgRoot(
    { id: ctx.id, kind: "line", title: spec.title, desc: desc.trim(), width: WIDTH, height: y },
    parts.join(""),
  );
}

function legendItem(series: { label: string }, i: number): LegendItem {
  const style = LINE_STYLES[i % LINE_STYLES.length];
  const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : "";
  return {
    label: series.label,
    swatch: `<path d="M0 6h12" stroke="${style.stroke}" stroke-width="2"${dash}/>` +
      marker(style.mark, 6, 6, style.stroke),
  };
}

/** Rows split by currency (first appearance order), each cut to its latest `points`. */
function panels(rows: readonly Row[], currencyKey: string | undefined, points: number): Panel[] {
  const by = new Map<string | undefined, Row[]>();
  for (const row of rows) {
    const raw = currencyKey ? row[currencyKey] : undefined;
    const code = currencyKey ? (typeof raw === "string" && raw ? raw : "(no currency)") : undefined;
    if (!by.has(code)) by.set(code, []);
    by.get(code)!.push(row);
  }
  return [...by].map(([currency, rows]) => ({
    currency,
    rows: rows.slice(Math.max(0, rows.length - points)),
    total: rows.length,
  }));
}

/** One axis: the currency heading, y grid and ticks, x labels and one line per series. */
function drawPanel(spec: LineChartSpec, panel: Panel, y0: number, ctx: ChartContext): string {
  const out: string[] = [];
  let top = y0;
  if (panel.currency !== undefined) {
    out.push(svgText(`Amounts in ${panel.currency}`, { x: 0, y: top + 11, bold: true, max: 60 }));
    top += 18;
  }
  top += 8;
  const values = panel.rows.flatMap((row) => spec.series.map((s) => numberOf(row, s.key) ?? 0));
  const ticks = niceTicks(Math.min(...values), Math.max(...values), 4);
  const y = linearScale(ticks[0], ticks.at(-1)!, top + PLOT_H, top);
  const plotW = plotWidth(panel.rows, spec.x, ctx);
  const slot = panel.rows.length > 1 ? plotW / (panel.rows.length - 1) : plotW;
  const x = (i: number) => panel.rows.length > 1 ? PLOT_X + i * slot : PLOT_X + plotW / 2;
  out.push(
    yAxis(ticks, y, plotW, ctx.locale),
    xAxis(panel.rows, spec.x, x, slot, top + PLOT_H, ctx),
  );
  spec.series.forEach((s, i) => out.push(drawSeries(s, spec.x, i, panel.rows, x, y, ctx)));
  return `<g class="line-panel">${out.join("")}</g>`;
}

/**
 * The plot's width: {@link PLOT_W}, less what the latest point's label (centred under it) would
 * stick out past the chart's right edge, so that label is drawn whole.
 */
function plotWidth(rows: readonly Row[], key: string, ctx: ChartContext): number {
  const last = rows.at(-1);
  if (last === undefined || rows.length < 2) return PLOT_W;
  const half = Math.min(textWidth(labelOf(last, key, ctx), 9.5), X_LABEL_W) / 2;
  return PLOT_W - Math.max(0, PLOT_X + PLOT_W + half - WIDTH);
}

function yAxis(
  ticks: readonly number[],
  y: (v: number) => number,
  plotW: number,
  locale: string,
): string {
  return ticks.map((t) =>
    svgLine(
      PLOT_X,
      y(t),
      PLOT_X + plotW,
      y(t),
      t === 0 ? "#7f7f7f" : "#d9d9d9",
      'stroke-width="0.6"',
    ) +
    svgText(tickLabel(t, locale), { x: PLOT_X - 6, y: y(t) + 3.5, anchor: "end", size: 9.5 })
  ).join("");
}

/** X labels under the plot, every n-th so that none overlap (the latest always shown). */
function xAxis(
  rows: readonly Row[],
  key: string,
  x: (i: number) => number,
  slot: number,
  bottom: number,
  ctx: ChartContext,
): string {
  const labels = rows.map((row) => labelOf(row, key, ctx));
  const widest = Math.min(Math.max(...labels.map((l) => textWidth(l, 9.5))), 120);
  const step = labelStep(slot, widest);
  const max = Math.max(
    4,
    Math.floor((Math.min(slot * step - 6, X_LABEL_W)) / (9.5 * 0.6)),
  );
  return labels.map((label, i) =>
    (labels.length - 1 - i) % step === 0
      ? svgText(label, { x: x(i), y: bottom + 13, anchor: "middle", size: 9.5, max })
      : ""
  ).join("");
}

/** A series: its line (broken where a value is missing) and a marker with a title per point. */
function drawSeries(
  series: { key: string; label: string },
  xKey: string,
  index: number,
  rows: readonly Row[],
  x: (i: number) => number,
  y: (v: number) => number,
  ctx: ChartContext,
): string {
  const style = LINE_STYLES[index % LINE_STYLES.length];
  const runs: string[][] = [[]];
  const marks: string[] = [];
  rows.forEach((row, i) => {
    const value = numberOf(row, series.key);
    if (value === undefined) return void runs.push([]);
    runs.at(-1)!.push(`${num(x(i))},${num(y(value))}`);
    const title = `${series.label} · ${labelOf(row, xKey, ctx)}: ` +
      valueText(row, series.key, value, ctx);
    marks.push(
      `<g><title>${escapeXml(title)}</title>${
        marker(style.mark, x(i), y(value), style.stroke)
      }</g>`,
    );
  });
  const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : "";
  const lines = runs.filter((r) => r.length > 1).map((r) =>
    `<polyline points="${
      r.join(" ")
    }" fill="none" stroke="${style.stroke}" stroke-width="1.8"${dash}/>`
  );
  return `<g class="line-series">${lines.join("")}${marks.join("")}</g>`;
}

function marker(mark: Mark, x: number, y: number, stroke: string): string {
  const [cx, cy] = [num(x), num(y)];
  switch (mark) {
    case "circle":
      return `<circle cx="${cx}" cy="${cy}" r="3" fill="${stroke}"/>`;
    case "square":
      return `<rect x="${num(x - 3)}" y="${num(y - 3)}" width="6" height="6" fill="${stroke}"/>`;
    case "triangle":
      return `<path d="M${cx} ${num(y - 4)}l3.5 6.5h-7z" fill="${stroke}"/>`;
    case "diamond":
      return `<path d="M${cx} ${
        num(y - 4)
      }l4 4l-4 4l-4 -4z" fill="#fff" stroke="${stroke}" stroke-width="1.2"/>`;
    case "cross":
      return `<path d="M${num(x - 3)} ${
        num(y - 3)
      }l6 6m0 -6l-6 6" stroke="${stroke}" stroke-width="1.5"/>`;
  }
}
