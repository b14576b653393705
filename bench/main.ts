/**
 * `deno task bench`: every benchmark in one run, each printing its figures side by side with a
 * baseline and the ratio. Pass names to run some: `deno task bench server client`.
 *
 * @module
 */

import { benchServer } from "./server_bench.ts";
import { benchClient } from "./client_bench.ts";
import { benchGenerate } from "./generate.ts";
import { goalLines } from "./goals.ts";

const BENCHES: Record<string, () => Promise<void>> = {
  generate: () => benchGenerate({ computers: 50_000 }),
  estate: async () => (await import("./generator.ts")).benchEstate(),
  server: benchServer,
  reports: async () => {
    const { benchReportScaling, DEFAULT_SIZES } = await import("./report_scaling_bench.ts");
    await benchReportScaling({ sizes: computers ? [50_000, computers] : DEFAULT_SIZES });
  },
  client: benchClient,
  render: async () => (await import("./render_bench.ts")).benchRender(),
  queue: async () => (await import("./queue_bench.ts")).benchQueue(),
  startup: async () => (await import("./startup_bench.ts")).benchStartup(),
};

const HELP = `Usage: deno task bench [name …]

Runs the benchmarks (all of them, or the ones named; the reports part builds estates of up to
200,000 computers and takes the longest, tens of minutes on 2 cores) and prints each
figure side by side with its baseline and the ratio; figures with a goal are judged where they
print and listed again at the end. Writes only to /tmp.

Benchmarks:
  generate  the reference estate generator at 50,000 computers
  estate    the reference estate as a server makes it at 50,000 and 200,000 computers, each in
            a process of its own: wall, CPU, peak RSS, and 200,000 against 50,000 (goal <= 4.4x)
  server    the reference server vs a bare Deno.serve of the same bytes; its scaling per report
  reports   every API report end to end at 5,000, 50,000 and 200,000 computers, each in a
            process of its own: wall, CPU, peak RSS and the growth from 50,000;
            unused-software's CPU against license-position's (goal <= 1.8x at 200,000)
  client    fan-out vs a sequential client, and under a rate limit
  render    XLSX and CSV renderers vs raw exceljs/csv-stringify at 100k and 1M rows (CPU, RSS)
  queue     packs on the PostgreSQL queue, 1 vs 4 workers (needs SAMKIT_TEST_DATABASE_URL)
  startup   report --help and a client-only script vs a bare main.ts --version (goal <= 2.5x);
            the demo vs one JSON report (goal <= 2.5x) and PDF vs HTML of the same report, each
            pair run in turn (whole processes, median of 3); then the demo's reports in one
            process: samkit's CPU vs Chrome's (as Chrome reports it), step by step

Options:
  --computers N  reports: measure at 50,000 and N computers instead (N above 50,000; a
                 larger estate needs a bigger machine)
  -h, --help     This help`;

if (Deno.args.includes("--help") || Deno.args.includes("-h")) {
  console.log(HELP);
  Deno.exit(0);
}
/** `--computers N` (reports' largest size), taken out of the arguments. */
function takeComputers(args: string[]): number | undefined {
  const at = args.findIndex((a) => a === "--computers" || a.startsWith("--computers="));
  if (at < 0) return undefined;
  const [flag] = args.splice(at, 1);
  const text = flag.includes("=") ? flag.slice(flag.indexOf("=") + 1) : args.splice(at, 1)[0];
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 50_000) {
    console.error(
      `samkit bench: --computers must be a whole number above 50000, not "${text ?? ""}"`,
    );
    Deno.exit(2);
  }
  return n;
}

const args = [...Deno.args];
const computers = takeComputers(args);
const wanted = args.length ? args : Object.keys(BENCHES);
const unknown = wanted.filter((name) => !BENCHES[name]);
if (unknown.length > 0) {
  console.error(
    `samkit bench: unknown benchmark "${unknown[0]}"; benchmarks: ${
      Object.keys(BENCHES).join(", ")
    } (deno task bench --help)`,
  );
  Deno.exit(2);
}
for (const name of wanted) {
  const bench = BENCHES[name];
  console.log(`\n== ${name}`);
  await bench();
}

const lines = goalLines();
if (lines.length > 0) {
  console.log("\n== goals, from this run");
  for (const line of lines) console.log(line);
}
