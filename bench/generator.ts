/**
 * Benchmark of the reference estate as a server makes it (generate, load into SQLite, derive the
 * further reads) at 50,000 and 200,000 computers, each run in a process of its own, side by side
 * with the ratio; the goal is linear growth: 200,000 computers in at most 4.4× the CPU time of
 * 50,000. Each size is run three times and its median run (by CPU time) is taken, so one run
 * slowed by another process on the machine does not decide the ratio.
 *
 * Usage: `deno run -P=bench bench/generator.ts [computers …]` (default 50000 200000); the
 * largest size is compared with the smallest.
 *
 * @module
 */

import process from "node:process";
import { stateGoal } from "./goals.ts";

/** What one size measured. */
export interface EstateFigures {
  /** Number of computers. */
  readonly computers: number;
  /** Rows stored, further reads included. */
  readonly rows: number;
  /** Wall-clock milliseconds. */
  readonly wallMs: number;
  /** User + system CPU milliseconds of the process while making the estate. */
  readonly cpuMs: number;
  /** The process's peak resident set size in MB. */
  readonly peakRssMb: number;
}

/** The sizes measured by default: the goal compares the second with the first. */
export const ESTATE_SIZES: readonly number[] = [50_000, 200_000];

/** The most CPU time 200,000 computers may take, as a multiple of 50,000's (linear: 4). */
const GOAL_RATIO = 4.4;

/** Runs per size; the median one is reported. */
const RUNS = 3;

/** Make the estate of `computers` computers as a server does, in this process; its figures. */
async function measure(computers: number, seed: number): Promise<EstateFigures> {
  const { EstateStore } = await import("../lib/server/store.ts");
  const { generateEstate } = await import("../lib/server/generator.ts");
  const { deriveFurtherReads } = await import("../lib/server/further_reads.ts");
  const cpu = process.cpuUsage();
  const started = performance.now();
  const store = new EstateStore();
  let rows = await store.bulkInsert((sink) => {
    generateEstate({ seed, computers }, sink);
  });
  rows += await deriveFurtherReads(store);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  store.close();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  return { computers, rows, wallMs, cpuMs: (used.user + used.system) / 1000, peakRssMb };
}

/** One size measured in a child process (so neither heap nor RSS carries over). */
async function runChild(computers: number, seed: number): Promise<EstateFigures> {
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args: ["run", "-P=bench", "--no-prompt", new URL(import.meta.url).pathname, "--child"]
      .concat([String(computers), String(seed)]),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    const error = new TextDecoder().decode(stderr).trim().split("\n").slice(-3).join("; ");
    throw new Error(`estate of ${computers} computers failed (exit ${code}): ${error}`);
  }
  return JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1) ?? "");
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The run of median CPU time of `runs` runs of one size, each in its own process. */
async function medianRun(computers: number, seed: number, runs: number): Promise<EstateFigures> {
  const all: EstateFigures[] = [];
  for (let i = 0; i < runs; i++) all.push(await runChild(computers, seed));
  return all.sort((a, b) => a.cpuMs - b.cpuMs)[Math.floor((all.length - 1) / 2)];
}

/**
 * Measures the estate at each size (the median of three runs, each in its own process) and
 * prints wall time, CPU time, rows and peak RSS per size, then the largest against the smallest
 * with the goal.
 *
 * @example
 * ```ts ignore
 * import { benchEstate } from "./generator.ts";
 * await benchEstate({ sizes: [500, 2_000], runs: 1 });
 * ```
 */
export async function benchEstate(
  options: { sizes?: readonly number[]; seed?: number; runs?: number } = {},
): Promise<void> {
  const sizes = [...options.sizes ?? ESTATE_SIZES].sort((a, b) => a - b);
  const seed = options.seed ?? 1;
  const runs = options.runs ?? RUNS;
  const figures: EstateFigures[] = [];
  for (const computers of sizes) {
    const f = await medianRun(computers, seed, runs);
    figures.push(f);
    console.log(
      `estate ${computers.toLocaleString("en-US")} computers (median of ${runs}): ` +
        `wall ${seconds(f.wallMs)}, ` +
        `CPU ${seconds(f.cpuMs)}, ${f.rows.toLocaleString("en-US")} rows, ` +
        `peak RSS ${Math.round(f.peakRssMb).toLocaleString("en-US")} MB`,
    );
  }
  const [small, large] = [figures[0], figures.at(-1)!];
  if (figures.length < 2) return;
  const size = large.computers / small.computers;
  const goal = GOAL_RATIO * size / 4;
  const verdict = stateGoal(
    `estate CPU, ${large.computers} / ${small.computers} computers`,
    large.cpuMs / small.cpuMs,
    "<=",
    goal,
  );
  console.log(
    `estate ${large.computers.toLocaleString("en-US")} vs ${
      small.computers.toLocaleString("en-US")
    } computers (size ×${size.toFixed(1)}): CPU ${verdict}; wall ×${
      (large.wallMs / small.wallMs).toFixed(2)
    }`,
  );
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") {
    const figures = await measure(Number(Deno.args[1]), Number(Deno.args[2] ?? 1));
    console.log(JSON.stringify(figures));
  } else {
    const sizes = Deno.args.map(Number);
    await benchEstate(sizes.length ? { sizes } : {});
  }
}
