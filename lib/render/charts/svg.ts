/**
 * SVG markup primitives shared by the charts: escaping, numbers with one decimal, text that is
 * cut with an ellipsis (the full text kept in a `<title>`), and the chart's root element with its
 * accessible `<title>` and `<desc>`. No script, no external reference, no random id.
 *
 * @module
 */

import { visibleText } from "../format.ts";
import { textWidth } from "./scale.ts";

/**
 * Text escaped for SVG/XML content and attribute values (`&`, `<`, `>`, `"` and `'`), its bidi and
 * other control characters first shown as visible escapes ({@link visibleText}: `<U+202E>`), as
 * everywhere data becomes display text.
 *
 * @example
 * ```ts
 * import { escapeXml } from "./svg.ts";
 * console.log(escapeXml(`<script>"a" & 'b'`)); // "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;"
 * console.log(escapeXml("evil\u202Etxt")); // "evil&lt;U+202E&gt;txt"
 * ```
 */
export function escapeXml(text: string): string {
  return visibleText(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * A coordinate as text: rounded to one decimal, never `-0`, `NaN` or `Infinity` (those give `0`).
 *
 * @example
 * ```ts
 * import { num } from "./svg.ts";
 * console.log(num(12.345), num(-0.01), num(Number.NaN)); // "12.3" "0" "0"
 * ```
 */
export function num(value: number): string {
  if (!Number.isFinite(value)) return "0";
  const rounded = Math.round(value * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}

/**
 * Text cut to `max` characters (code points) with an ellipsis, or the text itself when it fits. A
 * closing qualifier in brackets of at most half of `max` ("Oracle WebLogic Server 14c 14.1.1
 * (Processor cores)": the metric) is kept whole and the name before it cut, since the qualifier is
 * what tells two lines of one name apart.
 *
 * @example
 * ```ts
 * import { ellipsize } from "./svg.ts";
 * console.log(ellipsize("Microsoft Visual Studio Enterprise", 12)); // "Microsoft V…"
 * console.log(ellipsize("Oracle WebLogic Server 14c 14.1.1 (Processor cores)", 40));
 * // "Oracle WebLogic Serve… (Processor cores)"
 * ```
 */
export function ellipsize(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const qualifier = /\s\([^()]+\)$/.exec(text)?.[0];
  if (qualifier && [...qualifier].length <= max / 2) {
    const head = chars.slice(0, chars.length - [...qualifier].length);
    return `${head.slice(0, Math.max(1, max - [...qualifier].length - 1)).join("")}…${qualifier}`;
  }
  return `${chars.slice(0, Math.max(1, max - 1)).join("")}…`;
}

/** Where and how {@link svgText} draws. */
export interface TextOptions {
  /** Position of the anchor point. */
  readonly x: number;
  readonly y: number;
  /** `start` (default), `middle` or `end`. */
  readonly anchor?: "start" | "middle" | "end";
  /** The class (styles in report.css; the SVG draws without them too). */
  readonly cls?: string;
  /** Font size in px (default 11). */
  readonly size?: number;
  /** Fill colour (default `#333`). */
  readonly fill?: string;
  /** Bold. */
  readonly bold?: boolean;
  /** Cut to this many characters with an ellipsis; the full text goes into a `<title>`. */
  readonly max?: number;
  /**
   * A white box drawn under the text, for a text a line of the chart may run through (a grid line
   * through a bar's total, the "now" line through a date): the line stops at the text. A box, not
   * an outline of the letters: Chrome prints an outlined text twice, and a PDF's text would read
   * "Mar 31, 2026 Mar 31, 2026".
   */
  readonly halo?: boolean;
}

/**
 * A `<text>` element with escaped content; text longer than `max` is cut with an ellipsis and
 * keeps its full text in a `<title>` child (shown on hover, read by screen readers).
 *
 * @example
 * ```ts
 * import { svgText } from "./svg.ts";
 * console.log(svgText("A & B", { x: 4, y: 12 }));
 * // <text x="4" y="12" font-size="11" fill="#333">A &amp; B</text>
 * ```
 */
export function svgText(text: string, options: TextOptions): string {
  const shown = options.max === undefined ? text : ellipsize(text, options.max);
  const attrs = [
    `x="${num(options.x)}"`,
    `y="${num(options.y)}"`,
    options.anchor && options.anchor !== "start" ? `text-anchor="${options.anchor}"` : "",
    options.cls ? `class="${options.cls}"` : "",
    `font-size="${options.size ?? 11}"`,
    `fill="${options.fill ?? "#333"}"`,
    options.bold ? `font-weight="600"` : "",
  ].filter((a) => a !== "").join(" ");
  const title = shown === text ? "" : `<title>${escapeXml(text)}</title>`;
  const element = `<text ${attrs}>${title}${escapeXml(shown)}</text>`;
  return options.halo ? haloBox(shown, options) + element : element;
}

/**
 * The white box under a text with a halo: 95% of what {@link textWidth} reckons (still a little
 * wider than the report font's letters, digits included) plus 2 px a side, from its ascenders to
 * its descenders.
 */
function haloBox(shown: string, options: TextOptions): string {
  const size = options.size ?? 11;
  const width = textWidth(shown, size) * 0.95 + 4;
  const left = options.anchor === "end"
    ? options.x - width + 2
    : options.anchor === "middle"
    ? options.x - width / 2
    : options.x - 2;
  return `<rect x="${num(left)}" y="${num(options.y - size * 0.95)}" width="${num(width)}" ` +
    `height="${num(size * 1.25)}" fill="#fff"/>`;
}

/** The parts of a chart's root element. */
export interface SvgRootOptions {
  /** Document-unique id prefix (the `<title>`/`<desc>` ids derive from it). */
  readonly id: string;
  /** The chart kind, as a class (`chart-svg chart-<kind>`). */
  readonly kind: string;
  /** Accessible name. */
  readonly title: string;
  /** Accessible description: what the chart shows, in words. */
  readonly desc: string;
  /** The drawing size in px (the chart scales to its container). */
  readonly width: number;
  readonly height: number;
}

/**
 * The chart's `<svg>` element around `body`, labelled by its `<title>` and `<desc>`.
 *
 * @example
 * ```ts
 * import { svgRoot } from "./svg.ts";
 * const svg = svgRoot({ id: "c1", kind: "line", title: "T", desc: "D", width: 10, height: 5 }, "");
 * console.log(svg.startsWith('<svg class="chart-svg chart-line" role="img"')); // true
 * ```
 */
export function svgRoot(options: SvgRootOptions, body: string): string {
  const id = escapeXml(options.id);
  return `<svg class="chart-svg chart-${escapeXml(options.kind)}" role="img" ` +
    `aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${num(options.width)} ` +
    `${num(options.height)}" width="100%" preserveAspectRatio="xMinYMin meet" ` +
    `font-family="Liberation Sans, Arial, Helvetica, sans-serif">` +
    `<title id="${id}-title">${escapeXml(options.title)}</title>` +
    `<desc id="${id}-desc">${escapeXml(options.desc)}</desc>${body}</svg>`;
}

/**
 * A horizontal or vertical line.
 *
 * @example
 * ```ts
 * import { svgLine } from "./svg.ts";
 * console.log(svgLine(0, 0, 10, 0, "#ccc")); // <line x1="0" y1="0" x2="10" y2="0" stroke="#ccc"/>
 * ```
 */
export function svgLine(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  stroke: string,
  extra = "",
): string {
  return `<line x1="${num(x1)}" y1="${num(y1)}" x2="${num(x2)}" y2="${num(y2)}" ` +
    `stroke="${stroke}"${extra ? ` ${extra}` : ""}/>`;
}
