/**
 * Benchmark of every API report end to end at 5,000 and 50,000 computers: the report run as
 * `deno task report` runs it (client, queries, runner, JSON written), against a reference server
 * in this process over real HTTP, so the time counts the server, the client and the report alike.
 * Both servers are started first and the runs alternate between them (three each, the fastest
 * kept), so a busy spell of the machine weighs on both sizes alike. Prints each report's time at
 * both sizes and the growth; linear is 10×, the goal at most about 11×.
 *
 * Usage: `deno run -P=bench bench/report_scaling_bench.ts [report-id …]`.
 *
 * @module
 */

import { createClient } from "../lib/api/client.ts";
import { createQueryContext } from "../lib/query/context.ts";
import { createRenderers } from "../lib/render/registry.ts";
import type { ReportDefinition } from "../lib/report/model.ts";
import { resolveParams } from "../lib/report/params.ts";
import { runReport } from "../lib/report/runner.ts";
import { type RunningServer, startServer } from "../lib/server/server.ts";
import { API_REPORTS } from "../reports/mod.ts";
import { stateGoal } from "./goals.ts";

/** The estate's fixed clock, so both sizes are reported as of the same day. */
const NOW = new Date("2026-06-30T00:00:00Z");

/** One run of a report to JSON against a server; returns milliseconds. */
async function timeReport(
  server: RunningServer,
  // deno-lint-ignore no-explicit-any
  definition: ReportDefinition<any, any>,
  outDir: string,
): Promise<number> {
  const start = performance.now();
  await runReport({
    definition,
    client: createClient({ baseUrl: server.url, clientId: "demo", clientSecret: "demo-secret" }),
    query: createQueryContext(),
    params: resolveParams(definition, {}),
    formats: ["json"],
    renderers: { json: createRenderers().json },
    outDir,
    source: "bench",
    version: "bench",
    now: NOW,
  });
  return performance.now() - start;
}

/**
 * Print every API report's end-to-end time at 5,000 and 50,000 computers and the growth.
 *
 * @example
 * ```ts
 * import { benchReportScaling } from "./report_scaling_bench.ts";
 * await benchReportScaling({ reports: ["stale-computers"], sizes: [200, 2_000] });
 * ```
 */
export async function benchReportScaling(
  options: { reports?: readonly string[]; sizes?: readonly [number, number] } = {},
): Promise<void> {
  const sizes = options.sizes ?? [5_000, 50_000];
  const wanted = options.reports?.length
    ? API_REPORTS.filter((r) => options.reports!.includes(r.id))
    : API_REPORTS;
  const servers: RunningServer[] = [];
  const outDir = await Deno.makeTempDir({ prefix: "samkit-bench-reports-" });
  try {
    for (const computers of sizes) {
      const t0 = performance.now();
      servers.push(await startServer({ computers, seed: 1, now: NOW, quiet: true }));
      console.log(
        `report scaling: started a server of ${computers} computers in ` +
          `${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    for (const definition of wanted) {
      const fastest = sizes.map(() => Infinity);
      for (let round = 0; round < 3; round++) {
        for (const [i, server] of servers.entries()) {
          // A write that matches no row: the server's page cache is dropped, every read is new.
          server.store.update("computers", { id: "\u0000bench" }, { id: "\u0000bench" });
          fastest[i] = Math.min(fastest[i], await timeReport(server, definition, outDir));
        }
      }
      const judged = stateGoal(
        `${definition.id} end to end, ${sizes[0]} -> ${sizes[1]} computers`,
        fastest[1] / fastest[0],
        "<=",
        11,
        { about: true, digits: 1 },
      );
      console.log(
        `report scaling: ${definition.id}: ${(fastest[0] / 1000).toFixed(2)} s at ${sizes[0]}, ` +
          `${(fastest[1] / 1000).toFixed(2)} s at ${sizes[1]} computers: ${judged} (linear 10x)`,
      );
    }
  } finally {
    for (const server of servers) await server.close();
    await Deno.remove(outDir, { recursive: true });
  }
}

if (import.meta.main) await benchReportScaling({ reports: Deno.args });
