/**
 * The first phase of a call: its URL (a path or link of the base URL, never another origin, with
 * the query added; see `same_origin.ts`), its headers and its body, and whether it may be
 * repeated — everything that stays the same from one attempt to the next.
 *
 * @module
 */

import type { ApiRequest } from "./request_types.ts";
import { type OriginRule, resolveSameOrigin } from "./same_origin.ts";

/** A call ready to send: what every attempt of it shares. */
export interface PreparedCall {
  readonly method: NonNullable<ApiRequest["method"]>;
  /** The full URL, query included. */
  readonly url: URL;
  /** The path without its query string (for events and errors). */
  readonly path: string;
  /** Where the call and its redirects may go. */
  readonly origins: OriginRule;
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
 * Throws a `RefusedResponseError` for anything the URL parser reads as another origin than the
 * rule allows (see `same_origin.ts`): credentials never leave the base URL's origin.
 *
 * @example
 * ```ts
 * import { resolveUrl } from "./request_call.ts";
 * const rule = { base: new URL("http://127.0.0.1:8080/"), method: "GET" };
 * const url = resolveUrl(rule, "api/sam/v1/licenses?page_number=2", { page_size: 10 });
 * console.log(url.href); // "http://127.0.0.1:8080/api/sam/v1/licenses?page_number=2&page_size=10"
 * ```
 */
export function resolveUrl(rule: OriginRule, path: string, query: ApiRequest["query"]): URL {
  const url = resolveSameOrigin(path, rule);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined) url.searchParams.set(k, String(v));
  }
  return url;
}

/** What {@link prepareCall} needs besides the call and the base URL. */
export interface PrepareOptions {
  /** Extra headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Origins besides the base URL's that a call sent without credentials may reach (a token
   * endpoint configured on its own origin).
   */
  readonly tokenOrigins?: readonly string[];
}

/**
 * Prepares a call: its URL (of the base URL's origin; an unauthenticated call may also reach a
 * token origin), method, whether it may be repeated (GET, PUT and DELETE by default), the
 * client's extra headers with `accept: application/json`, and the body encoded with its content
 * type (a form, text, or JSON for anything else).
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
  options: PrepareOptions = {},
): PreparedCall {
  const method = req.method ?? "GET";
  const authenticate = req.authenticate ?? true;
  const origins: OriginRule = {
    base,
    method,
    ...(authenticate ? {} : { others: options.tokenOrigins ?? [] }),
  };
  const url = resolveUrl(origins, req.path, req.query);
  const idempotent = req.idempotent ??
    (method === "GET" || method === "PUT" || method === "DELETE");
  const headers = new Headers(options.headers);
  headers.set("accept", "application/json");
  const body = encodeBody(req, headers);
  return {
    method,
    url,
    path: url.pathname,
    origins,
    idempotent,
    authenticate,
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
