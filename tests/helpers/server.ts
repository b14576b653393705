/**
 * Test helpers for the reference server: start one in-process on an ephemeral loopback port,
 * get a token, and call it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type RunningServer, type ServerOptions, startServer } from "../../lib/server/server.ts";
import { type OperationSpec, TOKEN_PATH } from "../../lib/api/operations.ts";
import { RESOURCES } from "../../lib/api/catalogue.ts";

/**
 * The estate time every test server uses unless told otherwise (so estates repeat exactly).
 *
 * @example
 * ```ts
 * import { TEST_NOW } from "./server.ts";
 * console.log(TEST_NOW.toISOString()); // "2025-06-30T12:00:00.000Z"
 * ```
 */
export const TEST_NOW: Date = new Date("2025-06-30T12:00:00Z");

/**
 * The folder test servers keep their generated estates in, shared by every test of a run (and by
 * later runs of the same code: entries are keyed by the version of the code that makes them):
 * `SAMKIT_ESTATE_CACHE` when set, else `samkit-test-estates` in the temporary folder.
 *
 * @example
 * ```ts
 * import { TEST_ESTATES } from "./server.ts";
 * console.log(TEST_ESTATES.length > 0); // true
 * ```
 */
export const TEST_ESTATES: string = Deno.env.get("SAMKIT_ESTATE_CACHE") ||
  `${Deno.env.get("TMPDIR") || "/tmp"}/samkit-test-estates`;

/**
 * Run `fn` against a fresh reference server (400 computers, seed 1, quiet, on port 0 unless
 * told otherwise) and close it afterwards, whatever happens. Its estate comes from
 * {@link TEST_ESTATES}: generated once per size, seed and "now", each server serving its own
 * in-memory copy, so what one test writes no other test sees.
 *
 * @example
 * ```ts
 * import { getToken, withServer } from "./server.ts";
 * await withServer({ computers: 20 }, async (srv) => {
 *   const token = await getToken(srv);
 *   const res = await fetch(`${srv.url}/api/sam/estate/v1/computers`, {
 *     headers: { authorization: `Bearer ${token}` },
 *   });
 *   console.log(res.status); // 200
 *   await res.body?.cancel();
 * });
 * ```
 */
export async function withServer<T>(
  options: ServerOptions,
  fn: (srv: RunningServer) => Promise<T>,
): Promise<T> {
  const srv = await startServer({
    port: 0,
    computers: 400,
    seed: 1,
    now: TEST_NOW,
    quiet: true,
    ...(options.db === undefined && options.store === undefined
      ? { estateCache: TEST_ESTATES }
      : {}),
    ...options,
  });
  try {
    return await fn(srv);
  } finally {
    await srv.close();
  }
}

/**
 * A bearer token from the server's token endpoint (client credentials `demo`/`demo-secret`
 * unless given).
 *
 * @example
 * ```ts
 * import { getToken, withServer } from "./server.ts";
 * await withServer({}, async (srv) => console.log((await getToken(srv)).length > 0)); // true
 * ```
 */
export async function getToken(
  srv: RunningServer,
  credentials: { clientId?: string; clientSecret?: string } = {},
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: credentials.clientId ?? "demo",
    client_secret: credentials.clientSecret ?? "demo-secret",
  });
  const res = await fetch(srv.url + TOKEN_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}`);
  return json.access_token as string;
}

/** A response read whole: status, headers and the parsed JSON body (or null). */
export interface ApiResponse {
  /** HTTP status. */
  readonly status: number;
  /** Response headers. */
  readonly headers: Headers;
  // deno-lint-ignore no-explicit-any
  readonly body: any;
}

/**
 * Call the server with a token and read the JSON answer.
 *
 * @example
 * ```ts
 * import { api, getToken, withServer } from "./server.ts";
 * await withServer({}, async (srv) => {
 *   const res = await api(srv, "/api/sam/v1/licenses", { token: await getToken(srv) });
 *   console.log(res.status, Array.isArray(res.body.items)); // 200 true
 * });
 * ```
 */
export async function api(
  srv: RunningServer,
  path: string,
  init: {
    token?: string;
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(srv.url + path, { method: init.method ?? "GET", headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/**
 * Path parameters of an operation taken from a real row of the store (one whose parent exists),
 * if there is one.
 *
 * @example
 * ```ts
 * import { sampleParams, withServer } from "./server.ts";
 * import { operation } from "../../lib/api/operations.ts";
 * await withServer({}, async (srv) => {
 *   console.log(sampleParams(srv, operation("estate.computer"))); // { id: "…" }
 * });
 * ```
 */
export function sampleParams(
  srv: RunningServer,
  op: OperationSpec,
): Record<string, string> | undefined {
  const r = RESOURCES[op.resource];
  const { rows } = srv.store.query({ resource: op.resource, where: op.fixed, limit: 2000 });
  for (const row of rows) {
    const params: Record<string, string> = {};
    let ok = true;
    for (const [param, field] of Object.entries(op.scope)) {
      const v = row[r.columnOf(field)];
      if (v === null || v === undefined || v === "") ok = false;
      else params[param] = String(v);
    }
    if (ok && op.parent) {
      const p = op.parent;
      ok = srv.store.first(p.resource, { [p.field]: params[p.param] }) !== undefined;
    }
    if (ok) return params;
  }
  return undefined;
}

/**
 * Asserts the API's error shape (`{ error: { code, message } }`) with `status`, and returns the
 * message.
 *
 * @example
 * ```ts ignore
 * const res = await api(srv, "/api/sam/estate/v1/computers?page_size=0", { token });
 * console.log(errorMessage(res, 400)); // "page_size must be at least 1; got 0."
 * ```
 */
export function errorMessage(res: { status: number; body: unknown }, status: number): string {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = res.body as { error: { code: number; message: string } };
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.equal(body.error.code, status);
  return body.error.message;
}
