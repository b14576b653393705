/**
 * The report model: what a report definition declares and what every renderer receives.
 * Definitions say what a report contains, never how it looks; formatting lives in column types
 * and templates.
 *
 * @module
 */

import type { FactSpec, SectionFact } from "./facts.ts";

/** A cell value after normalisation. Dates are `Date` objects (UTC instants). */
export type CellValue = string | number | boolean | Date | null;

/** One row of a section: column key → value. Extra keys not named by a column are ignored. */
export type Row = Record<string, CellValue>;

/**
 * A column's type, which decides alignment, number formats and XLSX cell types:
 * - `text`, `number` (thousands separators, `decimals` from the column), `integer`,
 * - `currency` (an amount; its ISO 4217 code is in the row under `currencyKey`, default `currency`),
 * - `date` (date only), `datetime`, `boolean` (Yes/No), `percent` (0.25 → 25%).
 */
export type ColumnType =
  | "text"
  | "number"
  | "integer"
  | "currency"
  | "date"
  | "datetime"
  | "boolean"
  | "percent";

/** A column of a section. */
export interface Column {
  /** The row key. */
  readonly key: string;
  /** The header label. */
  readonly label: string;
  /** The value type. */
  readonly type: ColumnType;
  /** For `currency`: the row key holding the currency code (default `currency`). */
  readonly currencyKey?: string;
  /** For `number`, `currency` and `percent`: decimal places (defaults 0, 2 and 1). */
  readonly decimals?: number;
  /** Preferred width in characters (renderers pick a sensible one when absent). */
  readonly width?: number;
  /** Emphasis used by HTML/PDF/XLSX for flags such as an uncovered state (`warn` or `bad`). */
  readonly emphasis?: (row: Row) => "warn" | "bad" | undefined;
  /**
   * `drop`: a column of a field the source may not send (the public registry has no `version`).
   * When its section has rows and none has a value in it, the column is left out of every format
   * and the section's description says so (`unfilled.ts`).
   */
  readonly whenUnfilled?: "drop";
}

/**
 * Totals to compute while rows pass: the sum of each named column, per currency when
 * `perCurrency` names the currency key (currency amounts are never summed across currencies),
 * and a row count.
 */
export interface TotalsSpec {
  /** Column keys to sum. */
  readonly sum: readonly string[];
  /** Row key of the currency code: one totals line per currency. */
  readonly perCurrency?: string;
}

/**
 * Computed totals: label (`All`, or a currency code) → column key → sum, plus `rows` (the count of
 * rows that line covers).
 */
export type Totals = Record<string, Record<string, number>>;

/** A grouping of a section's rows for display, with subtotals of the totals spec. */
export interface GroupSpec {
  /** The row key to group by (rows must arrive sorted by it, or the renderer sorts them). */
  readonly by: string;
  /** A label for the group header (defaults to the column label). */
  readonly label?: string;
}

/**
 * A chart drawn from a section (inline SVG in HTML/PDF, skipped by data formats): one of
 * {@link BarChartSpec}, {@link StackedBarChartSpec}, {@link HeatMapChartSpec},
 * {@link TimelineChartSpec} or {@link LineChartSpec}.
 */
export type ChartSpec =
  | BarChartSpec
  | StackedBarChartSpec
  | HeatMapChartSpec
  | TimelineChartSpec
  | LineChartSpec;

/** Horizontal bars, one per row, from the section's first rows. */
export interface BarChartSpec {
  /** `bar` (horizontal bars). */
  readonly type: "bar";
  /** Title above the chart. */
  readonly title: string;
  /** Row key of the bar label. */
  readonly label: string;
  /** Row key of the bar value. */
  readonly value: string;
  /** Keep the first N rows (rows arrive ordered). */
  readonly top?: number;
}

/** A series of a chart: the row key of its values and its legend label. */
export interface ChartSeries {
  /** Row key of the values (numbers). */
  readonly key: string;
  /** Legend label. */
  readonly label: string;
}

/**
 * One horizontal bar per row, split into segments (one per series: e.g. installations per
 * entitlement state of each application), with a legend. When `currency` names the row key of a
 * currency code, rows are drawn on one axis per currency (amounts are never mixed on one axis).
 */
export interface StackedBarChartSpec {
  /** `stackedBar`. */
  readonly type: "stackedBar";
  /** Title above the chart. */
  readonly title: string;
  /** Row key of the bar label. */
  readonly label: string;
  /** The segments, in drawing order (left to right) and legend order. */
  readonly segments: readonly ChartSeries[];
  /** Row key of the currency code: one axis per currency. */
  readonly currency?: string;
  /** Keep the first N rows (default 15, at most 50; rows arrive ordered). */
  readonly top?: number;
  /**
   * What the drawn rows are the first of, when not all the section's rows could be drawn (the
   * rows with a value, say): their count and a plural noun, for the note under the chart ("First
   * 15 of 42 applications with a reclaimable value."). Default: the section's rows.
   */
  readonly of?: { readonly count: number; readonly noun: string };
}

/** A status a heat map cell can have: its value in the rows, legend label and tone. */
export interface HeatMapStatus {
  /** The cell value in the rows (compared as text). */
  readonly value: string;
  /** Legend label (defaults to the value). */
  readonly label?: string;
  /** Colour and texture: `good`, `warn`, `bad`, `neutral` (grey) or `none` (blank). */
  readonly tone: "good" | "warn" | "bad" | "neutral" | "none";
}

/**
 * A grid of rows × columns from rows in long form (one row per cell: e.g. connector × month ×
 * status). With `statuses`, each cell shows its status's colour, texture and legend entry; without,
 * the value is a number shaded from light to dark and printed in the cell.
 */
export interface HeatMapChartSpec {
  /** `heatMap`. */
  readonly type: "heatMap";
  /** Title above the chart. */
  readonly title: string;
  /** Row key of the grid row label (rows in order of first appearance). */
  readonly row: string;
  /** Row key of the grid column label (columns sorted ascending: ISO months, dates, numbers). */
  readonly column: string;
  /** Row key of the cell value (a status, or a number). */
  readonly value: string;
  /** The statuses, in legend order; values not listed show as their text in grey. */
  readonly statuses?: readonly HeatMapStatus[];
  /** The most grid rows drawn (default 20, at most 60). */
  readonly rows?: number;
  /** The most grid columns drawn, the latest kept (default 24, at most 36). */
  readonly columns?: number;
}

/**
 * Dated items on a time axis (one line per row: e.g. end-of-life date per application), with a
 * line at the report's generation time ("now") and a band for the next `withinMonths` months.
 */
export interface TimelineChartSpec {
  /** `timeline`. */
  readonly type: "timeline";
  /** Title above the chart. */
  readonly title: string;
  /** Row key of the item label. */
  readonly label: string;
  /** Row key of the item's date (a `Date`; rows without one are left out). */
  readonly date: string;
  /** Row key of a figure shown after the label (e.g. installations). */
  readonly value?: string;
  /** The band after now (default 12 months: "Ends within 12 months"). */
  readonly withinMonths?: number;
  /** The band's legend label (default `Ends within N months`). */
  readonly withinLabel?: string;
  /** Keep the first N rows (default 20, at most 60; rows arrive ordered). */
  readonly top?: number;
}

/**
 * One or more series over ordered x values (rows in x order: e.g. figures per pack run). When
 * `currency` names the row key of a currency code, one axis is drawn per currency.
 */
export interface LineChartSpec {
  /** `line`. */
  readonly type: "line";
  /** Title above the chart. */
  readonly title: string;
  /** Row key of the x value (a date or text; rows arrive in x order). */
  readonly x: string;
  /** The series (lines), in legend order. */
  readonly series: readonly ChartSeries[];
  /** Row key of the currency code: one axis per currency. */
  readonly currency?: string;
  /** The most points per line, the latest kept (default 24, at most 120). */
  readonly points?: number;
}

/** A headline figure shown on the cover and the summary sheet. */
export interface Fact {
  /** What the figure is. */
  readonly label: string;
  /** The figure. */
  readonly value: CellValue;
  /** How to format it. */
  readonly type: ColumnType;
  /** For currency facts: the currency code. */
  readonly currency?: string;
}

/** A section of a report as the data function returns it. */
export interface Section {
  /** Stable id (used for file names: `<report>-<section>.csv`, sheet names). */
  readonly id: string;
  /** Heading. */
  readonly title: string;
  /** A sentence that says what the section shows. */
  readonly description?: string;
  /** The columns, in display order. */
  readonly columns: readonly Column[];
  /** The rows: streamed when async, so memory does not grow with the estate. */
  readonly rows: AsyncIterable<Row> | Iterable<Row>;
  /** Totals to compute while rows pass. */
  readonly totals?: TotalsSpec;
  /** Display grouping. */
  readonly group?: GroupSpec;
  /** A chart of this section. */
  readonly chart?: ChartSpec;
  /** Shown instead of an empty table (default "No data for these parameters."). */
  readonly emptyText?: string;
  /**
   * Headline facts computed from this section's rows as they pass (see `facts.ts`); shown after
   * the report's own {@link ReportData.facts}, in section order.
   */
  readonly facts?: readonly SectionFact[];
}

/** What a report's data function returns. */
export interface ReportData {
  /** The sections, in order. */
  readonly sections: readonly Section[];
  /**
   * Headline figures declared over sections' rows (counts, sums per currency, distinct counts,
   * …): the runner computes each from the rows its section shows, so a headline always agrees
   * with its table. See `facts.ts`.
   */
  readonly facts?: readonly FactSpec[];
  /**
   * Headline figures computed by the report itself, shown after the declared {@link facts}
   * (computed after the sections' rows have been read, hence a function). Prefer `facts`.
   */
  readonly summary?: () => readonly Fact[];
}

/** The type of a report parameter. */
export type ParamType = "string" | "number" | "integer" | "boolean" | "date" | "enum" | "json";

/** A report parameter: type, default and validation. */
export interface ParamSpec {
  /** The type; values from the CLI are parsed and validated against it. */
  readonly type: ParamType;
  /** What the parameter means (shown by `samkit list`). */
  readonly description: string;
  /** The default (a parameter without one is optional and `undefined` when not given). */
  readonly default?: unknown;
  /** Required parameters without a default must be given. */
  readonly required?: boolean;
  /** For `enum`: the allowed values. */
  readonly values?: readonly string[];
  /** For numbers: inclusive bounds. */
  readonly min?: number;
  /** For numbers: inclusive bounds. */
  readonly max?: number;
}

/** Parameter values after parsing. */
export type ParamValues = Record<string, unknown>;

/**
 * What a data function receives. `client` is the typed SAM client (`lib/api/client.ts`) and
 * `query` the run's shared query context (`lib/query/`), typed loosely here so the model does not
 * depend on the transport.
 */
export interface ReportContext<C = unknown, Q = unknown> {
  /** The SAM client. */
  readonly client: C;
  /** Shared query helpers with the run's cache (fan-out, lookups, joins). */
  readonly query: Q;
  /** Parsed, validated parameters. */
  readonly params: ParamValues;
  /** A user filter (`--filter`) as text, already validated, for the report's main collection. */
  readonly filter?: string;
  /** Cancels the run. */
  readonly signal: AbortSignal;
  /** The run's clock (the generated-at instant), for age computations. */
  readonly now: Date;
}

/** A report definition: a plain typed object with no rendering code. */
export interface ReportDefinition<C = unknown, Q = unknown> {
  /** CLI id (`license-cost-summary`). */
  readonly id: string;
  /** Title on the cover and in headers. */
  readonly title: string;
  /** What question the report answers. */
  readonly description: string;
  /** Parameters by name. */
  readonly params: Readonly<Record<string, ParamSpec>>;
  /** Which resource `--filter` applies to (its fields are validated against the catalogue). */
  readonly filterResource?: string;
  /** Produces the sections from the API. */
  readonly data: (ctx: ReportContext<C, Q>) => Promise<ReportData> | ReportData;
  /** Landscape pages in PDF (wide tables). */
  readonly landscape?: boolean;
  /**
   * What the report reads: the SAM API (`api`, the default) or samkit's own run history
   * (`history`: pack folders or the queue's PostgreSQL), which needs no API source.
   */
  readonly reads?: "api" | "history";
  /** Row figures whose change since the previous pack run is reported (e.g. shortfall per app). */
  readonly tracked?: readonly TrackedFigure[];
}

/** A per-row figure a pack compares across runs. */
export interface TrackedFigure {
  /** The section id. */
  readonly section: string;
  /** The row key(s) that name the row (e.g. `["application", "version"]`). */
  readonly key: string | readonly string[];
  /** The numeric column key to track (e.g. `shortfall`). */
  readonly value: string;
  /** Label prefix (e.g. `Shortfall`). */
  readonly label: string;
  /** Row key of a currency code, when the value is money. */
  readonly currencyKey?: string;
}

/** Thrown for a definition that breaks the model's rules. */
export class ReportDefinitionError extends Error {
  /**
   * Builds the error from what is wrong.
   *
   * @param message What is wrong, naming the report.
   */
  constructor(message: string) {
    super(message);
    this.name = "ReportDefinitionError";
  }
}

/**
 * Checks that no two sections of a report's data have the same id, or ids that differ only in
 * case (their files, `<report>-<section>.csv`, would be one file where names are compared without
 * case); throws {@link ReportDefinitionError} naming the report and both ids. A section id built
 * from data (a currency code) is made distinct with `distinctNames` (`lib/fs/safe_name.ts`), so
 * this holds by construction; the check makes a slip fail the run before any file is written.
 *
 * @example
 * ```ts
 * import { checkSectionIds } from "./model.ts";
 * checkSectionIds("demo", [{ id: "by-publisher-eur" }, { id: "by-publisher-usd" }]); // fine
 * try {
 *   checkSectionIds("demo", [{ id: "by-publisher-eur" }, { id: "by-publisher-EUR" }]);
 * } catch (e) {
 *   console.log((e as Error).message);
 *   // 'demo: sections "by-publisher-eur" and "by-publisher-EUR" have the same id (case aside); each section needs its own'
 * }
 * ```
 */
export function checkSectionIds(reportId: string, sections: readonly Pick<Section, "id">[]): void {
  const seen = new Map<string, string>();
  for (const { id } of sections) {
    const key = id.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      throw new ReportDefinitionError(
        `${reportId}: sections ${JSON.stringify(first)} and ${JSON.stringify(id)} have the same ` +
          "id (case aside); each section needs its own",
      );
    }
    seen.set(key, id);
  }
}

/**
 * Declares a report. Checks the definition's id and parameters once, at load time.
 *
 * @example
 * ```ts
 * import { defineReport } from "./model.ts";
 * export const hello = defineReport({
 *   id: "hello",
 *   title: "Hello",
 *   description: "One row.",
 *   params: {},
 *   data: () => ({
 *     sections: [{
 *       id: "main",
 *       title: "Main",
 *       columns: [{ key: "n", label: "N", type: "integer" }],
 *       rows: [{ n: 1 }],
 *     }],
 *   }),
 * });
 * ```
 */
export function defineReport<C = unknown, Q = unknown>(
  definition: ReportDefinition<C, Q>,
): ReportDefinition<C, Q> {
  if (!/^[a-z][a-z0-9-]*$/.test(definition.id)) {
    throw new ReportDefinitionError(`report id "${definition.id}" must be kebab-case`);
  }
  for (const [name, spec] of Object.entries(definition.params)) {
    if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(name)) {
      throw new ReportDefinitionError(`${definition.id}: parameter "${name}" must be camelCase`);
    }
    if (spec.type === "enum" && !spec.values?.length) {
      throw new ReportDefinitionError(`${definition.id}: enum parameter "${name}" needs values`);
    }
  }
  return Object.freeze({ ...definition });
}
