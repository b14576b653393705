/**
 * Benchmark of the API client's paging: a 50,000-item collection read sequentially and in
 * parallel mode from the reference server with 20 ms of latency per response.
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
import { startServer } from "../lib/server/server.ts";

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
}

if (import.meta.main) await benchClient();
