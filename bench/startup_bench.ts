/**
 * Where people wait, measured side by side in one run, each command as a whole process (median
 * of three): `report <id> --help` against a bare `main.ts --version`; a client-only script
 * against the same; the demo against one JSON report and a PDF against the HTML of the same
 * report, each pair run in turn so that the ratio compares runs made one after the other; then
 * the demo's reports in one process, samkit's CPU against Chrome's (`./chromium_cpu.ts`). Peak
 * RSS and CPU are the child's, as GNU time reports them (`/usr/bin/time`; n/a without it).
 *
 * @module
 */

import { stateGoal } from "./goals.ts";

/** What one command measured: median wall time and median peak RSS. */
export interface CommandFigures {
  /** Median wall-clock milliseconds. */
  readonly wallMs: number;
  /** Median peak resident set size in MB (`undefined` without GNU time). */
  readonly peakRssMb: number | undefined;
  /**
   * Median user + system CPU seconds, as GNU time reports them (`undefined` without it): the
   * process's own and its children's that were waited for (Chrome's only in part: its processes
   * are not all reaped through samkit).
   */
  readonly cpuS?: number;
}

const ROOT = new URL("../", import.meta.url).pathname;
const REPORT_FLAGS = ["--v8-flags=--max-semi-space-size=16,--heap-growing-percent=30"];

const GNU_TIME = "/usr/bin/time";

/** Whether GNU time is there to report a child's peak RSS (Deno may not read `/proc/PID`). */
async function hasGnuTime(): Promise<boolean> {
  try {
    const probe: Deno.CommandOptions = {
      args: ["-f", "%M", "true"],
      stdout: "null",
      stderr: "null",
    };
    return (await new Deno.Command(GNU_TIME, probe).output()).success;
  } catch {
    return false;
  }
}

/** One run of `deno args…`: wall time and, with GNU time, the peak RSS in MB and CPU seconds. */
async function runOnce(args: readonly string[], env: Record<string, string>, timed: boolean) {
  const start = performance.now();
  const { code, stderr } = await new Deno.Command(timed ? GNU_TIME : "deno", {
    args: timed ? ["-f", "samkit-peak-kb %M %U %S", "deno", ...args] : [...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - start;
  const text = new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`deno ${args.join(" ")} exited ${code}: ${text.slice(-400)}`);
  const timing = /samkit-peak-kb (\d+) ([\d.]+) ([\d.]+)/.exec(text);
  return {
    wallMs,
    peak: timing ? Number(timing[1]) / 1024 : undefined,
    cpu: timing ? Number(timing[2]) + Number(timing[3]) : undefined,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The median wall time and peak RSS of `deno args…` run `runs` times from samkit's folder.
 *
 * @example
 * ```ts ignore
 * import { measureCommand } from "./startup_bench.ts";
 * console.log(await measureCommand(["run", "-P=list", "main.ts", "--version"]));
 * ```
 */
export async function measureCommand(
  args: readonly string[],
  options: { runs?: number; env?: Record<string, string> } = {},
): Promise<CommandFigures> {
  const runs: RunFigures[] = [];
  const timed = await hasGnuTime();
  for (let i = 0; i < (options.runs ?? 3); i++) {
    runs.push(await runOnce(args, options.env ?? {}, timed));
  }
  return medians(runs);
}

/** One run's figures. */
type RunFigures = Awaited<ReturnType<typeof runOnce>>;

/** The medians of runs' figures. */
function medians(runs: readonly RunFigures[]): CommandFigures {
  const peaks = runs.flatMap((r) => r.peak === undefined ? [] : [r.peak]);
  const cpus = runs.flatMap((r) => r.cpu === undefined ? [] : [r.cpu]);
  return {
    wallMs: median(runs.map((r) => r.wallMs)),
    peakRssMb: peaks.length ? median(peaks) : undefined,
    cpuS: cpus.length ? median(cpus) : undefined,
  };
}

/** Two commands measured in turn, and the median of their wall ratios pair by pair. */
export interface PairFigures {
  /** The first command's medians. */
  readonly base: CommandFigures;
  /** The second command's medians. */
  readonly other: CommandFigures;
  /** The median over the pairs of the second's wall time over the first's. */
  readonly ratio: number;
}

/**
 * Runs `deno base…` and `deno other…` in turn (base, other, base, other …) `runs` times each
 * and returns their medians and the median of the wall ratios pair by pair: on a shared machine
 * whose speed drifts, each ratio compares two runs made one after the other.
 *
 * @example
 * ```ts ignore
 * import { measurePair } from "./startup_bench.ts";
 * const bare = ["run", "-P=list", "main.ts", "--version"];
 * console.log((await measurePair(bare, [...bare, "--help"])).ratio);
 * ```
 */
export async function measurePair(
  base: readonly string[],
  other: readonly string[],
  options: { runs?: number; env?: Record<string, string> } = {},
): Promise<PairFigures> {
  const timed = await hasGnuTime();
  const a: RunFigures[] = [];
  const b: RunFigures[] = [];
  for (let i = 0; i < (options.runs ?? 3); i++) {
    a.push(await runOnce(base, options.env ?? {}, timed));
    b.push(await runOnce(other, options.env ?? {}, timed));
  }
  return {
    base: medians(a),
    other: medians(b),
    ratio: median(a.map((run, i) => b[i].wallMs / run.wallMs)),
  };
}

function figures(label: string, f: CommandFigures): string {
  const rss = f.peakRssMb === undefined ? "n/a" : `${f.peakRssMb.toFixed(0)} MB`;
  const cpu = f.cpuS === undefined ? "" : `  ${f.cpuS.toFixed(2).padStart(6)} s CPU`;
  return `  ${label.padEnd(46)} ${(f.wallMs / 1000).toFixed(2).padStart(6)} s  ${
    rss.padStart(7)
  }${cpu}`;
}

/**
 * The pair's lines: both figures and the ratio of wall times (the median pair by pair when
 * measured in turn, else of the medians), judged against `goal` when there is one.
 */
function pair(
  title: string,
  base: [string, CommandFigures],
  other: [string, CommandFigures],
  goal?: number,
  pairRatio?: number,
): void {
  const ratio = pairRatio ?? other[1].wallMs / base[1].wallMs;
  console.log(title);
  console.log(figures(base[0], base[1]));
  console.log(figures(other[0], other[1]));
  console.log(
    `  ratio ${goal === undefined ? `${ratio.toFixed(2)}x` : stateGoal(title, ratio, "<=", goal)}`,
  );
}

async function outDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "samkit-bench-startup-" });
}

/**
 * Runs the start-up, demo and PDF comparisons and prints them.
 *
 * @example
 * ```ts ignore
 * import { benchStartup } from "./startup_bench.ts";
 * await benchStartup();
 * ```
 */
export async function benchStartup(): Promise<void> {
  const bare = await measureCommand(["run", "--no-prompt", "-P=list", "main.ts", "--version"]);
  const help = await measureCommand([
    "run",
    "--no-prompt",
    ...REPORT_FLAGS,
    "-P=report",
    "main.ts",
    "report",
    "license-cost-summary",
    "--help",
  ]);
  pair("start-up: report --help vs main.ts --version", ["main.ts --version", bare], [
    "report license-cost-summary --help",
    help,
  ], 2.5);
  console.log("  (before entry points and lazy loading: report --help 0.86-0.9 s, 115-119 MB)");

  await benchClientScript(bare);
  await benchDemo();
}

/** A client-only script against the reference server, beside the bare start-up. */
async function benchClientScript(bare: CommandFigures): Promise<void> {
  const { startServer } = await import("../lib/server/server.ts");
  const server = await startServer({ port: 0, computers: 400, seed: 1, quiet: true });
  try {
    const host = new URL(server.url).host;
    const script = await measureCommand([
      "run",
      "--no-prompt",
      `--allow-net=${host}`,
      "--allow-env=SAM_BASE_URL,SAM_REGION,SAM_HOST,SAM_CLIENT_ID,SAM_CLIENT_SECRET,SAM_TOKEN," +
      "SAM_REGISTRY_PREFIX,SAM_CONNECTORS_PREFIX",
      "examples/stale_computers.ts",
    ], {
      env: { SAM_BASE_URL: server.url, SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: "demo-secret" },
    });
    pair("client-only script (./client) vs main.ts --version", ["main.ts --version", bare], [
      "examples/stale_computers.ts (400 computers)",
      script,
    ]);
    console.log("  (a script importing mod.ts before entry points: 0.77-0.9 s, 115-118 MB)");
  } finally {
    await server.close();
  }
}

/**
 * The demo against one JSON report, and a PDF against the HTML of the same report, each pair
 * measured in turn; then where the demo's CPU goes, Chrome's apart from samkit's.
 */
async function benchDemo(): Promise<void> {
  const run = (tail: string[]) => ["run", "--no-prompt", ...REPORT_FLAGS, "-P=report", ...tail];
  const dirs: string[] = [];
  let jsonWallMs: number | undefined;
  const dir = async () => {
    const d = await outDir();
    dirs.push(d);
    return d;
  };
  try {
    const one = async (format: string) =>
      run([
        "main.ts",
        "report",
        "entitlement-state-by-computer",
        "--format",
        format,
        "--out",
        await dir(),
        "--quiet",
      ]);
    const demo = await measurePair(
      await one("json"),
      run(["main.ts", "demo", "--out", await dir(), "--quiet"]),
    );
    jsonWallMs = demo.base.wallMs;
    pair(
      "the demo vs one JSON report",
      ["entitlement-state-by-computer json", demo.base],
      [
        "deno task demo (4 reports x HTML, PDF, XLSX)",
        demo.other,
      ],
      2.5,
      demo.ratio,
    );
    console.log(
      "  (before one tab per browser, Chrome started while reading and two reports at a time: " +
        "8.1x at load 9; before the headless shell and the cover printed once: 6.18x at load 5-7, " +
        "5.35x after at load 3)",
    );
    const pdf = await measurePair(await one("html"), await one("pdf"));
    pair(
      "PDF vs HTML of the same report",
      ["entitlement-state-by-computer html", pdf.base],
      [
        "entitlement-state-by-computer pdf",
        pdf.other,
      ],
      undefined,
      pdf.ratio,
    );
    console.log(
      "  (no goal is set for this ratio; about 4x before this work, 4.5x with the full browser, " +
        "3.5x with the headless shell: Chrome's launch and printing are most of it, see below)",
    );
  } finally {
    for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
  await benchChromeCpu(jsonWallMs);
}

/**
 * The demo's reports in this process: samkit's CPU and Chrome's, step by step; with the wall time
 * of one JSON report, the shortest the demo could take on this machine's cores (their CPU summed,
 * spread perfectly over every core) as a ratio to it.
 */
async function benchChromeCpu(jsonWallMs?: number): Promise<void> {
  const { cpuLines, demoCpu } = await import("./chromium_cpu.ts");
  console.log("the demo's reports in one process, one browser: samkit's CPU vs Chrome's");
  try {
    const steps = await demoCpu();
    for (const line of cpuLines(steps)) console.log(line);
    const samkit = steps.reduce((a, s) => a + s.samkitS, 0);
    const chrome = steps.reduce((a, s) => a + s.chromeS, 0);
    console.log(`  Chrome's CPU is ${(chrome / samkit).toFixed(2)}x samkit's`);
    const cores = navigator.hardwareConcurrency;
    const floorS = (samkit + chrome) / cores;
    console.log(
      `  on ${cores} cores the demo cannot take less than ${floorS.toFixed(2)} s` +
        (jsonWallMs ? ` (${(floorS * 1000 / jsonWallMs).toFixed(2)}x one JSON report)` : "") +
        ", however its work overlaps, before start-up",
    );
    console.log(
      "  (a closed tab's renderer is not counted; Chrome's processes as the system counts them, " +
        "zygote included: 13.2-13.6 s before one tab per browser, 11.8-12.1 s after)",
    );
  } catch (error) {
    console.log(`  not measured: ${error instanceof Error ? error.message : String(error)}`);
  }
}
