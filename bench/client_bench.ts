/**
 * Benchmark of the API client's paging: a 50,000-item collection read sequentially and in
 * parallel mode from the reference server with 20 ms of latency per response; and the requests
 * per report: license-cost-summary at 400 and 3,000 computers, figures from the license list
 * against the per-license calls a thin (spec-form) list needs.
 *
 * @example
 * ```ts
 * import { benchClient } from "./client_bench.ts";
 * await benchClient(); // prints both times and the ratio
 * ```
 *
 * @module
 */

import { createClient } from "../lib/api/client.ts";
import { createQueryContext } from "../lib/query/context.ts";
import { createRenderers } from "../lib/render/registry.ts";
import { resolveParams } from "../lib/report/params.ts";
import { runReport } from "../lib/report/runner.ts";
import { startServer } from "../lib/server/server.ts";
import { REPORTS } from "../reports/mod.ts";

/** Items in the benchmarked collection. */
const ITEMS = 50_000;

/**
 * Pages a 50,000-item collection (license policies, 1000 per page) sequentially and then in
 * parallel mode (concurrency 4) against the reference server with `latencyMs: 20`, checks both
 * read the same items in the same order, and prints both times and the ratio.
 *
 * @example
 * ```ts
 * import { benchClient } from "./client_bench.ts";
 * await benchClient();
 * // client paging 50000 items, 20 ms latency: sequential 1234 ms, parallel 345 ms, 3.58x
 * ```
 */
export async function benchClient(): Promise<void> {
  const srv = await startServer({ computers: 5, latencyMs: 20, quiet: true });
  try {
    await srv.store.bulkInsert((sink) => {
      for (let i = 0; i < ITEMS; i++) {
        sink("policies", { id: `BENCH-${String(i).padStart(6, "0")}` });
      }
    });
    const total = srv.store.count("policies");
    const client = createClient({
      baseUrl: srv.url,
      auth: { clientId: "demo", clientSecret: "demo-secret" },
    });
    // Warm up: token, connection, the server's statement cache.
    await client.licenses.policies({ pageSize: 10 }).pages().next();

    const time = async (parallel: boolean) => {
      const started = performance.now();
      const ids: (string | null)[] = [];
      for await (const p of client.licenses.policies({ pageSize: 1000, parallel })) ids.push(p.id);
      return { ms: performance.now() - started, ids };
    };
    const sequential = await time(false);
    const parallel = await time(true);
    if (sequential.ids.length !== total || parallel.ids.join() !== sequential.ids.join()) {
      throw new Error("parallel paging did not read the same items in the same order");
    }
    console.log(
      `client paging ${total} items, 20 ms latency: sequential ${sequential.ms.toFixed(0)} ms, ` +
        `parallel ${parallel.ms.toFixed(0)} ms, ${(sequential.ms / parallel.ms).toFixed(2)}x`,
    );
  } finally {
    await srv.close();
  }
  await benchReportRequests();
}

const LICENSES_PATH = "/api/sam/v1/licenses";
/** Fields of a license list entry in the spec's thin form (no vendor, no cost totals). */
const SPEC_LIST_FIELDS = new Set(`_links id organizationId applicationId contractId metricId
  purchaseDate purchaseValue purchaseCurrency quantity`.split(/\s+/));

/** A fetch that sends every license list entry in the spec's thin form. */
const thinLicenseList: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.pathname !== LICENSES_PATH || res.status !== 200) return res;
  const body = await res.json();
  body.items = body.items.map((item: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(item).filter(([k]) => SPEC_LIST_FIELDS.has(k)))
  );
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json" },
  });
};

const licenseCostSummary = REPORTS.find((r) => r.id === "license-cost-summary")!;

/** Runs license-cost-summary (JSON) and returns its requests and its sections as written. */
async function countRequests(url: string, thin: boolean): Promise<[number, string]> {
  const client = createClient({
    baseUrl: url,
    auth: { clientId: "demo", clientSecret: "demo-secret" },
    ...(thin ? { fetch: thinLicenseList } : {}),
  });
  const outDir = await Deno.makeTempDir({ prefix: "samkit-bench-requests-" });
  try {
    await runReport({
      definition: licenseCostSummary,
      client,
      query: createQueryContext(),
      params: resolveParams(licenseCostSummary, {}),
      formats: ["json"],
      renderers: { json: createRenderers().json },
      outDir,
      source: url,
      version: "bench",
      now: new Date("2025-06-30T12:00:00Z"),
    });
    const json = JSON.parse(await Deno.readTextFile(`${outDir}/${licenseCostSummary.id}.json`));
    return [client.stats.requests, JSON.stringify(json.sections)];
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
}

/**
 * Requests per report: license-cost-summary against the reference server at 400 and 3,000
 * computers, with its figures from the license list, and with the list sent in the spec's thin
 * form (one costs summary and one detail per license, the report's only path before the list's
 * totals were read). Checks both runs write the same sections and prints both counts and the
 * ratio.
 *
 * @example
 * ```ts ignore
 * import { benchReportRequests } from "./client_bench.ts";
 * await benchReportRequests();
 * // license-cost-summary requests, 400 computers: 3 from the license list,
 * // 143 with a thin list (47.67x)
 * ```
 */
export async function benchReportRequests(): Promise<void> {
  for (const computers of [400, 3000]) {
    const srv = await startServer({ computers, seed: 1, quiet: true });
    try {
      const [list, listed] = await countRequests(srv.url, false);
      const [thin, thinned] = await countRequests(srv.url, true);
      if (listed !== thinned) {
        throw new Error(`license-cost-summary at ${computers} computers: figures differ by path`);
      }
      console.log(
        `license-cost-summary requests, ${computers} computers: ${list} from the license list, ` +
          `${thin} with a thin list (${(thin / list).toFixed(2)}x)`,
      );
    } finally {
      await srv.close();
    }
  }
}

if (import.meta.main) await benchClient();
