/**
 * The first phase of a call: its URL (a path or link of the base URL, never another origin, with
 * the query added), its headers and its body, and whether it may be repeated — everything that
 * stays the same from one attempt to the next.
 *
 * @module
 */

import type { ApiRequest } from "./request_types.ts";

/** A call ready to send: what every attempt of it shares. */
export interface PreparedCall {
  readonly method: NonNullable<ApiRequest["method"]>;
  /** The full URL, query included. */
  readonly url: URL;
  /** The path without its query string (for events and errors). */
  readonly path: string;
  /** Whether 5xx and network failures may be retried. */
  readonly idempotent: boolean;
  /** Whether the `Authorization` header is sent. */
  readonly authenticate: boolean;
  readonly signal?: AbortSignal;
  /** The headers of every attempt (the token is added per attempt). */
  readonly headers: Headers;
  /** The encoded body, when there is one. */
  readonly body?: BodyInit;
}

/**
 * Resolves a path (`/api/…`, or `api/…` as links spell it, either with a query string) or an
 * absolute URL against the base URL, and adds the query parameters that are not `undefined`.
 * Throws a `TypeError` for an absolute URL of another origin: credentials never leave the base
 * URL's origin.
 *
 * @example
 * ```ts
 * import { resolveUrl } from "./request_call.ts";
 * const base = new URL("http://127.0.0.1:8080/");
 * const url = resolveUrl(base, "api/sam/v1/licenses?page_number=2", { page_size: 10 });
 * console.log(url.href); // "http://127.0.0.1:8080/api/sam/v1/licenses?page_number=2&page_size=10"
 * ```
 */
export function resolveUrl(base: URL, path: string, query: ApiRequest["query"]): URL {
  let url: URL;
  if (/^https?:\/\//i.test(path)) {
    url = new URL(path);
    if (url.origin !== base.origin) {
      throw new TypeError(`Refusing to send credentials to another origin: ${url.origin}`);
    }
  } else {
    // Paths and link hrefs (`api/…`, `/api/…`) are both relative to the base URL.
    url = new URL(path.replace(/^\/+/, ""), base);
  }
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined) url.searchParams.set(k, String(v));
  }
  return url;
}

/**
 * Prepares a call: its URL, method, whether it may be repeated (GET, PUT and DELETE by default),
 * the client's extra headers with `accept: application/json`, and the body encoded with its
 * content type (a form, text, or JSON for anything else).
 *
 * @example
 * ```ts
 * import { prepareCall } from "./request_call.ts";
 * const call = prepareCall(
 *   { method: "POST", path: "/api/cloud-cost/v1/connectors/test", body: { type: "ProviderAStore" } },
 *   new URL("http://127.0.0.1:8080/"),
 * );
 * console.log(call.idempotent, call.headers.get("content-type")); // false "application/json"
 * ```
 */
export function prepareCall(
  req: ApiRequest,
  base: URL,
  extraHeaders?: Readonly<Record<string, string>>,
): PreparedCall {
  const method = req.method ?? "GET";
  const url = resolveUrl(base, req.path, req.query);
  const idempotent = req.idempotent ??
    (method === "GET" || method === "PUT" || method === "DELETE");
  const headers = new Headers(extraHeaders);
  headers.set("accept", "application/json");
  const body = encodeBody(req, headers);
  return {
    method,
    url,
    path: url.pathname,
    idempotent,
    authenticate: req.authenticate ?? true,
    ...(req.signal ? { signal: req.signal } : {}),
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** The body as sent, its content type set on `headers` (the caller's, else the body's kind). */
function encodeBody(req: ApiRequest, headers: Headers): BodyInit | undefined {
  if (req.body === undefined) return undefined;
  if (req.body instanceof URLSearchParams) {
    headers.set("content-type", req.contentType ?? "application/x-www-form-urlencoded");
    return req.body.toString();
  }
  if (typeof req.body === "string") {
    headers.set("content-type", req.contentType ?? "text/plain");
    return req.body;
  }
  headers.set("content-type", req.contentType ?? "application/json");
  return JSON.stringify(req.body);
}
