/**
 * Test helper: forward a request a loopback proxy received to an upstream server, whole, and
 * hand back its answer (bodies read whole and decoded, so length and encoding headers go).
 *
 * @module
 */

/** Headers not passed on either way. */
const DROP = ["host", "content-length", "connection", "transfer-encoding", "content-encoding"];

/**
 * `req` sent on to `upstream` (same path, query, method, headers and body), and its answer.
 *
 * @example
 * ```ts ignore
 * import { forwardRequest } from "./forward.ts";
 * Deno.serve({ port: 0 }, (req) => forwardRequest(req, server.url));
 * ```
 */
export async function forwardRequest(req: Request, upstream: string): Promise<Response> {
  const url = new URL(req.url);
  const headers = new Headers(req.headers);
  for (const name of DROP) headers.delete(name);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.bytes();
  const res = await fetch(upstream + url.pathname + url.search, {
    method: req.method,
    headers,
    ...(body ? { body } : {}),
  });
  const out = new Headers(res.headers);
  for (const name of DROP) out.delete(name);
  return new Response(await res.bytes(), { status: res.status, headers: out });
}
