/**
 * Test helper: what a pack test runs its packs against — a reference server with a fixed token
 * (300 computers, seed 7 unless told otherwise) and a fresh folder under `out/test` for the
 * runs — and their teardown in one call.
 *
 * @module
 */

import { type RunningServer, type ServerOptions, startServer } from "../../lib/server/server.ts";
import { outTestDir } from "./files.ts";
import { TEST_NOW } from "./server.ts";

/** Options of {@link startPackFixture}: the folder's prefix and the server's options. */
export interface PackFixtureOptions extends ServerOptions {
  /** The prefix of the run folder's name under `out/test`. */
  readonly prefix: string;
  /** The one bearer token the server accepts (the runs' source uses it). */
  readonly token: string;
}

/** A running server and a run folder; {@link PackFixture.close} ends both. */
export interface PackFixture {
  /** The folder to pass as `outRoot`. */
  readonly dir: string;
  /** The reference server. */
  readonly server: RunningServer;
  /** The source to pass to `runPack`: the server's URL and token. */
  readonly source: { readonly baseUrl: string; readonly token: string };
  /** Closes the server and removes the folder. */
  close(): Promise<void>;
}

/**
 * Makes the run folder and starts the server (on port 0, quiet, the estate at `TEST_NOW` unless
 * told otherwise); if the server does not start, the folder is removed again.
 *
 * @example Usage
 * ```ts ignore
 * import { after, before } from "node:test";
 * import { type PackFixture, startPackFixture } from "./pack_fixture.ts";
 *
 * let fx: PackFixture;
 * before(async () => {
 *   fx = await startPackFixture({ prefix: "cfo-", token: "cfo-token" });
 * });
 * after(() => fx?.close());
 * ```
 */
export async function startPackFixture(options: PackFixtureOptions): Promise<PackFixture> {
  const { prefix, ...serverOptions } = options;
  const dir = await outTestDir(prefix);
  let server: RunningServer;
  try {
    server = await startServer({
      port: 0,
      computers: 300,
      seed: 7,
      now: TEST_NOW,
      quiet: true,
      ...serverOptions,
    });
  } catch (e) {
    await Deno.remove(dir, { recursive: true });
    throw e;
  }
  return {
    dir,
    server,
    source: { baseUrl: server.url, token: options.token },
    async close() {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
