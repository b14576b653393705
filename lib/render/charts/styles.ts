/**
 * Fills that stay apart in greyscale print: each series and status has a colour and a texture
 * (none, vertical stripes, horizontal stripes or dots), so two fills of similar grey differ by
 * texture. Textures are drawn as plain lines over the shape (no `<pattern>`, no `url(…)`).
 *
 * @module
 */

import { num } from "./svg.ts";

/** A fill: colour, texture and the texture's ink. */
export interface FillStyle {
  /** Fill colour. */
  readonly fill: string;
  /** Texture drawn over the fill. */
  readonly texture: "none" | "vstripes" | "hstripes" | "dots";
  /** The texture's colour (light on dark fills, dark on light ones). */
  readonly ink: string;
  /** A border (for near-white fills). */
  readonly stroke?: string;
}

/**
 * Series fills in order: dark and light alternate, and fills of similar grey differ by texture.
 *
 * @example
 * ```ts
 * import { SERIES_FILLS } from "./styles.ts";
 * console.log(SERIES_FILLS.length, SERIES_FILLS[0].texture); // 8 "none"
 * ```
 */
export const SERIES_FILLS: readonly FillStyle[] = [
  { fill: "#1f4e79", texture: "none", ink: "#fff" },
  { fill: "#9dc3e6", texture: "none", ink: "#1f4e79" },
  { fill: "#c55a11", texture: "vstripes", ink: "#fff" },
  { fill: "#ffe699", texture: "hstripes", ink: "#7f6000" },
  { fill: "#548235", texture: "dots", ink: "#fff" },
  { fill: "#e7e6e6", texture: "vstripes", ink: "#404040", stroke: "#7f7f7f" },
  { fill: "#7030a0", texture: "hstripes", ink: "#fff" },
  { fill: "#f8cbad", texture: "dots", ink: "#843c0c" },
];

/**
 * The fill of series `index` (the palette repeats past its end).
 *
 * @example
 * ```ts
 * import { seriesFill, SERIES_FILLS } from "./styles.ts";
 * console.log(seriesFill(8) === SERIES_FILLS[0]); // true
 * ```
 */
export function seriesFill(index: number): FillStyle {
  return SERIES_FILLS[index % SERIES_FILLS.length];
}

/**
 * Status tones of a heat map: good (light green), warn (amber, striped), bad (dark red), neutral
 * (grey, dotted) and none (blank with a border).
 *
 * @example
 * ```ts
 * import { TONE_FILLS } from "./styles.ts";
 * console.log(TONE_FILLS.bad.fill); // "#c00000"
 * ```
 */
export const TONE_FILLS: Readonly<Record<"good" | "warn" | "bad" | "neutral" | "none", FillStyle>> =
  {
    good: { fill: "#a9d18e", texture: "none", ink: "#375623" },
    warn: { fill: "#ffc000", texture: "vstripes", ink: "#7f6000" },
    bad: { fill: "#c00000", texture: "none", ink: "#fff" },
    neutral: { fill: "#d9d9d9", texture: "dots", ink: "#595959" },
    none: { fill: "#ffffff", texture: "none", ink: "#595959", stroke: "#a6a6a6" },
  };

/**
 * A rectangle in a fill, its texture drawn over it, with an optional hover `<title>` (already
 * escaped markup).
 *
 * @example
 * ```ts
 * import { filledRect, SERIES_FILLS } from "./styles.ts";
 * console.log(filledRect(0, 0, 10, 8, SERIES_FILLS[0]));
 * // <rect x="0" y="0" width="10" height="8" fill="#1f4e79"/>
 * ```
 */
export function filledRect(
  x: number,
  y: number,
  w: number,
  h: number,
  style: FillStyle,
  title = "",
): string {
  if (w <= 0 || h <= 0) return "";
  const stroke = style.stroke ? ` stroke="${style.stroke}" stroke-width="0.6"` : "";
  const rect = `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" ` +
    `fill="${style.fill}"${stroke}`;
  const texture = textureLines(x, y, w, h, style);
  if (!title && !texture) return `${rect}/>`;
  return `<g>${rect}>${title}</rect>${texture}</g>`;
}

/** The texture of a rectangle as one path (empty for `none`). */
function textureLines(x: number, y: number, w: number, h: number, style: FillStyle): string {
  if (style.texture === "none" || w < 2 || h < 2) return "";
  if (style.texture === "vstripes") {
    return `<path d="M${num(x)} ${num(y + h / 2)}h${num(w)}" stroke="${style.ink}" ` +
      `stroke-width="${num(h)}" stroke-dasharray="1 3"/>`;
  }
  const rows: string[] = [];
  for (let yy = y + 2; yy < y + h - 0.5; yy += 4) rows.push(`M${num(x)} ${num(yy)}h${num(w)}`);
  const dash = style.texture === "dots" ? ` stroke-dasharray="1.5 2.5"` : "";
  return `<path d="${rows.join("")}" stroke="${style.ink}" stroke-width="1"${dash}/>`;
}
