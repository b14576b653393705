/**
 * Benchmark of the API client's paging: a 50,000-item collection read sequentially and in
 * parallel mode from the reference server with 20 ms of latency per response; and the requests
 * per report: license-cost-summary at 400 and 3,000 computers, figures from the license list
 * against the per-license calls a thin (spec-form) list needs; and the fan-out of per-license
 * detail calls (10,000 costs summaries) against a sequential client at 20 ms latency and under
 * a 200 req/s server limit against its floor (`… client_bench.ts fan-out|rate-limit [items]`
 * runs only those).
 *
 * @example
 * ```ts
import { benchClient } from "./client_bench.ts";
 * await benchClient(); // prints both times and the ratio
 * ```
 *
 * @module
 */

import { createClient } from "../lib/api/client.ts";
import { backOffOnPressure, createQueryContext, type QueryContext } from "../lib/query/context.ts";
import { createRenderers } from "../lib/render/registry.ts";
import { resolveParams } from "../lib/report/params.ts";
import { runReport } from "../lib/report/runner.ts";
import { startServer } from "../lib/server/server.ts";
import { REPORTS } from "../reports/mod.ts";
import { stateGoal } from "./goals.ts";

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
  await benchFanOut();
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

/** Licenses in the fan-out benchmark. */
const FAN_OUT_ITEMS = 10_000;
/** The reference server's rate limit in the rate-limited run, requests per second. */
const RATE_LIMIT = 200;

/** Fills a server with `n` licenses, each with a costs summary, and returns their ids. */
async function seedLicenses(srv: Awaited<ReturnType<typeof startServer>>, n: number) {
  const ids = Array.from({ length: n }, (_, i) => `BENCH-L${String(i).padStart(6, "0")}`);
  await srv.store.bulkInsert((sink) => {
    ids.forEach((id, i) => {
      sink("licenses", { id });
      sink("license_cost_summaries", {
        licenseId: id,
        currency: "USD",
        quantity: 1,
        purchaseCost: i,
        currentMaintenanceCost: 0,
        accumulatedMaintenanceCost: 0,
        currentSupportCost: 0,
        accumulatedSupportCost: 0,
        totalCost: i,
        averageCostPerLicensePurchase: i,
      });
    });
  });
  return ids;
}

/** A client of `url` whose 429 and 503 answers make `query`'s limiter back off, as the CLI's. */
function pressuredClient(url: string, query: () => QueryContext) {
  return createClient({
    baseUrl: url,
    auth: { clientId: "demo", clientSecret: "demo-secret" },
    onEvent: (e) => backOffOnPressure(query().limiter)(e),
  });
}

/** One costs summary per license through the query context's fan-out, as a report makes them. */
async function fanOutTotals(url: string, ids: string[]) {
  const query = createQueryContext();
  const client = pressuredClient(url, () => query);
  await client.licenses.costsSummary(ids[0]!); // token and connection, as the sequential run
  const started = performance.now();
  const totals: number[] = [];
  const calls = query.fanOut(ids, (id) => `costs:${id}`, (id) => client.licenses.costsSummary(id));
  for await (const [, summary] of calls) totals.push(summary.totalCost ?? NaN);
  return { ms: performance.now() - started, totals, client, peak: query.limiter.limit };
}

/**
 * Fan-out of per-license detail calls (`licenses.costsSummary` over 10,000 licenses, the thin
 * list's path): against a sequential client at 20 ms latency (goal ≥ 12×), and under a
 * 200 req/s server limit against its floor, requests ÷ limit (goal ≤ 1.1×, no request failed).
 * Both runs must read the same totals in the same order as the sequential one.
 *
 * @example
 * ```ts ignore
 * import { benchFanOut } from "./client_bench.ts";
 * await benchFanOut(1000);
 * // fan-out 1000 costs summaries, 20 ms latency: sequential 21034 ms, fan-out 1420 ms, 14.81x
 * ```
 */
export async function benchFanOut(items = FAN_OUT_ITEMS): Promise<void> {
  const srv = await startServer({ computers: 5, latencyMs: 20, quiet: true });
  let expected: number[];
  try {
    const ids = await seedLicenses(srv, items);
    const client = createClient({
      baseUrl: srv.url,
      auth: { clientId: "demo", clientSecret: "demo-secret" },
    });
    await client.licenses.costsSummary(ids[0]!);
    const started = performance.now();
    expected = [];
    for (const id of ids) expected.push((await client.licenses.costsSummary(id)).totalCost ?? NaN);
    const sequentialMs = performance.now() - started;
    const fan = await fanOutTotals(srv.url, ids);
    if (fan.totals.join() !== expected.join()) {
      throw new Error(`fan-out of ${items} costs summaries did not read the sequential totals`);
    }
    console.log(
      `fan-out ${items} costs summaries, 20 ms latency: sequential ${
        sequentialMs.toFixed(0)
      } ms, ` +
        `fan-out ${fan.ms.toFixed(0)} ms (limit reached ${fan.peak}), ` +
        stateGoal(
          `fan-out vs a sequential client, ${items} items at 20 ms latency`,
          sequentialMs / fan.ms,
          ">=",
          12,
        ),
    );
  } finally {
    await srv.close();
  }
  await benchRateLimited(items, expected);
}

/** The fan-out against a server that admits 200 requests a second, against its floor. */
async function benchRateLimited(items: number, expected?: number[]): Promise<void> {
  const srv = await startServer({
    computers: 5,
    latencyMs: 20,
    rateLimit: RATE_LIMIT,
    quiet: true,
  });
  try {
    const ids = await seedLicenses(srv, items);
    const fan = await fanOutTotals(srv.url, ids);
    if (expected && fan.totals.join() !== expected.join()) {
      throw new Error(`rate-limited fan-out of ${items} costs summaries read other totals`);
    }
    const floorMs = (items / RATE_LIMIT) * 1000;
    console.log(
      `fan-out ${items} costs summaries, ${RATE_LIMIT} req/s limit: ${fan.ms.toFixed(0)} ms, ` +
        `floor ${floorMs.toFixed(0)} ms (requests ÷ limit), ` +
        `${
          stateGoal(
            `fan-out under a ${RATE_LIMIT} req/s limit vs its floor (no request failed)`,
            fan.ms / floorMs,
            "<=",
            1.1,
          )
        }, ` +
        `${fan.client.stats.requests} requests, ${fan.client.stats.rateLimitWaits} answers of 429, ` +
        `0 failed`,
    );
  } finally {
    await srv.close();
  }
}

if (import.meta.main) {
  const only = Deno.args[0];
  const items = Number(Deno.args[1] ?? FAN_OUT_ITEMS);
  if (only === "fan-out") await benchFanOut(items);
  else if (only === "rate-limit") await benchRateLimited(items);
  else await benchClient();
}
