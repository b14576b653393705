/**
 * `samkit report <id | module path>`: run one report — a built-in one by id, or a report module
 * of the user's project by path, loaded the same way — into an output folder in the formats
 * asked for.
 *
 * @module
 */

import {
  checkLength,
  intFlag,
  MAX_FILTER_CHARS,
  maxConcurrencyFlag,
  parseArgs,
  stringFlag,
} from "./args.ts";
import { UsageError } from "./usage_error.ts";
import {
  assertTenantAddress,
  historySource,
  openSnapshotSource,
  openSource,
  pageSizeFlag,
  retriesFlag,
  type SourceOptions,
  tokenFlag,
  tuningHelp,
} from "./source.ts";
import { clientEvents, counted, Progress } from "./progress.ts";
import { reportError } from "./errors.ts";
import { clip, printErr, printOut } from "./terminal_text.ts";
import { explainReportError, loadReport, reportModuleOf } from "../report/load_report.ts";
import {
  checkDeclaredSections,
  type DeclaredSectionsOptions,
} from "../report/declared_sections.ts";
import type { ReportDefinition } from "../report/model.ts";
import { parseParamFlags, resolveParams } from "../report/params.ts";
import { checkReportFilter, rereadNote, runReport } from "../report/runner.ts";
import { ensureWritableDir } from "../report/output_dir.ts";
import { cleanStaleTemp } from "../fs/owned_temp.ts";
import { backOffOnPressure, createQueryContext } from "../query/context.ts";
import { type Format, FORMATS } from "../render/renderer.ts";
import { createRenderers } from "../render/registry.ts";
import { DEFAULT_PDF_DETAIL_ROWS } from "../render/pdf_detail.ts";
import { launchBrowser } from "../render/browser.ts";
import { CsvRenderer } from "../render/csv.ts";
import { VERSION } from "../version.ts";
import { reportingCurrencyOf } from "../sam/reporting_currency_flags.ts";
import { themeFlag } from "./theme_flag.ts";

/** The help text of `samkit report`. */
export const REPORT_HELP = `Usage: deno task report <report-id | ./path/to/report.ts> [options]

Runs one report and writes it in each format asked for: a built-in report by id (see: deno task
reports), or a report module of your project by path (a .ts file whose default export is made
with defineReport; see: deno task init). A module that does not load, exports no definition or
declares a bad column exits 2 naming its file and line, before any request.

Options:
  --format LIST      Formats, comma-separated: ${FORMATS.join(",")} (default: all)
  --out DIR          Output folder (default: ./out)
  --param KEY=VALUE  A report parameter; repeat for several (see: deno task reports)
  --filter EXPR      Filter on the report's main collection, e.g. "status -eq Active"
                     (at most ${MAX_FILTER_CHARS} characters); a field samkit does not
                     know is refused with the closest names, before any request
  --allow-unknown-fields  Send a filter field samkit does not know (one the service has
                     but samkit does not model) with a warning, instead of refusing it
  --base-url URL     The SAM API (else SAM_BASE_URL or SAM_REGION; none: the embedded demo
                     server, whose outputs say "demo data", for runs without credentials only)
  --token TOKEN      A bearer token (else SAM_TOKEN, or SAM_CLIENT_ID + SAM_CLIENT_SECRET)
  --tenant           Never the demo server: no API address is bad usage (report:tenant passes it)
  --registry-prefix P  The registry's path: software-registry (the public service),
                     softwareregistry (the spec) or a whole path; else SAM_REGISTRY_PREFIX;
                     neither: tried in that order on the first registry read, the one that
                     answers kept (--verbose says which)
  --locale TAG       Number and date formats, e.g. en-GB (default en-US)
  --computers N      Size of the embedded demo estate (default 400)
  --seed N           Seed of the embedded demo estate (default 1)
  --from-snapshot F  Re-render from a pack's snapshot.sqlite instead of the API (no network);
                     parameters and filter default to the ones the snapshot was made with
  --csv-formulas     Write CSV text that starts with = + - @ (a formula to a spreadsheet) as
                     it is; by default such text gets a leading ' so it opens as text
  --csv-bom=false    CSV without the UTF-8 byte order mark (for machines; by default it is
                     there, so a spreadsheet program reads the text as UTF-8)
  --pdf-rows N       The most rows a PDF prints of one section (default ${DEFAULT_PDF_DETAIL_ROWS};
                     0: every row); a longer section prints the N that matter most (flagged
                     rows, then the largest by money), says which, and names the file with
                     the full list and its SHA-256. XLSX, CSV, JSON and HTML keep every row
  --reporting-currency CUR  Also show every amount converted to CUR (e.g. EUR), beside the
                     original; needs --fx-rates
  --fx-rates FILE    CSV date,currency,rate: units of each currency per 1 CUR, as central
                     banks publish them; the latest rate on or before the run's day is used,
                     and a currency without one is an error naming it
  --theme FILE       Your own look for HTML, PDF and XLSX: a theme file (company, logo,
                     colours, font, footer text, a folder of templates); a bad one exits 2
                     naming its file and line, before any request
  --max-concurrency N  The most API calls in flight (default 64); the limit starts
                     lower and adapts to the service's latency and 429/503 answers
${tuningHelp(21)}
  --quiet            No progress on stderr
  --verbose          Say on stderr which registry path is in use and how many requests were made
  -h, --help         This help

Exit codes: 0 done, 1 failure, 2 bad usage or bad input (nothing is written).`;

/**
 * Parses a `--format` list; an unknown format is a usage error naming it.
 *
 * @example
 * ```ts
 * import { parseFormats } from "./report_command.ts";
 * console.log(parseFormats("pdf,json")); // ["pdf", "json"]
 * ```
 */
/**
 * The `--csv-bom` flag: `true` (the default when absent) or `false`.
 *
 * @example
 * ```ts
 * import { csvBomFlag } from "./report_command.ts";
 * console.log(csvBomFlag(undefined), csvBomFlag("false")); // true false
 * ```
 */
export function csvBomFlag(text: string | undefined): boolean {
  if (text === undefined || text === "true") return true;
  if (text === "false") return false;
  throw new UsageError(`--csv-bom must be true or false; got "${clip(text)}"`);
}

export function parseFormats(text: string | undefined): Format[] {
  if (!text) return [...FORMATS];
  const formats = text.split(",").map((f) => f.trim().toLowerCase()).filter(Boolean);
  for (const f of formats) {
    if (!FORMATS.includes(f as Format)) {
      throw new UsageError(`unknown format "${clip(f)}"; formats are ${FORMATS.join(", ")}`);
    }
  }
  if (!formats.length) throw new UsageError("--format needs at least one format");
  return [...new Set(formats)] as Format[];
}

/**
 * A bad section or column of a user's report module as its file and line (bad input, exit 2);
 * an error of samkit's own reports as it is.
 */
async function explained(definition: ReportDefinition, error: unknown): Promise<unknown> {
  return reportModuleOf(definition)?.builtIn === false
    ? await explainReportError(definition, error)
    : error;
}

/** The sections the report declares before reading, checked before any request. */
async function declaredSectionsChecked(
  definition: ReportDefinition,
  options: DeclaredSectionsOptions,
): Promise<void> {
  try {
    await checkDeclaredSections(definition, options);
  } catch (error) {
    throw await explained(definition, error);
  }
}

/**
 * Runs `samkit report` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { reportCommand } from "./report_command.ts";
 * Deno.exit(await reportCommand(["license-cost-summary", "--format", "json"]));
 * ```
 */
export async function reportCommand(argv: readonly string[]): Promise<number> {
  let quiet = false;
  try {
    const { values, positionals } = parseArgs(argv, {
      format: { type: "string" },
      out: { type: "string" },
      param: { type: "string", multiple: true },
      filter: { type: "string" },
      "allow-unknown-fields": { type: "boolean" },
      "base-url": { type: "string" },
      token: { type: "string" },
      tenant: { type: "boolean" },
      "registry-prefix": { type: "string" },
      verbose: { type: "boolean" },
      locale: { type: "string" },
      computers: { type: "string" },
      seed: { type: "string" },
      quiet: { type: "boolean" },
      "max-concurrency": { type: "string" },
      "page-size": { type: "string" },
      retries: { type: "string" },
      "pdf-rows": { type: "string" },
      "csv-formulas": { type: "boolean" },
      "csv-bom": { type: "string" },
      "from-snapshot": { type: "string" },
      "reporting-currency": { type: "string" },
      "fx-rates": { type: "string" },
      theme: { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) {
      console.log(REPORT_HELP);
      return 0;
    }
    quiet = values.quiet === true;
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length
          ? `expected one report id or module path, got ${clip(positionals.join(" "))}`
          : "which report? a report id (see: deno task reports) or a module path",
      );
    }
    // Every input is checked before the first request, so bad input writes nothing.
    const givenFilter = stringFlag(values, "filter");
    if (givenFilter !== undefined) checkLength("filter", givenFilter, MAX_FILTER_CHARS);
    const definition = await loadReport(positionals[0]);
    const snapshotPath = stringFlag(values, "from-snapshot");
    const readsApi = snapshotPath === undefined && definition.reads !== "history";
    const source: SourceOptions = {
      baseUrl: stringFlag(values, "base-url"),
      token: tokenFlag(stringFlag(values, "token")),
      tenant: values.tenant === true,
      registryPrefix: stringFlag(values, "registry-prefix"),
      pageSize: pageSizeFlag(values),
      retries: retriesFlag(values),
    };
    // A tenant run without an address stops here: nothing written, nothing requested.
    if (readsApi) assertTenantAddress(source);
    const snapshot = snapshotPath
      ? openSnapshotSource(snapshotPath, { pageSize: source.pageSize })
      : undefined;
    const given = parseParamFlags((values.param as string[]) ?? []);
    const params = resolveParams(definition, {
      ...(snapshot?.meta.params?.[definition.id] ?? {}),
      ...given,
    });
    const filter = givenFilter ?? snapshot?.meta.filters?.[definition.id];
    const allowUnknownFields = values["allow-unknown-fields"] === true;
    if (filter !== undefined) checkReportFilter(definition, filter, { allowUnknownFields });
    await declaredSectionsChecked(definition, { params, filter, now: snapshot?.generatedAt });
    const formats = parseFormats(stringFlag(values, "format"));
    const outDir = stringFlag(values, "out") ?? "./out";
    const computers = intFlag(values, "computers", 400, { min: 0, max: 1_000_000 });
    const seed = intFlag(values, "seed", 1);
    const pdfDetailRows = intFlag(values, "pdf-rows", DEFAULT_PDF_DETAIL_ROWS, { min: 0 });
    const locale = stringFlag(values, "locale");
    if (locale) {
      try {
        new Intl.NumberFormat(locale);
      } catch {
        throw new UsageError(`unknown locale "${clip(locale)}"`);
      }
    }
    const reportingCurrency = await reportingCurrencyOf({
      code: stringFlag(values, "reporting-currency"),
      ratesFile: stringFlag(values, "fx-rates"),
    });
    const theme = await themeFlag(stringFlag(values, "theme"));
    // Created now to prove it writable; removed again, while empty, if the run writes nothing.
    await using _out = await ensureWritableDir(outDir);
    await cleanStaleTemp();

    const progress = new Progress({ enabled: quiet ? false : undefined });
    const query = createQueryContext({ maxConcurrency: maxConcurrencyFlag(values) });
    const api = snapshot ?? (definition.reads === "history" ? historySource() : await openSource({
      ...source,
      computers,
      seed,
      onEvent: backOffOnPressure(query.limiter, clientEvents(progress)),
    }));
    const browser = formats.includes("pdf") ? launchBrowser() : undefined;
    try {
      progress.status(
        `${definition.id}: fetching from ${api.embedded ? "the embedded server" : api.source}`,
      );
      const { files } = await runReport({
        definition,
        client: api.client,
        query,
        params,
        filter,
        formats,
        renderers: {
          ...createRenderers({ pdfDetailRows }),
          csv: new CsvRenderer({
            formulas: values["csv-formulas"] === true,
            bom: csvBomFlag(stringFlag(values, "csv-bom")),
          }),
        },
        outDir,
        source: api.source,
        version: VERSION,
        now: snapshot?.generatedAt,
        locale,
        browser,
        reportingCurrency,
        theme,
        onEvent: (e) => {
          if (e.type === "render") progress.status(`${definition.id}: writing ${e.format}`);
          if (e.type === "reread" && !quiet) printErr(`samkit: note: ${rereadNote(e)}`);
          if (e.type === "spooled") {
            progress.status(`${definition.id}: ${e.section} (${counted(e.rows, "row")})`);
          }
        },
      }).catch(async (error) => {
        throw await explained(definition, error);
      });
      progress.done();
      for (const file of files) printOut(file);
      return 0;
    } finally {
      progress.done();
      if (values.verbose === true && definition.reads !== "history") {
        printErr(`samkit: registry: ${api.client.registryPrefix.describe()}`);
        printErr(`samkit: requests: ${api.client.stats.requests}`);
      }
      await browser?.close();
      await api.close();
    }
  } catch (error) {
    return reportError(error);
  }
}
