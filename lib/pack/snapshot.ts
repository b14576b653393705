/**
 * Snapshots: the API data a run read, kept in a SQLite file so any report can be re-rendered
 * later without the API, by the very same code, to the same figures. Recording wraps the
 * client's fetch; replaying is a fetch that answers from the file.
 *
 * A snapshot is evidence handed on, so it keeps no secret: the value of every sensitive field of
 * the catalogue (`securityCode`, `licenseKeys`, connector keys…) and of tokens is replaced by
 * `"<redacted>"` in each recorded body before it is written (reports never show them, so a
 * re-render from the snapshot comes out the same).
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { checkContained } from "../fs/containment.ts";
import {
  assertRegularFileSync,
  assertSameFile,
  FileReplacedError,
  readProblem,
} from "../fs/regular_file.ts";
import { TOKEN_PATH } from "../api/operations.ts";
import { isSensitiveName, redact, REDACTED } from "../api/redact.ts";
import { scrubSecrets } from "../api/secrets.ts";

/** What a snapshot remembers about the run that made it. */
export interface SnapshotMeta {
  /** The run's clock (reports compute ages from it). */
  readonly generatedAt: string;
  /** Where the data came from. */
  readonly source: string;
  /** The pack's name, if a pack made it. */
  readonly pack?: string;
  /** Parameter values per report id. */
  readonly params?: Record<string, Record<string, unknown>>;
  /** Filters per report id. */
  readonly filters?: Record<string, string>;
  /** The page size the run asked for (`--page-size`; absent: the client's default). */
  readonly pageSize?: number;
}

/**
 * A request the snapshot does not hold: the report asked for data the recorded run never read.
 *
 * @example
 * ```ts
 * import { SnapshotMissError } from "./snapshot.ts";
 * console.log(new SnapshotMissError("/api/sam/v1/licenses?page_size=1000").message);
 * ```
 */
export class SnapshotMissError extends Error {
  /**
   * Builds the error from the request not in the snapshot.
   *
   * @param key The request's path and query.
   */
  constructor(key: string) {
    super(
      `the snapshot holds no response for ${key}; re-render with the parameters it was made with`,
    );
    this.name = "SnapshotMissError";
  }
}

/**
 * A snapshot file that is missing or is not a finished samkit snapshot.
 *
 * @example
 * ```ts
 * import { SnapshotFileError } from "./snapshot.ts";
 * console.log(new SnapshotFileError("x.sqlite", "no such file").message);
 * ```
 */
export class SnapshotFileError extends Error {
  /**
   * Builds the error from the file and what is wrong.
   *
   * @param path The file given.
   * @param problem What is wrong with it.
   */
  constructor(path: string, problem: string) {
    super(
      `snapshot "${path}": ${problem}; give the snapshot.sqlite of a pack run made with --snapshot`,
    );
    this.name = "SnapshotFileError";
  }
}

/**
 * The cache key of a request: path and query with parameters sorted (host and credentials
 * left out, so a snapshot never holds a token).
 *
 * @example
 * ```ts
 * import { requestKey } from "./snapshot.ts";
 * console.log(requestKey("GET", "http://h/api/x?page_size=5&filter=a")); // GET /api/x?filter=a&page_size=5
 * ```
 */
export function requestKey(method: string, url: string): string {
  const u = new URL(url);
  const params = [...u.searchParams].sort(([a, x], [b, y]) =>
    a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0
  );
  const query = new URLSearchParams(params).toString();
  return `${method.toUpperCase()} ${u.pathname}${query ? `?${query}` : ""}`;
}

/** Replaces sensitive values in place; returns how many. */
function redactInPlace(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += redactInPlace(item);
    return count;
  }
  const record = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(record)) {
    if (isSensitiveName(key) && v !== null && v !== undefined) {
      record[key] = REDACTED;
      count++;
    } else count += redactInPlace(v);
  }
  return count;
}

/**
 * A response body as a snapshot keeps it: JSON with the value of every sensitive field (at any
 * depth) replaced by `"<redacted>"`, and every secret samkit holds (registered with
 * `registerSecret`) removed by value wherever it stands; other text with every visible secret
 * redacted. A body with nothing to redact is kept byte for byte.
 *
 * @example
 * ```ts
 * import { redactBody } from "./snapshot.ts";
 * console.log(redactBody('{"id":"c1","securityCode":"K7Q2"}')); // {"id":"c1","securityCode":"<redacted>"}
 * console.log(redactBody('{"id":"c1"}')); // {"id":"c1"}
 * ```
 */
export function redactBody(body: string): string {
  // Every registered secret goes by value first, whatever field holds it: its JSON-escaped
  // spelling is registered too, and "<redacted>" needs no escape, so JSON stays JSON.
  const scrubbed = scrubSecrets(body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(scrubbed);
  } catch {
    return redact(scrubbed);
  }
  return redactInPlace(parsed) === 0 ? scrubbed : JSON.stringify(parsed);
}

function open(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec(`CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, status INTEGER NOT NULL,
    content_type TEXT, body TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
  return db;
}

/**
 * Records every successful or 404 GET the client makes into a SQLite file, with sensitive values
 * redacted ({@link redactBody}); the client itself gets the response as the API sent it.
 *
 * @example
 * ```ts ignore
 * import { SnapshotRecorder } from "./snapshot.ts";
 * const recorder = new SnapshotRecorder("/tmp/snap.sqlite");
 * const client = createClient({ baseUrl, auth, fetch: recorder.wrap(fetch) });
 * // … run reports …
 * recorder.close({ generatedAt: new Date().toISOString(), source: baseUrl });
 * ```
 */
export class SnapshotRecorder {
  #db: DatabaseSync;
  #insert;
  #count = 0;

  /** @param path The SQLite file to create. */
  constructor(path: string) {
    this.#db = open(path);
    // No fsync per response: the file is sealed by the manifest's checksum when the run ends, and
    // a run that dies is abandoned, so syncing each of its hundreds of inserts only waits on disk.
    // A process that dies still leaves a consistent file (the journal is kept; the kernel has
    // every write).
    this.#db.exec("PRAGMA synchronous = OFF");
    this.#insert = this.#db.prepare(
      "INSERT OR REPLACE INTO responses (key, status, content_type, body) VALUES (?, ?, ?, ?)",
    );
  }

  /** Responses recorded. */
  get count(): number {
    return this.#count;
  }

  /** A fetch that records what `inner` answers. */
  wrap(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await inner(input, init);
      const method = init?.method ?? (input instanceof Request ? input.method : "GET");
      const url = input instanceof Request ? input.url : String(input);
      if (method.toUpperCase() !== "GET" || (!response.ok && response.status !== 404)) {
        return response;
      }
      const body = await response.text();
      this.#insert.run(
        requestKey(method, url),
        response.status,
        response.headers.get("content-type"),
        redactBody(body),
      );
      this.#count++;
      return new Response(body, { status: response.status, headers: response.headers });
    };
  }

  /** Writes the run's metadata and closes the file. */
  close(meta: SnapshotMeta): void {
    const put = this.#db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('run', ?)");
    put.run(JSON.stringify(meta));
    this.#db.close();
  }
}

/** A snapshot opened for replay. */
export interface SnapshotReplay {
  /** The run's metadata. */
  readonly meta: SnapshotMeta;
  /** A fetch that answers from the snapshot (and issues a local token). */
  readonly fetch: typeof fetch;
  /** Closes the file. */
  close(): void;
}

/**
 * Opens a snapshot for replay.
 *
 * @example
 * ```ts
 * import { openSnapshot, SnapshotRecorder } from "./snapshot.ts";
 * import { createClient } from "../../client.ts";
 * import { startServer } from "../../server.ts";
 * const dir = await Deno.makeTempDir();
 * const server = await startServer({ port: 0, computers: 20, quiet: true });
 * const auth = { clientId: "demo", clientSecret: "demo-secret" };
 * // Record a read of the computers, then replay it with the server gone.
 * const recorder = new SnapshotRecorder(`${dir}/snapshot.sqlite`);
 * const live = createClient({ baseUrl: server.url, auth, fetch: recorder.wrap(fetch) });
 * const read = await live.estate.computers().toArray();
 * recorder.close({ generatedAt: new Date().toISOString(), source: server.url });
 * await server.close();
 * const snap = openSnapshot(`${dir}/snapshot.sqlite`);
 * const replay = createClient({ baseUrl: server.url, auth, fetch: snap.fetch });
 * console.log((await replay.estate.computers().toArray()).length === read.length); // true
 * snap.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function openSnapshot(path: string): SnapshotReplay {
  checkContained(path, { what: "snapshot file" });
  let looked: Deno.FileInfo;
  try {
    // SQLite opens without O_NONBLOCK: a FIFO is refused here, before it could block the open.
    looked = assertRegularFileSync(path);
  } catch (e) {
    throw new SnapshotFileError(
      path,
      e instanceof Deno.errors.NotFound ? "no such file" : readProblem(e),
    );
  }
  // Read-only: replaying never changes the evidence file.
  let db: DatabaseSync;
  let row: { value: string } | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    assertSameFile(path, looked);
    row = db.prepare("SELECT value FROM meta WHERE key = 'run'").get() as
      | { value: string }
      | undefined;
  } catch (e) {
    if (e instanceof FileReplacedError) throw new SnapshotFileError(path, e.message);
    throw new SnapshotFileError(path, "not a samkit snapshot (not SQLite, or no meta table)");
  }
  if (!row) throw new SnapshotFileError(path, "not a finished samkit snapshot");
  const meta = JSON.parse(row.value) as SnapshotMeta;
  const get = db.prepare("SELECT status, content_type, body FROM responses WHERE key = ?");
  const replay: typeof fetch = (input, init) => {
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const url = input instanceof Request ? input.url : String(input);
    if (new URL(url).pathname === TOKEN_PATH) {
      return Promise.resolve(
        Response.json({
          access_token: "samkit-snapshot-replay-needs-no-token",
          token_type: "Bearer",
          expires_in: 86400,
        }),
      );
    }
    const key = requestKey(method, url);
    const hit = get.get(key) as
      | { status: number; content_type: string | null; body: string }
      | undefined;
    if (!hit) return Promise.reject(new SnapshotMissError(key));
    return Promise.resolve(
      new Response(hit.body, {
        status: hit.status,
        headers: { "content-type": hit.content_type ?? "application/json" },
      }),
    );
  };
  return { meta, fetch: replay, close: () => db.close() };
}
