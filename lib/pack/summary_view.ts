/**
 * What the pack summary shows a CFO on one screen, in this order: compliance exposure per
 * currency (shortfall cost, unpriced shortfalls, positions short), the top risks by value per
 * currency, total spend once per currency, what moved since the last comparable run (or why
 * nothing is compared), and the reports with the files attached or linked. The email's HTML and
 * text bodies and `summary.pdf` are all made from this view.
 *
 * @module
 */

import type { Change } from "./figures.ts";
import type { Manifest } from "./manifest.ts";
import { type HeadlineFigure, headlineFigures } from "./headline.ts";
import type { RisksByCurrency } from "./risks.ts";
import type { Comparison } from "./comparison.ts";

/** What the summary is made from. */
export interface SummaryFacts {
  /** The finished manifest. */
  readonly manifest: Manifest;
  /** Report titles by id. */
  readonly titles: Readonly<Record<string, string>>;
  /** Figures with changes since the last comparable run. */
  readonly changes: readonly Change[];
  /** The comparison made (null when unknown: then `previousStarted` says whether one was). */
  readonly comparison?: Comparison | null;
  /** When the compared run started (older callers; {@link comparison} wins). */
  readonly previousStarted: string | null;
  /** Top risks per currency. */
  readonly risks?: RisksByCurrency;
  /** Number locale (default en-US). */
  readonly locale?: string;
}

/** One line of the view: a label, the value now, and what moved. */
export interface ViewLine {
  /** The label. */
  readonly label: string;
  /** The value, formatted. */
  readonly now: string;
  /** The previous value, formatted ("" when not compared). */
  readonly before: string;
  /** The change, signed, or "new" / "". */
  readonly change: string;
  /** Whether the figure grew / shrank (for colour). */
  readonly up: boolean;
  /** Whether it shrank. */
  readonly down: boolean;
}

/** The summary view. */
export interface SummaryView {
  /** Exposure lines: shortfall cost per currency, unpriced shortfalls, positions short. */
  readonly exposure: readonly ViewLine[];
  /** Top risks per currency, formatted. */
  readonly risks: readonly {
    readonly currency: string;
    readonly rows: readonly {
      application: string;
      metric: string;
      shortfall: string;
      cost: string;
    }[];
  }[];
  /** Total spend per currency. */
  readonly spend: readonly ViewLine[];
  /** The other headline figures (uncovered installs, stale computers). */
  readonly estate: readonly ViewLine[];
  /** Headline figures that moved since the compared run. */
  readonly moved: readonly ViewLine[];
  /** When the compared run started, formatted, or null. */
  readonly comparedWith: string | null;
  /** Why nothing (or not everything) is compared. */
  readonly notes: readonly string[];
  /** How many other figures moved (all in summary.json). */
  readonly otherMoved: number;
  /** Whether the pack measured the license position. */
  readonly measuredExposure: boolean;
}

/**
 * `YYYY-MM-DD HH:MM UTC` of an RFC 3339 instant.
 *
 * @example
 * ```ts
 * import { displayTime } from "./summary_view.ts";
 * console.log(displayTime("2026-11-23T06:00:00.000Z")); // "2026-11-23 06:00 UTC"
 * ```
 */
export function displayTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * Formats a figure's value: money in its currency, other numbers with up to two decimals.
 *
 * @example
 * ```ts
 * import { formatValue } from "./summary_view.ts";
 * console.log(formatValue(1234.5, { type: "currency", currency: "EUR" })); // "€1,234.50"
 * ```
 */
export function formatValue(
  value: number,
  figure: { readonly type: string; readonly currency?: string },
  locale = "en-US",
  signed = false,
): string {
  const opts: Intl.NumberFormatOptions = figure.type === "currency" && figure.currency
    ? { style: "currency", currency: figure.currency }
    : { maximumFractionDigits: 2 };
  const text = new Intl.NumberFormat(locale, opts).format(value);
  return signed && value > 0 ? `+${text}` : text;
}

function line(f: HeadlineFigure, locale: string, compared: boolean): ViewLine {
  return {
    label: f.label,
    now: formatValue(f.value, f, locale),
    before: f.previous === null ? "" : formatValue(f.previous, f, locale),
    change: f.delta === null ? (compared ? "new" : "") : formatValue(f.delta, f, locale, true),
    up: (f.delta ?? 0) > 0,
    down: (f.delta ?? 0) < 0,
  };
}

/**
 * Builds the summary view of a run.
 *
 * @example
 * ```ts ignore
 * import { summaryView } from "./summary_view.ts";
 * const view = summaryView({ manifest, titles, changes, previousStarted: null });
 * console.log(view.exposure.map((l) => `${l.label}: ${l.now}`));
 * ```
 */
export function summaryView(facts: SummaryFacts): SummaryView {
  const locale = facts.locale ?? "en-US";
  const started = facts.comparison === undefined || facts.comparison === null
    ? facts.previousStarted
    : facts.comparison.previous?.started ?? null;
  const compared = started !== null;
  const lines = headlineFigures(facts.changes).map((f) => ({ f, view: line(f, locale, compared) }));
  const of = (...names: string[]) =>
    lines.filter((l) => names.includes(l.f.name)).map((l) => l.view);
  const headlineKeys = new Set(lines.map((l) => l.f.key));
  return {
    exposure: of("shortfallCost", "unpricedShortfalls", "positionsShort"),
    risks: Object.entries(facts.risks ?? {}).map(([currency, rows]) => ({
      currency,
      rows: rows.map((r) => ({
        application: r.application,
        metric: r.metric,
        shortfall: formatValue(r.shortfall, { type: "integer" }, locale),
        cost: formatValue(r.shortfallCost, { type: "currency", currency }, locale),
      })),
    })),
    spend: of("spend"),
    estate: of("uncoveredInstalls", "staleComputers"),
    moved: lines.filter((l) => l.f.delta !== null && l.f.delta !== 0).map((l) => l.view),
    comparedWith: started ? displayTime(started) : null,
    notes: facts.comparison?.notes.filter((n) => n !== "no earlier finished run") ??
      [],
    otherMoved:
      facts.changes.filter((c) => !headlineKeys.has(c.key) && c.delta !== null && c.delta !== 0)
        .length,
    measuredExposure: lines.some((l) => l.f.key.startsWith("license-position|")),
  };
}

/**
 * The summary's plain-text body lines for a view.
 *
 * @example
 * ```ts ignore
 * import { summaryText } from "./summary_view.ts";
 * console.log(summaryText(view).join("\n"));
 * ```
 */
export function summaryText(view: SummaryView): string[] {
  const show = (l: ViewLine) =>
    `  ${l.label}: ${l.now}${l.before ? ` (was ${l.before}, ${l.change})` : ""}`;
  return [
    "Compliance exposure",
    ...(view.measuredExposure
      ? view.exposure.map(show)
      : ["  not measured: no license position in this pack"]),
    ...(view.risks.length ? ["", "Top risks by shortfall cost"] : []),
    ...view.risks.flatMap((r) => [
      `  ${r.currency}:`,
      ...r.rows.map((x, i) =>
        `  ${i + 1}. ${x.application} (${x.metric}): ${x.shortfall} short, ${x.cost}`
      ),
    ]),
    ...(view.spend.length ? ["", "Total spend", ...view.spend.map(show)] : []),
    ...(view.estate.length ? ["", "Estate", ...view.estate.map(show)] : []),
    "",
    view.comparedWith
      ? `What moved since ${view.comparedWith}` + (view.moved.length ? "" : ": nothing")
      : `What moved: not compared${view.notes.length ? "" : " (no earlier run of this pack)"}`,
    ...view.moved.map(show),
    ...view.notes.map((n) => `  ${n}`),
    ...(view.otherMoved ? [`  ${view.otherMoved} other figures moved (summary.json)`] : []),
  ];
}
