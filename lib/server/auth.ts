/**
 * OAuth2 client credentials for the reference server: the token endpoint of routes.md, bearer
 * token checks, and controls tests use to expire or revoke tokens.
 *
 * @module
 */

import { HttpError, jsonResponse } from "./serialize.ts";

/** Options of {@link TokenAuthority}. */
export interface AuthOptions {
  /** The client id accepted by the token endpoint (default `demo`). */
  readonly clientId?: string;
  /** The client secret accepted by the token endpoint (default `demo-secret`). */
  readonly clientSecret?: string;
  /** A fixed bearer token that is always accepted and never expires. */
  readonly token?: string;
  /** Lifetime of issued tokens in seconds (default 3600). */
  readonly tokenTtlSeconds?: number;
  /** The clock in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

/** The token endpoint's answer. */
export interface TokenResponse {
  /** The bearer token. */
  readonly access_token: string;
  /** Always `Bearer`. */
  readonly token_type: "Bearer";
  /** Seconds until the token expires. */
  readonly expires_in: number;
}

/** Compare two strings in time independent of where they differ. */
function sameText(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

const CHALLENGE = "Bearer";

/**
 * Issues and checks bearer tokens. Tokens are random, held in memory, and expire after the TTL.
 *
 * @example Issue a token and check it
 * ```ts
 * import { TokenAuthority } from "./auth.ts";
 * const auth = new TokenAuthority({ tokenTtlSeconds: 60 });
 * const { access_token } = auth.issue();
 * auth.verify(`Bearer ${access_token}`); // no throw
 * auth.revoke(access_token);
 * console.log(auth.issued); // 1
 * ```
 */
export class TokenAuthority {
  #clientId: string;
  #clientSecret: string;
  #fixed: string | undefined;
  #ttl: number;
  #now: () => number;
  #tokens = new Map<string, number>();
  #issued = 0;
  #rejected = 0;

  /**
   * Starts an authority with no token issued.
   *
   * @example
   * ```ts
   * import { TokenAuthority } from "./auth.ts";
   * const auth = new TokenAuthority({ clientId: "me", clientSecret: "s3cret" });
   * console.log(auth.clientId); // "me"
   * ```
   */
  constructor(options: AuthOptions = {}) {
    this.#clientId = options.clientId ?? "demo";
    this.#clientSecret = options.clientSecret ?? "demo-secret";
    this.#fixed = options.token;
    this.#ttl = options.tokenTtlSeconds ?? 3600;
    this.#now = options.now ?? Date.now;
  }

  /** The accepted client id. */
  get clientId(): string {
    return this.#clientId;
  }

  /** How many tokens the endpoint has issued. */
  get issued(): number {
    return this.#issued;
  }

  /** How many requests were refused with 401. */
  get rejected(): number {
    return this.#rejected;
  }

  /** How many issued tokens are still valid. */
  get active(): number {
    const now = this.#now();
    let n = 0;
    for (const exp of this.#tokens.values()) if (exp > now) n++;
    return n;
  }

  /**
   * Issue a new token.
   *
   * @example
   * ```ts
   * import { TokenAuthority } from "./auth.ts";
   * console.log(new TokenAuthority().issue().token_type); // "Bearer"
   * ```
   */
  issue(): TokenResponse {
    const token = randomToken();
    this.#tokens.set(token, this.#now() + this.#ttl * 1000);
    this.#issued++;
    if (this.#tokens.size > 10_000) this.#sweep();
    return { access_token: token, token_type: "Bearer", expires_in: this.#ttl };
  }

  /**
   * Check an `Authorization` header value; throws a 401 {@link HttpError} (with
   * `WWW-Authenticate: Bearer`) when the token is missing, unknown, revoked or expired.
   *
   * @example
   * ```ts
   * import { TokenAuthority } from "./auth.ts";
   * try {
   *   new TokenAuthority().verify(null);
   * } catch (err) {
   *   console.log((err as { status: number }).status); // 401
   * }
   * ```
   */
  verify(authorization: string | null): void {
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!m) this.#refuse("A bearer token is required.", CHALLENGE);
    const token = m![1];
    if (this.#fixed !== undefined && sameText(token, this.#fixed)) return;
    const exp = this.#tokens.get(token);
    if (exp === undefined) {
      this.#refuse("The token is invalid or revoked.", `${CHALLENGE} error="invalid_token"`);
    }
    if (exp! <= this.#now()) {
      this.#tokens.delete(token);
      this.#refuse("The token has expired.", `${CHALLENGE} error="invalid_token"`);
    }
  }

  /**
   * Expire every issued token (the fixed token stays valid).
   *
   * @example
   * ```ts
   * import { TokenAuthority } from "./auth.ts";
   * const auth = new TokenAuthority();
   * auth.issue();
   * auth.expireAll();
   * console.log(auth.active); // 0
   * ```
   */
  expireAll(): void {
    const now = this.#now();
    for (const token of this.#tokens.keys()) this.#tokens.set(token, now);
  }

  /**
   * Revoke one token; returns whether it was known.
   *
   * @example
   * ```ts
   * import { TokenAuthority } from "./auth.ts";
   * const auth = new TokenAuthority();
   * console.log(auth.revoke(auth.issue().access_token)); // true
   * ```
   */
  revoke(token: string): boolean {
    return this.#tokens.delete(token);
  }

  /**
   * Answer a request to the token endpoint: form-encoded `grant_type=client_credentials` with
   * `client_id` and `client_secret` (or HTTP Basic credentials). Bad credentials get 400 with
   * an `invalid_client` message in the API's error shape.
   *
   * @example
   * ```ts
   * import { TokenAuthority } from "./auth.ts";
   * const auth = new TokenAuthority();
   * const body = "grant_type=client_credentials&client_id=demo&client_secret=demo-secret";
   * const res = await auth.handleTokenRequest(
   *   new Request("http://x/idp/api/connect/token", {
   *     method: "POST",
   *     headers: { "content-type": "application/x-www-form-urlencoded" },
   *     body,
   *   }),
   * );
   * console.log(res.status); // 200
   * ```
   */
  async handleTokenRequest(req: Request): Promise<Response> {
    const type = req.headers.get("content-type") ?? "application/x-www-form-urlencoded";
    if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
      throw new HttpError(
        400,
        "invalid_request: the token request must be application/x-www-form-urlencoded.",
      );
    }
    const form = new URLSearchParams(await req.text());
    let id = form.get("client_id");
    let secret = form.get("client_secret");
    const basic = /^\s*basic\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
    if (basic && id === null && secret === null) {
      try {
        const decoded = atob(basic[1]);
        const colon = decoded.indexOf(":");
        if (colon !== -1) {
          id = decodeURIComponent(decoded.slice(0, colon));
          secret = decodeURIComponent(decoded.slice(colon + 1));
        }
      } catch {
        // Malformed Basic credentials count as missing.
      }
    }
    const grant = form.get("grant_type");
    if (grant !== "client_credentials") {
      throw new HttpError(
        400,
        grant === null
          ? "invalid_request: grant_type is required."
          : "unsupported_grant_type: only client_credentials is supported.",
      );
    }
    if (
      id === null || secret === null || !sameText(id, this.#clientId) ||
      !sameText(secret, this.#clientSecret)
    ) {
      throw new HttpError(400, "invalid_client: client authentication failed.");
    }
    return jsonResponse(this.issue(), 200, { "cache-control": "no-store" });
  }

  #refuse(message: string, challenge: string): never {
    this.#rejected++;
    throw new HttpError(401, message, { "www-authenticate": challenge });
  }

  #sweep(): void {
    const now = this.#now();
    for (const [token, exp] of this.#tokens) if (exp <= now) this.#tokens.delete(token);
  }
}
