/**
 * The options every typed call of the client takes (a signal; paging, sort and parallel mode;
 * a filter) and the page sizes it asks for. `client.ts` re-exports them.
 *
 * @module
 */

import type { FilterNode } from "./filter.ts";
import type { ParallelOption } from "./paginate.ts";

/** Options of a single-object call. */
export interface CallOptions {
  /** Cancels the call, its retries and its waits. */
  readonly signal?: AbortSignal;
}

/** Options of a collection without a filter (query sets Q2 and QC). */
export interface PageOptions extends CallOptions {
  /** Items per page (default the client's, 1000; capped at 1000 except for connectors). */
  readonly pageSize?: number;
  /** Fetch pages concurrently once page 1 tells how many there are (default the client's). */
  readonly parallel?: ParallelOption;
  /** `<property>:asc|desc[,…]`; properties must be fields of the resource. */
  readonly sort?: string;
}

/** Options of a collection that takes a filter (query set Q1). */
export interface FilterOptions extends PageOptions {
  /**
   * A filter (spec 4.4) as text or as a tree from the builder. Text is parsed and both are
   * validated against the operation's resource before any request is sent; a bad one throws the
   * parser's `FilterSyntaxError` (with its column) or a `FilterValidationError`.
   */
  readonly filter?: string | FilterNode;
}

/**
 * The page size cap of estate, license and registry collections (spec section 8).
 *
 * @example
 * ```ts
 * import { MAX_PAGE_SIZE } from "./client.ts";
 * console.log(MAX_PAGE_SIZE); // 1000
 * ```
 */
export const MAX_PAGE_SIZE = 1000;
/**
 * The default page size the client asks for (the spec's default is 100; asking for the maximum
 * saves requests).
 *
 * @example
 * ```ts
 * import { DEFAULT_PAGE_SIZE } from "./client.ts";
 * console.log(DEFAULT_PAGE_SIZE); // 1000
 * ```
 */
export const DEFAULT_PAGE_SIZE = 1000;
