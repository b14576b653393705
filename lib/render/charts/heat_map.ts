/**
 * A heat map: a grid of rows × columns read from rows in long form (one row per cell, e.g.
 * connector × month × status). Status cells get their tone's colour and texture (legend below);
 * numeric cells are shaded light to dark with the number printed when it fits. Grid rows keep
 * their order of first appearance, columns are sorted ascending and the latest kept; the chart
 * says how many of each it shows.
 *
 * @module
 */

import type { CellValue, HeatMapChartSpec, HeatMapStatus, Row } from "../../report/model.ts";
import { type ChartContext, labelOf, numberOf } from "./context.ts";
import { legend, type LegendItem } from "./legend.ts";
import { clampCount, labelStep, textWidth, tickLabel } from "./scale.ts";
import { filledRect, type FillStyle, TONE_FILLS } from "./styles.ts";
import { escapeXml, svgRoot, svgText } from "./svg.ts";
import { formatNumber } from "../format.ts";

/** Grid rows and columns drawn when the spec gives none, and the most ever drawn. */
export const HEAT_MAP_LIMITS = { rows: 20, maxRows: 60, columns: 24, maxColumns: 36 } as const;

const WIDTH = 760, LABEL_W = 200, GRID_X = 208, CELL_H = 16, PITCH = 19, HEAD_H = 18;
const MISSING: FillStyle = { fill: "#ffffff", texture: "none", ink: "#595959", stroke: "#d9d9d9" };
const OTHER: FillStyle = TONE_FILLS.neutral;

interface GridColumn {
  readonly id: string;
  readonly sort: number | string;
  readonly label: string;
}

interface Grid {
  readonly rowLabels: string[];
  readonly rowCount: number;
  readonly columns: GridColumn[];
  readonly columnCount: number;
  readonly cells: Map<string, { value: CellValue; row: Row }>;
  /** The largest number among the drawn cells (numeric heat maps; 0 with statuses). */
  readonly max: number;
}

/**
 * The chart as an SVG string ("" when there is no cell to draw).
 *
 * @example
 * ```ts
 * import { heatMapSvg } from "./heat_map.ts";
 * const svg = heatMapSvg(
 *   {
 *     type: "heatMap",
 *     title: "Retrievals per month",
 *     row: "connector",
 *     column: "month",
 *     value: "status",
 *     statuses: [{ value: "OK", tone: "good" }, { value: "Failed", tone: "bad" }],
 *   },
 *   [{ connector: "M365", month: "2024-04", status: "OK" }],
 *   { id: "s2-chart", locale: "en-US", columns: [], now: new Date(), total: 1 },
 * );
 * console.log(svg.includes(">Failed</text>")); // true
 * ```
 */
export function heatMapSvg(
  spec: HeatMapChartSpec,
  rows: readonly Row[],
  ctx: ChartContext,
): string {
  const maxRows = clampCount(spec.rows ?? HEAT_MAP_LIMITS.rows, 1, HEAT_MAP_LIMITS.maxRows);
  const maxCols = clampCount(
    spec.columns ?? HEAT_MAP_LIMITS.columns,
    1,
    HEAT_MAP_LIMITS.maxColumns,
  );
  const grid = readGrid(spec, rows, ctx, maxRows, maxCols);
  if (grid.rowLabels.length === 0 || grid.columns.length === 0) return "";
  const used = new Set<string>();
  const parts = [gridMarkup(spec, grid, { locale: ctx.locale, used })];
  const key = legend(
    legendItems(spec, used, grid.max, ctx.locale),
    0,
    HEAD_H + grid.rowLabels.length * PITCH + 8,
    WIDTH,
  );
  parts.push(key.markup);
  let height = HEAD_H + grid.rowLabels.length * PITCH + 8 + key.height;
  const note = gridNote(grid, rows.length, ctx);
  if (note) {
    parts.push(svgText(note, { x: 0, y: height + 10, size: 10, fill: "#595959" }));
    height += 16;
  }
  const desc = `Grid of ${grid.rowLabels.length} rows by ${grid.columns.length} columns` +
    `${
      spec.statuses ? ", a colour and texture per status" : ", darker for higher numbers"
    }. ${note}`;
  return svgRoot({
    id: ctx.id,
    kind: "heat-map",
    title: spec.title,
    desc: desc.trim(),
    width: WIDTH,
    height,
  }, parts.join(""));
}

/** Column heads, row labels and cells; notes in `used` which legend entries were drawn. */
function gridMarkup(
  spec: HeatMapChartSpec,
  grid: Grid,
  ctx: { locale: string; used: Set<string> },
): string {
  const cellW = Math.min(44, (WIDTH - GRID_X - 4) / grid.columns.length);
  const parts = [columnHeads(grid.columns, cellW)];
  grid.rowLabels.forEach((label, r) => {
    const y = HEAD_H + r * PITCH;
    parts.push(svgText(label, { x: LABEL_W - 6, y: y + 12, anchor: "end", max: 32 }));
    grid.columns.forEach((column, c) => {
      const box = { x: GRID_X + c * cellW, y, w: cellW };
      parts.push(drawCell(spec, grid, { r, column, rowLabel: label, box }, ctx));
    });
  });
  return parts.join("");
}

/** The grid's rows (first appearance), columns (ascending, latest kept) and cells. */
function readGrid(
  spec: HeatMapChartSpec,
  rows: readonly Row[],
  ctx: ChartContext,
  maxRows: number,
  maxCols: number,
): Grid {
  const rowIndex = new Map<string, number>();
  const columns = new Map<string, GridColumn>();
  const cells = new Map<string, { value: CellValue; row: Row }>();
  for (const row of rows) {
    const label = labelOf(row, spec.row, ctx);
    if (!rowIndex.has(label)) rowIndex.set(label, rowIndex.size);
    const r = rowIndex.get(label)!;
    const column = gridColumn(row, spec.column, ctx);
    if (!columns.has(column.id)) columns.set(column.id, column);
    if (r < maxRows) cells.set(`${r}\u0000${column.id}`, { value: row[spec.value] ?? null, row });
  }
  const sorted = [...columns.values()].sort(compareColumns);
  const kept = sorted.slice(Math.max(0, sorted.length - maxCols));
  return {
    max: spec.statuses ? 0 : largest(spec.value, cells, kept),
    rowLabels: [...rowIndex.keys()].slice(0, maxRows),
    rowCount: rowIndex.size,
    columns: kept,
    columnCount: sorted.length,
    cells,
  };
}

/** The largest number in the kept columns' cells. */
function largest(
  key: string,
  cells: Map<string, { row: Row }>,
  columns: readonly GridColumn[],
): number {
  const ids = new Set(columns.map((c) => c.id));
  let max = 0;
  for (const [at, cell] of cells) {
    if (ids.has(at.slice(at.indexOf("\u0000") + 1))) {
      max = Math.max(max, numberOf(cell.row, key) ?? 0);
    }
  }
  return max;
}

function gridColumn(row: Row, key: string, ctx: ChartContext): GridColumn {
  const raw = row[key];
  const label = labelOf(row, key, ctx);
  if (raw instanceof Date) return { id: `d${raw.getTime()}`, sort: raw.getTime(), label };
  if (typeof raw === "number") return { id: `n${raw}`, sort: raw, label };
  return { id: `s${String(raw ?? "")}`, sort: String(raw ?? ""), label };
}

function compareColumns(a: GridColumn, b: GridColumn): number {
  if (typeof a.sort === "number" && typeof b.sort === "number") return a.sort - b.sort;
  const x = String(a.sort), y = String(b.sort);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Column labels above the grid, every n-th when they would not fit. */
function columnHeads(columns: readonly GridColumn[], cellW: number): string {
  const widest = Math.max(...columns.map((c) => textWidth(c.label, 9.5)));
  const step = labelStep(cellW, Math.min(widest, 90));
  const max = Math.max(3, Math.floor((cellW * step - 4) / (9.5 * 0.6)));
  // Label the latest column, then every step-th before it.
  return columns.map((c, i) =>
    (columns.length - 1 - i) % step === 0
      ? svgText(c.label, { x: GRID_X + (i + 0.5) * cellW, y: 12, anchor: "middle", size: 9.5, max })
      : ""
  ).join("");
}

/** Where a cell goes. */
interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
}

/** One cell: its fill (status tone, shade or "no record") with a hover title. */
function drawCell(
  spec: HeatMapChartSpec,
  grid: Grid,
  at: { r: number; column: GridColumn; rowLabel: string; box: Box },
  ctx: { locale: string; used: Set<string> },
): string {
  const { x, y, w } = at.box;
  const cell = grid.cells.get(`${at.r}\u0000${at.column.id}`);
  const empty = !cell || cell.value === null || cell.value === "";
  const status = empty ? undefined : statusOf(spec, cell.value);
  const text = empty ? "No record" : status ? status.label ?? status.value : String(cell.value);
  const title = `<title>${escapeXml(`${at.rowLabel} · ${at.column.label}: ${text}`)}</title>`;
  if (empty) {
    ctx.used.add("missing");
    return filledRect(x + 1, y, w - 2, CELL_H, MISSING, title);
  }
  if (spec.statuses) {
    ctx.used.add(status ? status.value : "other");
    return filledRect(x + 1, y, w - 2, CELL_H, status ? TONE_FILLS[status.tone] : OTHER, title);
  }
  return shadedCell(numberOf(cell.row, spec.value), grid.max, at.box, title, ctx.locale);
}

function statusOf(spec: HeatMapChartSpec, value: CellValue): HeatMapStatus | undefined {
  return spec.statuses?.find((s) => s.value === String(value));
}

/** A cell shaded by its number (light to dark blue), the number printed when it fits. */
function shadedCell(
  value: number | undefined,
  max: number,
  box: Box,
  title: string,
  locale: string,
): string {
  const t = value === undefined || max <= 0 ? 0 : Math.max(0, value) / max;
  const style: FillStyle = { fill: shade(t), texture: "none", ink: "#fff", stroke: "#d9d9d9" };
  const rect = filledRect(box.x + 1, box.y, box.w - 2, CELL_H, style, title);
  const label = value === undefined
    ? ""
    : formatNumber(value, { locale, decimals: Number.isInteger(value) ? 0 : 1 });
  if (!label || textWidth(label, 9) > box.w - 4) return rect;
  const fill = t > 0.5 ? "#fff" : "#1a1a1a";
  return rect +
    svgText(label, { x: box.x + box.w / 2, y: box.y + 11.5, anchor: "middle", size: 9, fill });
}

/** A colour from #f2f6fa (0) to #1f4e79 (1). */
function shade(t: number): string {
  const from = [0xf2, 0xf6, 0xfa], to = [0x1f, 0x4e, 0x79];
  return "#" +
    from.map((f, i) => Math.round(f + (to[i] - f) * t).toString(16).padStart(2, "0")).join("");
}

/** Statuses (in spec order), then "Other" and "No record" when drawn. */
function legendItems(
  spec: HeatMapChartSpec,
  used: Set<string>,
  max: number,
  locale: string,
): LegendItem[] {
  const swatch = (style: FillStyle) => filledRect(0, 0, 12, 12, style);
  if (!spec.statuses) {
    const items = [
      {
        label: "0",
        swatch: swatch({ fill: shade(0), texture: "none", ink: "#fff", stroke: "#a6a6a6" }),
      },
      {
        label: `${tickLabel(max, locale)} (highest)`,
        swatch: swatch({ fill: shade(1), texture: "none", ink: "#fff" }),
      },
    ];
    return used.has("missing")
      ? [...items, { label: "No record", swatch: swatch(MISSING) }]
      : items;
  }
  const items = spec.statuses.map((s) => ({
    label: s.label ?? s.value,
    swatch: swatch(TONE_FILLS[s.tone]),
  }));
  if (used.has("other")) items.push({ label: "Other", swatch: swatch(OTHER) });
  if (used.has("missing")) items.push({ label: "No record", swatch: swatch(MISSING) });
  return items;
}

/** "First 20 of 35 rows; latest 24 of 30 columns." (and when the rows read were cut). */
function gridNote(grid: Grid, read: number, ctx: ChartContext): string {
  const n = (v: number) => formatNumber(v, { locale: ctx.locale, decimals: 0 });
  const parts: string[] = [];
  if (grid.rowLabels.length < grid.rowCount) {
    parts.push(`first ${n(grid.rowLabels.length)} of ${n(grid.rowCount)} rows`);
  }
  if (grid.columns.length < grid.columnCount) {
    parts.push(`latest ${n(grid.columns.length)} of ${n(grid.columnCount)} columns`);
  }
  if (read < ctx.total) parts.push(`from the first ${n(read)} of ${n(ctx.total)} table rows`);
  if (parts.length === 0) return "";
  const text = parts.join("; ");
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}
