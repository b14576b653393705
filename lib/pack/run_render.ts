/**
 * The render phase of a pack run: every report once, in pack order, into the staging folder;
 * each report's finished files are moved into the run folder and listed in the manifest as soon
 * as it ends. A report that fails does not stop the others; cancelling stops the run between or
 * inside reports. What the summary needs (figures, exposure, rates) is collected on the way.
 *
 * @module
 */

import type { PackFile, PackReport } from "./pack_file.ts";
import type { StagedRun } from "./run_stage.ts";
import { collectExposure, type Exposure } from "./risks.ts";
import { collectFigures, type Figure } from "./figures.ts";
import { addReportRates, type RunRates } from "./summary_rates.ts";
import type { ReportDefinition } from "../report/model.ts";
import type { ReportingCurrencyOptions } from "../sam/reporting_currency.ts";
import { rereadNote, runReport } from "../report/runner.ts";
import { createRenderers } from "../render/registry.ts";
import type { BrowserHandle } from "../render/browser.ts";
import type { Theme } from "../render/theme.ts";
import { redact } from "../api/redact.ts";
import { VERSION } from "../version.ts";

/** Options of {@link renderReports}. */
export interface RenderReportsOptions {
  /** The validated pack. */
  readonly pack: PackFile;
  /** The report catalogue. */
  readonly reports: readonly ReportDefinition[];
  /** The staged run. */
  readonly staged: StagedRun;
  /** Where reports are rendered (the evidence folder's staging folder). */
  readonly outDir: string;
  /** The run's browser. */
  readonly browser: BrowserHandle;
  /** When the run started (every report's "as of"). */
  readonly started: Date;
  /** The reporting currency, if any. */
  readonly fx?: ReportingCurrencyOptions;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
  /** Log lines. */
  readonly log: (line: string) => void;
  /** Your own look (default samkit's). */
  readonly theme?: Theme;
}

/** What the render phase collected for the summary. */
export interface RenderedReports {
  /** The figures of every report that succeeded. */
  readonly figures: readonly Figure[];
  /** The license position's exposure (empty without it). */
  readonly exposure: Exposure;
  /** The amounts converted to the reporting currency, if any. */
  readonly rates: RunRates | null;
  /** Whether the run was cancelled before every report was tried. */
  readonly interrupted: boolean;
}

/** The summary's inputs, filled as each report's document is inspected. */
interface Collected {
  figures: Figure[];
  exposure: Exposure;
  rates: RunRates | null;
}

/** Runs one report into the staging folder, collecting its figures, exposure and rates. */
async function renderOne(
  options: RenderReportsOptions,
  item: PackReport,
  renderers: ReturnType<typeof createRenderers>,
  collected: Collected,
): Promise<void> {
  const { pack, staged, fx } = options;
  const definition = options.reports.find((r) => r.id === item.id)!;
  await runReport({
    definition,
    client: staged.api.client,
    query: staged.query,
    params: item.params,
    filter: item.filter,
    formats: item.formats,
    renderers,
    outDir: options.outDir,
    source: staged.ledger.source,
    version: VERSION,
    now: options.started,
    browser: options.browser,
    signal: options.signal,
    reportingCurrency: fx,
    theme: options.theme,
    onEvent: (e) => {
      if (e.type === "reread") options.log(`${pack.name}: note: ${rereadNote(e)}`);
    },
    inspect: async (doc) => {
      collected.figures.push(...await collectFigures(definition, doc));
      collected.rates = addReportRates(collected.rates, doc, fx?.source ?? "");
      if (definition.id === "license-position") {
        collected.exposure = await collectExposure(definition.id, doc);
      }
    },
  });
}

/**
 * Renders every report of the pack, settling each in the run's manifest as `ok` or `failed`
 * (with its redacted error); stops at cancellation.
 *
 * @example
 * ```ts ignore
 * import { renderReports } from "./run_render.ts";
 * const rendered = await renderReports({ pack, reports: REPORTS, staged, outDir, browser, started, log });
 * console.log(rendered.interrupted, rendered.figures.length);
 * ```
 */
export async function renderReports(options: RenderReportsOptions): Promise<RenderedReports> {
  const { pack, staged: { ledger }, signal, log } = options;
  const renderers = createRenderers();
  const collected: Collected = { figures: [], exposure: { risks: {}, unpriced: [] }, rates: null };
  for (const [i, item] of pack.reports.entries()) {
    if (signal?.aborted) return { ...collected, interrupted: true };
    log(`${pack.name}: ${item.id} …`);
    try {
      await renderOne(options, item, renderers, collected);
      const files = await ledger.settle(i, { status: "ok" });
      log(`${pack.name}: ${item.id} done (${files.length} files)`);
    } catch (e) {
      if (signal?.aborted) return { ...collected, interrupted: true };
      const error = redact((e as Error).message ?? String(e));
      // Files a failed report finished before failing are kept, listed under it.
      await ledger.settle(i, { status: "failed", error });
      log(`${pack.name}: ${item.id} failed: ${error}`);
    }
  }
  return { ...collected, interrupted: false };
}
