/**
 * Re-rendering a run from its snapshot to check its report files: every report that succeeded is
 * rendered again from `snapshot.sqlite` — with the code path of `report --from-snapshot`: the
 * snapshot's clock and source, the manifest's parameters, filter and formats, the run's
 * reporting-currency rates (from `summary.json`) — into a temp folder, never the run folder, and
 * each of its files compared with the run's: byte for byte, and an XLSX part by part (the zip
 * records the time each part was written; every part's bytes must be the same). This catches a
 * report file changed together with its checksum in an unsigned manifest.
 *
 * @module
 */

import { join, relative } from "node:path";
import type { Manifest, ManifestReport } from "./manifest.ts";
import { zipPartsDiffer } from "./zip_parts.ts";
import { openSnapshotSource } from "../cli/source.ts";
import { runReport } from "../report/runner.ts";
import type { ReportDefinition } from "../report/model.ts";
import { loadReport, reportModuleOf } from "../report/load_report.ts";
import { resolveParams } from "../report/params.ts";
import { createQueryContext } from "../query/context.ts";
import { createRenderers } from "../render/registry.ts";
import { launchBrowser } from "../render/browser.ts";
import type { Theme } from "../render/theme.ts";
import { parseFxRates } from "../sam/fx_rates.ts";
import type { ReportingCurrencyOptions } from "../sam/reporting_currency.ts";
import type { RunRates } from "./summary_rates.ts";
import { makeOwnedTempDir } from "../fs/owned_temp.ts";
import { VERSION } from "../version.ts";

/** A file of the run that the re-render does not confirm. */
export interface RerenderFinding {
  /** The file, relative to the run folder. */
  readonly file: string;
  /** `re-render differs` or `cannot re-render`. */
  readonly problem: "re-render differs" | "cannot re-render";
  /** Why, for a person. */
  readonly detail: string;
}

/** What a re-render found. */
export interface RerenderResult {
  /** Files that are not confirmed, with why. */
  readonly findings: readonly RerenderFinding[];
  /** Files re-rendered byte-identical. */
  readonly identical: number;
  /** XLSX files whose every part is identical (the zip's file times aside). */
  readonly sameParts: number;
  /** Listed files no report that succeeded wrote (summary, snapshot): not re-rendered. */
  readonly notReports: readonly string[];
}

/** Options of {@link rerenderRun}. */
export interface RerenderRunOptions {
  /** The run's manifest (already checked against the folder). */
  readonly manifest: Manifest;
  /** The bytes of its `snapshot.sqlite` (already checked against the manifest). */
  readonly snapshot: Uint8Array;
  /** The run's reporting-currency rates (`summary.json`'s `reportingCurrency`), if any. */
  readonly rates?: RunRates;
  /** The report catalogue. */
  readonly reports: readonly ReportDefinition[];
  /** The theme the run was made with, if any. */
  readonly theme?: Theme;
  /** Reads a file of the run folder (relative path) as a regular file inside it. */
  readonly readRunFile: (rel: string) => Promise<Uint8Array>;
}

/**
 * A run's reporting currency rebuilt from the rates it used (as the rates file wrote them, each
 * with its day): converting with these picks the very rates the run picked.
 *
 * @example
 * ```ts
 * import { ratesOptions } from "./rerender_run.ts";
 * const fx = ratesOptions({
 *   code: "EUR",
 *   rates: [
 *     { currency: "EUR", rate: "1", date: null },
 *     { currency: "USD", rate: "1.08345", date: "2026-01-15" },
 *   ],
 *   source: "rates.csv",
 *   statement: "1 EUR = 1.08345 USD (rates of 2026-01-15, rates.csv)",
 * });
 * console.log(fx.rates.map((r) => r.text)); // ["1.08345"]
 * ```
 */
export function ratesOptions(rates: RunRates): ReportingCurrencyOptions {
  const lines = rates.rates.filter((r) => r.date !== null).map((r) =>
    `${r.date},${r.currency},${r.rate}`
  );
  const text = ["date,currency,rate", ...lines].join("\n") + "\n";
  return { code: rates.code, rates: parseFxRates(text, rates.source), source: rates.source };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Why a re-rendered file is not the run's, or null when it is; `xlsx` when only by parts. */
async function difference(
  rel: string,
  original: Uint8Array,
  again: Uint8Array,
): Promise<string | null | "parts"> {
  if (sameBytes(original, again)) return null;
  if (rel.toLowerCase().endsWith(".xlsx")) {
    try {
      const why = await zipPartsDiffer(original, again);
      return why === null ? "parts" : why;
    } catch (e) {
      return (e as Error).message;
    }
  }
  return original.length === again.length
    ? `the same size (${original.length} bytes), other bytes`
    : `${original.length} bytes in the run, ${again.length} re-rendered`;
}

interface Tally {
  findings: RerenderFinding[];
  identical: number;
  sameParts: number;
  notReports: string[];
}

/** Compares one report's files with what its re-render wrote into `out`. */
async function compareReport(
  report: ManifestReport,
  out: string,
  written: readonly string[],
  options: RerenderRunOptions,
  tally: Tally,
): Promise<void> {
  const produced = new Set(written.map((path) => relative(out, path)));
  for (const rel of report.files) {
    if (!produced.has(rel)) {
      tally.findings.push({
        file: rel,
        problem: "re-render differs",
        detail: `the re-render of ${report.id} writes no such file`,
      });
      continue;
    }
    produced.delete(rel);
    const why = await difference(
      rel,
      await options.readRunFile(rel),
      await Deno.readFile(join(out, rel)),
    );
    if (why === null) tally.identical++;
    else if (why === "parts") tally.sameParts++;
    else tally.findings.push({ file: rel, problem: "re-render differs", detail: why });
  }
  for (const rel of produced) {
    tally.findings.push({
      file: rel,
      problem: "re-render differs",
      detail: `the re-render of ${report.id} also writes it; the run does not have it`,
    });
  }
}

/**
 * The definition that re-renders a report of the run, or why there is none: a user's module is
 * loaded from the path its manifest entry records (from the working folder, as the run did) and
 * must be the code the run loaded, byte for byte.
 */
async function definitionOf(
  report: ManifestReport,
  reports: readonly ReportDefinition[],
): Promise<ReportDefinition | string> {
  if (!report.module) {
    return reports.find((r) => r.id === report.id) ??
      `${report.id} is not one of samkit's reports`;
  }
  const { path, sha256 } = report.module;
  let definition: ReportDefinition;
  try {
    definition = await loadReport(`./${path}`);
  } catch (e) {
    return `${report.id}: its module ${path} does not load here (${(e as Error).message}); ` +
      "run verify from the folder the pack ran in";
  }
  const now = reportModuleOf(definition)?.sha256;
  if (now !== sha256) {
    return `${report.id}: ${path} has changed since the run (SHA-256 ${sha256.slice(0, 12)}… ` +
      `then, ${now?.slice(0, 12) ?? "none"}… now); restore the module as the run had it (from ` +
      "version control) to re-render this run";
  }
  if (definition.id !== report.id) {
    return `${path} now defines "${definition.id}", not ${report.id}`;
  }
  return definition;
}

function cannot(report: ManifestReport, detail: string): RerenderFinding[] {
  const files = report.files.length ? report.files : [`(${report.id})`];
  return files.map((file) => ({ file, problem: "cannot re-render" as const, detail }));
}

/**
 * Re-renders every report of a run that succeeded from its snapshot into a temp folder and
 * compares its files with the run's; the temp folder is removed after.
 *
 * @example
 * ```ts ignore
 * import { rerenderRun } from "./rerender_run.ts";
 * import { REPORTS } from "../../reports/mod.ts";
 * const result = await rerenderRun({ manifest, snapshot, reports: REPORTS, readRunFile });
 * console.log(result.findings); // [] when every report file re-renders the same
 * ```
 */
export async function rerenderRun(options: RerenderRunOptions): Promise<RerenderResult> {
  const ok = options.manifest.reports.filter((r) => r.status === "ok");
  const reportFiles = new Set(ok.flatMap((r) => r.files));
  const notReports = options.manifest.files.map((f) => f.path).filter((p) => !reportFiles.has(p));
  const tally: Tally = { findings: [], identical: 0, sameParts: 0, notReports };
  const temp = await makeOwnedTempDir({ prefix: "samkit-verify-" });
  const snapshotPath = join(temp, "snapshot.sqlite");
  await Deno.writeFile(snapshotPath, options.snapshot);
  const api = openSnapshotSource(snapshotPath);
  const browser = ok.some((r) => r.formats.includes("pdf")) ? launchBrowser() : undefined;
  try {
    const fx = options.rates ? ratesOptions(options.rates) : undefined;
    const renderers = createRenderers();
    const query = createQueryContext();
    for (const [i, report] of ok.entries()) {
      const found = await definitionOf(report, options.reports);
      if (typeof found === "string") {
        tally.findings.push(...cannot(report, found));
        continue;
      }
      const definition = found;
      const out = join(temp, `report-${i}`);
      await Deno.mkdir(out);
      let written: string[];
      try {
        ({ files: written } = await runReport({
          definition,
          client: api.client,
          query,
          params: resolveParams(definition, report.params),
          filter: report.filter,
          formats: report.formats as Parameters<typeof runReport>[0]["formats"],
          renderers,
          outDir: out,
          source: api.source,
          version: VERSION,
          now: api.generatedAt,
          browser,
          reportingCurrency: fx,
          theme: options.theme,
        }));
      } catch (e) {
        tally.findings.push(...cannot(report, `${report.id}: ${(e as Error).message}`));
        continue;
      }
      await compareReport(report, out, written, options, tally);
    }
  } finally {
    await browser?.close();
    await api.close();
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
  return tally;
}
