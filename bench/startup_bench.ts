/**
 * Where people wait, measured side by side in one run, each command as a whole process (median
 * of three): `report <id> --help` against a bare `main.ts --version`; a client-only script
 * against the same; the demo against one JSON report; a PDF against the HTML of the same report.
 * Peak RSS is the child's own, as GNU time reports it (`/usr/bin/time`; n/a without it).
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

/** One run of `deno args…`: wall time and, with GNU time, the peak RSS in MB. */
async function runOnce(args: readonly string[], env: Record<string, string>, timed: boolean) {
  const start = performance.now();
  const { code, stderr } = await new Deno.Command(timed ? GNU_TIME : "deno", {
    args: timed ? ["-f", "samkit-peak-kb %M", "deno", ...args] : [...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - start;
  const text = new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`deno ${args.join(" ")} exited ${code}: ${text.slice(-400)}`);
  const kb = /samkit-peak-kb (\d+)/.exec(text)?.[1];
  return { wallMs, peak: kb === undefined ? undefined : Number(kb) / 1024 };
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
  const walls: number[] = [];
  const peaks: number[] = [];
  const timed = await hasGnuTime();
  for (let i = 0; i < (options.runs ?? 3); i++) {
    const { wallMs, peak } = await runOnce(args, options.env ?? {}, timed);
    walls.push(wallMs);
    if (peak !== undefined) peaks.push(peak);
  }
  return { wallMs: median(walls), peakRssMb: peaks.length ? median(peaks) : undefined };
}

function figures(label: string, f: CommandFigures): string {
  const rss = f.peakRssMb === undefined ? "n/a" : `${f.peakRssMb.toFixed(0)} MB`;
  return `  ${label.padEnd(46)} ${(f.wallMs / 1000).toFixed(2).padStart(6)} s  ${rss.padStart(7)}`;
}

/** The pair's lines: both figures and the ratio of wall times, judged against `goal`. */
function pair(
  title: string,
  base: [string, CommandFigures],
  other: [string, CommandFigures],
  goal?: number,
): void {
  const ratio = other[1].wallMs / base[1].wallMs;
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

/** The demo against one JSON report, and a PDF against the HTML of the same report. */
async function benchDemo(): Promise<void> {
  const run = (tail: string[]) => ["run", "--no-prompt", ...REPORT_FLAGS, "-P=report", ...tail];
  const dirs: string[] = [];
  const dir = async () => {
    const d = await outDir();
    dirs.push(d);
    return d;
  };
  try {
    const one = async (format: string) =>
      measureCommand(run([
        "main.ts",
        "report",
        "entitlement-state-by-computer",
        "--format",
        format,
        "--out",
        await dir(),
        "--quiet",
      ]));
    const json = await one("json");
    const demo = await measureCommand(run(["main.ts", "demo", "--out", await dir()]));
    pair("the demo vs one JSON report", ["entitlement-state-by-computer json", json], [
      "deno task demo (4 reports x HTML, PDF, XLSX)",
      demo,
    ], 2.5);
    const html = await one("html");
    const pdf = await one("pdf");
    pair("PDF vs HTML of the same report", ["entitlement-state-by-computer html", html], [
      "entitlement-state-by-computer pdf",
      pdf,
    ]);
  } finally {
    for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
}
