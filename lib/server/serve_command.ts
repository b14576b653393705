/**
 * `samkit serve`: start the reference SAM API server on a generated estate and keep it up until
 * SIGINT or SIGTERM.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startServer } from "./server.ts";
import { registryPrefixesServed } from "./router.ts";
import { type Dialect, DIALECTS } from "./serialize.ts";
import { assertRegularIfPresentSync } from "../fs/regular_file.ts";

/**
 * The usage text of `samkit serve`.
 *
 * @example
 * ```ts
 * import { SERVE_USAGE } from "./serve_command.ts";
 * console.log(SERVE_USAGE.split("\n")[0]); // "Usage: samkit serve [options]"
 * ```
 */
export const SERVE_USAGE = `Usage: samkit serve [options]

Start the reference SAM API server on a generated estate.

Options:
  --port N            port to listen on (default 8787; 0 picks a free one)
  --hostname HOST     interface to listen on (default 127.0.0.1)
  --computers N       computers in the generated estate (default 400)
  --seed N            seed of the generated estate (default 1)
  --db FILE           keep the estate in this SQLite file (reused when it holds one)
  --latency-ms N      delay every response by N milliseconds (default 0)
  --rate-limit N      answer 429 above N requests per second (default 0: off)
  --token-ttl N       lifetime of issued tokens in seconds (default 3600)
  --client-id ID      accepted client id (default demo)
  --client-secret S   accepted client secret (default demo-secret)
  --token T           a fixed bearer token that is also accepted
  --dialect D         spec (default: the spec's registry path, string numbers and booleans,
                      M/d/yyyy license dates) or real (the public service's: registry at
                      /api/sam/software-registry/v1 only, typed values, RFC 3339 dates,
                      license transfers for a computer paged)
  --spec-registry-only  with --dialect spec, answer the registry at softwareregistry only
                      (by default it also answers at software-registry, as routes.md says)
  --help              show this text
`;

/** A bad command line. */
class UsageError extends Error {
  override name = "UsageError";
}

function integer(name: string, text: string | undefined, fallback: number, min = 0): number {
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer of at least ${min}, not "${text}"`);
  }
  return value;
}

/** The `--dialect` value, `spec` when absent; anything else is a usage error naming both. */
function dialectOf(text: string | undefined): Dialect {
  if (text === undefined) return "spec";
  if ((DIALECTS as readonly string[]).includes(text)) return text as Dialect;
  throw new UsageError(
    `--dialect must be ${DIALECTS.join(" or ")}, not "${text.slice(0, 40)}"`,
  );
}

/** A `--db` file the permissions do not let the server read and write. */
class DbAccessError extends UsageError {
  override name = "DbAccessError";
}

/**
 * A usage error when the database file may not be both read and written: SQLite opens it for
 * reading and writing, and Deno checks both permissions on that path (the `-wal`, `-shm` and
 * `-journal` siblings are opened by SQLite itself and are not checked).
 */
function dbPermissionError(db: string): DbAccessError | undefined {
  const missing = (["read", "write"] as const).filter((name) =>
    Deno.permissions.querySync({ name, path: db }).state !== "granted"
  );
  if (missing.length === 0) return undefined;
  const flags = missing.map((name) => `--allow-${name}=${db}`).join(" ");
  return new DbAccessError(
    `--db ${db}: the database needs read and write access to this file, and ` +
      `${missing.join(" and ")} access is not allowed; run deno with ${flags}, or pick a ` +
      `file the permission set allows`,
  );
}

/** Options of {@link serveCommand} beyond the command line (for tests). */
export interface ServeCommandOptions {
  /** Where lines are printed (default `console.log`). */
  readonly print?: (line: string) => void;
  /** Where errors are printed (default `console.error`). */
  readonly printError?: (line: string) => void;
  /** Stops the server instead of a signal. */
  readonly signal?: AbortSignal;
}

/**
 * Run `samkit serve` with its arguments; resolves with the exit code once the server stops
 * (SIGINT/SIGTERM or the given signal). Bad flags, and a `--db` file the permissions do not
 * let it read and write, print a message and give 2.
 *
 * @example
 * ```ts
 * import { serveCommand } from "./serve_command.ts";
 * const code = await serveCommand(["--port", "nope"]);
 * console.log(code); // 2
 * ```
 */
export async function serveCommand(
  argv: string[],
  options: ServeCommandOptions = {},
): Promise<number> {
  const print = options.print ?? console.log;
  const printError = options.printError ?? console.error;
  let config;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        port: { type: "string" },
        hostname: { type: "string" },
        computers: { type: "string" },
        seed: { type: "string" },
        db: { type: "string" },
        "latency-ms": { type: "string" },
        "rate-limit": { type: "string" },
        "token-ttl": { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        token: { type: "string" },
        dialect: { type: "string" },
        "spec-registry-only": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      print(SERVE_USAGE);
      return 0;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    for (const key of ["client-id", "client-secret", "token", "hostname", "db"] as const) {
      if (values[key] === "") throw new UsageError(`--${key} must not be empty`);
    }
    config = {
      port: integer("port", values.port, 8787),
      hostname: values.hostname ?? "127.0.0.1",
      computers: integer("computers", values.computers, 400, 1),
      seed: integer("seed", values.seed, 1),
      db: values.db,
      latencyMs: integer("latency-ms", values["latency-ms"], 0),
      rateLimit: integer("rate-limit", values["rate-limit"], 0),
      tokenTtlSeconds: integer("token-ttl", values["token-ttl"], 3600, 1),
      clientId: values["client-id"] ?? "demo",
      clientSecret: values["client-secret"],
      token: values.token,
      dialect: dialectOf(values.dialect),
      registryAlias: values["spec-registry-only"] !== true,
    };
    if (config.dialect === "real" && values["spec-registry-only"]) {
      throw new UsageError("--spec-registry-only applies to --dialect spec only");
    }
    if (config.port > 65535) throw new UsageError("--port must be at most 65535");
    const denied = config.db === undefined ? undefined : dbPermissionError(config.db);
    if (denied) throw denied;
    if (config.db !== undefined) assertRegularIfPresentSync(config.db); // SQLite would block on a FIFO
  } catch (err) {
    // parseArgs errors name the flag; none of them echo a flag's value.
    const message = err instanceof Error ? err.message : String(err);
    printError(
      err instanceof DbAccessError
        ? `samkit serve: ${message}`
        : `samkit serve: ${message}\n\n${SERVE_USAGE}`,
    );
    return 2;
  }

  const stop = new AbortController();
  options.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const onSignal = () => stop.abort();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  try {
    print(`generating an estate of ${config.computers} computers (seed ${config.seed})…`);
    const server = await startServer({ ...config, signal: stop.signal });
    print(`listening on ${server.url}`);
    print(`client id: ${config.clientId}`);
    print(
      `client secret: ${config.clientSecret === undefined ? "demo-secret" : "(as given)"}`,
    );
    if (config.token !== undefined) print("fixed bearer token: (as given)");
    print(`token endpoint: ${server.url}/idp/api/connect/token`);
    print(
      `dialect: ${server.dialect} (registry at ${
        registryPrefixesServed({ dialect: config.dialect, registryAlias: config.registryAlias })
          .join(" and ")
      })`,
    );
    await new Promise<void>((resolve) => {
      if (stop.signal.aborted) resolve();
      stop.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await server.close();
    print("stopped");
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    printError(`samkit serve: ${message}`);
    // Deno's permission errors name the path and the flag; they are bad usage, not a failure.
    return err instanceof Deno.errors.NotCapable ? 2 : 1;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
}
