/**
 * Where a paging link leads within the service: the path a link resolves to, as samkit joins it
 * with the base URL (`same_origin.ts` checks its origin), compared with a collection's own path.
 * A `next` link of a collection leads to another page of that collection — its path with another
 * query — never to another collection (the license list read as entitlement states), another
 * parent's (another computer's monitors) or the token endpoint.
 *
 * @module
 */

/**
 * Whether `href` (a link, `api/…`, `/api/…` or absolute) leads to the same path as `path` (a
 * request path) under `baseUrl`: their paths equal once resolved, percent-decoded, without a
 * trailing slash and in any letter case (a query or fragment does not count).
 *
 * @example
 * ```ts
 * import { leadsToPath } from "./link_path.ts";
 * const base = "http://127.0.0.1:8080/tenant";
 * const path = "/api/sam/v1/licenses/entitlements/entitlement-states";
 * console.log(leadsToPath(`${path.slice(1)}?page_number=2`, path, base)); // true
 * console.log(leadsToPath("api/sam/v1/licenses?page_number=2", path, base)); // false
 * ```
 */
export function leadsToPath(href: string, path: string, baseUrl: string): boolean {
  const there = pathOf(href, baseUrl);
  return there !== undefined && there === pathOf(path, baseUrl);
}

/**
 * The path `href` resolves to under `baseUrl` (leading slashes joined under the base URL's own
 * path, as requests are), in the form compared; `undefined` when it cannot be read.
 *
 * @example
 * ```ts
 * import { linkPath } from "./link_path.ts";
 * console.log(linkPath("API/x/../y/?page_number=2", "http://127.0.0.1:8080/t")); // "/t/api/y"
 * ```
 */
export function linkPath(href: string, baseUrl: string): string | undefined {
  return pathOf(href, baseUrl);
}

function pathOf(href: string, baseUrl: string): string | undefined {
  try {
    const base = new URL(baseUrl.replace(/\/*$/, "/"));
    const url = /^[a-z][a-z0-9+.-]*:/i.test(href.trim())
      ? new URL(href)
      : new URL(href.replace(/^[\s/\\]+/, ""), base);
    return decodeURIComponent(url.pathname).replace(/\/+$/, "").toLowerCase();
  } catch {
    return undefined;
  }
}
