/**
 * Benchmark of every API report end to end at 5,000, 50,000 and 200,000 computers (or up to
 * `--computers N`): each report runs as `deno task report` runs it (client, queries, runner;
 * JSON, CSV and XLSX written) in a process of its own (`report_child.ts`), so its wall time, CPU
 * time and peak RSS are the report's alone; the reference server runs in this process, one size
 * at a time, over real HTTP. Prints each report's figures per size and the growth from 50,000:
 * time should grow about linearly, and peak RSS stay at most 1,000 MB at 200,000 computers; and
 * unused-software's CPU time against license-position's of the same run (at most 1.8× at
 * 200,000 computers).
 *
 * Usage: `deno run -P=bench bench/report_scaling_bench.ts [--computers N] [report-id …]`.
 *
 * @module
 */

import { reportV8Flags } from "./v8_flags.ts";
import { parseArgs } from "node:util";
import { type RunningServer, startServer } from "../lib/server/server.ts";
import { API_REPORTS } from "../reports/mod.ts";
import { stateGoal } from "./goals.ts";
import type { ChildFigures } from "./report_child.ts";

/** The estate's fixed clock, so every size is reported as of the same day. */
const NOW = new Date("2026-06-30T00:00:00Z");

/** The size growth is measured from. */
const FROM = 50_000;

/** The peak RSS a report may reach at 200,000 computers, in MB. */
const RSS_GOAL_MB = 1_000;

/** unused-software's CPU against license-position's in the same run, at 200,000 computers. */
const UNUSED_GOAL = 1.8;

/** The sizes measured by default. */
export const DEFAULT_SIZES: readonly number[] = [5_000, FROM, 200_000];

/** One report run in a child process against `server`. */
async function runChild(server: RunningServer, report: string): Promise<ChildFigures> {
  const child = new URL("./report_child.ts", import.meta.url).pathname;
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args: [
      "run",
      "-P=bench",
      "--no-prompt",
      ...await reportV8Flags(),
      child,
      "--base-url",
      server.url,
      "--report",
      report,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout).trim().split("\n").at(-1) ?? "";
  if (code !== 0) {
    const error = new TextDecoder().decode(stderr).trim().split("\n").slice(-3).join("; ");
    throw new Error(`report ${report} failed (exit ${code}): ${error}`);
  }
  return JSON.parse(text) as ChildFigures;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (n: number) => `${Math.round(n).toLocaleString("en-US")} MB`;

/** The line of one report at one size, with the growth from {@link FROM} where known. */
function line(size: number, f: ChildFigures, from: ChildFigures | undefined): string {
  const growth = from && size > FROM
    ? `; from ${FROM.toLocaleString("en-US")}: time ×${(f.cpuMs / from.cpuMs).toFixed(1)} ` +
      `(size ×${(size / FROM).toFixed(0)}), RSS ×${(f.peakRssMb / from.peakRssMb).toFixed(1)}`
    : "";
  return `report scaling: ${f.id} at ${size.toLocaleString("en-US")}: wall ${seconds(f.wallMs)}, ` +
    `CPU ${seconds(f.cpuMs)}, peak RSS ${mb(f.peakRssMb)}${growth}`;
}

/** States the goals of one report at one size (linear time; RSS at 200,000 and beyond). */
function judge(size: number, f: ChildFigures, from: ChildFigures | undefined): void {
  if (from && size > FROM) {
    const verdict = stateGoal(
      `${f.id} CPU, ${FROM} -> ${size} computers / linear`,
      (f.cpuMs / from.cpuMs) / (size / FROM),
      "<=",
      1.1,
      { about: true, digits: 2 },
    );
    console.log(`  growth vs linear: ${verdict}`);
  }
  if (size >= 200_000) {
    const scaled = RSS_GOAL_MB * size / 200_000;
    const verdict = stateGoal(
      `${f.id} peak RSS at ${size} computers / ${Math.round(scaled)} MB`,
      f.peakRssMb / scaled,
      "<=",
      1,
    );
    console.log(`  peak RSS vs ${mb(scaled)}: ${verdict}`);
  }
}

/**
 * The line comparing unused-software's CPU time with license-position's at one size (both run
 * against the same server, one after the other), judged against its goal from 200,000
 * computers; `undefined` unless both ran.
 */
function unusedLine(size: number, at: ReadonlyMap<string, ChildFigures>): string | undefined {
  const unused = at.get("unused-software"), position = at.get("license-position");
  if (!unused || !position) return undefined;
  const ratio = unused.cpuMs / position.cpuMs;
  const figures = `unused-software CPU ${seconds(unused.cpuMs)} vs license-position ` +
    `${seconds(position.cpuMs)} at ${size.toLocaleString("en-US")}: `;
  return "report scaling: " + figures +
    (size >= 200_000
      ? stateGoal(
        `unused-software / license-position CPU at ${size} computers`,
        ratio,
        "<=",
        UNUSED_GOAL,
      )
      : `${ratio.toFixed(2)}x (goal at 200,000 computers: <= ${UNUSED_GOAL.toFixed(2)}x)`);
}

/**
 * Runs every API report (or those named) at each size in a child process and prints its wall
 * time, CPU time and peak RSS, with the growth from 50,000 computers.
 *
 * @example
 * ```ts ignore
 * import { benchReportScaling } from "./report_scaling_bench.ts";
 * await benchReportScaling({ reports: ["stale-computers"], sizes: [200, 2_000] });
 * ```
 */
export async function benchReportScaling(
  options: { reports?: readonly string[]; sizes?: readonly number[] } = {},
): Promise<void> {
  const sizes = [...options.sizes ?? DEFAULT_SIZES].sort((a, b) => a - b);
  const wanted = options.reports?.length
    ? API_REPORTS.filter((r) => options.reports!.includes(r.id))
    : API_REPORTS;
  const atFrom = new Map<string, ChildFigures>();
  for (const computers of sizes) {
    const t0 = performance.now();
    const server = await startServer({ computers, seed: 3, now: NOW, quiet: true });
    console.log(
      `report scaling: started a server of ${computers.toLocaleString("en-US")} computers ` +
        `(seed 3) in ${seconds(performance.now() - t0)}`,
    );
    try {
      const atSize = new Map<string, ChildFigures>();
      for (const definition of wanted) {
        const figures = await runChild(server, definition.id);
        if (computers === FROM) atFrom.set(definition.id, figures);
        atSize.set(definition.id, figures);
        console.log(line(computers, figures, atFrom.get(definition.id)));
        judge(computers, figures, atFrom.get(definition.id));
      }
      const unused = unusedLine(computers, atSize);
      if (unused) console.log(unused);
    } finally {
      await server.close();
    }
  }
}

/**
 * Reads the bench's arguments: report ids, and `--computers N` for the largest size (the
 * sizes are then 50,000 and N).
 *
 * @example
 * ```ts
 * import { scalingArgs } from "./report_scaling_bench.ts";
 * console.log(scalingArgs(["--computers", "400000", "unused-software"]));
 * // { reports: ["unused-software"], sizes: [50000, 400000] }
 * ```
 */
export function scalingArgs(
  args: readonly string[],
): { reports: string[]; sizes: readonly number[] } {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { computers: { type: "string" } },
    allowPositionals: true,
  });
  if (values.computers === undefined) return { reports: positionals, sizes: DEFAULT_SIZES };
  const n = Number(values.computers);
  if (!Number.isInteger(n) || n <= FROM) {
    throw new RangeError(
      `--computers must be a whole number above ${FROM}, not "${values.computers}"`,
    );
  }
  return { reports: positionals, sizes: [FROM, n] };
}

if (import.meta.main) await benchReportScaling(scalingArgs(Deno.args));
