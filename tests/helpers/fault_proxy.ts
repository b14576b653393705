/**
 * Test helper: an HTTP proxy on loopback in front of a (reference) SAM API server that forwards
 * every request, the OAuth token endpoint included, and can tell one lie on cue: a page cut
 * short, a page count too low, an item removed or inserted between page reads, an item repeated
 * across pages, a body of the wrong shape, an error status, a dropped connection, a cut or
 * non-JSON body, or a slow answer.
 *
 * It is independent of the server's own fault plan (`lib/server/faults.ts`): it works on the
 * JSON bodies the server sends, so it can stand in front of any server.
 *
 * A fault matches requests by path (and optionally query string) and fires from the `nth`
 * matching request for `times` requests (`Infinity`: persistent). Faults on one page (`page`)
 * count the requests for that page; faults that bend a whole read of a collection (a low page
 * count, drift) count passes over it: a pass starts with the first request for an affected page
 * and ends with a request for an earlier page (a re-read from page 1 is a new pass).
 *
 * @module
 */

import { TOKEN_PATH } from "../../lib/api/operations.ts";
import {
  driftInsert,
  driftRemove,
  duplicateAcross,
  type Envelope,
  isEnvelope,
  lowTotalPages,
  shortPage,
} from "./fault_pages.ts";

/** Which requests a fault applies to, and how often it fires. */
export interface FaultTarget {
  /** Tested against the request's path (`/api/sam/estate/v1/computers`). */
  readonly path: RegExp;
  /** Tested against the query string with its `?` (`""` without one); any when absent. */
  readonly search?: RegExp;
  /** The first matching request (or pass) it fires on, from 1 (default 1). */
  readonly nth?: number;
  /** How many matching requests (or passes) it fires on (default 1; `Infinity`: persistent). */
  readonly times?: number;
  /**
   * Every matching answer loses `pagination.total_pages`, whether the fault fires or not: the
   * collection as a service that sends no page count (connector collections) would send it.
   */
  readonly withoutTotalPages?: boolean;
}

/** What a fault does to a matching request. */
export type FaultKind =
  | { readonly kind: "shortPage"; readonly page: number; readonly drop?: number }
  | { readonly kind: "duplicate"; readonly page: number }
  | { readonly kind: "lowTotalPages"; readonly totalPages?: number }
  | { readonly kind: "driftRemove"; readonly afterPage: number }
  | { readonly kind: "driftInsert"; readonly afterPage: number }
  | { readonly kind: "wrongShape" }
  | { readonly kind: "status"; readonly status: number; readonly retryAfter?: number }
  | { readonly kind: "reset" }
  | { readonly kind: "truncate" }
  | { readonly kind: "malformed" }
  | { readonly kind: "slow"; readonly delayMs: number }
  | { readonly kind: "editBody"; readonly edit: (text: string) => string };

/**
 * One fault: what it does and where.
 *
 * - `shortPage`: `drop` items (default 10) taken out of page `page`; pagination as it was.
 * - `duplicate`: page `page` starts with the last item of the page before (its length kept).
 * - `lowTotalPages`: every page of a pass says `total_pages` is `totalPages` (default one less).
 * - `driftRemove` / `driftInsert`: pages after `afterPage` shifted by one item as after a removal
 *   or an insert on an earlier page, with `total_items` (and `total_pages`) to match.
 * - `wrongShape`: 200 with `{"items":"oops"}`.
 * - `status`: that status with the server's error body (and `Retry-After` when given).
 * - `reset`: 200 headers and half the body, then the connection breaks.
 * - `truncate`: 200 with the first half of the body.
 * - `malformed`: 200 with an HTML page.
 * - `slow`: the real answer after `delayMs`.
 * - `editBody`: the real answer's body text passed through `edit` (a value JSON values cannot
 *   carry once parsed, a bare `1e309` or `9007199254740993`, written as text).
 */
export type Fault = FaultTarget & FaultKind;

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** The server to forward to (`http://127.0.0.1:PORT`). */
  readonly upstream: string;
}

/** An answer read whole from upstream. */
interface Upstream {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array<ArrayBuffer>;
}

const DROPPED_HEADERS = ["host", "content-length", "connection", "transfer-encoding"];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Counts passes over a collection: a request before `from` ends the pass in progress. */
class Passes {
  #count = 0;
  #open = false;

  /** The pass (from 1) a request for `page` belongs to, or 0 for a page before `from`. */
  observe(page: number, from: number): number {
    if (page < from || page === 1) this.#open = false;
    if (page < from) return 0;
    if (!this.#open) {
      this.#open = true;
      this.#count++;
    }
    return this.#count;
  }
}

/**
 * A running fault proxy: give it a fault with {@link FaultProxy.inject}, point a client at
 * {@link FaultProxy.url}, then ask how often the fault fired.
 *
 * @example
 * ```ts
 * import { startServer } from "../../lib/server/server.ts";
 * import { startFaultProxy } from "./fault_proxy.ts";
 * const srv = await startServer({ computers: 20, quiet: true, token: "t" });
 * const proxy = startFaultProxy({ upstream: srv.url });
 * proxy.inject({ kind: "status", status: 503, path: /\/computers$/ });
 * const res = await fetch(`${proxy.url}/api/sam/estate/v1/computers`, {
 *   headers: { authorization: "Bearer t" },
 * });
 * console.log(res.status, proxy.fired, proxy.requests); // 503 1 ["/api/sam/estate/v1/computers"]
 * await res.body?.cancel();
 * await proxy.close();
 * await srv.close();
 * ```
 */
export class FaultProxy {
  #server: Deno.HttpServer<Deno.NetAddr>;
  #upstream: string;
  #fault: Fault | undefined;
  #seen = 0;
  #fired = 0;
  #passes = new Passes();
  #tokens: string[] = [];
  #requests: string[] = [];

  /** Starts listening; use {@link startFaultProxy}. */
  constructor(options: FaultProxyOptions) {
    this.#upstream = options.upstream.replace(/\/+$/, "");
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => this.#handle(req),
    );
  }

  /** The proxy's base URL (`http://127.0.0.1:PORT`). */
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** How many answers the current fault changed. */
  get fired(): number {
    return this.#fired;
  }

  /**
   * The path and query string of every request since the fault was last replaced, in arrival
   * order (`/api/sam/estate/v1/computers?page_size=100&page_number=2`): which pages a run read.
   */
  get requests(): readonly string[] {
    return this.#requests;
  }

  /** Every access token the token endpoint handed out through the proxy (to check for leaks). */
  get tokens(): readonly string[] {
    return this.#tokens;
  }

  /**
   * Replaces the fault (none: forward everything as is) and restarts its counters and the
   * {@link FaultProxy.requests} seen.
   */
  inject(fault: Fault | undefined): void {
    this.#fault = fault;
    this.#seen = 0;
    this.#fired = 0;
    this.#requests = [];
    this.#passes = new Passes();
  }

  /** Stops listening. */
  async close(): Promise<void> {
    await this.#server.shutdown();
  }

  async #handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    this.#requests.push(url.pathname + url.search);
    const res = await this.#answer(req);
    const fault = this.#fault;
    if (!fault?.withoutTotalPages || !matchesTarget(fault, url) || res.status !== 200) return res;
    const body = parseJson(new Uint8Array(await res.arrayBuffer()));
    if (isEnvelope(body)) delete body.pagination?.total_pages;
    return new Response(JSON.stringify(body), { status: res.status, headers: JSON_TYPE });
  }

  async #answer(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const fault = this.#firing(url);
    const body = req.method === "GET" || req.method === "HEAD"
      ? undefined
      : new Uint8Array(await req.arrayBuffer());
    const forward = (search = url.search) => this.#forward(req, url.pathname + search, body);
    if (!fault) return this.#relay(url, await forward());
    switch (fault.kind) {
      case "status":
        this.#fired++;
        return statusResponse(fault.status, fault.retryAfter);
      case "wrongShape":
        this.#fired++;
        return new Response('{"items":"oops"}', { headers: JSON_TYPE });
      case "malformed":
        this.#fired++;
        return new Response("<html><body>Service temporarily degraded</body></html>", {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      case "slow":
        await sleep(fault.delayMs);
        this.#fired++;
        return this.#relay(url, await forward());
      case "reset":
        this.#fired++;
        return resetResponse(await forward());
      case "truncate":
        this.#fired++;
        return truncatedResponse(await forward());
      case "editBody": {
        const own = await forward();
        this.#fired++;
        const text = fault.edit(new TextDecoder().decode(own.bytes));
        return new Response(text, { status: own.status, headers: JSON_TYPE });
      }
      default:
        return await this.#rewritePage(fault, url, forward);
    }
  }

  /** The fault if it fires for this request (counted here, in arrival order). */
  #firing(url: URL): Fault | undefined {
    const fault = this.#fault;
    if (!fault || !matchesTarget(fault, url)) return undefined;
    const page = pageNumberOf(url);
    let n: number;
    if (fault.kind === "shortPage" || fault.kind === "duplicate") {
      if (page !== fault.page) return undefined;
      n = ++this.#seen;
    } else if (fault.kind === "lowTotalPages") {
      n = this.#passes.observe(page, 1);
    } else if (fault.kind === "driftRemove" || fault.kind === "driftInsert") {
      n = this.#passes.observe(page, fault.afterPage + 1);
    } else {
      n = ++this.#seen;
    }
    const nth = fault.nth ?? 1;
    return n >= nth && n < nth + (fault.times ?? 1) ? fault : undefined;
  }

  async #rewritePage(
    fault: Fault,
    url: URL,
    forward: (search?: string) => Promise<Upstream>,
  ): Promise<Response> {
    const page = pageNumberOf(url);
    const own = await forward();
    const current = parseEnvelope(own);
    if (!current) return this.#relay(url, own);
    let changed: Envelope | undefined;
    if (fault.kind === "shortPage") changed = shortPage(current, fault.drop ?? 10);
    else if (fault.kind === "lowTotalPages") changed = lowTotalPages(current, fault.totalPages);
    else {
      const neighbour = fault.kind === "driftRemove" ? page + 1 : page - 1;
      const other = parseEnvelope(await forward(withPage(url, neighbour)));
      if (!other) return this.#relay(url, own);
      if (fault.kind === "driftRemove") changed = driftRemove(current, other);
      else if (fault.kind === "driftInsert") changed = driftInsert(current, other);
      else changed = duplicateAcross(current, other);
    }
    this.#fired++;
    return new Response(JSON.stringify(changed), { status: own.status, headers: JSON_TYPE });
  }

  async #forward(
    req: Request,
    pathAndSearch: string,
    body?: Uint8Array<ArrayBuffer>,
  ): Promise<Upstream> {
    const headers = new Headers(req.headers);
    for (const name of DROPPED_HEADERS) headers.delete(name);
    const res = await fetch(this.#upstream + pathAndSearch, {
      method: req.method,
      headers,
      ...(body ? { body } : {}),
    });
    return { status: res.status, headers: res.headers, bytes: await res.bytes() };
  }

  /** The upstream answer as it was (noting the tokens the token endpoint hands out). */
  #relay(url: URL, upstream: Upstream): Response {
    if (url.pathname === TOKEN_PATH && upstream.status === 200) {
      const token = parseJson(upstream.bytes)?.access_token;
      if (typeof token === "string") this.#tokens.push(token);
    }
    return new Response(upstream.bytes, {
      status: upstream.status,
      headers: relayedHeaders(upstream.headers),
    });
  }
}

/**
 * Starts a fault proxy on an ephemeral loopback port in front of `upstream`, forwarding
 * everything until a fault is injected.
 *
 * @example
 * ```ts
 * import { startServer } from "../../lib/server/server.ts";
 * import { startFaultProxy } from "./fault_proxy.ts";
 * const srv = await startServer({ computers: 30, quiet: true, token: "t" });
 * const proxy = startFaultProxy({ upstream: srv.url });
 * proxy.inject({ kind: "shortPage", page: 2, drop: 3, path: /\/computers$/ });
 * const page = await fetch(`${proxy.url}/api/sam/estate/v1/computers?page_size=10&page_number=2`, {
 *   headers: { authorization: "Bearer t" },
 * }).then((r) => r.json());
 * console.log(page.items.length, page.pagination.total_items); // 7 30
 * await proxy.close();
 * await srv.close();
 * ```
 */
export function startFaultProxy(options: FaultProxyOptions): FaultProxy {
  return new FaultProxy(options);
}

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

/** Whether a request is one a fault's target names (by path, and query string if given). */
function matchesTarget(target: FaultTarget, url: URL): boolean {
  return target.path.test(url.pathname) && (!target.search || target.search.test(url.search));
}

function pageNumberOf(url: URL): number {
  const n = Number(url.searchParams.get("page_number") ?? "1");
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** The query string of `url` asking for page `n` instead. */
function withPage(url: URL, n: number): string {
  const params = new URLSearchParams(url.search);
  params.set("page_number", String(n));
  return `?${params}`;
}

// deno-lint-ignore no-explicit-any
function parseJson(bytes: Uint8Array<ArrayBuffer>): any {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

function parseEnvelope(upstream: Upstream): Envelope | undefined {
  if (upstream.status !== 200) return undefined;
  const body = parseJson(upstream.bytes);
  return isEnvelope(body) ? body : undefined;
}

function relayedHeaders(headers: Headers): Headers {
  const out = new Headers(headers);
  for (const name of [...DROPPED_HEADERS, "content-encoding"]) out.delete(name);
  return out;
}

function statusResponse(status: number, retryAfter?: number): Response {
  const message = status === 401
    ? "The token has expired."
    : status === 403
    ? "The caller lacks permission for this endpoint."
    : status === 429
    ? "Too many requests."
    : `Fault injected by the proxy (${status}).`;
  const headers: Record<string, string> = { ...JSON_TYPE };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  return new Response(JSON.stringify({ error: { code: status, message } }), { status, headers });
}

/**
 * 200 headers announcing the whole body, then only its first half before the connection closes:
 * the client's read of the body breaks off.
 */
function resetResponse(upstream: Upstream): Response {
  const half = upstream.bytes.slice(0, Math.floor(upstream.bytes.length / 2));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(half);
      controller.close();
    },
  });
  const headers = { ...JSON_TYPE, "content-length": String(upstream.bytes.length) };
  return new Response(body, { status: 200, headers });
}

/** 200 with the first half of the body (a matching content length). */
function truncatedResponse(upstream: Upstream): Response {
  const cut = upstream.bytes.slice(0, Math.max(1, Math.floor(upstream.bytes.length / 2)));
  return new Response(cut, { status: 200, headers: JSON_TYPE });
}
