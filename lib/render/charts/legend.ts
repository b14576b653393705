/**
 * A chart legend: swatches with labels, laid out left to right and wrapped to the chart's width.
 *
 * @module
 */

import { textWidth } from "./scale.ts";
import { ellipsize, num, svgText } from "./svg.ts";

/** One legend entry: its label and its swatch, drawn in a 12 × 12 box at the origin. */
export interface LegendItem {
  /** The label (cut at 40 characters, full text kept in a `<title>`). */
  readonly label: string;
  /** SVG markup of the swatch, inside `0 0 12 12`. */
  readonly swatch: string;
}

/** Legend label size (px). */
const SIZE = 10.5;
/** Legend line height (px). */
const LINE = 18;
/** Longest legend label shown in full. */
const MAX_LABEL = 40;

/**
 * Lays out a legend at `(x, y)` within `width` px; returns the markup and its height.
 *
 * @example
 * ```ts
 * import { legend } from "./legend.ts";
 * const out = legend([{ label: "Covered", swatch: '<rect width="12" height="12"/>' }], 0, 0, 700);
 * console.log(out.height, out.markup.includes(">Covered</text>")); // 18 true
 * ```
 */
export function legend(
  items: readonly LegendItem[],
  x: number,
  y: number,
  width: number,
): { markup: string; height: number } {
  if (items.length === 0) return { markup: "", height: 0 };
  const parts: string[] = [];
  let cx = 0, cy = 0;
  for (const item of items) {
    const w = 17 + textWidth(ellipsize(item.label, MAX_LABEL), SIZE) + 16;
    if (cx > 0 && cx + w > width) {
      cx = 0;
      cy += LINE;
    }
    parts.push(
      `<g class="legend-item" transform="translate(${num(x + cx)} ${num(y + cy)})">${item.swatch}` +
        svgText(item.label, { x: 17, y: 10.5, size: SIZE, max: MAX_LABEL }) + `</g>`,
    );
    cx += w;
  }
  return { markup: `<g class="legend">${parts.join("")}</g>`, height: cy + LINE };
}
