/**
 * The error of a collection read stopped at one of its bounds (see `paging_limits.ts`).
 *
 * @module
 */

import type { PagingSource } from "./errors.ts";
import { escapeJsonText, oneLine, quoted } from "./one_line.ts";

/** Which bound stopped a read. */
export type PagingLimitName = "maxPages" | "maxItems";

/** What {@link PagingLimitError} knows of the read it stopped. */
export interface PagingLimitOptions extends PagingSource {
  /** The kind of collection, whose limits applied (`reference` or `estate`). */
  readonly kind: string;
  /** The bound reached. */
  readonly limit: PagingLimitName;
  /** Its value. */
  readonly max: number;
  /** Pages read when the read stopped. */
  readonly pages: number;
  /** Items read when the read stopped. */
  readonly items: number;
  /** Which read: the read itself, or the second read that verifies it. */
  readonly read?: "read" | "second read";
}

const COUNT = new Intl.NumberFormat("en-US");

/**
 * A collection read went past the most pages or items its kind of collection may have (a
 * service that answers full pages, or a fresh `next` link, forever): the read is stopped rather
 * than run until memory or patience runs out. Not a paging inconsistency: the collection is not
 * read again. Names the operation, the bound, its value and the option that raises it.
 *
 * @example
 * ```ts
 * import { PagingLimitError } from "./paging_limit_error.ts";
 * const e = new PagingLimitError({
 *   operation: "licenses.list", path: "/api/sam/v1/licenses",
 *   kind: "estate", limit: "maxItems", max: 5000, pages: 6, items: 6000,
 * });
 * console.log(e.message);
 * // "licenses.list GET /api/sam/v1/licenses: read stopped at page 6 with 6,000 items: more than maxItems 5,000 of an estate collection; if it really is that large, raise limits.estate.maxItems in the client options"
 * ```
 */
export class PagingLimitError extends Error {
  /** The operation id, when known. */
  readonly operation?: string;
  /** The request path without its query string, when known. */
  readonly path?: string;
  /** The filter sent, when there was one. */
  readonly filter?: string;
  /** The kind of collection. */
  readonly kind: string;
  /** The bound reached. */
  readonly limit: PagingLimitName;
  /** Its value. */
  readonly max: number;
  /** Pages read when the read stopped. */
  readonly pages: number;
  /** Items read when the read stopped. */
  readonly items: number;

  /** Builds the error from the bound that stopped the read and where the read was. */
  constructor(options: PagingLimitOptions) {
    // The filter is JSON-quoted; what JSON leaves raw (U+2028, NEL, bidi) is escaped too.
    super(oneLine(escapeJsonText(limitMessage(options))));
    this.name = "PagingLimitError";
    if (options.operation !== undefined) this.operation = options.operation;
    if (options.path !== undefined) this.path = options.path;
    if (options.filter !== undefined) this.filter = options.filter;
    this.kind = options.kind;
    this.limit = options.limit;
    this.max = options.max;
    this.pages = options.pages;
    this.items = options.items;
  }
}

function limitMessage(o: PagingLimitOptions): string {
  const where = [o.operation, o.path === undefined ? undefined : `GET ${o.path}`]
    .filter((s) => s !== undefined).join(" ") || "collection";
  const filter = o.filter === undefined ? "" : ` (filter ${quoted(o.filter)})`;
  const which = o.read === "second read" ? "second read (verifying the read)" : "read";
  const article = /^[aeiou]/i.test(o.kind) ? "an" : "a";
  const n = (x: number) => COUNT.format(x);
  const stopped = o.limit === "maxPages"
    ? `${which} stopped before page ${n(o.pages + 1)} (${n(o.items)} items so far): more pages ` +
      `than maxPages ${n(o.max)}`
    : `${which} stopped at page ${n(o.pages)} with ${n(o.items)} items: more than maxItems ` +
      `${n(o.max)}`;
  return `${where}${filter}: ${stopped} of ${article} ${o.kind} collection; if it really is ` +
    `that large, raise limits.${o.kind}.${o.limit} in the client options`;
}
