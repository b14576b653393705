/**
 * Running a report into files: `runReport` (fetch once, render every format asked for), the
 * renderers of HTML, PDF, XLSX, CSV and JSON, and the shared browser PDF is printed in. Each
 * renderer loads its packages (Handlebars, Puppeteer, pdf-lib, exceljs) on its first render, so
 * a JSON or CSV run loads none of them. Your own look: `loadTheme` (a theme file: company, logo,
 * colours, font, footer, templates) for `runReport`'s `theme`. Re-exports only.
 *
 * @example Write a report of plain rows to JSON and CSV
 * ```ts
 * import { createRenderers, runReport } from "./render.ts";
 * import { createQueryContext } from "./query.ts";
 * import { defineReport, integer, text } from "./report.ts";
 *
 * const hello = defineReport({
 *   id: "hello",
 *   title: "Hello",
 *   description: "One row.",
 *   params: {},
 *   data: () => ({
 *     sections: [{
 *       id: "main",
 *       title: "Main",
 *       columns: [text("name", "Name"), integer("n", "N")],
 *       rows: [{ name: "one", n: 1 }],
 *     }],
 *   }),
 * });
 * const outDir = await Deno.makeTempDir();
 * const { files } = await runReport({
 *   definition: hello,
 *   client: null,
 *   query: createQueryContext(),
 *   params: {},
 *   formats: ["json", "csv"],
 *   renderers: createRenderers(),
 *   outDir,
 *   source: "plain rows",
 *   version: "example",
 * });
 * console.log(files.length); // 2
 * await Deno.remove(outDir, { recursive: true });
 * ```
 *
 * @module
 */

export {
  checkReportFilter,
  type CheckReportFilterOptions,
  REPORT_READS,
  rereadNote,
  type RunEvent,
  runReport,
  type RunReportOptions,
  type RunReportResult,
} from "./lib/report/runner.ts";
export {
  DEFAULT_EMPTY_TEXT,
  DEFAULT_LOCALE,
  type Format,
  FORMATS,
  type RenderDocument,
  type Renderer,
  type RenderOptions,
  type RenderSection,
} from "./lib/render/renderer.ts";
export { createRenderers, type CreateRenderersOptions } from "./lib/render/registry.ts";
export {
  type BrowserHandle,
  BrowserLaunchError,
  BrowserNotFoundError,
  findBrowser,
  type FindBrowserOptions,
  launchBrowser,
  type LaunchBrowserOptions,
} from "./lib/render/browser.ts";
export type { ReportScope, ScopeParameter } from "./lib/report/scope.ts";
export type { OmittedColumn } from "./lib/report/unfilled.ts";
export type { Extents, NumberExtent, TextExtent } from "./lib/report/extents.ts";
export {
  isFontList,
  loadTheme,
  type LogoType,
  normalColor,
  type Theme,
  type ThemeColors,
  ThemeError,
  type ThemeLogo,
  type ThemeTemplateFile,
  type ThemeTemplates,
} from "./lib/render/theme.ts";
