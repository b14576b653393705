/**
 * The reference SAM API server: every operation of the spec over a generated estate in SQLite,
 * with OAuth2 client credentials, the spec's error shapes, and knobs for tests (faults, latency,
 * rate limit, request counters).
 *
 * Request sizes: a request target over {@link REQUEST_LIMITS}`.targetBytes` gets 414, header
 * fields over `headerBytes` or more than `headerFields` of them get 431, in the error shape of
 * every other answer. Beyond these, Deno's own HTTP layer (hyper) answers before the handler
 * sees anything, measured on Deno 2.9: a request head (request line and headers) of 65,536
 * bytes or more, or more than 128 header fields, gets a bare `400 Bad Request` with an empty
 * body and `connection: close`; a client that has sent more than the server read then sees a
 * connection reset instead, because the socket is closed with unread bytes in it (TCP RST).
 *
 * @module
 */

import { TOKEN_PATH } from "../api/operations.ts";
import { TokenAuthority } from "./auth.ts";
import { handleConnectorWrite, isConnectorWrite } from "./connectors.ts";
import { FaultPlan, type FiredFault, RateLimiter, ServerStats } from "./faults.ts";
import { generateEstate } from "./generator.ts";
import { handleRead, Router } from "./router.ts";
import { type Dialect, errorBody, HttpError, jsonResponse } from "./serialize.ts";
import { EstateStore } from "./store.ts";

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** The port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** The interface to listen on (default `127.0.0.1`). */
  readonly hostname?: string;
  /** Seed of the generated estate (default 1). */
  readonly seed?: number;
  /** Computers in the generated estate (default 400). */
  readonly computers?: number;
  /** The estate's reference time (default: the generator's fixed `DEFAULT_NOW`). */
  readonly now?: Date;
  /** A database file to keep the estate in; an estate already in it is reused. */
  readonly db?: string;
  /** A store to serve instead of generating one (it is not closed by `close()`). */
  readonly store?: EstateStore;
  /** The accepted client id (default `demo`). */
  readonly clientId?: string;
  /** The accepted client secret (default `demo-secret`). */
  readonly clientSecret?: string;
  /** A fixed bearer token that is also accepted. */
  readonly token?: string;
  /** Lifetime of issued tokens (default 3600 seconds). */
  readonly tokenTtlSeconds?: number;
  /** Delay added to every response (default 0). */
  readonly latencyMs?: number;
  /** Requests per second before 429 (default 0: no limit). */
  readonly rateLimit?: number;
  /** Stops the server when aborted. */
  readonly signal?: AbortSignal;
  /** Log nothing (unexpected errors are otherwise logged to stderr, without secrets). */
  readonly quiet?: boolean;
  /**
   * The wire dialect: `spec` (default: the spec's paths and string quirks) or `real` (the public
   * service's: registry at `software-registry` only, typed values, RFC 3339 license dates, license
   * transfers for a computer paged). See `Dialect` in `serialize.ts`.
   */
  readonly dialect?: Dialect;
  /**
   * In the `spec` dialect, whether the registry also answers under `software-registry` (default
   * `true`, as routes.md says); `false` for a server that knows the spec's spelling only.
   */
  readonly registryAlias?: boolean;
}

/** A running server and its controls. */
export interface RunningServer {
  /** The base URL (`http://127.0.0.1:PORT`). */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** The estate served. */
  readonly store: EstateStore;
  /** The wire dialect served. */
  readonly dialect: Dialect;
  /** The fault plan. */
  readonly faults: FaultPlan;
  /** Tokens: issue counters, `expireAll()`, `revoke()`. */
  readonly auth: TokenAuthority;
  /** Request counters. */
  readonly stats: ServerStats;
  /** Latency added to every response; may be changed while running. */
  latencyMs: number;
  /** Stop listening and release the store (unless it was passed in). */
  close(): Promise<void>;
}

/**
 * The request sizes the server answers, below Deno's own limits (see the module notes): the
 * request target (path and query, 8 KiB as common front ends allow), the header fields
 * (`name: value` lines, 16 KiB as Node.js allows) and their number.
 *
 * @example
 * ```ts
 * import { REQUEST_LIMITS } from "./server.ts";
 * console.log(REQUEST_LIMITS.targetBytes); // 8192
 * ```
 */
export const REQUEST_LIMITS = {
  targetBytes: 8192,
  headerBytes: 16384,
  headerFields: 100,
} as const;

/** The request target as sent (path and query): what follows the authority in `req.url`. */
function requestTarget(req: Request): string {
  const afterScheme = req.url.indexOf("//") + 2;
  const slash = req.url.indexOf("/", afterScheme);
  return slash < 0 ? "/" : req.url.slice(slash);
}

/** A 414 or 431 for a request over {@link REQUEST_LIMITS}, or nothing. */
function sizeError(req: Request): HttpError | undefined {
  const target = new TextEncoder().encode(requestTarget(req)).length;
  if (target > REQUEST_LIMITS.targetBytes) {
    return new HttpError(
      414,
      `The request target is ${target} bytes; the limit is ${REQUEST_LIMITS.targetBytes}.`,
    );
  }
  let fields = 0;
  let bytes = 0;
  for (const [name, value] of req.headers) {
    fields++;
    bytes += name.length + value.length + 4; // ": " and CRLF
  }
  if (fields > REQUEST_LIMITS.headerFields) {
    return new HttpError(
      431,
      `The request has ${fields} header fields; the limit is ${REQUEST_LIMITS.headerFields}.`,
    );
  }
  if (bytes > REQUEST_LIMITS.headerBytes) {
    return new HttpError(
      431,
      `The request header fields are ${bytes} bytes; the limit is ${REQUEST_LIMITS.headerBytes}.`,
    );
  }
  return undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Load a fresh estate into a store unless it already holds one. */
async function ensureEstate(
  store: EstateStore,
  options: { seed: number; computers: number; now?: Date },
): Promise<void> {
  if (store.count("computers") > 0) return;
  await store.bulkInsert((sink) => {
    generateEstate(options, sink);
  });
}

/** A response whose headers are sent and whose body then breaks off (a dropped connection). */
function resetResponse(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"items":['));
    },
    pull(controller) {
      controller.error(new Error("connection reset by fault plan"));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

/** The first half of a body, sent with 200 and a matching content length. */
async function truncated(res: Response): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const cut = bytes.slice(0, Math.max(1, Math.floor(bytes.length / 2)));
  return new Response(cut, {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function faultResponse(fault: FiredFault): Response {
  const status = fault.spec.status ?? 500;
  const headers: Record<string, string> = {};
  if (fault.spec.retryAfter !== undefined) headers["retry-after"] = String(fault.spec.retryAfter);
  const message = status === 429
    ? "Too many requests."
    : status === 503
    ? "The service is unavailable; try again later."
    : `Fault injected (${status}).`;
  return jsonResponse(errorBody(status, message), status, headers);
}

/**
 * Start the reference server (on loopback, an ephemeral port by default). Generates the estate
 * (`computers`, `seed`) unless a store is given or the `db` file already holds one.
 *
 * @example Start, get a token, read computers, stop
 * ```ts
 * import { startServer } from "./server.ts";
 * const srv = await startServer({ computers: 20, quiet: true });
 * const tok = await fetch(`${srv.url}/idp/api/connect/token`, {
 *   method: "POST",
 *   headers: { "content-type": "application/x-www-form-urlencoded" },
 *   body: "grant_type=client_credentials&client_id=demo&client_secret=demo-secret",
 * }).then((r) => r.json());
 * const page = await fetch(`${srv.url}/api/sam/estate/v1/computers?page_size=5`, {
 *   headers: { authorization: `Bearer ${tok.access_token}` },
 * }).then((r) => r.json());
 * console.log(page.items.length); // 5
 * await srv.close();
 * ```
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const ownStore = options.store === undefined;
  const store = options.store ?? new EstateStore({ path: options.db ?? ":memory:" });
  try {
    if (ownStore) {
      await ensureEstate(store, {
        seed: options.seed ?? 1,
        computers: options.computers ?? 400,
        ...(options.now ? { now: options.now } : {}),
      });
    }
  } catch (err) {
    if (ownStore) store.close();
    throw err;
  }
  const auth = new TokenAuthority({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    token: options.token,
    tokenTtlSeconds: options.tokenTtlSeconds,
  });
  const faults = new FaultPlan();
  const stats = new ServerStats();
  const limiter = new RateLimiter(options.rateLimit ?? 0);
  const dialect = options.dialect ?? "spec";
  if (dialect !== "spec" && dialect !== "real") {
    if (ownStore) store.close();
    throw new RangeError(`dialect must be "spec" or "real", not "${String(dialect).slice(0, 40)}"`);
  }
  const router = new Router(undefined, {
    dialect,
    ...(options.registryAlias === undefined ? {} : { registryAlias: options.registryAlias }),
  });
  const quiet = options.quiet ?? false;

  const state = { latencyMs: options.latencyMs ?? 0 };

  async function route(req: Request, url: URL): Promise<Response> {
    if (url.pathname === TOKEN_PATH) {
      stats.recordOperation("token");
      if (req.method !== "POST") {
        throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}.`, {
          allow: "POST",
        });
      }
      return await auth.handleTokenRequest(req);
    }
    if (!url.pathname.startsWith("/api/")) {
      throw new HttpError(404, `No resource at ${url.pathname}.`);
    }
    const found = router.resolve(req.method, url.pathname);
    if (found.kind === "match") stats.recordOperation(found.op.id);
    auth.verify(req.headers.get("authorization"));
    if (found.kind === "none") throw new HttpError(404, `No resource at ${url.pathname}.`);
    if (found.kind === "method") {
      throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}.`, {
        allow: found.allow.join(", "),
      });
    }
    const { op, params } = found;
    if (isConnectorWrite(op)) {
      return await handleConnectorWrite({ op, params, request: req, store });
    }
    return handleRead({ op, params, url, store, dialect });
  }

  async function handle(req: Request): Promise<Response> {
    const requestId = req.headers.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
    const url = new URL(req.url);
    let res: Response;
    stats.record(url.pathname);
    try {
      const tooLarge = sizeError(req);
      if (tooLarge) throw tooLarge;
      const wait = limiter.admit();
      if (wait > 0) {
        stats.rateLimited++;
        res = jsonResponse(errorBody(429, "Too many requests."), 429, {
          "retry-after": String(wait),
        });
      } else {
        const fault = faults.take(url.pathname);
        if (fault?.spec.delayMs) await sleep(fault.spec.delayMs);
        if (fault && fault.action === "status") {
          res = faultResponse(fault);
        } else if (fault && fault.action === "reset") {
          res = resetResponse();
        } else {
          res = await route(req, url).catch((err) => toErrorResponse(err, requestId));
          if (fault?.action === "truncate") res = await truncated(res);
        }
      }
    } catch (err) {
      res = toErrorResponse(err, requestId);
    }
    if (state.latencyMs > 0) await sleep(state.latencyMs);
    stats.status(res.status);
    res.headers.set("x-request-id", requestId);
    return res;
  }

  function toErrorResponse(err: unknown, requestId: string): Response {
    if (err instanceof HttpError) {
      return jsonResponse(errorBody(err.status, err.message), err.status, { ...err.headers });
    }
    if (!quiet) {
      const name = err instanceof Error ? err.name : typeof err;
      console.error(`samkit serve: internal error (request ${requestId}): ${name}`);
    }
    return jsonResponse(
      errorBody(500, `Internal server error (request ${requestId}).`),
      500,
    );
  }

  const ready = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    port: options.port ?? 0,
    hostname: options.hostname ?? "127.0.0.1",
    onListen: (addr) => ready.resolve(addr as Deno.NetAddr),
    onError: (err) => toErrorResponse(err, crypto.randomUUID()),
  }, handle);
  const addr = await ready.promise;
  const host = addr.hostname === "0.0.0.0" || addr.hostname === "::"
    ? "127.0.0.1"
    : addr.hostname.includes(":")
    ? `[${addr.hostname}]`
    : addr.hostname;

  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      await server.shutdown();
      if (ownStore) store.close();
    })();
  options.signal?.addEventListener("abort", () => void close(), { once: true });
  if (options.signal?.aborted) await close();

  return {
    url: `http://${host}:${addr.port}`,
    port: addr.port,
    store,
    dialect,
    faults,
    auth,
    stats,
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(ms: number) {
      state.latencyMs = ms;
    },
    close,
  };
}
