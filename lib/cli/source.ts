/**
 * Where a command's data comes from: a real tenant (base URL from `--base-url`, `SAM_BASE_URL`
 * or `SAM_REGION`, credentials from the environment) or, with no base URL, the embedded
 * reference server started in-process on loopback with the demo estate.
 *
 * @module
 */

import { type ClientOptions, createClient, type SamClient } from "../api/client.ts";
import { registryPrefixes, resolveBaseUrl } from "../api/base_url.ts";
import { startServer } from "../server/server.ts";
import { UsageError } from "./usage_error.ts";
import { openSnapshot } from "../pack/snapshot.ts";

/** Options of {@link openSource}. */
export interface SourceOptions {
  /** `--base-url`. */
  readonly baseUrl?: string;
  /** `--token` (else `SAM_TOKEN`). */
  readonly token?: string;
  /** A client id (else `SAM_CLIENT_ID`), for callers that hold a tenant's own credentials. */
  readonly clientId?: string;
  /** A client secret (else `SAM_CLIENT_SECRET`), with {@link clientId}. */
  readonly clientSecret?: string;
  /**
   * `--registry-prefix` (else `SAM_REGISTRY_PREFIX`; neither: detected on the first registry
   * read, the public spelling first).
   */
  readonly registryPrefix?: string;
  /** Size of the embedded demo estate (default 400 computers). */
  readonly computers?: number;
  /** Seed of the embedded demo estate (default 1). */
  readonly seed?: number;
  /** Client events (progress, adaptive concurrency). */
  readonly onEvent?: ClientOptions["onEvent"];
  /** Wraps the client's fetch (snapshot recording). */
  readonly wrapFetch?: (inner: typeof fetch) => typeof fetch;
}

/** An open data source. */
export interface ApiSource {
  /** The typed client. */
  readonly client: SamClient;
  /** Text for covers and JSON `source`. */
  readonly source: string;
  /** Whether the embedded reference server is serving. */
  readonly embedded: boolean;
  /** Stops the embedded server, if any. */
  close(): Promise<void>;
}

/**
 * The warning printed when a token is given as `--token`: the command line is not a place for a
 * secret.
 *
 * @example
 * ```ts
 * import { TOKEN_FLAG_WARNING } from "./source.ts";
 * console.log(TOKEN_FLAG_WARNING.includes("SAM_TOKEN")); // true
 * ```
 */
export const TOKEN_FLAG_WARNING = "samkit: warning: --token puts the token on the command line, " +
  "where `deno task` echoes it to stderr (and so into every log), and the shell history and the " +
  "process list keep it. Put it in the environment instead: SAM_TOKEN, or SAM_CLIENT_ID and " +
  "SAM_CLIENT_SECRET (client credentials).";

/**
 * The value of `--token`, passed through; when there is one, {@link TOKEN_FLAG_WARNING} goes to
 * stderr first (never the token itself).
 *
 * @example
 * ```ts
 * import { tokenFlag } from "./source.ts";
 * console.log(tokenFlag(undefined)); // undefined, and no warning
 * ```
 */
export function tokenFlag(value: string | undefined): string | undefined {
  if (value !== undefined) console.error(TOKEN_FLAG_WARNING);
  return value;
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks before any request that this process may reach `url`'s host, with a message that says
 * how to allow it.
 */
async function assertNetAllowed(url: URL): Promise<void> {
  const status = await Deno.permissions.query({ name: "net", host: url.host });
  if (status.state !== "granted") {
    throw new UsageError(
      `this task's permission set does not allow network access to ${url.hostname}; ` +
        `run the tenant task instead: SAM_API_HOST=${url.hostname} deno task report:tenant …`,
    );
  }
}

/**
 * The client option of `--registry-prefix`, checked (with `SAM_REGISTRY_PREFIX`) before any
 * request: a bad value is a usage error naming the flag or variable.
 */
function registryOption(flag: string | undefined): { registryPrefix?: string } {
  try {
    registryPrefixes({ registryPrefix: flag });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^registryPrefix /, "--registry-prefix "));
  }
  return flag === undefined ? {} : { registryPrefix: flag };
}

/**
 * Opens the data source a command runs against.
 *
 * @example
 * ```ts ignore
 * import { openSource } from "./source.ts";
 * const api = await openSource({});            // the embedded reference server
 * for await (const c of api.client.estate.computers()) console.log(c.hostName);
 * await api.close();
 * ```
 */
export async function openSource(options: SourceOptions = {}): Promise<ApiSource> {
  const registry = registryOption(options.registryPrefix);
  const explicit = options.baseUrl ?? env("SAM_BASE_URL") ?? env("SAM_REGION");
  if (explicit) {
    let base: string;
    try {
      base = resolveBaseUrl({ baseUrl: options.baseUrl });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    await assertNetAllowed(new URL(base));
    const token = options.token ?? env("SAM_TOKEN");
    const clientId = options.clientId ?? env("SAM_CLIENT_ID");
    const clientSecret = options.clientSecret ?? env("SAM_CLIENT_SECRET");
    if (!token && !(clientId && clientSecret)) {
      throw new UsageError(
        "no credentials: set SAM_CLIENT_ID and SAM_CLIENT_SECRET (client credentials) or " +
          "SAM_TOKEN / --token (a bearer token)",
      );
    }
    const client = createClient({
      baseUrl: base,
      auth: token ? { token } : { clientId: clientId!, clientSecret: clientSecret! },
      ...registry,
      onEvent: options.onEvent,
      fetch: options.wrapFetch?.(globalThis.fetch),
    });
    return { client, source: base, embedded: false, close: () => Promise.resolve() };
  }
  const computers = options.computers ?? 400;
  const seed = options.seed ?? 1;
  // The demo estate is dated today (midnight UTC), so ages in reports read as they would on a
  // live tenant; within a day the same seed and size give the same estate.
  const today = new Date();
  const asOf = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  const server = await startServer({ port: 0, computers, seed, now: asOf, quiet: true });
  const client = createClient({
    baseUrl: server.url,
    auth: { clientId: "demo", clientSecret: "demo-secret" },
    ...registry,
    onEvent: options.onEvent,
    fetch: options.wrapFetch?.(globalThis.fetch),
  });
  return {
    client,
    source: `embedded reference server (demo estate: ${computers} computers, seed ${seed}, ` +
      `as of ${asOf.toISOString().slice(0, 10)})`,
    embedded: true,
    close: () => server.close(),
  };
}

/**
 * Opens a snapshot file as the data source: no network, the recorded responses only. The source
 * text and clock are the recorded run's, so re-rendered outputs match the originals byte for byte.
 *
 * @example
 * ```ts ignore
 * import { openSnapshotSource } from "./source.ts";
 * const api = openSnapshotSource("out/packs/weekly/2026-11-22T0600Z/snapshot.sqlite");
 * ```
 */
export function openSnapshotSource(
  path: string,
  options: Pick<SourceOptions, "onEvent"> = {},
): ApiSource & {
  readonly generatedAt: Date;
  readonly meta: ReturnType<typeof openSnapshot>["meta"];
} {
  const snapshot = openSnapshot(path);
  const client = createClient({
    baseUrl: "http://snapshot.invalid",
    auth: { token: "snapshot" },
    onEvent: options.onEvent,
    fetch: snapshot.fetch,
    retries: 0,
  });
  return {
    client,
    source: snapshot.meta.source,
    embedded: false,
    generatedAt: new Date(snapshot.meta.generatedAt),
    meta: snapshot.meta,
    close: () => Promise.resolve(snapshot.close()),
  };
}

/**
 * The source of a report that reads samkit's own run history (pack folders or the queue's
 * PostgreSQL), not the SAM API: no server is started and no request is made; its client refuses
 * every use, naming why.
 *
 * @example
 * ```ts
 * import { historySource } from "./source.ts";
 * const source = historySource();
 * console.log(source.source, source.embedded); // "samkit run history" false
 * ```
 */
export function historySource(): ApiSource {
  const refuse = (): never => {
    throw new Error("this report reads samkit's run history, not the SAM API");
  };
  const client = new Proxy({}, { get: refuse }) as SamClient;
  return { client, source: "samkit run history", embedded: false, close: () => Promise.resolve() };
}
