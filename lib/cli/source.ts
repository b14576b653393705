/**
 * Where a command's data comes from: a real tenant (base URL from `--base-url`, `SAM_BASE_URL`
 * or `SAM_REGION`, credentials from the environment) or, with no base URL, the embedded
 * reference server started in-process on loopback with the demo estate.
 *
 * The embedded server serves only plain demo runs: a run meant for a tenant — a `:tenant` task
 * (`--tenant`), credentials given as options or `--token`, or `SAM_TOKEN`, `SAM_CLIENT_ID` or
 * `SAM_CLIENT_SECRET` in the environment — with no API address is a usage error before any
 * request ({@link tenantRunProblem}), never a report on the demo estate.
 *
 * @module
 */

import {
  type ClientOptions,
  createClient,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type SamClient,
} from "../api/client.ts";
import { DEFAULT_RETRIES } from "../api/retry.ts";
import { readEnv, registryPrefixes, resolveBaseUrl } from "../api/base_url.ts";
import { UsageError } from "./usage_error.ts";
import { openSnapshot } from "../pack/snapshot.ts";
import { demoSourceText, RUN_HISTORY } from "../report/demo_source.ts";
import { isHostName } from "./task_env.ts";
import { type Parsed, rangeFlag } from "./args.ts";

/** Options of {@link openSource}. */
export interface SourceOptions {
  /** `--base-url`. */
  readonly baseUrl?: string;
  /**
   * This run is for a tenant (`--tenant`, which every `:tenant` task passes): with no API
   * address it fails, naming `SAM_BASE_URL`/`SAM_REGION`, instead of using the demo server.
   */
  readonly tenant?: boolean;
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
  /**
   * `--page-size`: items per page of every collection read (else the client's default,
   * `DEFAULT_PAGE_SIZE`); read with {@link pageSizeFlag}.
   */
  readonly pageSize?: number;
  /**
   * `--retries`: how often a read that failed on the network or with a 5xx answer is tried again
   * (else the client's default, 4); read with {@link retriesFlag}.
   */
  readonly retries?: number;
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

const env = readEnv;

/**
 * The value of `--page-size`: a whole number from 1 to {@link MAX_PAGE_SIZE}, or undefined when
 * absent (the client's default, `DEFAULT_PAGE_SIZE`). Anything else is a
 * {@link UsageError} (exit 2) naming the flag and the range, before any request or write.
 *
 * @example
 * ```ts
 * import { pageSizeFlag } from "./source.ts";
 * console.log(pageSizeFlag({ "page-size": "100" }), pageSizeFlag({})); // 100 undefined
 * try {
 *   pageSizeFlag({ "page-size": "1001" });
 * } catch (e) {
 *   console.log((e as Error).message); // --page-size must be a whole number from 1 to 1000, got "1001"
 * }
 * ```
 */
export function pageSizeFlag(values: Parsed["values"]): number | undefined {
  return rangeFlag(values, "page-size", 1, MAX_PAGE_SIZE);
}

/** The most `--retries` a run may ask for. */
export const MAX_RETRIES = 10;

/**
 * The value of `--retries`: a whole number from 0 (fail at the first network error or 5xx
 * answer) to {@link MAX_RETRIES}, or undefined when absent (the client's default,
 * `DEFAULT_RETRIES`, with a doubling back-off). Anything else is a {@link UsageError} (exit 2) naming the flag and the
 * range, before any request or write.
 *
 * @example
 * ```ts
 * import { retriesFlag } from "./source.ts";
 * console.log(retriesFlag({ retries: "0" }), retriesFlag({})); // 0 undefined
 * try {
 *   retriesFlag({ retries: "-1" });
 * } catch (e) {
 *   console.log((e as Error).message); // --retries must be a whole number from 0 to 10, got "-1"
 * }
 * ```
 */
export function retriesFlag(values: Parsed["values"]): number | undefined {
  return rangeFlag(values, "retries", 0, MAX_RETRIES);
}

/**
 * The help lines of `--page-size` and `--retries`, their text starting at `column`: one text for
 * every command that takes them, with the bounds and defaults the flags and the client use.
 *
 * @example
 * ```ts
 * import { tuningHelp } from "./source.ts";
 * console.log(tuningHelp(19).split("\n")[0]);
 * // "  --page-size N    Items per page of each collection read, 1 to 1000 (default"
 * ```
 */
export function tuningHelp(column: number): string {
  const option = (flag: string, lines: readonly string[]) =>
    [`  ${flag}`.padEnd(column) + lines[0], ...lines.slice(1).map((l) => " ".repeat(column) + l)]
      .join("\n");
  return [
    option("--page-size N", [
      `Items per page of each collection read, 1 to ${MAX_PAGE_SIZE} (default`,
      `${DEFAULT_PAGE_SIZE}): smaller pages for a tenant that times out on large ones`,
      "(a snapshot re-renders with the page size it was made with)",
    ]),
    option("--retries N", [
      `Tries again a read that failed on the network or with a 5xx answer, 0 to ${MAX_RETRIES}`,
      `times (default ${DEFAULT_RETRIES}, each wait twice the last); 0 fails at the first`,
    ]),
  ].join("\n");
}

/** The variables whose presence makes a run a tenant's. */
const CREDENTIAL_VARIABLES = ["SAM_TOKEN", "SAM_CLIENT_ID", "SAM_CLIENT_SECRET"] as const;

/** Why a run is meant for a tenant, or undefined for a plain demo run. */
function tenantReason(
  options: SourceOptions,
  read: (name: string) => string | undefined,
): string | undefined {
  if (options.tenant) return "this is a tenant task (--tenant)";
  if (options.token !== undefined) return "a token was given";
  if (options.clientId !== undefined || options.clientSecret !== undefined) {
    return "client credentials were given";
  }
  const set = CREDENTIAL_VARIABLES.find((name) => read(name));
  return set ? `${set} is set` : undefined;
}

/** The `SAM_BASE_URL` to suggest: from a well-formed `SAM_API_HOST`, else an example. */
function baseUrlHint(read: (name: string) => string | undefined): string {
  const host = read("SAM_API_HOST")?.trim();
  if (!host || !isHostName(host)) {
    return "e.g. export SAM_BASE_URL=https://westeurope.example-sam-host.com";
  }
  const loopback = /^(?:localhost|127\.[0-9.]+|\[::1\])(?::[0-9]+)?$/i.test(host);
  return `from SAM_API_HOST: export SAM_BASE_URL=${loopback ? "http" : "https"}://${host}`;
}

/**
 * Why a run with these options may not start: it is meant for a tenant (a `:tenant` task,
 * credentials given, or `SAM_TOKEN`/`SAM_CLIENT_ID`/`SAM_CLIENT_SECRET` set) but no API address
 * is set (`--base-url`, `SAM_BASE_URL`, `SAM_REGION`), so the only server left would be the
 * embedded demo one. The message names the variables and suggests the `SAM_BASE_URL` that
 * `SAM_API_HOST` implies. Undefined when the run may start.
 *
 * @example
 * ```ts
 * import { tenantRunProblem } from "./source.ts";
 * const env = (name: string) => ({ SAM_API_HOST: "eu.example.com" } as Record<string, string>)[name];
 * console.log(tenantRunProblem({ tenant: true }, env)?.includes("SAM_BASE_URL=https://eu.example.com")); // true
 * console.log(tenantRunProblem({}, env)); // undefined: a plain demo run
 * console.log(tenantRunProblem({ tenant: true, baseUrl: "https://eu.example.com" }, env)); // undefined
 * ```
 */
export function tenantRunProblem(
  options: SourceOptions,
  read: (name: string) => string | undefined = env,
): string | undefined {
  if (options.baseUrl !== undefined || read("SAM_BASE_URL") || read("SAM_REGION")) return;
  const reason = tenantReason(options, read);
  if (!reason) return;
  const demo = reason.endsWith(" is set") ? `; for the demo, unset ${reason.split(" ")[0]}` : "";
  return `${reason} but the API's address is not: set SAM_BASE_URL, or SAM_REGION and ` +
    `SAM_HOST, or pass --base-url (a tenant run never uses the embedded demo server${demo}); ` +
    baseUrlHint(read);
}

/**
 * Throws a {@link UsageError} (exit 2) when {@link tenantRunProblem} finds one: called by each
 * command right after its flags are read, before anything is written or requested.
 *
 * @example
 * ```ts
 * import { assertTenantAddress } from "./source.ts";
 * assertTenantAddress({ baseUrl: "https://eu.example.com", token: "t" }); // passes
 * ```
 */
export function assertTenantAddress(options: SourceOptions): void {
  const problem = tenantRunProblem(options);
  if (problem) throw new UsageError(problem);
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

/** The client options of a page size and a number of retries given (none: the client's default). */
function tuning(
  options: Pick<SourceOptions, "pageSize" | "retries">,
): { pageSize?: number; retries?: number } {
  return {
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
  };
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
  // An explicit --base-url, even an empty one, is an address to check, never "none".
  const explicit = options.baseUrl !== undefined || env("SAM_BASE_URL") || env("SAM_REGION");
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
      ...tuning(options),
      onEvent: options.onEvent,
      fetch: options.wrapFetch?.(globalThis.fetch),
    });
    return { client, source: base, embedded: false, close: () => Promise.resolve() };
  }
  assertTenantAddress(options);
  return await openDemoSource(options);
}

/**
 * Starts the embedded reference server with the demo estate and opens it, whatever the
 * environment names: the `demo` command's source. Its source text says "demo data".
 *
 * @example
 * ```ts ignore
 * import { openDemoSource } from "./source.ts";
 * const api = await openDemoSource({ computers: 40 });
 * console.log(api.source); // "embedded reference server (demo estate: 40 computers, …): demo data, …"
 * await api.close();
 * ```
 */
export async function openDemoSource(
  options: Pick<
    SourceOptions,
    "computers" | "seed" | "registryPrefix" | "pageSize" | "retries" | "onEvent" | "wrapFetch"
  > = {},
): Promise<ApiSource> {
  const registry = registryOption(options.registryPrefix);
  const computers = options.computers ?? 400;
  const seed = options.seed ?? 1;
  // The demo estate is dated today (midnight UTC), so ages in reports read as they would on a
  // live tenant; within a day the same seed and size give the same estate.
  const today = new Date();
  const asOf = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  // The reference server (and its estate generator) loads only when a run uses it.
  const { startServer } = await import("../server/server.ts");
  const server = await startServer({ port: 0, computers, seed, now: asOf, quiet: true });
  const client = createClient({
    baseUrl: server.url,
    auth: { clientId: "demo", clientSecret: "demo-secret" },
    ...registry,
    ...tuning(options),
    onEvent: options.onEvent,
    fetch: options.wrapFetch?.(globalThis.fetch),
  });
  return {
    client,
    source: demoSourceText({ computers, seed, asOf }),
    embedded: true,
    close: () => server.close(),
  };
}

/**
 * Opens a snapshot file as the data source: no network, the recorded responses only. The source
 * text and clock are the recorded run's, so re-rendered outputs match the originals byte for byte;
 * so is the page size (`--page-size` of the run that recorded it), unless `pageSize` is given.
 *
 * @example
 * ```ts ignore
 * import { openSnapshotSource } from "./source.ts";
 * const api = openSnapshotSource("out/packs/weekly/2026-11-22T0600Z/snapshot.sqlite");
 * ```
 */
export function openSnapshotSource(
  path: string,
  options: Pick<SourceOptions, "onEvent" | "pageSize"> = {},
): ApiSource & {
  readonly generatedAt: Date;
  readonly meta: ReturnType<typeof openSnapshot>["meta"];
} {
  const snapshot = openSnapshot(path);
  const client = createClient({
    baseUrl: "http://snapshot.invalid",
    // No secret: a replay answers any token. Registered as one like every token, so it is a
    // string no message holds (the word "snapshot" would be redacted from every error).
    auth: { token: "samkit-snapshot-replay-needs-no-token" },
    onEvent: options.onEvent,
    fetch: snapshot.fetch,
    retries: 0,
    // The pages are asked for as the recorded run asked for them, or the replay finds none.
    ...tuning({ pageSize: options.pageSize ?? snapshot.meta.pageSize }),
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
 * every use, naming why. A report that reads runs names their sources itself (its data's
 * `source`, from `historySourceText`), with "demo data" when they read the demo estate.
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
  return { client, source: RUN_HISTORY, embedded: false, close: () => Promise.resolve() };
}
