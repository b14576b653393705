/**
 * Collection operations over the client's core: the query checked before any request, then the
 * pages read by the answer's shape — envelopes paged by number (sequentially or in parallel),
 * flat objects by following `next`, the organisation tree's `nodes` in one read — each item
 * shape-checked and normalised, with the paging integrity checks of `paginate.ts`.
 *
 * @module
 */

import { type Resource, type ResourceName, RESOURCES } from "./catalogue.ts";
import type { ClientCore } from "./client_core.ts";
import type { FilterOptions } from "./client_options.ts";
import {
  eitherShapePage,
  flatBody,
  hasId,
  nodesOf,
  readEnvelope,
  withoutPagingLinks,
} from "./client_pages.ts";
import { checkSort, filterText, pageSizeOf } from "./client_query.ts";
import { NotFoundError, ShapeError } from "./errors.ts";
import { filterPredicate, parseFilter, validateFilter } from "./filter.ts";
import { itemKey } from "./integrity.ts";
import { comparablePath, samePath } from "./link_path.ts";
import { scrubRefusal } from "./request_errors.ts";
import { parseBase, resolveSameOrigin } from "./same_origin.ts";
import { createNormaliser } from "./normalise.ts";
import type { OperationSpec } from "./operations.ts";
import { filterPaged, followPages, type Paged, paginate } from "./paginate.ts";
import { collectionKind, type ReadLimits, readLimits } from "./paging_limits.ts";
import { checkObject, type ShapeContext } from "./shape.ts";

type Params = Readonly<Record<string, string>>;

/**
 * A collection operation's items, lazily paged. Throws at once for a bad filter, sort or page
 * size, or an operation that returns one object. An operation whose filter goes beyond the spec
 * has it applied to the answer too, when samkit knows every field it names (a server that ignores
 * it cannot widen the result).
 *
 * @example
 * ```ts
 * import { collection } from "./client_collection.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { OPERATIONS } from "./operations.ts";
 * import { createRequest } from "./request.ts";
 * const core = createClientCore({
 *   request: createRequest({
 *     baseUrl: "http://127.0.0.1:8080",
 *     fetch: () => Promise.resolve(Response.json({ items: [{ id: "L1" }] })),
 *   }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * });
 * const op = OPERATIONS.find((o) => o.id === "licenses.policies")!;
 * console.log((await collection(core, op, {}).toArray()).map((p) => p.id)); // [ "L1" ]
 * ```
 */
export function collection<N extends ResourceName>(
  core: ClientCore,
  op: OperationSpec,
  params: Params,
  options: FilterOptions = {},
): Paged<Resource<N>> {
  const paged = serverCollection<N>(core, op, params, options);
  if (!op.filterBeyondSpec || options.filter === undefined) return paged;
  // A spec server may ignore this filter: apply it to what comes back too, when samkit knows
  // every field it names (else the server alone judges it, and a warning said so).
  const node = typeof options.filter === "string"
    ? (options.filter.trim() === "" ? undefined : parseFilter(options.filter))
    : options.filter;
  const resource = RESOURCES[op.resource];
  if (!node || validateFilter(node, resource, { unknownFields: "warn" }).length) return paged;
  const keep = filterPredicate(node, resource);
  return filterPaged(paged, (item) => keep(item as Record<string, unknown>));
}

/** A collection call's checked query and how its pages are read and checked. */
interface Query<N extends ResourceName> {
  readonly pageSize: number;
  readonly query: (pageNumber: number) => Record<string, string | number | undefined>;
  readonly itemOf: (ctx: ShapeContext) => (raw: unknown, what?: string) => Resource<N>;
  readonly integrity: {
    keyOf: (item: object) => string;
    sameOnPage: boolean;
    source: { readonly operation: string; readonly path: string; readonly filter?: string };
    /** The bounds of a read of this kind of collection. */
    limits: ReadLimits;
  };
}

/** The collection as the server answers it, by the operation's shape. */
function serverCollection<N extends ResourceName>(
  core: ClientCore,
  op: OperationSpec,
  params: Params,
  options: FilterOptions,
): Paged<Resource<N>> {
  if (op.shape === "nodes") return nodesCollection<N>(core, op, params, options);
  if (op.shape === "object" && !op.eitherShape) {
    throw new RangeError(`${op.id} returns one object, not a collection`);
  }
  const q = checkedQuery<N>(core, op, params, options);
  return op.shape === "flatCollection"
    ? flatCollection(core, op, params, options, q)
    : envelopeCollection(core, op, params, options, q);
}

/** Checks the filter, sort and page size (throwing before any request) and sets up the read. */
function checkedQuery<N extends ResourceName>(
  core: ClientCore,
  op: OperationSpec,
  params: Params,
  options: FilterOptions,
): Query<N> {
  const filter = options.filter === undefined
    ? undefined
    : filterText(op, options.filter, core.request.emit);
  const sort = options.sort === undefined || options.sort.trim() === ""
    ? undefined
    : checkSort(op, options.sort);
  const pageSize = pageSizeOf(op, options.pageSize, core.defaultPageSize);
  const normalise = createNormaliser(op.resource as N, { operation: op.id });
  const idRequired = isEntityList(op);
  return {
    pageSize,
    query: (pageNumber) => ({ page_size: pageSize, page_number: pageNumber, filter, sort }),
    itemOf: (ctx) => {
      const checked = idRequired ? { ...ctx, idRequired } : ctx;
      return (raw, what) => normalise(checkObject(checked, raw, what), what);
    },
    integrity: {
      keyOf: (item: object) => itemKey(item, hasId(op.resource)),
      sameOnPage: !hasId(op.resource),
      source: {
        operation: op.id,
        // A getter: a registry path is known once its prefix is detected.
        get path() {
          return core.pathOf(op, params);
        },
        ...(filter === undefined ? {} : { filter: core.request.redactor.scrub(filter) }),
      },
      limits: readLimits(collectionKind(op.id), core.limits),
    },
  };
}

/**
 * Whether an operation lists entities by themselves (`/computers`, `/licenses`, `/families`: no
 * parent in its path) whose resource is known by an `id`: each item must carry one, as every
 * join and detail read goes by it.
 */
function isEntityList(op: OperationSpec): boolean {
  return !op.path.includes("{") && hasId(op.resource);
}

/**
 * The context of a collection's items: an item naming another parent than the path asked for
 * (a computer's applications with another `computerId`) is refused, as an object read is.
 */
function scoped(ctx: ShapeContext, op: OperationSpec, params: Params): ShapeContext {
  return { ...ctx, scope: op.scope, params };
}

/** Envelopes paged by number; a read whose pages state no total_items is read twice. */
function envelopeCollection<N extends ResourceName>(
  core: ClientCore,
  op: OperationSpec,
  params: Params,
  options: FilterOptions,
  { pageSize, query, itemOf, integrity }: Query<N>,
): Paged<Resource<N>> {
  const parallel = options.parallel ?? core.defaultParallel;
  return paginate<Resource<N>>({
    pageSize,
    ...integrity,
    // A read with no total_items (license, registry and connector collections; any collection
    // a service or proxy sends without them) is read again at another page size and compared.
    verifyUntotalled: true,
    ...(parallel ? { parallel } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onPage: (page) => core.emitPage(op, core.pathOf(op, params), page),
    fetchPage: (pageNumber, size, signal) =>
      core.atPath(op, params, async (path) => {
        const res = await core.request({
          path,
          query: { ...query(pageNumber), page_size: size },
          ...(signal ? { signal } : {}),
        });
        const ctx = core.shapeContext(op, path);
        return op.eitherShape
          ? eitherShapePage({ ...ctx, scope: op.scope, params }, res.body, pageNumber, itemOf)
          : readEnvelope(ctx, res.body, pageNumber, itemOf(scoped(ctx, op, params)));
      }),
  });
}

/** One flat object per page, read by following `next` (and read twice); a 404 means none. */
function flatCollection<N extends ResourceName>(
  core: ClientCore,
  op: OperationSpec,
  params: Params,
  options: FilterOptions,
  { pageSize, query, itemOf, integrity }: Query<N>,
): Paged<Resource<N>> {
  const path = core.pathOf(op, params);
  const ctx = core.shapeContext(op, path);
  const toItem = itemOf(scoped(ctx, op, params));
  return followPages<Resource<N>>({
    pageSize,
    ...integrity,
    verify: true,
    ...(options.signal ? { signal: options.signal } : {}),
    onPage: (page) => core.emitPage(op, path, page),
    toItem: (raw, what) => withoutPagingLinks(toItem(raw, what)),
    fetch: async (href, pageNumber, signal) => {
      try {
        if (href !== undefined) checkNextLink(core, ctx, href, pageNumber - 1);
        const res = await core.request({
          path: href ?? path,
          ...(href === undefined ? { query: query(pageNumber) } : {}),
          ...(signal ? { signal } : {}),
        });
        return flatBody(ctx, res.body);
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        return core.naming(op)(error);
      }
    },
  });
}

/**
 * Throws unless the `next` link of page `page` leads to another page of the collection at
 * `ctx.path`: a link to another origin is refused as the request would refuse it (before
 * anything is sent), one to another path of the service (another collection, another parent's,
 * the token endpoint) with a {@link ShapeError}.
 */
function checkNextLink(core: ClientCore, ctx: ShapeContext, href: string, page: number): void {
  const rule = { base: parseBase(core.request.baseUrl), method: "GET" };
  let next: URL;
  try {
    next = resolveSameOrigin(href, rule);
  } catch (error) {
    throw scrubRefusal(error, core.request.redactor);
  }
  if (!samePath(next, resolveSameOrigin(ctx.path, rule))) throw elsewhere(ctx, next, page);
}

/** The refusal of a `next` link (of page `page`) that leads off the collection's path. */
function elsewhere(ctx: ShapeContext, next: URL, page: number): ShapeError {
  const scrub = ctx.scrub ?? ((t: string) => t);
  const there = comparablePath(next);
  return new ShapeError({
    operation: ctx.operation,
    path: ctx.path,
    resource: ctx.resource,
    problem: `the next link of page ${page} leads to another path than the collection's; not ` +
      "followed",
    received: scrub(`a next link to ${there.length > 120 ? `${there.slice(0, 117)}...` : there}`),
  });
}

/** A `nodes` answer (the organisation tree): one unpaged read, checked and normalised. */
function nodesCollection<N extends ResourceName>(
  core: ClientCore,
  op: OperationSpec,
  params: Params,
  options: FilterOptions,
): Paged<Resource<N>> {
  if (options.filter !== undefined) filterText(op, options.filter); // Throws: no filter here.
  const path = core.pathOf(op, params);
  const ctx = core.shapeContext(op, path);
  const normalise = createNormaliser(op.resource as N, { operation: op.id });
  // One answer holds the whole tree (a cut one is not JSON): bounded, but not read twice.
  return paginate<Resource<N>>({
    pageSize: Number.MAX_SAFE_INTEGER,
    keyOf: (item: object) => itemKey(item, hasId(op.resource)),
    source: { operation: op.id, path },
    limits: readLimits(collectionKind(op.id), core.limits),
    ...(options.signal ? { signal: options.signal } : {}),
    onPage: (page) => core.emitPage(op, path, page),
    fetchPage: async (pageNumber, _size, signal) => {
      const res = await core.request({ path, ...(signal ? { signal } : {}) }).catch(
        core.naming(op),
      );
      const nodes = nodesOf(ctx, res.body);
      return {
        pageNumber,
        items: nodes.map((raw, i) => {
          const what = `node ${i + 1}`;
          return normalise(checkObject(ctx, raw, what), what);
        }),
      };
    },
  });
}
