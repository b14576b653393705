/**
 * The answers of collection operations read into pages, shape-checked: the collection envelope,
 * the either-shape answer (an envelope or one object), the flat collection's objects and the
 * organisation tree's `nodes`; and the keys and links paging needs of an item.
 *
 * @module
 */

import { type Link, type ResourceName, RESOURCES } from "./catalogue.ts";
import { ShapeError } from "./errors.ts";
import { readLinks } from "./normalise.ts";
import { nextLink, type Page, relTypes } from "./paginate.ts";
import { checkEnvelope, checkObject, describeReceived, type ShapeContext } from "./shape.ts";

const PAGING_RELS = new Set(["next", "previous", "prev", "first", "last"]);

/**
 * Reads a collection envelope into a page, checking its shape and each item's, and normalising
 * each item. The page number is the one the response reports, else the one asked for; whether
 * the envelope links to a `next` page is noted (a short page that does was cut short).
 *
 * @example
 * ```ts
 * import { readEnvelope } from "./client_pages.ts";
 * const ctx = { operation: "licenses.list", path: "/api/sam/v1/licenses", resource: "License" } as const;
 * const page = readEnvelope(ctx, { items: [{ id: "L1" }] }, 1, (raw) => raw);
 * console.log(page.pageNumber, page.items); // 1 [ { id: "L1" } ]
 * ```
 */
export function readEnvelope<T>(
  ctx: ShapeContext,
  body: unknown,
  pageNumber: number,
  toItem: (raw: unknown, what: string) => T,
): Page<T> {
  const { items, pagination } = checkEnvelope(ctx, body);
  const envelope = body as Record<string, unknown>;
  const next = nextLink(readLinks(envelope._links ?? envelope.links));
  return {
    items: items.map((raw, i) => toItem(raw, `item ${i + 1} of page ${pageNumber}`)),
    ...pagination,
    pageNumber: pagination.pageNumber ?? pageNumber,
    ...(next === undefined ? {} : { hasNext: true }),
  };
}

/**
 * A page of an operation answered either as an envelope (read as one) or as one object: the
 * object is page 1's only item, checked like an object fetched by its path (`ctx` carries the
 * scope, which the envelope's items are checked against too); a later page of the object form is
 * empty. Never an envelope read as an object.
 *
 * @example
 * ```ts
 * import { eitherShapePage } from "./client_pages.ts";
 * const ctx = { operation: "licenses.computerTransfer", path: "/x", resource: "ComputerTransferDetail" } as const;
 * const page = eitherShapePage(ctx, { computerId: "C1" }, 1, () => (raw) => raw);
 * console.log(page.items.length, page.totalItems); // 1 1
 * ```
 */
export function eitherShapePage<T>(
  ctx: ShapeContext,
  body: unknown,
  pageNumber: number,
  itemOf: (ctx: ShapeContext) => (raw: unknown, what: string) => T,
): Page<T> {
  const isObject = body !== null && typeof body === "object" && !Array.isArray(body);
  if (isObject && ("items" in body || "pagination" in body)) {
    // The envelope's own errors name no parent; its items are checked against it.
    const { scope: _scope, params: _params, ...plain } = ctx;
    return readEnvelope(plain, body, pageNumber, itemOf(ctx));
  }
  if (pageNumber > 1) return { items: [], pageNumber };
  // One object is a whole answer: counted as such, it needs no second read to verify.
  return {
    items: [itemOf(ctx)(body, "the response")],
    pageNumber: 1,
    totalPages: 1,
    totalItems: 1,
  };
}

/**
 * A flat-collection response checked: an envelope (anything with `items`) must be a valid one;
 * a flat object is checked as an item later. Anything but an object is a {@link ShapeError}.
 *
 * @example
 * ```ts
 * import { flatBody } from "./client_pages.ts";
 * const ctx = { operation: "estate.monitors", path: "/x", resource: "Monitor" } as const;
 * console.log(flatBody(ctx, { name: "Screen" })); // { name: "Screen" }
 * ```
 */
export function flatBody(ctx: ShapeContext, body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return checkObject(ctx, body); // Throws: not an object.
  }
  if ("items" in body) checkEnvelope(ctx, body);
  return body as Record<string, unknown>;
}

/**
 * The `nodes` array of a tree answer; a {@link ShapeError} when there is none.
 *
 * @example
 * ```ts
 * import { nodesOf } from "./client_pages.ts";
 * const ctx = { operation: "organizations.tree", path: "/x", resource: "OrganizationNode" } as const;
 * console.log(nodesOf(ctx, { nodes: [{ id: "ORG01" }] }).length); // 1
 * ```
 */
export function nodesOf(ctx: ShapeContext, body: unknown): unknown[] {
  const nodes = body !== null && typeof body === "object" && !Array.isArray(body)
    ? (body as Record<string, unknown>).nodes
    : undefined;
  if (Array.isArray(nodes)) return nodes;
  const scrub = ctx.scrub ?? ((t: string) => t);
  throw new ShapeError({
    operation: ctx.operation,
    path: ctx.path,
    resource: ctx.resource,
    problem: "the response has no nodes array",
    received: scrub(describeReceived(body)),
  });
}

/**
 * Whether a resource's objects carry an `id` (the key of the duplicate check).
 *
 * @example
 * ```ts
 * import { hasId } from "./client_pages.ts";
 * console.log(hasId("License")); // true
 * ```
 */
export function hasId(resource: ResourceName): boolean {
  const id = RESOURCES[resource].byName.get("id");
  return id !== undefined && !id.hidden;
}

/**
 * A flat-collection item without the page's next/previous/first/last links.
 *
 * @example
 * ```ts
 * import { withoutPagingLinks } from "./client_pages.ts";
 * const item = withoutPagingLinks({
 *   links: [
 *     { rel: "next", href: "api/x?page_number=2", method: "GET" },
 *     { rel: "self", href: "api/x", method: "GET" },
 *   ],
 * });
 * console.log(item.links.map((l) => l.rel)); // [ "self" ]
 * ```
 */
export function withoutPagingLinks<T extends { links?: Link[] }>(item: T): T {
  if (item.links) {
    item.links = item.links.filter((l) => !relTypes(l.rel).some((r) => PAGING_RELS.has(r)));
  }
  return item;
}
