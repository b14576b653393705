/**
 * A report's context against a fresh reference server: what a report's data function, a SAM
 * rule or a query helper receives in a run, for examples and for tests of one's own reports.
 *
 * @module
 */

import { createClient, type SamClient } from "../api/client.ts";
import { createQueryContext, type QueryContext } from "../query/context.ts";
import type { ParamValues, ReportContext } from "../report/model.ts";
import { DEFAULT_NOW } from "./generator.ts";
import { type RunningServer, type ServerOptions, startServer } from "./server.ts";

/** Options of {@link withReferenceContext}: the server's, and the run's parameters and filter. */
export interface ReferenceContextOptions extends ServerOptions {
  /** The report's parameters (default none). */
  readonly params?: ParamValues;
  /** A `--filter` for the report's main collection. */
  readonly filter?: string;
}

/** What {@link withReferenceContext} hands its function: a run's context and the server. */
export interface ReferenceContext extends ReportContext<SamClient, QueryContext> {
  /** The server the client reads. */
  readonly server: RunningServer;
}

/**
 * Starts a reference server (on a free loopback port, 20 computers and seed 1 unless told, quiet),
 * calls `fn` with a report context whose client reads it (credentials `demo`/`demo-secret`), a
 * fresh query context, the parameters and filter given, and the estate's own "now" as the run's
 * clock; stops the server afterwards, whatever happens.
 *
 * @example Count the computers of a small estate
 * ```ts
 * import { withReferenceContext } from "./reference_context.ts";
 *
 * const n = await withReferenceContext({ computers: 20 }, async (ctx) => {
 *   let count = 0;
 *   for await (const _ of ctx.client.estate.computers()) count++;
 *   return count;
 * });
 * console.log(n); // 20
 * ```
 */
export async function withReferenceContext<T>(
  options: ReferenceContextOptions,
  fn: (ctx: ReferenceContext) => Promise<T>,
): Promise<T> {
  const { params, filter, ...serverOptions } = options;
  const server = await startServer({
    port: 0,
    computers: 20,
    seed: 1,
    quiet: true,
    ...serverOptions,
  });
  try {
    const client = createClient({
      baseUrl: server.url,
      auth: {
        clientId: serverOptions.clientId ?? "demo",
        clientSecret: serverOptions.clientSecret ?? "demo-secret",
      },
    });
    return await fn({
      client,
      query: createQueryContext(),
      params: params ?? {},
      ...(filter === undefined ? {} : { filter }),
      signal: serverOptions.signal ?? new AbortController().signal,
      now: serverOptions.now ?? DEFAULT_NOW,
      server,
    });
  } finally {
    await server.close();
  }
}
