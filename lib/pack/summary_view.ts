/**
 * What the pack summary shows a CFO on one screen, in this order: compliance exposure per
 * currency (shortfall cost, unpriced shortfalls named, positions short, and beside the ELP's the
 * remaining purchase need when the pack runs license-optimization), the top risks by value
 * per currency, the software cost per currency (cost to date beside the annual run rate), the
 * estate figures, what moved since the last comparable run (or why nothing is compared), and the
 * reports with their scope and the files attached or linked.
 *
 * The view is a list of sections of plain strings — headings, paragraphs, tables with their
 * column headers — and the email's HTML body, its text body and `summary.pdf` are all rendered
 * from it, so they carry the same figures under the same labels. With a reporting currency the
 * view states the rates the run's reports converted with, under the source line, and each
 * section shows the reports' all-currency totals beside the per-currency figures.
 *
 * @module
 */

import type { Change } from "./figures.ts";
import type { Manifest } from "./manifest.ts";
import type { RisksByCurrency, UnpricedShortfall } from "./risks.ts";
import type { Comparison } from "./comparison.ts";
import type { RowDiff } from "./run_row_diff.ts";
import type { ReportDefinition } from "../report/model.ts";
import { summarySections } from "./summary_sections.ts";
import type { RunRates } from "./summary_rates.ts";

/** Where the run's files went: attached, linked in the evidence folder. */
export interface SummaryDelivery {
  /** Files attached (summary.pdf first). */
  readonly attached: readonly string[];
  /** Files over the size cap, left in the evidence folder. */
  readonly linked: readonly string[];
  /** The size cap, for a person ("5 MB"). */
  readonly cap: string;
  /**
   * The evidence folder's link under the pack's `evidenceUrl`, or null: a recipient cannot open
   * a folder on the machine that ran the pack, so it is then named, not linked.
   */
  readonly link: string | null;
  /** The evidence folder on the machine that ran the pack. */
  readonly folder: string;
}

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
  /** The row-by-row comparison with the previous run (absent: the pack has no diff). */
  readonly rowDiff?: RowDiff;
  /** When the compared run started (older callers; {@link comparison} wins). */
  readonly previousStarted: string | null;
  /** Top risks per currency. */
  readonly risks?: RisksByCurrency;
  /** The unpriced shortfalls, largest first. */
  readonly unpriced?: readonly UnpricedShortfall[];
  /** The pack's title (default: its name made readable). */
  readonly title?: string;
  /** The report definitions (for each report's scope: parameters and filter). */
  readonly definitions?: readonly Pick<ReportDefinition, "id" | "params" | "filterResource">[];
  /** Where the files went (absent: the Reports section lists no files). */
  readonly delivery?: SummaryDelivery;
  /** Number locale (default en-US). */
  readonly locale?: string;
  /** The rates the run's reports converted with (absent or null: no reporting currency). */
  readonly rates?: RunRates | null;
}

/** One cell of a view table. */
export interface ViewCell {
  /** The text shown. */
  readonly text: string;
  /** Right-aligned (a figure). */
  readonly numeric: boolean;
  /** Shown as bad news (a figure that grew where growth is bad). */
  readonly bad: boolean;
  /** Shown as good news. */
  readonly good: boolean;
}

/** A table of the view: its column headers and rows. */
export interface ViewTable {
  /** A caption above the table ("" when none). */
  readonly caption: string;
  /** Column headers. */
  readonly columns: readonly ViewCell[];
  /** Rows, one cell per column. */
  readonly rows: readonly (readonly ViewCell[])[];
  /** Paragraphs right under the table (what its figures lead to). */
  readonly after: readonly string[];
}

/** One section of the view. */
export interface ViewSection {
  /** Stable id (`exposure`, `risks`, `cost`, `estate`, `moved`, `rows`, `reports`). */
  readonly id: string;
  /** The heading. */
  readonly heading: string;
  /** Paragraphs before the tables. */
  readonly intro: readonly string[];
  /** Tables. */
  readonly tables: readonly ViewTable[];
  /** Paragraphs after the tables (reasons, what is left out). */
  readonly notes: readonly string[];
  /** A link shown last ("Evidence folder: …"), or null. */
  readonly link: { readonly label: string; readonly href: string } | null;
}

/** The summary view. */
export interface SummaryView {
  /** The pack's title. */
  readonly title: string;
  /** "Run of … · status". */
  readonly runLine: string;
  /** "Data from …". */
  readonly sourceLine: string;
  /** "Reporting currency: 1 EUR = … (rates of …)", or null without a reporting currency. */
  readonly ratesLine: string | null;
  /** The sections, in display order. */
  readonly sections: readonly ViewSection[];
  /** When the compared run started, formatted, or null. */
  readonly comparedWith: string | null;
}

const STATUS_TEXT: Record<Manifest["status"], string> = {
  complete: "all reports succeeded",
  partial: "some reports failed",
  interrupted: "interrupted",
  running: "running",
  abandoned: "abandoned (the process died)",
};

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

/**
 * A pack name made readable for a title: separators become spaces, the first letter a capital.
 *
 * @example
 * ```ts
 * import { readableName } from "./summary_view.ts";
 * console.log(readableName("weekly-audit")); // "Weekly audit"
 * ```
 */
export function readableName(name: string): string {
  const words = name.replace(/[-_.]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Builds the summary view of a run.
 *
 * @example
 * ```ts ignore
 * import { summaryView } from "./summary_view.ts";
 * const view = summaryView({ manifest, titles, changes, previousStarted: null });
 * console.log(view.sections.map((s) => s.heading));
 * ```
 */
export function summaryView(facts: SummaryFacts): SummaryView {
  const started = facts.comparison === undefined || facts.comparison === null
    ? facts.previousStarted
    : facts.comparison.previous?.started ?? null;
  const comparedWith = started ? displayTime(started) : null;
  const { manifest } = facts;
  return {
    title: facts.title?.trim() || readableName(manifest.pack),
    runLine: `Run of ${displayTime(manifest.started)} · ${STATUS_TEXT[manifest.status]}`,
    sourceLine: `Data from ${manifest.source}`,
    ratesLine: facts.rates
      ? `Reporting currency ${facts.rates.code}: ${facts.rates.statement}. Totals marked ` +
        `"all currencies (${facts.rates.code})" add every amount converted at these rates to ` +
        "the cent; the other figures are in their own currency."
      : null,
    sections: summarySections(facts, comparedWith),
    comparedWith,
  };
}

function textTable(table: ViewTable): string[] {
  const all = [table.columns, ...table.rows];
  const widths = table.columns.map((_, i) => Math.max(...all.map((r) => r[i]?.text.length ?? 0)));
  const line = (cells: readonly ViewCell[]) =>
    "  " +
    cells.map((c, i) =>
      c.numeric || table.columns[i].numeric ? c.text.padStart(widths[i]) : c.text.padEnd(widths[i])
    ).join("  ").trimEnd();
  return [
    ...(table.caption ? [`  ${table.caption}`] : []),
    line(table.columns),
    ...table.rows.map(line),
    ...table.after.map((p) => `  ${p}`),
  ];
}

/**
 * The summary's plain-text body lines for a view: the same headings, paragraphs, column headers
 * and figures as the HTML body, tables as aligned columns.
 *
 * @example
 * ```ts ignore
 * import { summaryText } from "./summary_view.ts";
 * console.log(summaryText(view).join("\n"));
 * ```
 */
export function summaryText(view: SummaryView): string[] {
  const out = [
    view.title,
    view.runLine,
    view.sourceLine,
    ...view.ratesLine ? [view.ratesLine] : [],
  ];
  for (const s of view.sections) {
    out.push("", s.heading, ...s.intro.map((p) => `  ${p}`));
    for (const t of s.tables) out.push(...textTable(t), "");
    if (s.tables.length) out.pop();
    out.push(...s.notes.map((p) => `  ${p}`));
    if (s.link) out.push(`  ${s.link.label}: ${s.link.href}`);
  }
  return out;
}
