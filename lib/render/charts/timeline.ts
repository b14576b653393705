/**
 * A timeline: one line per row with a mark at its date (e.g. the end-of-life date of each
 * application) on a time axis with year ticks, a "now" line at the report's time and a band for
 * the next months ("Ends within 12 months"). Ended, soon and later items differ by mark shape as
 * well as colour, so they stay apart in greyscale.
 *
 * @module
 */

import type { Row, TimelineChartSpec } from "../../report/model.ts";
import { formatDate } from "../format.ts";
import { type ChartContext, cutNote, labelOf, numberOf, valueText } from "./context.ts";
import { legend } from "./legend.ts";
import { addMonths, clampCount, linearScale, textWidth, yearTicks } from "./scale.ts";
import { escapeXml, num, svgLine, svgRoot, svgText } from "./svg.ts";

/** Items drawn when the spec gives no `top`, and the most ever drawn. */
export const TIMELINE_TOP = { default: 20, max: 60 } as const;

const WIDTH = 760, LABEL_W = 250, PLOT_X = 262, PLOT_W = 470, HEAD_H = 32, PITCH = 18;
const DAY = 86_400_000;
/** The longest item text drawn whole (characters), and the least of a name kept before its figure. */
const LABEL_CHARS = 40, NAME_MIN = 12;

type Phase = "ended" | "soon" | "later";

const MARKS: Record<Phase, (x: number, y: number) => string> = {
  ended: (x, y) =>
    `<rect x="${num(x - 4)}" y="${num(y - 4)}" width="8" height="8" fill="#c00000"/>`,
  soon: (x, y) =>
    `<path d="M${num(x)} ${num(y - 5.5)}l5.5 5.5l-5.5 5.5l-5.5 -5.5z" fill="#ed7d31" ` +
    `stroke="#843c0c" stroke-width="1"/>`,
  later: (x, y) =>
    `<circle cx="${num(x)}" cy="${num(y)}" r="4" fill="#fff" stroke="#1f4e79" stroke-width="1.8"/>`,
};

interface Item {
  readonly label: string;
  readonly date: Date;
  readonly phase: Phase;
  readonly figure?: string;
}

/**
 * The chart as an SVG string ("" when no row has a date).
 *
 * @example
 * ```ts
 * import { timelineSvg } from "./timeline.ts";
 * const svg = timelineSvg(
 *   { type: "timeline", title: "End of life", label: "app", date: "eol" },
 *   [{ app: "Java 8", eol: new Date("2024-09-30T00:00:00Z") }],
 *   { id: "s3-chart", locale: "en-US", columns: [], now: new Date("2024-05-01"), total: 1 },
 * );
 * console.log(svg.includes("Ends within 12 months")); // true
 * ```
 */
export function timelineSvg(
  spec: TimelineChartSpec,
  rows: readonly Row[],
  ctx: ChartContext,
): string {
  const months = clampCount(spec.withinMonths ?? 12, 1, 120);
  const until = addMonths(ctx.now, months);
  const items = readItems(spec, rows, ctx, until);
  if (items.length === 0) return "";
  const x = timeScale(items, ctx.now, until);
  const plotH = items.length * PITCH;
  const bandLabel = spec.withinLabel ?? `Ends within ${months} months`;
  const parts = [
    band(x(ctx.now.getTime()), x(until.getTime()), plotH, bandLabel),
    axis(x, ctx.now, until, items, plotH),
    nowLine(x(ctx.now.getTime()), plotH, ctx),
    ...items.map((item, i) => drawItem(item, x, HEAD_H + PITCH / 2 + i * PITCH, ctx)),
  ];
  const key = legend(
    [
      { label: "Ended", swatch: MARKS.ended(6, 6) },
      { label: bandLabel, swatch: MARKS.soon(6, 6) },
      { label: "Later", swatch: MARKS.later(6, 6) },
    ],
    0,
    HEAD_H + plotH + 22,
    WIDTH,
  );
  parts.push(key.markup);
  let height = HEAD_H + plotH + 22 + key.height;
  const note = cutNote("First", items.length, Math.max(ctx.total, rows.length), "rows", ctx.locale);
  if (note) {
    parts.push(svgText(note, { x: 0, y: height + 10, size: 10, fill: "#595959" }));
    height += 16;
  }
  const count = (p: Phase) => items.filter((i) => i.phase === p).length;
  const desc = `${items.length} dated items: ${count("ended")} ended, ${count("soon")} ` +
    `${bandLabel.toLowerCase()}, ${count("later")} later. ${note}`;
  return svgRoot(
    { id: ctx.id, kind: "timeline", title: spec.title, desc: desc.trim(), width: WIDTH, height },
    parts.join(""),
  );
}

/** The first `top` rows that have a date, with their phase. */
function readItems(
  spec: TimelineChartSpec,
  rows: readonly Row[],
  ctx: ChartContext,
  until: Date,
): Item[] {
  const top = clampCount(spec.top ?? TIMELINE_TOP.default, 1, TIMELINE_TOP.max);
  const items: Item[] = [];
  for (const row of rows.slice(0, top)) {
    const date = row[spec.date];
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) continue;
    const phase: Phase = date < ctx.now ? "ended" : date <= until ? "soon" : "later";
    const value = spec.value === undefined ? undefined : numberOf(row, spec.value);
    const figure = value === undefined ? undefined : valueText(row, spec.value!, value, ctx);
    items.push({ label: labelOf(row, spec.label, ctx), date, phase, figure });
  }
  return items;
}

/** Time → x: the items' dates, now and the band's end, padded by 3% (at least 30 days). */
function timeScale(items: readonly Item[], now: Date, until: Date): (t: number) => number {
  const times = [...items.map((i) => i.date.getTime()), now.getTime(), until.getTime()];
  const lo = Math.min(...times), hi = Math.max(...times);
  const pad = Math.max(30 * DAY, (hi - lo) * 0.03);
  return linearScale(lo - pad, hi + pad, PLOT_X, PLOT_X + PLOT_W);
}

function band(x0: number, x1: number, plotH: number, label: string): string {
  return `<rect x="${num(x0)}" y="${HEAD_H - 4}" width="${num(x1 - x0)}" height="${
    num(plotH + 4)
  }" ` +
    `fill="#fbe5d6" stroke="#f4b183" stroke-width="0.6"/>` +
    svgText(label, { x: x1, y: 10, anchor: "end", size: 9.5, fill: "#843c0c", max: 40 });
}

/** Year ticks and labels along the bottom, grid lines through the plot. */
function axis(
  x: (t: number) => number,
  now: Date,
  until: Date,
  items: readonly Item[],
  plotH: number,
): string {
  const times = [...items.map((i) => i.date.getTime()), now.getTime(), until.getTime()];
  const from = new Date(Math.min(...times)), to = new Date(Math.max(...times));
  const bottom = HEAD_H + plotH;
  return yearTicks(from, to).map((d) =>
    svgLine(x(d.getTime()), HEAD_H - 4, x(d.getTime()), bottom, "#d9d9d9", 'stroke-width="0.6"') +
    svgText(String(d.getUTCFullYear()), {
      x: x(d.getTime()),
      y: bottom + 13,
      anchor: "middle",
      size: 9.5,
    })
  ).join("") + svgLine(PLOT_X, bottom, PLOT_X + PLOT_W, bottom, "#7f7f7f", 'stroke-width="0.8"');
}

function nowLine(x: number, plotH: number, ctx: ChartContext): string {
  const label = `Now (${formatDate(ctx.now, { locale: ctx.locale })})`;
  return svgLine(
    x,
    HEAD_H - 4,
    x,
    HEAD_H + plotH,
    "#1a1a1a",
    'stroke-width="1.2" stroke-dasharray="4 2"',
  ) +
    svgText(label, { x, y: 24, anchor: "middle", size: 9.5, fill: "#1a1a1a", bold: true });
}

/**
 * An item's text ending at `x`: its label and figure ("Java 8 · 3") when they fit in
 * {@link LABEL_CHARS}; else the figure ("· 17") drawn whole and the label before it cut to the
 * room left (with an ellipsis, its whole text in a title), so the figure the chart's title
 * promises is on every line however long the name.
 */
function itemLabel(item: Item, x: number, y: number): string {
  const whole = item.figure === undefined ? item.label : `${item.label} · ${item.figure}`;
  if (item.figure === undefined || [...whole].length <= LABEL_CHARS) {
    return svgText(whole, { x, y, anchor: "end", max: LABEL_CHARS });
  }
  const figure = `· ${item.figure}`;
  const room = Math.max(NAME_MIN, LABEL_CHARS - [...figure].length - 1);
  const name = { x: x - textWidth(`${figure} `, 11), y, anchor: "end", max: room } as const;
  return svgText(item.label, name) + svgText(figure, { x, y, anchor: "end" });
}

/** One item: label (and figure) on the left, a dotted guide, the mark and its date. */
function drawItem(item: Item, x: (t: number) => number, y: number, ctx: ChartContext): string {
  const at = x(item.date.getTime());
  const date = formatDate(item.date, { locale: ctx.locale });
  const text = item.figure === undefined ? item.label : `${item.label} · ${item.figure}`;
  const right = at + 8 + date.length * 9 * 0.6 <= PLOT_X + PLOT_W + 24;
  const title = `<title>${escapeXml(`${text}: ${date}`)}</title>`;
  return `<g class="timeline-item">${title}` +
    itemLabel(item, LABEL_W, y + 4) +
    svgLine(PLOT_X, y, at, y, "#bfbfbf", 'stroke-width="0.6" stroke-dasharray="1 2"') +
    MARKS[item.phase](at, y) +
    svgText(date, {
      x: right ? at + 8 : at - 8,
      y: y + 3.5,
      anchor: right ? "start" : "end",
      size: 9,
      // Year lines, the "now" line and the guide may run under the date: the halo keeps them off.
      halo: true,
    }) +
    `</g>`;
}
