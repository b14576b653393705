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

import { TokenAuthority } from "./auth.ts";
import { FaultPlan, RateLimiter, ServerStats } from "./faults.ts";
import { openCachedEstate } from "./estate_cache.ts";
import { DEFAULT_NOW, generateEstate, type GenerateOptions } from "./generator.ts";
import { deriveFurtherReads } from "./further_reads.ts";
import { Router } from "./router.ts";
import type { Dialect } from "./serialize.ts";
import { createHandler, type Handler } from "./server_handler.ts";
import { EstateStore } from "./store.ts";

export { REQUEST_LIMITS } from "./server_limits.ts";

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
  /**
   * A folder of generated estates to reuse (see `estate_cache.ts`): the estate of this size,
   * seed and "now" is generated once, saved there, and served from an in-memory copy by every
   * later server, so no server's writes reach another. Not used with `db` or `store`. Default:
   * the `SAMKIT_ESTATE_CACHE` environment variable when it is set and may be read, else none.
   */
  readonly estateCache?: string;
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

/** Check the dialect option (before anything is generated or written). */
function resolveDialect(options: ServerOptions): Dialect {
  const dialect = options.dialect ?? "spec";
  if (dialect !== "spec" && dialect !== "real") {
    throw new RangeError(`dialect must be "spec" or "real", not "${String(dialect).slice(0, 40)}"`);
  }
  return dialect;
}

/** The folder of reusable estates: the option, else `SAMKIT_ESTATE_CACHE` when readable. */
function estateCacheDir(options: ServerOptions): string | undefined {
  if (options.estateCache !== undefined) return options.estateCache || undefined;
  const variable = "SAMKIT_ESTATE_CACHE";
  if (Deno.permissions.querySync({ name: "env", variable }).state !== "granted") return undefined;
  return Deno.env.get(variable) || undefined;
}

/** Fill `store` with the estate (unless it holds one) and its further reads. */
async function fillEstate(store: EstateStore, estate: GenerateOptions): Promise<EstateStore> {
  try {
    if (store.count("computers") === 0) {
      await store.bulkInsert((sink) => {
        generateEstate(estate, sink);
      });
    }
    await deriveFurtherReads(store);
  } catch (err) {
    store.close();
    throw err;
  }
  return store;
}

/** The store to serve: the one given, a reused one, or one opened (in memory or `db`). */
async function openEstate(
  options: ServerOptions,
): Promise<{ store: EstateStore; ownStore: boolean }> {
  if (options.store !== undefined) return { store: options.store, ownStore: false };
  const estate = {
    seed: options.seed ?? 1,
    computers: options.computers ?? 400,
    ...(options.now ? { now: options.now } : {}),
  };
  const dir = options.db === undefined ? estateCacheDir(options) : undefined;
  if (dir !== undefined) {
    const key = { seed: estate.seed, computers: estate.computers, now: estate.now ?? DEFAULT_NOW };
    const build = () => fillEstate(new EstateStore(), estate);
    return { store: (await openCachedEstate({ dir, key, build })).store, ownStore: true };
  }
  return {
    store: await fillEstate(new EstateStore({ path: options.db ?? ":memory:" }), estate),
    ownStore: true,
  };
}

/** Serve `handler` and wait until it listens; returns the server and its base URL. */
async function listen(
  options: ServerOptions,
  handler: Handler,
): Promise<{ server: Deno.HttpServer; url: string; port: number }> {
  const ready = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    port: options.port ?? 0,
    hostname: options.hostname ?? "127.0.0.1",
    onListen: (addr) => ready.resolve(addr as Deno.NetAddr),
    onError: (err) => handler.toErrorResponse(err, crypto.randomUUID()),
  }, handler.handle);
  const addr = await ready.promise;
  const host = addr.hostname === "0.0.0.0" || addr.hostname === "::"
    ? "127.0.0.1"
    : addr.hostname.includes(":")
    ? `[${addr.hostname}]`
    : addr.hostname;
  return { server, url: `http://${host}:${addr.port}`, port: addr.port };
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
  const dialect = resolveDialect(options);
  const { store, ownStore } = await openEstate(options);
  const latency = { latencyMs: options.latencyMs ?? 0 };
  const parts = {
    store,
    dialect,
    router: new Router(undefined, {
      dialect,
      ...(options.registryAlias === undefined ? {} : { registryAlias: options.registryAlias }),
    }),
    auth: new TokenAuthority({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      token: options.token,
      tokenTtlSeconds: options.tokenTtlSeconds,
    }),
    faults: new FaultPlan(),
    stats: new ServerStats(),
    limiter: new RateLimiter(options.rateLimit ?? 0),
    latency,
    quiet: options.quiet ?? false,
  };
  const { server, url, port } = await listen(options, createHandler(parts));

  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      await server.shutdown();
      if (ownStore) store.close();
    })();
  options.signal?.addEventListener("abort", () => void close(), { once: true });
  if (options.signal?.aborted) await close();

  return {
    url,
    port,
    store,
    dialect,
    faults: parts.faults,
    auth: parts.auth,
    stats: parts.stats,
    get latencyMs() {
      return latency.latencyMs;
    },
    set latencyMs(ms: number) {
      latency.latencyMs = ms;
    },
    close,
  };
}
