/**
 * What `samkit doctor` notes of every response its client receives: the path and status, the
 * `Date` header against the local clock, and which rate-limit headers the service sends. It wraps
 * the client's fetch and keeps no body and no request header, so no token or secret is held.
 *
 * @module
 */

import { TOKEN_PATH } from "../api/operations.ts";

/** One response as the doctor saw it. */
export interface SeenResponse {
  /** The HTTP method. */
  readonly method: string;
  /** The path, without its query string. */
  readonly path: string;
  /** The HTTP status. */
  readonly status: number;
  /** The server's clock minus the local clock at receipt, in ms, when it sent a `Date`. */
  readonly skewMs?: number;
}

/** Rate-limit headers a service may send (the names are matched case-insensitively). */
const RATE_LIMIT_HEADER = /^(x-)?(rate-?limit|ms-ratelimit)|^retry-after$/i;

/**
 * Records the responses a client receives.
 *
 * @example
 * ```ts
 * import { ResponseObserver } from "./doctor_observer.ts";
 * const observer = new ResponseObserver({ now: () => Date.parse("2026-01-01T00:00:30Z") });
 * const fetch = observer.wrap(() =>
 *   Promise.resolve(
 *     new Response("{}", {
 *       headers: { date: "Thu, 01 Jan 2026 00:00:00 GMT", "x-ratelimit-remaining": "99" },
 *     }),
 *   )
 * );
 * await (await fetch("http://127.0.0.1:1/api/sam/v1/licenses?page_size=1")).body?.cancel();
 * console.log(observer.responses[0]?.skewMs, observer.rateLimitHeaders); // -30000 ["x-ratelimit-remaining"]
 * ```
 */
export class ResponseObserver {
  #responses: SeenResponse[] = [];
  #rateLimit = new Set<string>();
  #now: () => number;

  /** @param options `now`: the local clock in ms (default `Date.now`). */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Every response seen, in order. */
  get responses(): readonly SeenResponse[] {
    return this.#responses;
  }

  /** The rate-limit header names seen on any response, lower case, sorted. */
  get rateLimitHeaders(): string[] {
    return [...this.#rateLimit].sort();
  }

  /** The responses of the OAuth2 token endpoint. */
  get tokenResponses(): SeenResponse[] {
    return this.#responses.filter((r) => r.path.endsWith(TOKEN_PATH));
  }

  /** The last response that carried a readable `Date` header. */
  get lastDated(): SeenResponse | undefined {
    return this.#responses.findLast((r) => r.skewMs !== undefined);
  }

  /** A fetch that records each response of `inner` and hands it on untouched. */
  wrap(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await inner(input, init);
      this.#note(input, init, response);
      return response;
    };
  }

  #note(input: RequestInfo | URL, init: RequestInit | undefined, response: Response): void {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const date = Date.parse(response.headers.get("date") ?? "");
    for (const name of response.headers.keys()) {
      if (RATE_LIMIT_HEADER.test(name)) this.#rateLimit.add(name.toLowerCase());
    }
    this.#responses.push({
      method: method.toUpperCase(),
      path: url.pathname,
      status: response.status,
      ...(Number.isNaN(date) ? {} : { skewMs: date - this.#now() }),
    });
  }
}
