/**
 * Test helper: a loopback proxy in front of a (reference) SAM API server that holds every request
 * whose path matches a pattern until the test opens the gate, and tells the test when the first
 * one arrives. A test that must act while a pack is part-way through a report waits for that
 * event instead of for a report slow enough to still be running.
 *
 * @module
 */

import { forwardRequest } from "../helpers/forward.ts";

/** A running gate proxy. */
export interface GateProxy {
  /** Its address, to use as the tenant's base URL. */
  readonly url: string;
  /** Resolves when the first request matching the pattern arrives (it is then held). */
  readonly holding: Promise<void>;
  /** Lets every held request, and every later one, through to the upstream. */
  open(): void;
  /** Opens the gate and stops the proxy. */
  close(): Promise<void>;
}

/** Options of {@link startGateProxy}. */
export interface GateProxyOptions {
  /** Requests whose path matches are held until the gate opens (none when absent). */
  readonly hold?: RegExp;
  /** The port on 127.0.0.1 to listen on (default a free one). */
  readonly port?: number;
}

/**
 * Starts the proxy on 127.0.0.1, forwarding to `upstream` and holding requests whose path
 * matches `hold` until {@link GateProxy.open}.
 *
 * @example
 * ```ts ignore
 * import { startGateProxy } from "./gate_proxy.ts";
 * const gate = startGateProxy(server.url, { hold: /\/licenses\/entitlements\/computers/ });
 * await gate.holding; // a run is now waiting on that read
 * gate.open();
 * await gate.close();
 * ```
 */
export function startGateProxy(upstream: string, options: GateProxyOptions = {}): GateProxy {
  const { hold, port = 0 } = options;
  let arrived = () => {};
  const holding = new Promise<void>((resolve) => arrived = resolve);
  let opened = () => {};
  const gate = new Promise<void>((resolve) => opened = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, async (req) => {
    if (hold?.test(new URL(req.url).pathname)) {
      arrived();
      await gate;
    }
    return await forwardRequest(req, upstream);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    holding,
    open: () => opened(),
    close: async () => {
      opened();
      await server.shutdown();
    },
  };
}
