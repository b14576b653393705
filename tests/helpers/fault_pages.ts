/**
 * Test helper: the page rewrites of the fault proxy, as pure functions over collection envelopes
 * (`{items, pagination, _links}`), so each lie a proxy tells about paging is plain to read.
 *
 * @module
 */

/** A collection envelope as the reference server sends it. */
export interface Envelope {
  /** The page's items. */
  items: unknown[];
  /** `page_size`, `page_number`, `total_pages` and (estate) `total_items`. */
  pagination?: Record<string, unknown>;
  /** Any other member (`_links`, `links`). */
  [key: string]: unknown;
}

/**
 * Whether a parsed body is a collection envelope (an object with an `items` array).
 *
 * @example
 * ```ts
 * import { isEnvelope } from "./fault_pages.ts";
 * console.log(isEnvelope({ items: [] }), isEnvelope({ id: "C1" })); // true false
 * ```
 */
export function isEnvelope(body: unknown): body is Envelope {
  return typeof body === "object" && body !== null && Array.isArray((body as Envelope).items);
}

/**
 * The page with `drop` items taken out of its middle; pagination left as it was.
 *
 * @example
 * ```ts
 * import { shortPage } from "./fault_pages.ts";
 * console.log(shortPage({ items: [1, 2, 3, 4] }, 2).items); // [1, 4]
 * ```
 */
export function shortPage(page: Envelope, drop: number): Envelope {
  const from = Math.floor(Math.max(0, page.items.length - drop) / 2);
  return { ...page, items: page.items.toSpliced(from, drop) };
}

/**
 * The page with `pagination.total_pages` lowered to `totalPages` (default one less than it
 * says, at least 1); `total_items` left as it was.
 *
 * @example
 * ```ts
 * import { lowTotalPages } from "./fault_pages.ts";
 * const page = { items: [], pagination: { total_pages: 3, total_items: 2500 } };
 * console.log(lowTotalPages(page).pagination); // { total_pages: 2, total_items: 2500 }
 * ```
 */
export function lowTotalPages(page: Envelope, totalPages?: number): Envelope {
  const said = Number(page.pagination?.total_pages ?? 1);
  const lower = totalPages ?? Math.max(1, said - 1);
  return { ...page, pagination: { ...page.pagination, total_pages: lower } };
}

/**
 * Page `current` as the service would send it after one item was removed from an earlier page:
 * its first item moved to the previous page, the first item of `next` (the following page as it
 * was) moved in at its end, and `total_items`/`total_pages` one item fewer.
 *
 * @example
 * ```ts
 * import { driftRemove } from "./fault_pages.ts";
 * const p2 = { items: ["c", "d"], pagination: { page_size: 2, total_items: 5, total_pages: 3 } };
 * const p3 = { items: ["e"], pagination: { page_size: 2, total_items: 5, total_pages: 3 } };
 * const shifted = driftRemove(p2, p3);
 * console.log(shifted.items, shifted.pagination); // ["d", "e"] { page_size: 2, total_items: 4, total_pages: 2 }
 * ```
 */
export function driftRemove(current: Envelope, next: Envelope): Envelope {
  const items = [...current.items.slice(1), ...next.items.slice(0, 1)];
  return { ...current, items, pagination: countedBy(current.pagination, -1) };
}

/**
 * Page `current` as the service would send it after one item was inserted on an earlier page:
 * the last item of `previous` (the page before, as it was) pushed to its start, its own last
 * item pushed on to the next page, and `total_items`/`total_pages` one item more.
 *
 * @example
 * ```ts
 * import { driftInsert } from "./fault_pages.ts";
 * const p1 = { items: ["a", "b"], pagination: { page_size: 2, total_items: 4, total_pages: 2 } };
 * const p2 = { items: ["c", "d"], pagination: { page_size: 2, total_items: 4, total_pages: 2 } };
 * const shifted = driftInsert(p2, p1);
 * console.log(shifted.items, shifted.pagination); // ["b", "c"] { page_size: 2, total_items: 5, total_pages: 3 }
 * ```
 */
export function driftInsert(current: Envelope, previous: Envelope): Envelope {
  const size = pageSizeOf(current);
  const items = [...previous.items.slice(-1), ...current.items].slice(0, size);
  return { ...current, items, pagination: countedBy(current.pagination, +1) };
}

/**
 * Page `current` starting with the last item of `previous` (an item seen twice across pages, as
 * an unstable sort gives), keeping its length: its own last item is lost, so counts still add
 * up and only the repeated item gives it away.
 *
 * @example
 * ```ts
 * import { duplicateAcross } from "./fault_pages.ts";
 * console.log(duplicateAcross({ items: ["c", "d"] }, { items: ["a", "b"] }).items); // ["b", "c"]
 * ```
 */
export function duplicateAcross(current: Envelope, previous: Envelope): Envelope {
  const items = [...previous.items.slice(-1), ...current.items].slice(0, current.items.length);
  return { ...current, items };
}

function pageSizeOf(page: Envelope): number {
  const size = Number(page.pagination?.page_size);
  return Number.isInteger(size) && size > 0 ? size : page.items.length;
}

/**
 * Pagination with `total_items` changed by `delta` and `total_pages` to match (left alone when
 * there is no `total_items` to recount from).
 */
function countedBy(
  pagination: Record<string, unknown> | undefined,
  delta: number,
): Record<string, unknown> {
  const p = { ...pagination };
  const size = Number(p.page_size);
  if (typeof p.total_items !== "number") return p;
  p.total_items += delta;
  if (size > 0) p.total_pages = Math.ceil((p.total_items as number) / size);
  return p;
}
