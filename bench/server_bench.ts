/**
 * Benchmark of the reference server:
 *
 * - items per second served at page_size 1000 over `/computers-applications` of a
 *   5,000-computer estate, with and without a filter, read page by page through real HTTP, and
 *   side by side with a bare `Deno.serve` answering the very same page bodies (the ratio is the
 *   server's share of what HTTP alone allows); the server keeps the body of each page it sent
 *   until its store changes, so each read is measured cold (the first after a store change:
 *   rows read and written anew) and warm (read again);
 * - the server work of each report's request pattern at 5,000 and 50,000 computers (the reads
 *   the report sends, served in process by `handleRead`, so only the server's time is counted),
 *   with the growth ratio; linear is 10× (the goal of at most ~11× is on each report's time end
 *   to end, judged by `report_scaling_bench.ts`; this is the server's part of it). Each figure
 *   is the fastest of five runs, each after a store change, so the caches an earlier run filled
 *   do not serve it; the runs alternate between the two estates, both loaded first.
 *
 * Usage: `deno run -P=bench bench/server_bench.ts [--no-scaling]`.
 *
 * @module
 */

import { stateGoal } from "./goals.ts";
import { startServer } from "../lib/server/server.ts";
import { TOKEN_PATH } from "../lib/api/operations.ts";
import { generateEstate } from "../lib/server/generator.ts";
import { handleRead, Router } from "../lib/server/router.ts";
import { EstateStore } from "../lib/server/store.ts";

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

/** Read every page of a collection at page_size 1000; returns items, pages and, if asked, bodies. */
async function readAll(url: string, token: string, filter?: string, keep?: string[]) {
  let items = 0;
  let pages = 0;
  for (let page = 1;; page++) {
    const q = `page_size=1000&page_number=${page}` +
      (filter ? `&filter=${encodeURIComponent(filter)}` : "");
    const res = await fetch(`${url}?${q}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    const text = await res.text();
    keep?.push(text);
    const body = JSON.parse(text);
    items += body.items.length;
    pages++;
    if (body.items.length < 1000) return { items, pages };
  }
}

/** A bare `Deno.serve` answering `page_number=N` with the N-th of the given bodies. */
function bareServer(bodies: readonly string[]) {
  const encoded = bodies.map((b) => new TextEncoder().encode(b));
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const page = Number(new URL(req.url).searchParams.get("page_number") ?? "1");
    return new Response(encoded[page - 1], {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  });
}

const rate = (r: ServerBenchResult) => r.items / r.ms;

function printRun(r: ServerBenchResult): void {
  const perSecond = Math.round(r.items / (r.ms / 1000));
  console.log(
    `server: ${r.label}: ${r.items} items in ${r.pages} pages, ` +
      `${(r.ms / 1000).toFixed(2)} s, ${perSecond.toLocaleString("en-US")} items/s`,
  );
}

/** One timed run of a read. */
async function timed(label: string, read: () => ReturnType<typeof readAll>) {
  const start = performance.now();
  const { items, pages } = await read();
  return { label, items, pages, ms: performance.now() - start };
}

/**
 * The fastest of `rounds` runs of each read, the reads taken in turn within each round, so that a
 * busy spell of the machine slows all of them alike rather than one.
 */
async function interleaved(
  rounds: number,
  reads: [string, () => ReturnType<typeof readAll>][],
): Promise<ServerBenchResult[]> {
  const fastest: ServerBenchResult[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [i, [label, read]] of reads.entries()) {
      const r = await timed(label, read);
      if (!fastest[i] || r.ms < fastest[i].ms) fastest[i] = r;
    }
  }
  return fastest;
}

/** Server vs bare serve of the same bodies, unfiltered and filtered, at 5,000 computers. */
async function benchThroughput(): Promise<void> {
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
    const token = tok.access_token as string;
    const url = `${srv.url}/api/sam/estate/v1/computers-applications`;
    const filter = "(isInstalled -eq true) -and (usedCount -ge 1)";
    const bodies: string[] = [];
    await readAll(url, token, undefined, bodies); // warm-up, and the bodies for the bare server
    const bare = bareServer(bodies);
    const bareUrl = `http://127.0.0.1:${bare.addr.port}/x`;
    // A write that matches no row still counts as a change: every cache is dropped. Each round
    // reads cold (first after a change) before warm, so each warm read follows its cold one.
    const change = () =>
      srv.store.update("computers", { id: "\u0000bench" }, { id: "\u0000bench" });
    let cold, plain, filteredCold, filtered, bareRun: ServerBenchResult;
    try {
      await readAll(bareUrl, token);
      [cold, plain, filteredCold, filtered, bareRun] = await interleaved(5, [
        ["/computers-applications no filter, cold (first read after a store change)", () => {
          change();
          return readAll(url, token);
        }],
        ["/computers-applications no filter, warm (read again)", () => readAll(url, token)],
        [`/computers-applications filter ${filter}, cold`, () => {
          change();
          return readAll(url, token, filter);
        }],
        [`/computers-applications filter ${filter}, warm`, () => readAll(url, token, filter)],
        ["bare Deno.serve of the same bodies", () => readAll(bareUrl, token)],
      ]);
    } finally {
      await bare.shutdown();
    }
    for (const r of [cold, plain, filteredCold, filtered, bareRun]) printRun(r);
    const ratio = (a: ServerBenchResult, b: ServerBenchResult) => (rate(a) / rate(b)).toFixed(2);
    console.log(
      `server: filtered / unfiltered items per second: ${ratio(filtered, plain)}x warm, ` +
        `${ratio(filteredCold, cold)}x cold`,
    );
    console.log(
      `server: server (warm) / bare Deno.serve items per second at page_size 1000: ` +
        stateGoal(
          "server vs bare Deno.serve of the same bytes, page_size 1000 (repeated read)",
          rate(plain) / rate(bareRun),
          ">=",
          0.8,
        ),
    );
    console.log(
      `server: server (cold) / bare Deno.serve items per second at page_size 1000: ` +
        `${ratio(cold, bareRun)}x (every item read from SQLite and written anew)`,
    );
  } finally {
    await srv.close();
  }
}

/** Reads one collection whole through the handler, page_size 1000; returns the pages read. */
async function serveAll(
  router: Router,
  store: EstateStore,
  path: string,
  query = "",
  each?: (item: Record<string, unknown>) => void,
) {
  const get = (page: number) => {
    const url = new URL(`http://x${path}?page_size=1000&page_number=${page}${query}`);
    const found = router.resolve("GET", url.pathname);
    if (found.kind !== "match") throw new Error(`no route for ${path}`);
    return handleRead({ op: found.op, params: found.params, url, store });
  };
  // Read until a short page (license collections carry no totals).
  for (let page = 1;; page++) {
    const items: Record<string, unknown>[] = (await get(page).json()).items ?? [];
    if (each) items.forEach(each);
    if (items.length < 1000) return page;
  }
}

const APPS = "/api/sam/estate/v1/computers-applications";
const COMPUTERS = "/api/sam/estate/v1/computers";
const METERING = "/api/sam/estate/v1/computers-metering";
const LICENSE_LIST = "/api/sam/v1/licenses";
const ENTITLEMENTS = "/api/sam/v1/licenses/entitlements/computers";
const filterQuery = (filter: string) => `&filter=${encodeURIComponent(filter)}`;

/** Each report's reads, as the report sends them (batch sizes of the reports' own constants). */
const PATTERNS: Record<string, (router: Router, store: EstateStore) => Promise<number>> = {
  "entitlement-state-by-computer": async (router, store) => {
    // The chunks' ids come from the computer pages served, as the report takes them.
    const ids: string[] = [];
    let pages = await serveAll(router, store, COMPUTERS, "", (c) => ids.push(String(c.id)));
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = filterQuery(`computerId -in [${ids.slice(i, i + 100).join(",")}]`);
      pages += await serveAll(router, store, ENTITLEMENTS, chunk);
    }
    return pages;
  },
  "unused-software": async (router, store) => {
    const idle = "(isInstalled -eq true) -and ((lastUsed -le 2024-01-01T00:00:00Z) -or " +
      "(lastUsed -exists false))";
    return await serveAll(router, store, ENTITLEMENTS) +
      await serveAll(router, store, APPS, filterQuery("isInstalled -eq true")) +
      await serveAll(
        router,
        store,
        APPS,
        `${filterQuery(idle)}&sort=${encodeURIComponent("computerId:asc,applicationId:asc")}`,
      );
  },
  "license-position": async (router, store) => {
    // The ELP's reads: licenses, metric tracking, every install's entitlement state, computers,
    // and per licensed application its computer and user transfer lists.
    const apps = new Set<string>();
    let pages = await serveAll(router, store, LICENSE_LIST, "", (l) => {
      apps.add(String(l.applicationId));
    });
    for (const path of [METERING, ENTITLEMENTS, COMPUTERS]) {
      pages += await serveAll(router, store, path);
    }
    for (const app of apps) {
      for (const holder of ["computers", "users"]) {
        pages += await serveAll(router, store, `${LICENSE_LIST}/transfers/${app}/${holder}`);
      }
    }
    return pages;
  },
  "end-of-life-software": async (router, store) => {
    const eol: string[] = [];
    const pages = await serveAll(
      router,
      store,
      "/api/sam/softwareregistry/v1/applications",
      filterQuery("isEndOfLife -eq true"),
      (a) => eol.push(String(a.id)),
    );
    const filter = `(isInstalled -eq true) -and (applicationId -in [${eol.join(",")}])`;
    return pages + await serveAll(router, store, APPS, filterQuery(filter));
  },
};

/** One run of a report's reads from a store as it finds it after a change (a write that matches
 * no row): what an earlier run left in the server's caches is not counted. */
async function coldRun(store: EstateStore, run: () => Promise<number>) {
  store.update("computers", { id: "\u0000bench" }, { id: "\u0000bench" });
  const start = performance.now();
  const pages = await run();
  return { took: performance.now() - start, pages };
}

/**
 * Server time of every report's reads at 5,000 and 50,000 computers, and the growth. Both estates
 * are loaded first and the runs alternate between them (five each, the fastest kept), so a busy
 * spell of the machine or the engine's warming up weighs on both sizes alike.
 */
async function benchScaling(): Promise<void> {
  const sizes = [5_000, 50_000];
  const router = new Router();
  const stores: EstateStore[] = [];
  try {
    for (const computers of sizes) {
      const store = new EstateStore();
      stores.push(store);
      const t0 = performance.now();
      await store.bulkInsert((sink) => {
        generateEstate({ seed: 1, computers }, sink);
      });
      console.log(
        `server scaling: loaded ${computers} computers in ` +
          `${((performance.now() - t0) / 1000).toFixed(2)} s`,
      );
    }
    for (const [report, run] of Object.entries(PATTERNS)) {
      const fastest = sizes.map(() => ({ took: Infinity, pages: 0 }));
      for (let round = 0; round < 5; round++) {
        for (const [i, store] of stores.entries()) {
          const r = await coldRun(store, () => run(router, store));
          if (r.took < fastest[i].took) fastest[i] = r;
        }
      }
      for (const [i, computers] of sizes.entries()) {
        console.log(
          `server scaling: ${report} at ${computers} computers: ${fastest[i].pages} pages, ` +
            `${(fastest[i].took / 1000).toFixed(2)} s of server work`,
        );
      }
      console.log(
        `server scaling: ${report} ${sizes[0]} -> ${sizes[1]} computers: ` +
          `${(fastest[1].took / fastest[0].took).toFixed(1)}x (linear 10x; the server's part of ` +
          `the report's time, whose growth is judged end to end by \`deno task bench reports\`)`,
      );
    }
  } finally {
    for (const store of stores) store.close();
  }
}

/**
 * Print the server's throughput against a bare `Deno.serve` of the same bytes, and (unless
 * `scaling` is false) each report's server work from 5,000 to 50,000 computers.
 *
 * @example
 * ```ts
 * import { benchServer } from "./server_bench.ts";
 * await benchServer({ scaling: false });
 * ```
 */
export async function benchServer(options: { scaling?: boolean } = {}): Promise<void> {
  await benchThroughput();
  if (options.scaling ?? true) await benchScaling();
}

if (import.meta.main) await benchServer({ scaling: !Deno.args.includes("--no-scaling") });
