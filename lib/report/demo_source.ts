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
  return EMBEDDED.test(source) || DEMO_HISTORY.test(source);
}

/** The beginning of the source text of every report over samkit's own run history. */
export const RUN_HISTORY = "samkit run history";

/** The source text of a report over run history whose runs read demo data. */
const DEMO_HISTORY = /^samkit run history \(runs of .*\): demo data, not a tenant's$/s;

/** What {@link historySourceText} describes. */
export interface HistoryRuns {
  /** The source texts (or identities) the runs read, each named once in the text. */
  readonly sources: readonly string[];
  /** Whether any run read demo data (else judged from `sources` by {@link isDemoSource}). */
  readonly demo?: boolean;
}

/**
 * The source text of a report that reads samkit's run history (trends, run-diff): which sources
 * its runs read, and, when any of them read the demo estate, "demo data" as a demo run's own
 * source says it, so {@link isDemoSource} labels every output of the report too. With no run:
 * the bare "samkit run history".
 *
 * @example
 * ```ts
 * import { demoSourceText, historySourceText, isDemoSource } from "./demo_source.ts";
 * const demo = demoSourceText({ computers: 40, seed: 1, asOf: new Date("2026-11-23") });
 * const text = historySourceText({ sources: [demo] });
 * console.log(text);
 * // "samkit run history (runs of embedded reference server (demo estate: 40 computers, seed 1,
 * //  as of 2026-11-23)): demo data, not a tenant's" (one line)
 * console.log(isDemoSource(text)); // true
 * console.log(historySourceText({ sources: ["https://eu.example.com"] }));
 * // "samkit run history (runs of https://eu.example.com)"
 * ```
 */
export function historySourceText(runs: HistoryRuns): string {
  const label = new RegExp(`: ${DEMO_DATA}, not a tenant's$`);
  const named = [...new Set(runs.sources.map((s) => s.trim().replace(label, "")))]
    .filter((s) => s !== "");
  if (named.length === 0) return RUN_HISTORY;
  const demo = runs.demo ?? runs.sources.some(isDemoSource);
  const text = `${RUN_HISTORY} (runs of ${named.join("; ")})`;
  return demo ? `${text}: ${DEMO_DATA}, not a tenant's` : text;
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
