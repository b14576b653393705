/**
 * The reference server's request handling: the token endpoint, the API routes (connector writes
 * and generic reads), and around them the request-size limits, the rate limit, injected faults,
 * added latency, request ids and the error body of every failure (unexpected errors logged
 * without secrets).
 *
 * @module
 */

import { TOKEN_PATH } from "../api/operations.ts";
import type { TokenAuthority } from "./auth.ts";
import { handleConnectorWrite, isConnectorWrite } from "./connectors.ts";
import type { FaultPlan, RateLimiter, ServerStats } from "./faults.ts";
import { handleRead, type Router } from "./router.ts";
import { type Dialect, errorBody, HttpError, jsonResponse } from "./serialize.ts";
import { faultResponse, resetResponse, truncated } from "./server_faults.ts";
import { sizeError } from "./server_limits.ts";
import type { EstateStore } from "./store.ts";

/** What a handler serves and counts. */
export interface HandlerParts {
  readonly store: EstateStore;
  readonly dialect: Dialect;
  readonly router: Router;
  readonly auth: TokenAuthority;
  readonly faults: FaultPlan;
  readonly stats: ServerStats;
  readonly limiter: RateLimiter;
  /** Latency added to every response, read per request (it may change while running). */
  readonly latency: { readonly latencyMs: number };
  /** Log nothing. */
  readonly quiet: boolean;
}

/** A request handler and the error response it gives for a thrown error. */
export interface Handler {
  /** Answer one request. */
  readonly handle: (req: Request) => Promise<Response>;
  /** The response for an error (an `HttpError`'s own, else a logged 500). */
  readonly toErrorResponse: (err: unknown, requestId: string) => Response;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The response for an error: an `HttpError`'s status and message, else a 500 (logged). */
function errorResponder(quiet: boolean): (err: unknown, requestId: string) => Response {
  return (err, requestId) => {
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
  };
}

/** The token endpoint and the API: authorised, routed, then written or read. */
async function route(p: HandlerParts, req: Request, url: URL): Promise<Response> {
  if (url.pathname === TOKEN_PATH) {
    p.stats.recordOperation("token");
    if (req.method !== "POST") {
      throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}.`, {
        allow: "POST",
      });
    }
    return await p.auth.handleTokenRequest(req);
  }
  if (!url.pathname.startsWith("/api/")) {
    throw new HttpError(404, `No resource at ${url.pathname}.`);
  }
  const found = p.router.resolve(req.method, url.pathname);
  if (found.kind === "match") p.stats.recordOperation(found.op.id);
  p.auth.verify(req.headers.get("authorization"));
  if (found.kind === "none") throw new HttpError(404, `No resource at ${url.pathname}.`);
  if (found.kind === "method") {
    throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}.`, {
      allow: found.allow.join(", "),
    });
  }
  const { op, params } = found;
  if (isConnectorWrite(op)) {
    return await handleConnectorWrite({ op, params, request: req, store: p.store });
  }
  return handleRead({ op, params, url, store: p.store, dialect: p.dialect });
}

/** The answer to an admitted request: a fault's, or the route's (perhaps truncated). */
async function answer(
  p: HandlerParts,
  req: Request,
  url: URL,
  onError: (err: unknown) => Response,
): Promise<Response> {
  const fault = p.faults.take(url.pathname);
  if (fault?.spec.delayMs) await sleep(fault.spec.delayMs);
  if (fault && fault.action === "status") return faultResponse(fault);
  if (fault && fault.action === "reset") return resetResponse();
  const res = await route(p, req, url).catch(onError);
  return fault?.action === "truncate" ? await truncated(res) : res;
}

/**
 * Make the request handler of a server from its parts.
 *
 * @example
 * ```ts
 * import { TokenAuthority } from "./auth.ts";
 * import { FaultPlan, RateLimiter, ServerStats } from "./faults.ts";
 * import { Router } from "./router.ts";
 * import { createHandler } from "./server_handler.ts";
 * import { EstateStore } from "./store.ts";
 * const store = new EstateStore();
 * const { handle } = createHandler({
 *   store, dialect: "spec", router: new Router(undefined, { dialect: "spec" }),
 *   auth: new TokenAuthority({}), faults: new FaultPlan(), stats: new ServerStats(),
 *   limiter: new RateLimiter(0), latency: { latencyMs: 0 }, quiet: true,
 * });
 * const res = await handle(new Request("http://127.0.0.1/nope"));
 * console.log(res.status); // 404
 * store.close();
 * ```
 */
export function createHandler(p: HandlerParts): Handler {
  const toErrorResponse = errorResponder(p.quiet);
  async function handle(req: Request): Promise<Response> {
    const requestId = req.headers.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
    const url = new URL(req.url);
    let res: Response;
    p.stats.record(url.pathname);
    try {
      const tooLarge = sizeError(req);
      if (tooLarge) throw tooLarge;
      const wait = p.limiter.admit();
      if (wait > 0) {
        p.stats.rateLimited++;
        res = jsonResponse(errorBody(429, "Too many requests."), 429, {
          "retry-after": String(wait),
        });
      } else {
        res = await answer(p, req, url, (err) => toErrorResponse(err, requestId));
      }
    } catch (err) {
      res = toErrorResponse(err, requestId);
    }
    if (p.latency.latencyMs > 0) await sleep(p.latency.latencyMs);
    p.stats.status(res.status);
    res.headers.set("x-request-id", requestId);
    return res;
  }
  return { handle, toErrorResponse };
}
