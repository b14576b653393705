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

/**
 * Every {@link ColumnType}, in the order messages list them.
 *
 * @example
 * ```ts
 * import { COLUMN_TYPES } from "./model.ts";
 * console.log(COLUMN_TYPES.includes("currency")); // true
 * ```
 */
export const COLUMN_TYPES: readonly ColumnType[] = [
  "text",
  "number",
  "integer",
  "currency",
  "date",
  "datetime",
  "boolean",
  "percent",
];

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
  /**
   * For `currency`: the one ISO 4217 code every amount of the column is in (a column converted
   * to the reporting currency). Its totals are in that code on every totals line.
   */
  readonly currency?: string;
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
  /**
   * A column derived from others of its row, as a spreadsheet formula over their keys
   * (`"purchased + received - given"`; functions IF, OR, AND, NOT, MAX, MIN, ABS, ROUND; `""` is
   * an empty cell). The XLSX writes a row's number as the cell's formula with the number as its
   * cached result, so a reader re-checks the figure in the workbook (a row without one has an
   * empty cell); every other format shows the value. The row's value must be what the formula
   * gives.
   */
  readonly formula?: string;
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
  /**
   * Money columns whose amounts are summed only once converted to a reporting currency (a
   * table with one row per currency): with one, their converted columns are summed on the
   * line; without one, nothing of them is.
   */
  readonly converted?: readonly string[];
}

/**
 * Computed totals: label (`All`, a currency code, or `all currencies (EUR)` for the line that sums
 * the columns in one fixed currency over every row) → column key → sum, plus `rows` (the count of
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
  /** Shown on the cover (see `coverFacts` in `facts.ts`). */
  readonly cover?: boolean;
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
  /**
   * Where the rows came from, when the report knows it and the caller cannot (a report over
   * samkit's run history names the sources its runs read, and "demo data" when they read the
   * demo estate: `historySourceText`); replaces the run's source on the cover and in JSON.
   */
  readonly source?: string;
}

/** The type of a report parameter. */
export type ParamType = "string" | "number" | "integer" | "boolean" | "date" | "enum" | "json";

const PARAM_TYPES: readonly ParamType[] = [
  "string",
  "number",
  "integer",
  "boolean",
  "date",
  "enum",
  "json",
];

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
  /**
   * The run's reporting currency, when it has one: a report that sums amounts converts each
   * amount where it is first stated and sums the converted amounts (`lib/sam/reporting_currency.ts`).
   */
  readonly reportingCurrency?: AmountConverter;
}

/** Converts amounts into a reporting currency, each rounded once to the cent. */
export interface AmountConverter {
  /** The reporting currency (ISO 4217). */
  readonly code: string;
  /** `amount` in `currency` converted (null stays null). */
  convert(amount: number | null, currency: string): number | null;
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
  /**
   * Produces the sections from the API. Declared as a method, so a definition written against
   * the part of the client it reads (`ReportDefinition<ClientSlice<…>, QueryContext>`) is a
   * {@link ReportDefinition} as catalogues and runners take it, with no cast.
   *
   * @param ctx The client, the run's query context, the parameters, filter, signal and clock.
   */
  data(ctx: ReportContext<C, Q>): Promise<ReportData> | ReportData;
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

/**
 * Thrown for a definition that breaks the model's rules.
 *
 * @example
 * ```ts
 * import { ReportDefinitionError } from "./model.ts";
 * const e = new ReportDefinitionError('x: column "os" has type "txt"', { literal: "txt" });
 * console.log(e.literal); // "txt"
 * ```
 */
export class ReportDefinitionError extends Error {
  /**
   * The wrong value as the definition's source spells it (a column type, an id), so a loader
   * can point at the line that holds it; absent when the problem is no single value.
   */
  readonly literal?: string;
  /**
   * Builds the error from what is wrong.
   *
   * @param message What is wrong, naming the report.
   * @param options The wrong value as written, when there is one.
   */
  constructor(message: string, options: { readonly literal?: string } = {}) {
    super(message);
    this.name = "ReportDefinitionError";
    if (options.literal !== undefined) this.literal = options.literal;
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
 * Checks the columns of each section: a key, a label and one of the {@link COLUMN_TYPES}. A
 * report module is plain code that no type check has to pass before it runs, so a column typed
 * `"txt"` reaches here; throws {@link ReportDefinitionError} naming the report, the section, the
 * column and the types there are, with the wrong type as its `literal`.
 *
 * @example
 * ```ts
 * import { checkColumns } from "./model.ts";
 * const columns = [{ key: "os", label: "OS", type: "txt" }];
 * try {
 *   checkColumns("servers-by-os", [{ id: "by-os", columns }] as never);
 * } catch (e) {
 *   console.log((e as Error).message.startsWith('servers-by-os: section "by-os", column "os"'));
 *   // true
 * }
 * ```
 */
export function checkColumns(
  reportId: string,
  sections: readonly Pick<Section, "id" | "columns">[],
): void {
  const bad = (message: string, literal?: string): never => {
    throw new ReportDefinitionError(`${reportId}: ${message}`, { literal });
  };
  for (const { id, columns } of sections) {
    if (!Array.isArray(columns)) bad(`section "${id}": columns must be a list of columns`);
    for (const [i, column] of (columns as readonly Partial<Column>[]).entries()) {
      const at = `section "${id}", column ${
        typeof column?.key === "string" && column.key ? `"${column.key}"` : `${i + 1}`
      }`;
      if (typeof column !== "object" || column === null) bad(`${at}: expected a column object`);
      if (typeof column.key !== "string" || !column.key) bad(`${at}: needs a key (a row key)`);
      if (typeof column.label !== "string") bad(`${at}: needs a label (its header text)`);
      if (!COLUMN_TYPES.includes(column.type as ColumnType)) {
        bad(
          `${at}: unknown type ${JSON.stringify(column.type)}; a column type is one of ` +
            `${COLUMN_TYPES.join(", ")} (the builders text(), integer(), money() … give one)`,
          typeof column.type === "string" ? column.type : undefined,
        );
      }
    }
  }
}

/**
 * Checks what a data function returned before any row is read: each section has an id and a
 * title, no two ids match without case ({@link checkSectionIds}) and every column is valid
 * ({@link checkColumns}). Throws {@link ReportDefinitionError}.
 *
 * @example
 * ```ts
 * import { checkSections } from "./model.ts";
 * const columns = [{ key: "n", label: "N", type: "integer" as const }];
 * checkSections("demo", [{ id: "main", title: "Main", columns, rows: [] }]); // fine
 * ```
 */
export function checkSections(reportId: string, sections: readonly Section[]): void {
  if (!Array.isArray(sections)) {
    throw new ReportDefinitionError(`${reportId}: data must return { sections: [...] }`);
  }
  for (const [i, section] of sections.entries()) {
    if (typeof section?.id !== "string" || !section.id) {
      throw new ReportDefinitionError(`${reportId}: section ${i + 1} needs an id`);
    }
    if (typeof section.title !== "string") {
      throw new ReportDefinitionError(`${reportId}: section "${section.id}" needs a title`);
    }
  }
  checkSectionIds(reportId, sections);
  checkColumns(reportId, sections);
  checkGroups(reportId, sections);
  checkMoneyTotals(reportId, sections);
}

/**
 * A totals line never adds money across currencies: a section that sums a money column (one
 * without a fixed `currency`) gives `totals.perCurrency`, the row key of each amount's code.
 */
function checkMoneyTotals(reportId: string, sections: readonly Section[]): void {
  for (const { id, columns, totals } of sections) {
    if (!totals || totals.perCurrency !== undefined) continue;
    const money = totals.sum.find((key) =>
      columns.some((c) => c.key === key && c.type === "currency" && !c.currency)
    );
    if (money === undefined) continue;
    throw new ReportDefinitionError(
      `${reportId}: section "${id}" totals money column "${money}" without perCurrency, which ` +
        "would add amounts of different currencies (give totals.perCurrency: the row key of " +
        "each amount's currency code)",
      { literal: money },
    );
  }
}

/**
 * A section grouped by a key prints that key as a column: XLSX, CSV and JSON draw no group
 * headers, so a grouping key that is no column would be lost from them.
 */
function checkGroups(reportId: string, sections: readonly Section[]): void {
  for (const { id, columns, group } of sections) {
    if (group === undefined || columns.some((c) => c.key === group.by)) continue;
    throw new ReportDefinitionError(
      `${reportId}: section "${id}" is grouped by "${group.by}", which is none of its ` +
        "columns (XLSX, CSV and JSON print no group headers: add it as a column)",
      { literal: group.by },
    );
  }
}

/**
 * Whether a value has a report definition's shape: an object with a string `id` and a `data`
 * function (what a module loader looks for among a module's exports; {@link checkDefinition}
 * then checks the rest).
 *
 * @example
 * ```ts
 * import { isReportDefinition } from "./model.ts";
 * console.log(isReportDefinition({ id: "x", data: () => ({ sections: [] }) })); // true
 * console.log(isReportDefinition({ id: "x" })); // false
 * ```
 */
export function isReportDefinition(value: unknown): value is ReportDefinition {
  if (typeof value !== "object" || value === null) return false;
  const { id, data } = value as Partial<ReportDefinition>;
  return typeof id === "string" && typeof data === "function";
}

function checkParams(id: string, params: unknown): void {
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new ReportDefinitionError(`${id}: params must be an object ({} for none)`);
  }
  for (const [name, spec] of Object.entries(params as Record<string, ParamSpec>)) {
    if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(name)) {
      throw new ReportDefinitionError(`${id}: parameter "${name}" must be camelCase`, {
        literal: name,
      });
    }
    if (!PARAM_TYPES.includes(spec?.type)) {
      throw new ReportDefinitionError(
        `${id}: parameter "${name}": unknown type ${JSON.stringify(spec?.type)}; a parameter ` +
          `type is one of ${PARAM_TYPES.join(", ")} (the builders stringParam(), ` +
          "integerParam() … give one)",
        { literal: typeof spec?.type === "string" ? spec.type : name },
      );
    }
    if (spec.type === "enum" && !spec.values?.length) {
      throw new ReportDefinitionError(`${id}: enum parameter "${name}" needs values`, {
        literal: name,
      });
    }
  }
}

/**
 * Checks a definition against the model's rules: a kebab-case id, a title and a description,
 * camelCase parameters of known types (an enum with values), a `data` function, `reads` `api` or
 * `history`. {@link defineReport} runs it; a module loader runs it on an exported plain object
 * too. Throws {@link ReportDefinitionError}.
 *
 * @example
 * ```ts
 * import { checkDefinition } from "./model.ts";
 * try {
 *   checkDefinition({ id: "Servers", title: "S", description: "S", params: {},
 *     data: () => ({ sections: [] }) });
 * } catch (e) {
 *   console.log((e as Error).message); // 'report id "Servers" must be kebab-case …'
 * }
 * ```
 */
export function checkDefinition(definition: ReportDefinition): void {
  const { id } = definition;
  if (typeof id !== "string" || !/^[a-z][a-z0-9-]*$/.test(id)) {
    throw new ReportDefinitionError(
      `report id ${JSON.stringify(id)} must be kebab-case (lower-case letters, digits and -, ` +
        "a letter first)",
      { literal: typeof id === "string" ? id : undefined },
    );
  }
  for (const field of ["title", "description"] as const) {
    if (typeof definition[field] !== "string" || !definition[field].trim()) {
      throw new ReportDefinitionError(`${id}: needs a ${field} (text)`, { literal: id });
    }
  }
  if (typeof definition.data !== "function") {
    throw new ReportDefinitionError(`${id}: needs a data function`, { literal: id });
  }
  if (definition.reads !== undefined && !["api", "history"].includes(definition.reads)) {
    throw new ReportDefinitionError(
      `${id}: reads must be "api" or "history", not ${JSON.stringify(definition.reads)}`,
      { literal: String(definition.reads) },
    );
  }
  checkParams(id, definition.params);
}

/**
 * Declares a report. Checks the definition once, at load time ({@link checkDefinition}); the
 * sections its data function returns are checked before any row is read
 * ({@link checkSections}).
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
  checkDefinition(definition);
  return Object.freeze({ ...definition });
}
