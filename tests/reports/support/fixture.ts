/**
 * Test support: one reference server per `describe` block, started in `before` and closed in
 * `after`, at the tests' estate clock.
 *
 * @module
 */

import { after, before } from "node:test";
import { type RunningServer, startServer } from "../../../lib/server/server.ts";
import { TEST_NOW } from "../../helpers/server.ts";
import { closeTestBrowser } from "../../helpers/run_report.ts";
import type { RawApi } from "./raw_api.ts";

/** Options of {@link serverFixture}. */
export interface ServerFixtureOptions {
  /** Size of the generated estate (0: an empty one). */
  readonly computers: number;
  /** Seed of the generated estate (default 1). */
  readonly seed?: number;
  /** A fixed bearer token the server also accepts (needed for {@link ServerFixture.api}). */
  readonly token?: string;
  /** Also close the shared test browser in `after` (blocks that render PDF). */
  readonly closeBrowser?: boolean;
}

/** The server of a `describe` block; read its fields inside hooks and tests only. */
export interface ServerFixture {
  /** The running server. */
  readonly srv: RunningServer;
  /** Its base URL with the fixed token. */
  readonly api: RawApi;
}

/**
 * Registers `before` and `after` hooks in the enclosing `describe` that start a reference server
 * (port 0, quiet, clock `TEST_NOW`) and close it (and the test browser when asked), and returns
 * lazy accessors to it.
 *
 * @example
 * ```ts ignore
 * describe("stale-computers edge data", () => {
 *   const fixture = serverFixture({ computers: 0, token: TOKEN });
 *   it("…", async () => {
 *     const out = await runAt(fixture.api, staleComputers, { now: TEST_NOW });
 *     fixture.srv.store.insert("computers", { id: "C1" });
 *   });
 * });
 * ```
 */
export function serverFixture(options: ServerFixtureOptions): ServerFixture {
  let srv: RunningServer | undefined;
  before(async () => {
    srv = await startServer({
      port: 0,
      computers: options.computers,
      seed: options.seed ?? 1,
      now: TEST_NOW,
      quiet: true,
      token: options.token,
    });
  });
  after(async () => {
    if (options.closeBrowser) await closeTestBrowser();
    await srv?.close();
  });
  const running = (): RunningServer => {
    if (!srv) throw new Error("the fixture's server starts in before()");
    return srv;
  };
  return {
    get srv() {
      return running();
    },
    get api() {
      if (options.token === undefined) throw new Error("the fixture has no fixed token");
      return { url: running().url, token: options.token };
    },
  };
}
