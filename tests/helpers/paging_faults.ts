/**
 * Test helper: hostile paging. A proxy on loopback in front of a (reference) SAM server that
 * forwards every request, the token endpoint included, and rewrites the collection pages of one
 * path as a test says (totals stripped, a page cut short, an item skipped at a page boundary on
 * every read); and an endless service that answers any page of a collection, forever.
 *
 * @module
 */

import { type Envelope, isEnvelope } from "./fault_pages.ts";

/** What a page rewrite is told about the request it answers. */
export interface PageRequest {
  /** The page number asked for (1 when the query does not say). */
  readonly pageNumber: number;
  /** The page size asked for (100, the spec's default, when the query does not say). */
  readonly pageSize: number;
  /** How many requests for this path came before this one. */
  readonly seen: number;
  /** Every item of the collection as upstream holds it (read once, at 1,000 a page). */
  readonly all: () => Promise<unknown[]>;
}

/** Rewrites one page of the proxied path: the page to send instead. */
export type PageRewrite = (page: Envelope, request: PageRequest) => Envelope | Promise<Envelope>;

/** Options of {@link startPagingProxy}. */
export interface PagingProxyOptions {
  /** The server to forward to (`http://127.0.0.1:PORT`). */
  readonly upstream: string;
  /** The path whose pages are rewritten (`/api/sam/estate/v1/computers`). */
  readonly path: RegExp;
  /** The rewrite. */
  readonly rewrite: PageRewrite;
}

/** A running paging proxy. */
export interface PagingProxy {
  /** The proxy's base URL. */
  readonly url: string;
  /** Requests for the proxied path, by page size asked for. */
  readonly bySize: ReadonlyMap<number, number>;
  /** Stops listening. */
  close(): Promise<void>;
}

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
const DROPPED = ["host", "content-length", "connection", "transfer-encoding", "accept-encoding"];

/**
 * Starts a proxy that forwards everything to `upstream` and answers the pages of `path` as
 * `rewrite` makes them.
 *
 * @example
 * ```ts
 * import { startServer } from "../../lib/server/server.ts";
 * import { startPagingProxy, withoutTotals } from "./paging_faults.ts";
 * const srv = await startServer({ computers: 20, quiet: true, token: "t" });
 * const proxy = startPagingProxy({
 *   upstream: srv.url,
 *   path: /\/computers$/,
 *   rewrite: (page) => withoutTotals(page),
 * });
 * const page = await fetch(`${proxy.url}/api/sam/estate/v1/computers`, {
 *   headers: { authorization: "Bearer t" },
 * }).then((r) => r.json());
 * console.log(page.items.length, page.pagination.total_items); // 20 undefined
 * await proxy.close();
 * await srv.close();
 * ```
 */
export function startPagingProxy(options: PagingProxyOptions): PagingProxy {
  const upstream = options.upstream.replace(/\/+$/, "");
  const bySize = new Map<number, number>();
  let seen = 0;
  let everything: Promise<unknown[]> | undefined;
  const forward = async (req: Request, pathAndSearch: string) => {
    const headers = new Headers(req.headers);
    for (const name of DROPPED) headers.delete(name);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.bytes();
    return await fetch(upstream + pathAndSearch, {
      method: req.method,
      headers,
      ...(body ? { body } : {}),
    });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const res = await forward(req, url.pathname + url.search);
    const out = new Headers(res.headers);
    for (const name of [...DROPPED, "content-encoding"]) out.delete(name);
    if (!options.path.test(url.pathname) || res.status !== 200) {
      return new Response(await res.bytes(), { status: res.status, headers: out });
    }
    const page = await res.json();
    if (!isEnvelope(page)) return Response.json(page, { headers: JSON_TYPE });
    const pageSize = positive(url.searchParams.get("page_size")) ?? 100;
    bySize.set(pageSize, (bySize.get(pageSize) ?? 0) + 1);
    const request = {
      pageNumber: positive(url.searchParams.get("page_number")) ?? 1,
      pageSize,
      seen: seen++,
      all: () => everything ??= readAll(req, url, forward),
    };
    return Response.json(await options.rewrite(page, request), { headers: JSON_TYPE });
  });
  return {
    get url() {
      return `http://127.0.0.1:${server.addr.port}`;
    },
    bySize,
    close: () => server.shutdown(),
  };
}

/** Every item of a collection from upstream, at 1,000 a page until a short one. */
async function readAll(
  req: Request,
  url: URL,
  forward: (req: Request, pathAndSearch: string) => Promise<Response>,
): Promise<unknown[]> {
  const items: unknown[] = [];
  for (let n = 1;; n++) {
    const query = new URLSearchParams(url.search);
    query.set("page_size", "1000");
    query.set("page_number", String(n));
    const page = await (await forward(req, `${url.pathname}?${query}`)).json() as Envelope;
    items.push(...page.items);
    if (page.items.length < 1000) return items;
  }
}

function positive(text: string | null): number | undefined {
  const n = Number(text ?? "");
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The page without `total_items` and `total_pages`: as a service that sends no counts would.
 *
 * @example
 * ```ts
 * import { withoutTotals } from "./paging_faults.ts";
 * const page = { items: [1], pagination: { page_size: 10, total_items: 1, total_pages: 1 } };
 * console.log(withoutTotals(page).pagination); // { page_size: 10 }
 * ```
 */
export function withoutTotals(page: Envelope): Envelope {
  const { total_items: _items, total_pages: _pages, ...pagination } = page.pagination ?? {};
  return { ...page, pagination };
}

/**
 * The page with only its first `keep` items; pagination and links as they were.
 *
 * @example
 * ```ts
 * import { cutTo } from "./paging_faults.ts";
 * console.log(cutTo({ items: [1, 2, 3] }, 2).items); // [1, 2]
 * ```
 */
export function cutTo(page: Envelope, keep: number): Envelope {
  return { ...page, items: page.items.slice(0, keep) };
}

/**
 * Page `pageNumber` of `pageSize` items as a service whose offset paging skips the first item of
 * page 2 on every read at that page size: page 1 is items `[0, size)`, page n > 1 is
 * `[(n − 1)·size + 1, n·size + 1)`, so item `size` is never sent and every read agrees.
 *
 * @example
 * ```ts
 * import { boundarySkip } from "./paging_faults.ts";
 * const all = ["a", "b", "c", "d", "e"];
 * console.log(boundarySkip(all, 1, 2), boundarySkip(all, 2, 2), boundarySkip(all, 3, 2));
 * // ["a", "b"] ["d", "e"] []
 * ```
 */
export function boundarySkip(all: readonly unknown[], pageNumber: number, pageSize: number) {
  const from = (pageNumber - 1) * pageSize + (pageNumber > 1 ? 1 : 0);
  return all.slice(from, from + pageSize);
}

/** Options of {@link startEndlessService}. */
export interface EndlessServiceOptions {
  /** The envelope path answered with full pages of new items (`/api/sam/v1/licenses`). */
  readonly envelopePath?: string;
  /**
   * Whether the envelope path answers full pages at this page size (default always); when not,
   * page 1 holds 3 items and the collection ends there.
   */
  readonly fullPagesAt?: (pageSize: number) => boolean;
  /** The flat path answered with one new object and a fresh `next` link each time. */
  readonly flatPath?: string;
  /**
   * The `next` link of flat page n (default a fresh one: `?page_number=n+1&nonce=n`); return an
   * earlier page's link to make a loop.
   */
  readonly nextOf?: (pageNumber: number, path: string) => string;
}

/** A running endless service. */
export interface EndlessService {
  /** Its base URL. */
  readonly url: string;
  /** Requests answered. */
  readonly requests: number;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * A service (bearer token `t`) whose collections never end: the envelope path answers every page
 * full of new ids (and no counts), the flat path one new object a page with a `next` link.
 *
 * @example
 * ```ts
 * import { startEndlessService } from "./paging_faults.ts";
 * const svc = startEndlessService({ envelopePath: "/api/sam/v1/licenses" });
 * const page = await fetch(`${svc.url}/api/sam/v1/licenses?page_size=3&page_number=7`, {
 *   headers: { authorization: "Bearer t" },
 * }).then((r) => r.json());
 * console.log(page.items.map((l: { id: string }) => l.id)); // ["L7-1", "L7-2", "L7-3"]
 * await svc.close();
 * ```
 */
export function startEndlessService(options: EndlessServiceOptions): EndlessService {
  let requests = 0;
  const nextOf = options.nextOf ??
    ((n: number, path: string) => `${path.slice(1)}?page_number=${n + 1}&nonce=${n}`);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    requests++;
    const url = new URL(req.url);
    const n = positive(url.searchParams.get("page_number")) ?? 1;
    if (url.pathname === options.envelopePath) {
      const size = positive(url.searchParams.get("page_size")) ?? 100;
      const full = options.fullPagesAt?.(size) ?? true;
      const length = full ? size : n === 1 ? 3 : 0;
      const items = Array.from({ length }, (_, i) => ({ id: `L${n}-${i + 1}`, quantity: 1 }));
      return Response.json({ items, pagination: { page_size: size, page_number: n } });
    }
    if (url.pathname === options.flatPath) {
      const next = nextOf(n, url.pathname);
      return Response.json({
        id: `S${n}`,
        name: `State ${n}`,
        _links: [{ href: next, rel: "next", method: "GET" }],
      });
    }
    return Response.json({ error: { code: 404, message: "Not found." } }, { status: 404 });
  });
  return {
    get url() {
      return `http://127.0.0.1:${server.addr.port}`;
    },
    get requests() {
      return requests;
    },
    close: () => server.shutdown(),
  };
}
