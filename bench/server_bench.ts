/**
 * Benchmark of the reference server: items per second served at page_size 1000 over a large
 * collection of a 5,000-computer estate, with and without a filter, read page by page through
 * real HTTP as a client would.
 *
 * @module
 */

import { startServer } from "../lib/server/server.ts";
import { TOKEN_PATH } from "../lib/api/operations.ts";

/** One measured run. */
export interface ServerBenchResult {
  /** What was read. */
  readonly label: string;
  /** Items received. */
  readonly items: number;
  /** Pages requested. */
  readonly pages: number;
  /** Wall time in milliseconds. */
  readonly ms: number;
}

/** Read every page of a collection at page_size 1000; returns items and pages. */
async function readAll(url: string, token: string, filter?: string) {
  let items = 0;
  let pages = 0;
  for (let page = 1;; page++) {
    const q = `page_size=1000&page_number=${page}` +
      (filter ? `&filter=${encodeURIComponent(filter)}` : "");
    const res = await fetch(`${url}?${q}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    const body = await res.json();
    items += body.items.length;
    pages++;
    if (body.items.length < 1000) return { items, pages };
  }
}

/**
 * Start a 5,000-computer server, read `/computers-applications` whole with and without a filter,
 * and print items per second for each (plus the time to generate and load the estate).
 *
 * @example
 * ```ts
 * import { benchServer } from "./server_bench.ts";
 * await benchServer();
 * ```
 */
export async function benchServer(): Promise<void> {
  const computers = 5000;
  const t0 = performance.now();
  const srv = await startServer({ computers, seed: 1, quiet: true });
  const loadMs = performance.now() - t0;
  try {
    const rows = srv.store.count("computer_applications");
    console.log(
      `server: generated and loaded ${computers} computers (${rows} computer applications) ` +
        `in ${(loadMs / 1000).toFixed(2)} s`,
    );
    const tok = await fetch(srv.url + TOKEN_PATH, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=demo&client_secret=demo-secret",
    }).then((r) => r.json());
    const url = `${srv.url}/api/sam/estate/v1/computers-applications`;
    const runs: [string, string | undefined][] = [
      ["no filter", undefined],
      [
        "filter (isInstalled -eq true) -and (usedCount -ge 1)",
        "(isInstalled -eq true) -and (usedCount -ge 1)",
      ],
    ];
    const results: ServerBenchResult[] = [];
    for (const [label, filter] of runs) {
      const start = performance.now();
      const { items, pages } = await readAll(url, tok.access_token, filter);
      results.push({ label, items, pages, ms: performance.now() - start });
    }
    for (const r of results) {
      const perSecond = Math.round(r.items / (r.ms / 1000));
      console.log(
        `server: /computers-applications ${r.label}: ${r.items} items in ${r.pages} pages, ` +
          `${(r.ms / 1000).toFixed(2)} s, ${perSecond.toLocaleString("en-US")} items/s`,
      );
    }
    const rate = (r: ServerBenchResult) => r.items / r.ms;
    console.log(
      `server: filtered / unfiltered items per second: ${
        (rate(results[1]) / rate(results[0])).toFixed(2)
      }x`,
    );
  } finally {
    await srv.close();
  }
}

if (import.meta.main) await benchServer();
