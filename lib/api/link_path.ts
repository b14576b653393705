/**
 * Where a paging link leads within the service, compared with a collection's own path. Both are
 * URLs as `same_origin.ts` resolves them for the request (so the check sees what would be asked
 * for). A `next` link of a collection leads to another page of that collection — its path with
 * another query — never to another collection (the license list read as entitlement states),
 * another parent's (another computer's monitors) or the token endpoint.
 *
 * @module
 */

/**
 * A URL's path in the form compared: percent-decoded (as received when it cannot be), without a
 * trailing slash, in lower case; a query or fragment does not count.
 *
 * @example
 * ```ts
 * import { comparablePath } from "./link_path.ts";
 * console.log(comparablePath(new URL("http://h/t/API/x/../y/?page_number=2"))); // "/t/api/y"
 * ```
 */
export function comparablePath(url: URL): string {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: compared as received.
  }
  return path.replace(/\/+$/, "").toLowerCase();
}

/**
 * Whether two resolved URLs lead to the same path ({@link comparablePath}).
 *
 * @example
 * ```ts
 * import { samePath } from "./link_path.ts";
 * const base = "http://127.0.0.1:8080/tenant/api/sam/v1/licenses";
 * console.log(samePath(new URL(`${base}/?page_number=2`), new URL(base))); // true
 * console.log(samePath(new URL(`${base}/tracking`), new URL(base))); // false
 * ```
 */
export function samePath(a: URL, b: URL): boolean {
  return comparablePath(a) === comparablePath(b);
}
