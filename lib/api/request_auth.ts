/**
 * The auth phase of a call: the attempt's `Authorization` header from the client's
 * {@link Auth}, each token added to the secrets errors are scrubbed of; and the context a token
 * source posts its token request through (the request function itself, unauthenticated).
 *
 * @module
 */

import type { Auth, AuthContext } from "./auth.ts";
import type { PreparedCall } from "./request_call.ts";
import type { Redactor } from "./redact.ts";
import type { ApiRequest, ApiResponse } from "./request_types.ts";

/** An attempt's headers and the token they carry. */
export interface AuthorisedHeaders {
  /** The call's headers, with `authorization` when there is a token. */
  readonly headers: Headers;
  /** The token sent (to drop it if it is rejected), or `undefined`. */
  readonly token?: string;
}

/**
 * The headers of one attempt: the call's, with `Authorization: Bearer <token>` when the call is
 * authenticated and the source has a token. The token is remembered as a secret first.
 *
 * @example
 * ```ts
 * import { authorise } from "./request_auth.ts";
 * import { staticToken } from "./auth.ts";
 * import { prepareCall } from "./request_call.ts";
 * import { Redactor } from "./redact.ts";
 * const call = prepareCall({ path: "/api/sam/v1/licenses" }, new URL("http://127.0.0.1:8080/"));
 * const context = { postForm: () => Promise.resolve({}) };
 * const { headers } = await authorise(call, staticToken("tok"), context, new Redactor());
 * console.log(headers.get("authorization")); // "Bearer tok"
 * ```
 */
export async function authorise(
  call: PreparedCall,
  auth: Auth,
  context: AuthContext,
  redactor: Redactor,
): Promise<AuthorisedHeaders> {
  const headers = new Headers(call.headers);
  if (!call.authenticate) return { headers };
  const token = await auth.token(context, call.signal);
  redactor.add(token);
  if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
  return token === undefined ? { headers } : { headers, token };
}

/**
 * The context a token source posts through: a form POSTed by `request` without credentials, and
 * retried like a read (a token request has no side effects).
 *
 * @example
 * ```ts
 * import { tokenContext } from "./request_auth.ts";
 * const context = tokenContext((req) =>
 *   Promise.resolve({ status: 200, headers: new Headers(), body: { path: req.path }, bytes: 0 })
 * );
 * console.log(await context.postForm("/idp/api/connect/token", new URLSearchParams()));
 * // { path: "/idp/api/connect/token" }
 * ```
 */
export function tokenContext(request: (req: ApiRequest) => Promise<ApiResponse>): AuthContext {
  return {
    postForm: async (path, form, signal) =>
      (await request({
        method: "POST",
        path,
        body: form,
        authenticate: false,
        idempotent: true,
        ...(signal ? { signal } : {}),
      })).body,
  };
}
