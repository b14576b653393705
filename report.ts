/**
 * Writing a report: `defineReport`, column and parameter builders, declared headline facts, and
 * the types a report module is written against (`ReportDefinition`, `ReportContext`,
 * `ReportData`, `Section`, `Column`, `ParamSpec`, `ChartSpec`, and `ClientSlice` for the part of
 * the client a report reads). Loads no renderer, browser, database or mail package: running a
 * report into files is `runReport` in `./render.ts`. Re-exports only.
 *
 * @example A report of one section over plain rows
 * ```ts
 * import { defineReport, integer, integerParam, text } from "./report.ts";
 *
 * export const serversByOs = defineReport({
 *   id: "servers-by-os",
 *   title: "Servers by operating system",
 *   description: "How many servers run each operating system.",
 *   params: { top: integerParam("Show the N largest", { default: 10, min: 1 }) },
 *   data: ({ params }) => ({
 *     sections: [{
 *       id: "by-os",
 *       title: "By operating system",
 *       columns: [text("os", "Operating system"), integer("servers", "Servers")],
 *       rows: [{ os: "Windows Server 2022", servers: 12 }].slice(0, params.top as number),
 *     }],
 *   }),
 * });
 * console.log(serversByOs.id);
 * ```
 *
 * @module
 */

export {
  type AmountConverter,
  type BarChartSpec,
  type CellValue,
  type ChartSeries,
  type ChartSpec,
  checkSectionIds,
  type Column,
  type ColumnType,
  defineReport,
  type Fact,
  type GroupSpec,
  type HeatMapChartSpec,
  type HeatMapStatus,
  type LineChartSpec,
  type ParamSpec,
  type ParamType,
  type ParamValues,
  type ReportContext,
  type ReportData,
  type ReportDefinition,
  ReportDefinitionError,
  type Row,
  type Section,
  type StackedBarChartSpec,
  type TimelineChartSpec,
  type Totals,
  type TotalsSpec,
  type TrackedFigure,
} from "./lib/report/model.ts";
export {
  boolean,
  type ColumnOptions,
  date,
  datetime,
  integer,
  money,
  number,
  percent,
  text,
  whenNegative,
  whenPositive,
  whenTrue,
} from "./lib/report/columns.ts";
export {
  booleanParam,
  dateParam,
  enumParam,
  integerParam,
  jsonParam,
  numberParam,
  type ParamOptions,
  stringParam,
} from "./lib/report/param_builders.ts";
export {
  type FactBase,
  FactsCollector,
  type FactSpec,
  type FactType,
  type SectionFact,
  type UnknownRows,
} from "./lib/report/facts.ts";
export { OutputError, ParamError, UnknownReportError } from "./lib/report/errors.ts";
export { MAX_FILTER_CHARS, parseParamFlags, resolveParams } from "./lib/report/params.ts";
export type { ClientArea, ClientSlice, SamClient } from "./lib/api/client.ts";
export type { QueryContext } from "./lib/query/context.ts";
