/**
 * Where the bearer token comes from: OAuth2 client credentials against the token endpoint of
 * routes.md (cached until shortly before it expires, one fetch shared by concurrent requests),
 * a static token, or the caller's own provider. The request layer asks {@link Auth.token} before
 * each attempt and calls {@link Auth.invalidate} after a 401, then asks again once.
 *
 * @module
 */

import { TOKEN_PATH } from "./operations.ts";
import { ApiError, AuthError, BadRequestError } from "./errors.ts";
import { quoted } from "./one_line.ts";

/**
 * What the request layer lends an {@link Auth} to fetch a token: a form POST through the same
 * time-out and retry layers, without an `Authorization` header.
 */
export interface AuthContext {
  /**
   * POSTs a form body to a path of the API base URL (or an absolute URL) and returns the parsed
   * JSON body. Throws the client's errors (`BadRequestError` for a 400, …).
   */
  postForm(path: string, form: URLSearchParams, signal?: AbortSignal): Promise<unknown>;
}

/** A source of bearer tokens. */
export interface Auth {
  /** What kind of source this is (for diagnostics; never the token). */
  readonly kind: "clientCredentials" | "static" | "provider" | "none";
  /** A token to send, fetched or reused; `undefined` sends no `Authorization` header. */
  token(context: AuthContext, signal?: AbortSignal): Promise<string | undefined>;
  /** Forgets `token` after a 401 so the next {@link Auth.token} gets a new one. */
  invalidate(token: string | undefined): void;
  /** Secrets this source holds (client secret, static token), for redaction. */
  readonly secrets: readonly string[];
  /**
   * Origins besides the base URL's that this source's token requests go to (a token endpoint
   * configured on its own origin). Only a call sent without credentials may reach them: a link
   * or redirect there from an authenticated call is refused like any other origin.
   */
  readonly origins?: readonly string[];
}

/** Options of {@link clientCredentials}. */
export interface ClientCredentialsOptions {
  /** The OAuth2 client id. */
  readonly clientId: string;
  /** The OAuth2 client secret. Never logged. */
  readonly clientSecret: string;
  /**
   * The token endpoint: a path of the base URL, or an absolute http(s) URL (which may be on its
   * own origin; the token requests alone go there). Default routes.md's path.
   */
  readonly tokenUrl?: string;
  /** Renew this long before `expires_in` runs out (default 60 000 ms, at most half the TTL). */
  readonly refreshMarginMs?: number;
  /** Clock in ms (default `Date.now`). */
  readonly now?: () => number;
  /** Extra form fields (a `scope`, say). */
  readonly extra?: Readonly<Record<string, string>>;
}

/**
 * OAuth2 client credentials: `POST {base}/idp/api/connect/token` with
 * `grant_type=client_credentials&client_id=…&client_secret=…`. The token is cached until shortly
 * before `expires_in`; concurrent requests share one fetch. Bad credentials (400 or 401 from the
 * endpoint) fail with an {@link AuthError} that never shows the secret.
 *
 * @example
 * ```ts
 * import { clientCredentials } from "./auth.ts";
 * const auth = clientCredentials({ clientId: "reports", clientSecret: "s3cr3t" });
 * const context = {
 *   postForm: () => Promise.resolve({ access_token: "tok", token_type: "Bearer", expires_in: 3600 }),
 * };
 * console.log(await auth.token(context)); // "tok"
 * ```
 */
export function clientCredentials(options: ClientCredentialsOptions): Auth {
  if (!options.clientId) throw new TypeError("clientCredentials: clientId is required");
  if (!options.clientSecret) throw new TypeError("clientCredentials: clientSecret is required");
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 60_000;
  const tokenUrl = options.tokenUrl ?? TOKEN_PATH;
  const origin = tokenOrigin(tokenUrl);
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const fetchToken = async (context: AuthContext): Promise<string> => {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: options.clientId,
      client_secret: options.clientSecret,
      ...options.extra,
    });
    let body: unknown;
    try {
      body = await context.postForm(tokenUrl, form);
    } catch (error) {
      if (error instanceof BadRequestError || (error instanceof ApiError && error.status === 401)) {
        throw new AuthError({
          status: error.status,
          method: "POST",
          path: error.path,
          message:
            `the token endpoint refused the client credentials of client "${options.clientId}": ${
              error.detail || "no reason given"
            }`,
          ...(error.requestId ? { requestId: error.requestId } : {}),
          cause: error,
        });
      }
      throw error;
    }
    const { token, ttlMs } = readTokenResponse(body, tokenUrl);
    const start = now();
    cached = {
      token,
      expiresAt: ttlMs === undefined ? Infinity : start + ttlMs - Math.min(margin, ttlMs / 2),
    };
    return token;
  };

  return {
    kind: "clientCredentials",
    secrets: [options.clientSecret],
    ...(origin === undefined ? {} : { origins: [origin] }),
    token(context, signal) {
      if (cached && now() < cached.expiresAt) return Promise.resolve(cached.token);
      cached = undefined;
      pending ??= fetchToken(context).finally(() => (pending = undefined));
      return raceSignal(pending, signal);
    },
    invalidate(token) {
      if (cached && (token === undefined || cached.token === token)) cached = undefined;
    },
  };
}

/**
 * The origin of an absolute token URL, `undefined` for a path. Throws a `TypeError` for an
 * absolute URL that is not http(s) or that carries credentials.
 */
function tokenOrigin(tokenUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(tokenUrl);
  } catch {
    return undefined; // A path of the base URL.
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    throw new TypeError(
      "clientCredentials: tokenUrl must be a path or an http(s) URL without credentials",
    );
  }
  return url.origin;
}

/** What is wrong with a token {@link sendable} refuses (the token itself is never shown). */
const UNSENDABLE = "cannot be sent in an Authorization header: it holds a space, a line break, " +
  "a control or a non-ASCII character";

/**
 * Whether a token can be sent as `Bearer <token>`: visible ASCII only (RFC 6750's `b64token` is a
 * subset). A line break in one would split the header; `Headers` refuses it with a `TypeError`
 * that quotes the whole token.
 */
function sendable(token: string): boolean {
  return /^[\x21-\x7e]+$/.test(token);
}

function readTokenResponse(body: unknown, tokenUrl: string): { token: string; ttlMs?: number } {
  const b = (body ?? {}) as Record<string, unknown>;
  const path = tokenUrl.replace(/\?.*$/, "");
  if (typeof b.access_token !== "string" || b.access_token === "") {
    throw new AuthError({
      status: 200,
      method: "POST",
      path,
      message: "the token endpoint answered without an access_token",
    });
  }
  if (typeof b.token_type === "string" && b.token_type.toLowerCase() !== "bearer") {
    throw new AuthError({
      status: 200,
      method: "POST",
      path,
      message: `the token endpoint issued a ${
        quoted(b.token_type.slice(0, 80))
      } token; only Bearer is supported`,
    });
  }
  if (!sendable(b.access_token)) {
    throw new AuthError({
      status: 200,
      method: "POST",
      path,
      message: `the token endpoint issued an access_token that ${UNSENDABLE}; not used`,
    });
  }
  const ttl = typeof b.expires_in === "string" ? Number(b.expires_in) : b.expires_in;
  return {
    token: b.access_token,
    ...(typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0 ? { ttlMs: ttl * 1000 } : {}),
  };
}

/**
 * A fixed bearer token (from a vault, say). It cannot be renewed: a 401, then another after the
 * retry, fails with `AuthError`.
 *
 * @example
 * ```ts
 * import { staticToken } from "./auth.ts";
 * const auth = staticToken("eyJhbGciOi...");
 * console.log(await auth.token({ postForm: () => Promise.resolve({}) })); // "eyJhbGciOi..."
 * ```
 */
export function staticToken(token: string): Auth {
  if (!token) throw new TypeError("staticToken: the token is empty");
  if (!sendable(token)) throw new TypeError(`staticToken: the token ${UNSENDABLE}`);
  return {
    kind: "static",
    secrets: [token],
    token: () => Promise.resolve(token),
    invalidate() {},
  };
}

/**
 * A token from the caller's own function. Its answer is reused until a 401; then it is called
 * again for a new one. Concurrent requests share one call.
 *
 * @example
 * ```ts
 * import { tokenProvider } from "./auth.ts";
 * let n = 0;
 * const auth = tokenProvider(() => Promise.resolve(`token-${++n}`));
 * const ctx = { postForm: () => Promise.resolve({}) };
 * const first = await auth.token(ctx);
 * auth.invalidate(first);
 * console.log(first, await auth.token(ctx)); // "token-1" "token-2"
 * ```
 */
export function tokenProvider(provider: (signal?: AbortSignal) => Promise<string>): Auth {
  let cached: string | undefined;
  let pending: Promise<string> | undefined;
  return {
    kind: "provider",
    secrets: [],
    token(_context, signal) {
      if (cached !== undefined) return Promise.resolve(cached);
      pending ??= provider().then((token) => {
        if (typeof token !== "string" || token === "") {
          throw new TypeError("tokenProvider: the provider returned no token");
        }
        if (!sendable(token)) throw new TypeError(`tokenProvider: the token ${UNSENDABLE}`);
        cached = token;
        return token;
      }).finally(() => (pending = undefined));
      return raceSignal(pending, signal);
    },
    invalidate(token) {
      if (token === undefined || cached === token) cached = undefined;
    },
  };
}

/**
 * No authentication (a server that needs none). A 401 fails after one retry.
 *
 * @example
 * ```ts
 * import { noAuth } from "./auth.ts";
 * console.log(await noAuth().token({ postForm: () => Promise.resolve({}) })); // undefined
 * ```
 */
export function noAuth(): Auth {
  return {
    kind: "none",
    secrets: [],
    token: () => Promise.resolve(undefined),
    invalidate() {},
  };
}

/** How a client is told to authenticate. */
export type AuthOptions =
  | ClientCredentialsOptions
  | { readonly token: string }
  | { readonly tokenProvider: (signal?: AbortSignal) => Promise<string> }
  | Auth;

/**
 * The {@link Auth} for client options: an `Auth` as is, client credentials, a static token or a
 * provider; with none given, client credentials from `SAM_CLIENT_ID` and `SAM_CLIENT_SECRET`, or
 * a token from `SAM_TOKEN`, else no authentication.
 *
 * @example
 * ```ts
 * import { createAuth } from "./auth.ts";
 * console.log(createAuth({ token: "abc123" }).kind); // "static"
 * console.log(createAuth(undefined, () => undefined).kind); // "none"
 * ```
 */
export function createAuth(
  options: AuthOptions | undefined,
  env: (name: string) => string | undefined = () => undefined,
): Auth {
  if (options === undefined) {
    const clientId = env("SAM_CLIENT_ID");
    const clientSecret = env("SAM_CLIENT_SECRET");
    if (clientId && clientSecret) return clientCredentials({ clientId, clientSecret });
    const token = env("SAM_TOKEN");
    return token ? staticToken(token) : noAuth();
  }
  if ("kind" in options && "invalidate" in options) return options;
  if ("clientId" in options) return clientCredentials(options);
  if ("token" in options) return staticToken(options.token);
  if ("tokenProvider" in options) return tokenProvider(options.tokenProvider);
  throw new TypeError("auth: give clientId and clientSecret, a token, or a tokenProvider");
}

/**
 * `promise`, or the signal's reason as soon as it aborts (the promise itself runs on, so a token
 * fetch shared by several requests is not cancelled by one of them).
 *
 * @example
 * ```ts
 * import { raceSignal } from "./auth.ts";
 * const c = new AbortController();
 * const slow = new Promise((r) => setTimeout(r, 50, "late"));
 * c.abort(new Error("gave up"));
 * await raceSignal(slow, c.signal).catch((e) => console.log(e.message)); // "gave up"
 * await slow;
 * ```
 */
export function raceSignal<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
