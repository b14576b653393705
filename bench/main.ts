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

const wanted = Deno.args.length ? Deno.args : Object.keys(BENCHES);
for (const name of wanted) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; benchmarks: ${Object.keys(BENCHES).join(", ")}`);
    Deno.exit(2);
  }
  console.log(`\n== ${name}`);
  await bench();
}

const lines = goalLines();
if (lines.length > 0) {
  console.log("\n== goals (issue 11), from this run");
  for (const line of lines) console.log(line);
}
