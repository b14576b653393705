/**
 * The label of demo data: a run answered by the embedded reference server says so in its source
 * text (covers, JSON `source`, manifests, snapshots), and every renderer and the pack mail add
 * "demo data" to titles and file metadata when {@link isDemoSource} says the source is the demo
 * estate. The source text keeps its old beginning, so runs recorded before the label (and their
 * snapshots) are still recognised and compared as the same demo estate.
 *
 * @module
 */

/** The words every output of an embedded run carries. */
export const DEMO_DATA = "demo data";

/** The beginning of every embedded run's source text, old and new. */
const EMBEDDED = /^embedded reference server \(demo estate: /;

/** What {@link demoSourceText} describes. */
export interface DemoEstate {
  /** Number of computers in the generated estate. */
  readonly computers: number;
  /** The estate's seed. */
  readonly seed: number;
  /** The day the estate is dated. */
  readonly asOf: Date;
}

/**
 * The source text of a run on the embedded reference server: the estate's size, seed and day,
 * then that it is demo data and not a tenant's.
 *
 * @example
 * ```ts
 * import { demoSourceText } from "./demo_source.ts";
 * const text = demoSourceText({ computers: 400, seed: 1, asOf: new Date("2026-11-23") });
 * console.log(text);
 * // "embedded reference server (demo estate: 400 computers, seed 1, as of 2026-11-23):
 * //  demo data, not a tenant's" (one line)
 * ```
 */
export function demoSourceText(estate: DemoEstate): string {
  return `embedded reference server (demo estate: ${estate.computers} computers, ` +
    `seed ${estate.seed}, as of ${estate.asOf.toISOString().slice(0, 10)}): ${DEMO_DATA}, ` +
    `not a tenant's`;
}

/**
 * Whether a source text is the embedded demo estate's (also the text runs recorded before the
 * label carry, so a re-render from an old demo snapshot is labelled too).
 *
 * @example
 * ```ts
 * import { demoSourceText, isDemoSource } from "./demo_source.ts";
 * console.log(isDemoSource(demoSourceText({ computers: 4, seed: 1, asOf: new Date() }))); // true
 * console.log(isDemoSource("https://westeurope.example-sam-host.com")); // false
 * ```
 */
export function isDemoSource(source: string): boolean {
  return EMBEDDED.test(source);
}

/**
 * A title with "(demo data)" after it when `source` is the demo estate; else the title as it is.
 *
 * @example
 * ```ts
 * import { demoTitle } from "./demo_source.ts";
 * console.log(demoTitle("Licence position", "embedded reference server (demo estate: 4 …"));
 * // "Licence position (demo data)"
 * console.log(demoTitle("Licence position", "https://eu.example.com")); // "Licence position"
 * ```
 */
export function demoTitle(title: string, source: string): string {
  return isDemoSource(source) ? `${title} (${DEMO_DATA})` : title;
}
