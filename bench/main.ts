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
  server: benchServer,
  reports: async () => (await import("./report_scaling_bench.ts")).benchReportScaling(),
  client: benchClient,
  render: async () => (await import("./render_bench.ts")).benchRender(),
  queue: async () => (await import("./queue_bench.ts")).benchQueue(),
};

const HELP = `Usage: deno task bench [name …]

Runs the benchmarks (all of them, ~12 minutes on 2 cores, or the ones named) and prints each
figure side by side with its baseline and the ratio; figures with a goal are judged where they
print and listed again at the end. Writes only to /tmp.

Benchmarks:
  generate  the reference estate generator at 50,000 computers
  server    the reference server vs a bare Deno.serve of the same bytes; its scaling per report
  reports   every API report end to end at 5,000 and 50,000 computers
  client    fan-out vs a sequential client, and under a rate limit
  render    XLSX and CSV renderers vs raw exceljs/csv-stringify at 100k and 1M rows (CPU, RSS)
  queue     packs on the PostgreSQL queue, 1 vs 4 workers (needs SAMKIT_TEST_DATABASE_URL)

Options:
  -h, --help  This help`;

if (Deno.args.includes("--help") || Deno.args.includes("-h")) {
  console.log(HELP);
  Deno.exit(0);
}
const wanted = Deno.args.length ? Deno.args : Object.keys(BENCHES);
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
  console.log("\n== goals (issue 11), from this run");
  for (const line of lines) console.log(line);
}
