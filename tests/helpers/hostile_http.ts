/**
 * Test helper: a scripted HTTP server on a loopback port of its own (so a second one is another
 * origin) that records every request it gets — its method, path and `Authorization` header —
 * for tests that show what reached which origin.
 *
 * @module
 */

/** One request a {@link HostileServer} received. */
export interface Hit {
  readonly method: string;
  /** The path with its query string. */
  readonly path: string;
  /** The `Authorization` header, or `null`. */
  readonly authorization: string | null;
}

/** A running scripted server. */
export interface HostileServer {
  /** Its origin, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Its port. */
  readonly port: number;
  /** Every request received, in order. */
  readonly hits: Hit[];
  /** Stops it, dropping open connections. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 and an ephemeral port answering with `handler`.
 *
 * @example
 * ```ts
 * import { serveHostile } from "./hostile_http.ts";
 * const srv = serveHostile(() => Response.json({ ok: true }));
 * const res = await fetch(`${srv.url}/x`);
 * await res.body?.cancel();
 * console.log(srv.hits.length); // 1
 * await srv.close();
 * ```
 */
export function serveHostile(
  handler: (req: Request, url: URL) => Response | Promise<Response>,
): HostileServer {
  const hits: Hit[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => {
      const url = new URL(req.url);
      hits.push({
        method: req.method,
        path: url.pathname + url.search,
        authorization: req.headers.get("authorization"),
      });
      return handler(req, url);
    },
  );
  const port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: async () => {
      await server.shutdown();
    },
  };
}

/**
 * Runs `fn` with a fresh server per handler, all closed afterwards whatever happens.
 *
 * @example
 * ```ts
 * import { withHostile } from "./hostile_http.ts";
 * await withHostile([() => new Response("a"), () => new Response("b")], async ([a, b]) => {
 *   console.log(a!.url !== b!.url); // true
 * });
 * ```
 */
export async function withHostile<T>(
  handlers: readonly ((req: Request, url: URL) => Response | Promise<Response>)[],
  fn: (servers: HostileServer[]) => Promise<T>,
): Promise<T> {
  const servers = handlers.map((h) => serveHostile(h));
  try {
    return await fn(servers);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}
