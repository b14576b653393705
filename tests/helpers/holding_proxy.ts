/**
 * Test helper: a proxy on loopback in front of a (reference) SAM API server that holds every
 * request whose path matches a pattern — the service stops answering — and says when the first
 * one arrives, so a test can act at that moment (send a signal, swap a folder) and then let the
 * held requests through (or fail them). Events, not time: nothing here waits for a clock.
 *
 * @module
 */

/** A running holding proxy. */
export interface HoldingProxy {
  /** Its base URL. */
  readonly url: string;
  /** Resolves when the first matching request arrives (and is held). */
  readonly held: Promise<void>;
  /** Lets the held requests (and later ones) through to the server. */
  release(): void;
  /** Answers the held requests 503, and stops the proxy. */
  close(): Promise<void>;
}

/**
 * Starts a proxy to `upstream` that holds the requests whose path matches `hold`.
 *
 * @example Usage
 * ```ts ignore
 * import { holdingProxy } from "./holding_proxy.ts";
 * const proxy = holdingProxy(server.url, /connectors/);
 * await proxy.held; // a run now waits on the service
 * proxy.release();
 * await proxy.close();
 * ```
 */
export function holdingProxy(upstream: string, hold: RegExp): HoldingProxy {
  const first = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<boolean>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (hold.test(url.pathname)) {
      first.resolve();
      if (!(await gate.promise)) return new Response("closed", { status: 503 });
    }
    const answer = await fetch(`${upstream}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body: req.body,
    });
    const headers = new Headers(answer.headers);
    headers.delete("content-encoding");
    headers.delete("content-length");
    return new Response(answer.body, { status: answer.status, headers });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    held: first.promise,
    release: () => gate.resolve(true),
    async close() {
      gate.resolve(false);
      await server.shutdown();
    },
  };
}
