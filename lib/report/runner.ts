/**
 * The report runner: validate parameters and filter → fetch once → spool rows → hand every
 * format a stream of the spooled rows. Nothing is written to the output folder until a format's
 * file is complete (renderers write a temp file and rename it).
 *
 * @module
 */

import { reportScope } from "./scope.ts";
import { labelledScope } from "./scope_labels.ts";
import {
  checkSections,
  type Fact,
  type ParamValues,
  type ReportContext,
  type ReportDefinition,
} from "./model.ts";
import { FactsCollector } from "./facts.ts";
import type { Format, RenderDocument, Renderer, RenderSection } from "../render/renderer.ts";
import type { BrowserHandle } from "../render/browser.ts";
import type { Theme } from "../render/theme.ts";
import type { QueryContext } from "../query/context.ts";
import { spoolSection } from "./spool.ts";
import { ensureWritableDir } from "./output_dir.ts";
import { ParamError } from "./errors.ts";
import {
  FilterFieldError,
  type FilterFieldWarning,
  parseFilter,
  validateFilter,
} from "../api/filter.ts";
import { type ResourceName, RESOURCES } from "../api/catalogue.ts";
import { makeOwnedTempDir } from "../fs/owned_temp.ts";
import { PagingIntegrityError } from "../api/errors.ts";
import {
  FxConverter,
  inReportingCurrency,
  type ReportingCurrencyOptions,
} from "../sam/reporting_currency.ts";

/** Progress events of a run (the CLI prints them on stderr). */
export type RunEvent =
  | { readonly type: "fetch"; readonly report: string }
  | {
    readonly type: "spooled";
    readonly report: string;
    readonly section: string;
    readonly rows: number;
  }
  | {
    /** A collection's pages did not add up; the report's data is read again from the start. */
    readonly type: "reread";
    readonly report: string;
    readonly attempt: number;
    readonly reason: string;
  }
  | { readonly type: "render"; readonly report: string; readonly format: Format }
  | { readonly type: "written"; readonly report: string; readonly path: string };

/** Options of {@link runReport}. */
export interface RunReportOptions {
  /** The report. */
  readonly definition: ReportDefinition;
  /** The SAM client handed to the data function. */
  readonly client: unknown;
  /** The run's shared query context. */
  readonly query: QueryContext;
  /** Parsed parameter values (see `resolveParams`). */
  readonly params: ParamValues;
  /** A filter for the report's main collection, as text. */
  readonly filter?: string;
  /** The formats to write. */
  readonly formats: readonly Format[];
  /** The renderer of each format asked for. */
  readonly renderers: Readonly<Partial<Record<Format, Renderer>>>;
  /** The output folder. */
  readonly outDir: string;
  /** Where the data comes from (cover and JSON `source`). */
  readonly source: string;
  /** samkit's version. */
  readonly version: string;
  /** The run's clock (default now). */
  readonly now?: Date;
  /** Number and date locale (default en-US). */
  readonly locale?: string;
  /** A shared browser for PDF (started as the run begins, when PDF is asked for). */
  readonly browser?: BrowserHandle;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
  /** Progress. */
  readonly onEvent?: (event: RunEvent) => void;
  /** Called with the document after rendering, while its spooled rows can still be read. */
  readonly inspect?: (document: RenderDocument) => Promise<void>;
  /**
   * A reporting currency: every money column and per-currency money fact gains a converted
   * companion, and the rates used are stated (absent: money stays per currency, unchanged).
   */
  readonly reportingCurrency?: ReportingCurrencyOptions;
  /** Your own look for HTML, PDF and XLSX (`loadTheme` in `lib/render/theme.ts`). */
  readonly theme?: Theme;
}

/** What a run produced. */
export interface RunReportResult {
  /** Absolute paths of the files written. */
  readonly files: string[];
  /** The document the renderers received (sections hold counts and totals). */
  readonly document: RenderDocument;
}

/** Options of {@link checkReportFilter}. */
export interface CheckReportFilterOptions {
  /**
   * Send a field samkit's catalogue does not know, with a warning, instead of refusing it (the
   * `--allow-unknown-fields` flag; a pack report's `allowUnknownFields`). Default false.
   */
  readonly allowUnknownFields?: boolean;
  /** How the user allows unknown fields, named in the error (default the command-line flag). */
  readonly howToAllow?: string;
}

/**
 * Checks a filter against the resource a report filters on before any request: throws the
 * parser's error (with its column), an operator or value error on a known field, or a ParamError
 * when the report takes no filter. A field samkit's catalogue does not know is a
 * FilterFieldError naming the column and close matches (`vndor` → `vendor`), unless
 * `allowUnknownFields` is set; a field the real service has but samkit does not type (License
 * `upgrades`), or any unknown field when allowed, is returned as a warning and left for the
 * server to judge (the client reports it again as a `filterWarning` event when it sends it).
 *
 * @example
 * ```ts
 * import { checkReportFilter } from "./runner.ts";
 * checkReportFilter({ id: "x", filterResource: "Computer" }, "status -eq Active"); // []
 * try {
 *   checkReportFilter({ id: "x", filterResource: "License" }, "vndor -eq Adobe");
 * } catch (e) {
 *   console.log((e as Error).message); // filter error at column 1: … did you mean "vendor"? …
 * }
 * const [warning] = checkReportFilter({ id: "x", filterResource: "Computer" }, "rackUnit -eq 4", {
 *   allowUnknownFields: true,
 * });
 * console.log(warning?.field); // "rackUnit"
 * ```
 */
export function checkReportFilter(
  definition: Pick<ReportDefinition, "id" | "filterResource">,
  filter: string,
  options: CheckReportFilterOptions = {},
): FilterFieldWarning[] {
  if (!definition.filterResource) {
    throw new ParamError("filter", `report ${definition.id} does not take a filter`);
  }
  const resource = RESOURCES[definition.filterResource as ResourceName];
  const node = parseFilter(filter);
  try {
    return validateFilter(node, resource, {
      unknownFields: options.allowUnknownFields ? "warn" : "error",
      untypedFields: "warn",
    });
  } catch (e) {
    if (!(e instanceof FilterFieldError)) throw e;
    const how = options.howToAllow ?? "--allow-unknown-fields";
    throw new FilterFieldError({
      field: e.field,
      resource: resource.name,
      suggestions: [...e.suggestions],
      ...(e.column === undefined ? {} : { column: e.column }),
      advice: `if the service has a field samkit does not know, ${how} sends it anyway`,
      source: filter,
    });
  }
}

/**
 * How many times a report's data is read when a streamed collection's pages do not add up (the
 * first read and two re-reads); a collection that still does not add up fails the report.
 *
 * @example
 * ```ts
 * import { REPORT_READS } from "./runner.ts";
 * console.log(REPORT_READS); // 3
 * ```
 */
export const REPORT_READS = 3;

/**
 * The one line a caller prints for a `reread` event (a note, not an error: the report goes on).
 *
 * @example
 * ```ts
 * import { rereadNote } from "./runner.ts";
 * console.log(rereadNote({ type: "reread", report: "stale-computers", attempt: 2, reason: "page 3 short" }));
 * // "stale-computers: page 3 short; reading the report's data again (read 2 of 3)"
 * ```
 */
export function rereadNote(event: Extract<RunEvent, { type: "reread" }>): string {
  return `${event.report}: ${event.reason}; reading the report's data again (read ${event.attempt} of ${REPORT_READS})`;
}

/**
 * The report's data read and its sections spooled, read again from the start (into a fresh
 * spool folder) when a collection streamed by the report turns out inconsistent — a page lost
 * or repeated by a change between two page reads — at most {@link REPORT_READS} times.
 */
async function readAndSpool(
  options: RunReportOptions,
  ctx: ReportContext,
  spoolRoot: string,
): Promise<
  { summary: readonly Fact[]; sections: RenderSection[]; fx?: FxConverter; source?: string }
> {
  const { definition, signal } = options;
  for (let attempt = 1;; attempt++) {
    const dir = `${spoolRoot}/read-${attempt}`;
    await Deno.mkdir(dir);
    try {
      const fx = options.reportingCurrency &&
        new FxConverter(options.reportingCurrency, ctx.now);
      // A report that sums amounts converts each where it is first stated (see the model).
      const raw = await definition.data(fx ? { ...ctx, reportingCurrency: fx } : ctx);
      checkSections(definition.id, raw.sections);
      const data = fx ? inReportingCurrency(raw, fx) : raw;
      const facts = new FactsCollector(data.facts ?? [], data.sections);
      const sections: RenderSection[] = [];
      for (const section of data.sections) {
        signal?.throwIfAborted();
        const spooled = await spoolSection(facts.tap(section), { dir, signal });
        options.onEvent?.({
          type: "spooled",
          report: definition.id,
          section: section.id,
          rows: spooled.rowCount,
        });
        sections.push(spooled);
      }
      const summary = [...facts.facts(), ...data.summary?.() ?? []];
      return { summary, sections, fx, ...(raw.source ? { source: raw.source } : {}) };
    } catch (error) {
      if (!(error instanceof PagingIntegrityError) || attempt >= REPORT_READS) throw error;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      options.onEvent?.({
        type: "reread",
        report: definition.id,
        attempt: attempt + 1,
        reason: error.message,
      });
    }
  }
}

/**
 * Runs one report into `outDir` in every format asked for.
 *
 * @example
 * ```ts
 * import { runReport } from "./runner.ts";
 * import { defineReport } from "./model.ts";
 * import { createQueryContext } from "../query/context.ts";
 * import { createRenderers } from "../render/registry.ts";
 * const hello = defineReport({
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
 *   version: "0.1.0",
 * });
 * console.log(files.map((f) => f.slice(outDir.length + 1))); // ["hello.json", "hello-main.csv"]
 * await Deno.remove(outDir, { recursive: true });
 * ```
 */
export async function runReport(options: RunReportOptions): Promise<RunReportResult> {
  const { definition, signal } = options;
  // The caller applied its unknown-field policy to its input; here the server judges them.
  if (options.filter) checkReportFilter(definition, options.filter, { allowUnknownFields: true });
  for (const format of options.formats) {
    if (!options.renderers[format]) throw new ParamError("format", `no renderer for "${format}"`);
  }
  // A folder created here goes again, while empty, if the run fails before its first file.
  await using _out = await ensureWritableDir(options.outDir);
  const now = options.now ?? new Date();
  const spoolDir = await makeOwnedTempDir({ prefix: "samkit-spool-" });
  try {
    // Chrome starts while the data is read: it is up by the time the PDF is printed.
    if (options.formats.includes("pdf")) options.browser?.start();
    options.onEvent?.({ type: "fetch", report: definition.id });
    const ctx: ReportContext = {
      client: options.client,
      query: options.query,
      params: options.params,
      filter: options.filter,
      signal: signal ?? new AbortController().signal,
      now,
    };
    const { summary, sections, fx, source } = await readAndSpool(options, ctx, spoolDir);
    const document: RenderDocument = {
      report: {
        id: definition.id,
        title: definition.title,
        description: definition.description,
        landscape: definition.landscape,
      },
      generatedAt: now,
      // A report over run history names the sources its runs read (and demo data) itself.
      source: source ?? options.source,
      params: options.params,
      scope: await labelledScope(reportScope(definition, options.params, options.filter), {
        client: options.client,
        query: options.query,
      }),
      summary,
      sections,
      version: options.version,
      ...(fx ? { reportingCurrency: { code: fx.code, rates: fx.used() } } : {}),
    };
    const files: string[] = [];
    // The PDF is printed last, so that it can name the file holding a long section's full list.
    const order: Format[] = options.formats.filter((f) => f !== "pdf");
    if (options.formats.includes("pdf")) order.push("pdf");
    for (const format of order) {
      signal?.throwIfAborted();
      options.onEvent?.({ type: "render", report: definition.id, format });
      const written = await options.renderers[format]!.render(document, {
        outDir: options.outDir,
        locale: options.locale,
        signal,
        browser: options.browser,
        written: files,
        ...(options.theme ? { theme: options.theme } : {}),
      });
      for (const path of written) {
        options.onEvent?.({ type: "written", report: definition.id, path });
        files.push(path);
      }
    }
    await options.inspect?.(document);
    return { files, document };
  } finally {
    await Deno.remove(spoolDir, { recursive: true }).catch(() => {});
  }
}
