/**
 * One origin: every URL samkit requests — an operation's path, a `next` or detail link the
 * service sent, a redirect's `Location` — is read with the URL parser first and then compared by
 * origin (scheme, host and port) with the base URL, so no spelling of a link (`\\host/x`,
 * `/\host/x`, `http:host/x` on an https base, `HTTP://other`, `base@other`) can carry the token
 * elsewhere. A link to another origin, or one carrying credentials, is a
 * {@link RefusedResponseError} and nothing is sent. The only other origin a call may reach is a
 * token endpoint configured on its own origin, and only by the call that asks it for a token
 * (unauthenticated).
 *
 * @module
 */

import { RefusedResponseError } from "./errors.ts";
import { quoted } from "./one_line.ts";

/**
 * The base URL of a request function, parsed: http(s), without credentials, a query or a
 * fragment, ending in `/` so that paths resolve under its own path. Throws a `TypeError` that
 * never echoes a query or fragment (either may hold a secret).
 *
 * @example
 * ```ts
 * import { parseBase } from "./same_origin.ts";
 * console.log(parseBase("http://127.0.0.1:8080/tenant").href); // "http://127.0.0.1:8080/tenant/"
 * try {
 *   parseBase("https://sam.example.com/?api_key=s3cr3t");
 * } catch (e) {
 *   console.log((e as Error).message.includes("s3cr3t")); // false
 * }
 * ```
 */
export function parseBase(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`The API base URL ${quoted(withoutQuery(baseUrl))} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`The API base URL must be http(s), not ${quoted(url.protocol)}`);
  }
  if (url.username || url.password) {
    throw new TypeError("The API base URL must not carry credentials");
  }
  if (url.href.includes("?") || url.href.includes("#")) {
    throw new TypeError(
      `The API base URL ${quoted(withoutQuery(url.href))} must not carry a query string or ` +
        "fragment (samkit adds its own queries; a key in one would be sent with every call): " +
        "give the address alone",
    );
  }
  return new URL(url.href.replace(/\/*$/, "/"));
}

/**
 * `text` up to its first `?` or `#`, for naming a URL without its query or fragment.
 *
 * @example
 * ```ts
 * import { withoutQuery } from "./same_origin.ts";
 * console.log(withoutQuery("https://h.example/a?key=1#f")); // "https://h.example/a"
 * ```
 */
export function withoutQuery(text: string): string {
  return text.replace(/[?#][\s\S]*$/, "");
}

/** Where a call may go. */
export interface OriginRule {
  /** The base URL, from {@link parseBase}. */
  readonly base: URL;
  /** Other origins the call may reach (a token endpoint's, for the token request alone). */
  readonly others?: readonly string[];
  /** The call's method, for the refusal. */
  readonly method: string;
}

/**
 * Resolves a path or link against the base URL and checks where it leads. A path (`/api/…`, or
 * `api/…` as links spell it) goes under the base URL's own path; an absolute URL is taken as it
 * is. The link is read both ways — as samkit joins it and as the URL standard reads it — and
 * both must lead to an allowed origin (the base URL's, or `others`) without credentials, else a
 * {@link RefusedResponseError} is thrown (the link's origin named, never its path or query; its
 * `path` is `(link)`).
 *
 * @example
 * ```ts
 * import { parseBase, resolveSameOrigin } from "./same_origin.ts";
 * const base = parseBase("http://127.0.0.1:8080/tenant");
 * const rule = { base, method: "GET" };
 * console.log(resolveSameOrigin("api/x?page_number=2", rule).href);
 * // "http://127.0.0.1:8080/tenant/api/x?page_number=2"
 * try {
 *   resolveSameOrigin("\\\\127.0.0.1:9/x", rule);
 * } catch (e) {
 *   console.log((e as Error).message.includes("another origin")); // true
 * }
 * ```
 */
export function resolveSameOrigin(href: string, rule: OriginRule): URL {
  const joined = parseOrRefuse(href.replace(/^\/+/, ""), rule);
  const standard = parseOrRefuse(href, rule);
  for (const url of [standard, joined]) refuseElsewhere(url, rule, "a link");
  return joined;
}

/**
 * Where a redirect leads: its `Location` read against the URL that answered it, and checked
 * like a link (see {@link resolveSameOrigin}). Throws a {@link RefusedResponseError} for a
 * redirect to another origin, one carrying credentials, or one without a readable `Location`.
 *
 * @example
 * ```ts
 * import { parseBase, redirectTarget } from "./same_origin.ts";
 * const rule = { base: parseBase("http://127.0.0.1:8080"), method: "GET" };
 * const from = new URL("http://127.0.0.1:8080/api/a");
 * console.log(redirectTarget("/api/b", from, rule).href); // "http://127.0.0.1:8080/api/b"
 * try {
 *   redirectTarget("//127.0.0.1:9/x", from, rule);
 * } catch (e) {
 *   console.log((e as Error).message.includes("redirected to another origin")); // true
 * }
 * ```
 */
export function redirectTarget(location: string | null, from: URL, rule: OriginRule): URL {
  let url: URL | undefined;
  try {
    url = location === null ? undefined : new URL(location, from);
  } catch {
    url = undefined;
  }
  if (url === undefined) {
    throw refusal(
      rule,
      from.pathname,
      "redirect",
      "the service redirected without a readable Location",
      "a redirect",
    );
  }
  refuseElsewhere(url, rule, "a redirect", from.pathname);
  return url;
}

/** `href` parsed against the base URL, or a refusal when the parser cannot read it. */
function parseOrRefuse(href: string, rule: OriginRule): URL {
  try {
    return new URL(href, rule.base);
  } catch {
    throw refusal(
      rule,
      "(unreadable link)",
      "origin",
      "a link is not a URL",
      quoted(href.slice(0, 120)),
    );
  }
}

/** Throws unless `url` is of an allowed origin and carries no credentials. */
function refuseElsewhere(url: URL, rule: OriginRule, what: string, from?: string): void {
  const redirect = what === "a redirect";
  const base = rule.base.origin;
  const allowed = url.origin === base || (rule.others ?? []).includes(url.origin);
  // The path of a refused link is another origin's, the service's words: not shown.
  const path = from ?? "(link)";
  const kind = redirect ? "redirect" : "origin";
  if (!allowed) {
    const where = url.origin === "null" ? `a ${quoted(url.protocol)} URL` : url.origin;
    const problem = redirect
      ? `the service redirected to another origin (${where}) than the base URL's (${base}); ` +
        "not followed, nothing was sent there"
      : `refused a link to another origin (${where}) than the base URL's (${base}); nothing ` +
        "was sent there";
    throw refusal(rule, path, kind, problem, `${what} to ${where}`);
  }
  if (url.username || url.password) {
    throw refusal(
      rule,
      path,
      kind,
      `refused ${what} carrying credentials (user information); nothing was sent`,
      `${what} to ${url.origin} with user information`,
    );
  }
}

function refusal(
  rule: OriginRule,
  path: string,
  kind: "origin" | "redirect",
  problem: string,
  received: string,
): RefusedResponseError {
  return new RefusedResponseError({
    refusal: kind,
    method: rule.method,
    path: path.length > 200 ? `${path.slice(0, 197)}...` : path,
    problem,
    received,
  });
}
