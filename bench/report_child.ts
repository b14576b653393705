/**
 * One report run in a process of its own, so its peak RSS and CPU time are the report's alone
 * (the reference server lives in the parent): reads the report from a server, writes the formats
 * asked for, then prints one line of JSON on stdout: `{ id, wallMs, cpuMs, peakRssMb, rows }`.
 * With `--phases`, also prints the RSS and heap after each step of the run on stderr.
 *
 * Usage: `deno run -P=bench bench/report_child.ts --base-url URL --report ID
 * [--formats json,csv,xlsx] [--phases]`.
 *
 * @module
 */

import process from "node:process";
import { parseArgs } from "node:util";
import { createClient } from "../lib/api/client.ts";
import { createQueryContext } from "../lib/query/context.ts";
import { createRenderers } from "../lib/render/registry.ts";
import type { Format } from "../lib/render/renderer.ts";
import { resolveParams } from "../lib/report/params.ts";
import { runReport } from "../lib/report/runner.ts";
import { API_REPORTS } from "../reports/mod.ts";

/** What one run measured. */
export interface ChildFigures {
  /** The report's id. */
  readonly id: string;
  /** Wall-clock milliseconds of the run. */
  readonly wallMs: number;
  /** User + system CPU milliseconds of the whole process. */
  readonly cpuMs: number;
  /** The process's peak resident set size in MB. */
  readonly peakRssMb: number;
  /** Rows spooled, summed over the sections. */
  readonly rows: number;
}

const MB = 1024 * 1024;

/** Phase lines on stderr: the step, RSS and V8 heap in MB. */
function phaseLine(step: string): void {
  // With `--v8-flags=--expose-gc`, the heap figure is what is live, not what awaits collection.
  (globalThis as { gc?: () => void }).gc?.();
  const m = Deno.memoryUsage();
  console.error(
    `  ${step.padEnd(40)} rss ${(m.rss / MB).toFixed(0).padStart(5)} MB  ` +
      `heap ${(m.heapUsed / MB).toFixed(0).padStart(5)} MB`,
  );
}

/**
 * This process's peak resident set size, in MB. On Linux getrusage's `maxRSS` of a process
 * started by a large one (the bench, holding its estate server) keeps that parent's size across
 * fork and exec, so it only tells the child's own peak once the child grew past it; below that,
 * the peak of the RSS sampled every 20 ms stands in (the heap grows gradually, so a peak between
 * two samples differs by a few MB at most).
 */
class PeakRss {
  #inherited = process.resourceUsage().maxRSS;
  #sampled = Deno.memoryUsage().rss;
  #timer = setInterval(() => this.#sample(), 20);

  #sample(): void {
    this.#sampled = Math.max(this.#sampled, Deno.memoryUsage().rss);
  }

  /** Stops sampling; the peak in MB. */
  stop(): number {
    clearInterval(this.#timer);
    this.#sample();
    const maxRss = process.resourceUsage().maxRSS;
    return maxRss > this.#inherited ? maxRss / 1024 : this.#sampled / (1024 * 1024);
  }
}

/**
 * Runs one report against a server and returns its figures.
 *
 * @example
 * ```ts ignore
 * import { runChild } from "./report_child.ts";
 * const figures = await runChild({ baseUrl: "http://127.0.0.1:8787", report: "stale-computers" });
 * console.log(figures.peakRssMb);
 * ```
 */
export async function runChild(
  options: {
    baseUrl: string;
    report: string;
    formats?: readonly Format[];
    outDir?: string;
    phases?: boolean;
  },
): Promise<ChildFigures> {
  const definition = API_REPORTS.find((r) => r.id === options.report);
  if (!definition) throw new Error(`unknown report "${options.report}"`);
  const formats = options.formats ?? ["json", "csv", "xlsx"];
  const all = createRenderers();
  const outDir = options.outDir ??
    await Deno.makeTempDir({ prefix: "samkit-bench-child-" });
  let rows = 0;
  const peak = new PeakRss();
  const start = performance.now();
  await runReport({
    definition,
    client: createClient({
      baseUrl: options.baseUrl,
      clientId: "demo",
      clientSecret: "demo-secret",
    }),
    query: createQueryContext(),
    params: resolveParams(definition, {}),
    formats,
    renderers: Object.fromEntries(formats.map((f) => [f, all[f]])),
    outDir,
    source: "bench",
    version: "bench",
    onEvent: (event) => {
      if (event.type === "spooled") rows += event.rows;
      if (options.phases) {
        phaseLine(
          event.type === "spooled"
            ? `spooled ${event.section} (${event.rows})`
            : event.type === "render"
            ? `render ${event.format}`
            : event.type,
        );
      }
    },
  });
  const wallMs = performance.now() - start;
  if (!options.outDir) await Deno.remove(outDir, { recursive: true });
  const usage = process.resourceUsage();
  return {
    id: definition.id,
    wallMs,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    peakRssMb: peak.stop(),
    rows,
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "base-url": { type: "string" },
      report: { type: "string" },
      formats: { type: "string" },
      out: { type: "string" },
      phases: { type: "boolean" },
    },
  });
  if (!values["base-url"] || !values.report) {
    console.error("usage: report_child.ts --base-url URL --report ID [--formats LIST] [--phases]");
    Deno.exit(2);
  }
  const figures = await runChild({
    baseUrl: values["base-url"],
    report: values.report,
    formats: values.formats?.split(",") as Format[] | undefined,
    outDir: values.out,
    phases: values.phases,
  });
  console.log(JSON.stringify(figures));
}
