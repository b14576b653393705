/**
 * Routing and the generic operation handler of the reference server. Routes come from the
 * operation table; one handler serves every read operation from the store, by the operation's
 * query set, shape, scope, fixed selections and parent.
 *
 * @module
 */

import { type Link, RESOURCES } from "../api/catalogue.ts";
import { AREA_PREFIX, OPERATIONS, type OperationSpec } from "../api/operations.ts";
import {
  type FilterNode,
  FilterSyntaxError,
  FilterValidationError,
  parseFilter,
} from "../api/filter.ts";
import { type EstateStore, SortError, type StoreArrayResult, type StoreQuery } from "./store.ts";
import { pageCacheOf } from "./page_cache.ts";
import {
  arrayRowWriter,
  type Dialect,
  HttpError,
  itemLinksJson,
  jsonBytesResponse,
  jsonTextResponse,
  link,
  linksJson,
  rowWriter,
} from "./serialize.ts";

/**
 * The registry prefix spelt as the public service's own documents spell it (routes.md); the
 * server answers the registry under it as well as under `AREA_PREFIX.registry`.
 *
 * @example
 * ```ts
 * import { REGISTRY_ALIAS_PREFIX } from "./router.ts";
 * console.log(`${REGISTRY_ALIAS_PREFIX}/applications`); // "/api/sam/software-registry/v1/applications"
 * ```
 */
export const REGISTRY_ALIAS_PREFIX = "/api/sam/software-registry/v1";

/** Options of a {@link Router}. */
export interface RouterOptions {
  /**
   * `spec` (default) routes the registry under the spec's spelling and, as routes.md says, under
   * {@link REGISTRY_ALIAS_PREFIX} too; `real` under {@link REGISTRY_ALIAS_PREFIX} only, as the
   * public service does.
   */
  readonly dialect?: Dialect;
  /**
   * In the `spec` dialect, whether the registry also answers under the public spelling (default
   * `true`); `false` answers the spec's spelling only, like a strictly spec-shaped service.
   */
  readonly registryAlias?: boolean;
}

/**
 * The registry prefixes a dialect answers under.
 *
 * @example
 * ```ts
 * import { registryPrefixesServed } from "./router.ts";
 * console.log(registryPrefixesServed({ dialect: "real" })); // ["/api/sam/software-registry/v1"]
 * ```
 */
export function registryPrefixesServed(options: RouterOptions = {}): string[] {
  if (options.dialect === "real") return [REGISTRY_ALIAS_PREFIX];
  return options.registryAlias === false
    ? [AREA_PREFIX.registry]
    : [AREA_PREFIX.registry, REGISTRY_ALIAS_PREFIX];
}

/** A resolved request path. */
export type Resolution =
  | {
    readonly kind: "match";
    readonly op: OperationSpec;
    readonly params: Readonly<Record<string, string>>;
  }
  | { readonly kind: "method"; readonly allow: readonly string[] }
  | { readonly kind: "none" };

interface Node {
  readonly literals: Map<string, Node>;
  param?: Node;
  readonly ops: Map<string, { op: OperationSpec; names: string[] }>;
}

const newNode = (): Node => ({ literals: new Map(), ops: new Map() });

/** The methods a path answers: its operations' methods, with HEAD wherever GET is. */
function allowedMethods(node: Node): string[] {
  const methods = [...node.ops.keys()];
  return node.ops.has("GET") ? [...methods, "HEAD"] : methods;
}

/**
 * Maps method and path to an operation; HEAD resolves to the GET operation of a path. Literal segments win over parameters, with
 * backtracking, so `/licenses/transfers/{applicationId}` is never taken by `/licenses/{id}/…`.
 * The registry answers where the dialect puts it ({@link registryPrefixesServed}).
 *
 * @example
 * ```ts
 * import { Router } from "./router.ts";
 * const r = new Router().resolve("GET", "/api/sam/v1/licenses/entitlements/computers");
 * if (r.kind === "match") console.log(r.op.id); // "licenses.computerEntitlements"
 * ```
 */
export class Router {
  #root = newNode();

  /**
   * @param operations The operations to route (default: all of them).
   * @param options The dialect, which places the registry.
   *
   * @example
   * ```ts
   * import { Router } from "./router.ts";
   * const real = new Router(undefined, { dialect: "real" });
   * console.log(real.resolve("GET", "/api/sam/softwareregistry/v1/applications").kind); // "none"
   * ```
   */
  constructor(operations: readonly OperationSpec[] = OPERATIONS, options: RouterOptions = {}) {
    const registry = registryPrefixesServed(options);
    for (const op of operations) {
      const prefixes = op.area === "registry" ? registry : [AREA_PREFIX[op.area]];
      for (const prefix of prefixes) this.#add(prefix + op.path, op);
    }
  }

  /**
   * Resolve a method and a URL path: an operation with its decoded path parameters, the allowed
   * methods of a known path (HEAD wherever GET is), or nothing.
   *
   * @example
   * ```ts
   * import { Router } from "./router.ts";
   * const r = new Router().resolve("DELETE", "/api/sam/estate/v1/computers");
   * console.log(r.kind === "method" && r.allow); // ["GET", "HEAD"]
   * ```
   */
  resolve(method: string, pathname: string): Resolution {
    const raw = pathname.split("/").filter((s, i, all) =>
      i > 0 && (s !== "" || i < all.length - 1)
    );
    if (raw.some((s) => s === "")) return { kind: "none" };
    let segs: string[];
    try {
      segs = raw.map(decodeURIComponent);
    } catch {
      return { kind: "none" };
    }
    const values: string[] = [];
    const node = this.#match(this.#root, segs, 0, values);
    if (!node) return { kind: "none" };
    const verb = method.toUpperCase();
    const hit = node.ops.get(verb) ?? (verb === "HEAD" ? node.ops.get("GET") : undefined);
    if (!hit) return { kind: "method", allow: allowedMethods(node) };
    const params: Record<string, string> = {};
    hit.names.forEach((name, i) => params[name] = values[i]);
    return { kind: "match", op: hit.op, params };
  }

  #add(path: string, op: OperationSpec): void {
    let node = this.#root;
    const names: string[] = [];
    for (const seg of path.split("/").slice(1)) {
      const param = /^\{(\w+)\}$/.exec(seg);
      if (param) {
        names.push(param[1]);
        node = node.param ??= newNode();
      } else {
        let next = node.literals.get(seg);
        if (!next) node.literals.set(seg, next = newNode());
        node = next;
      }
    }
    if (node.ops.has(op.method)) throw new Error(`Duplicate route ${op.method} ${path}`);
    node.ops.set(op.method, { op, names });
  }

  #match(node: Node, segs: string[], i: number, values: string[]): Node | undefined {
    if (i === segs.length) return node.ops.size > 0 ? node : undefined;
    const lit = node.literals.get(segs[i]);
    if (lit) {
      const found = this.#match(lit, segs, i + 1, values);
      if (found) return found;
    }
    if (node.param) {
      values.push(segs[i]);
      const found = this.#match(node.param, segs, i + 1, values);
      if (found) return found;
      values.pop();
    }
    return undefined;
  }
}

/** Paging and filter of one request, validated per the operation's query set. */
export interface RequestQuery {
  /** Items per page. */
  readonly pageSize: number;
  /** 1-based page. */
  readonly pageNumber: number;
  /** The parsed filter, if one was given. */
  readonly filter?: FilterNode;
  /** The raw filter text, kept for links. */
  readonly filterText?: string;
  /** The raw sort value, kept for links. */
  readonly sort?: string;
}

const PAGE_SIZE_DEFAULT = 100;
const PAGE_SIZE_MAX = 1000;

/** The number that a query parameter's text spells, or a 400 naming the parameter. */
function integerParam(
  params: URLSearchParams,
  name: string,
  range: { min: number; max: number },
  fallback: number,
): number {
  const text = params.get(name);
  if (text === null) return fallback;
  const digits = text.trim();
  if (!/^[+-]?\d+$/.test(digits)) {
    throw new HttpError(400, `${name} must be an integer, not "${text.slice(0, 40)}".`);
  }
  const value = Number(digits);
  if (value < range.min || value > range.max) {
    throw new HttpError(
      400,
      range.max === Number.MAX_SAFE_INTEGER && value < range.min
        ? `${name} must be at least ${range.min}; got ${digits.slice(0, 40)}.`
        : `${name} must be between ${range.min} and ${range.max}; got ${digits.slice(0, 40)}.`,
    );
  }
  return value;
}

/** Decode one query component strictly, or throw a 400 saying which component is bad. */
function decodeComponent(raw: string, subject: string): string {
  const malformed = /%(?![0-9A-Fa-f]{2})/.exec(raw);
  if (malformed) {
    throw new HttpError(
      400,
      `${subject} has a malformed percent escape at character ${malformed.index + 1}: ` +
        `"${raw.slice(malformed.index, malformed.index + 3)}".`,
    );
  }
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    throw new HttpError(
      400,
      `${subject} is not valid UTF-8 once percent-decoded ("${raw.slice(0, 40)}").`,
    );
  }
}

/**
 * The query parameters of a URL, percent-decoded strictly (`+` is a space). Where
 * `URLSearchParams` silently turns a malformed escape or bytes that are not UTF-8 into
 * U+FFFD, this throws a 400 {@link HttpError} naming the parameter.
 *
 * @example
 * ```ts
 * import { strictSearchParams } from "./router.ts";
 * const ok = strictSearchParams(new URL("http://x/?filter=a%20b&sort=id:asc"));
 * console.log(ok.get("filter")); // "a b"
 * try {
 *   strictSearchParams(new URL("http://x/?filter=%FF%FE"));
 * } catch (err) {
 *   console.log((err as Error).message.startsWith("The filter query parameter")); // true
 * }
 * ```
 */
export function strictSearchParams(url: URL): URLSearchParams {
  const params = new URLSearchParams();
  for (const pair of url.search.slice(1).split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const name = decodeComponent(rawName, `A query parameter name ("${rawName.slice(0, 40)}")`);
    const value = decodeComponent(eq < 0 ? "" : pair.slice(eq + 1), `The ${name} query parameter`);
    params.append(name, value);
  }
  return params;
}

/** The query parameters that must be given once at most. */
const SINGLE_PARAMS = ["page_size", "page_number", "filter", "sort"] as const;

/**
 * The error a bad filter or sort becomes: a 400 with the parser's or validator's message.
 * Other errors are returned unchanged.
 *
 * @example
 * ```ts
 * import { asBadRequest } from "./router.ts";
 * import { SortError } from "./store.ts";
 * const err = asBadRequest(new SortError('Unknown sort property "x"'));
 * console.log((err as { status: number }).status); // 400
 * ```
 */
export function asBadRequest(err: unknown): unknown {
  if (err instanceof SortError) return new HttpError(400, err.message);
  if (err instanceof FilterSyntaxError || err instanceof FilterValidationError) {
    return new HttpError(400, `Invalid filter: ${err.message}`);
  }
  return err;
}

/**
 * Read and check the query parameters of a request for an operation: strict percent-decoding
 * ({@link strictSearchParams}), each of `page_size`, `page_number`, `filter` and `sort` at most
 * once, paging ranges of its query set, and a filter only where the set has one (Q1). Throws a
 * 400 {@link HttpError} naming the parameter. A `page_size` over the maximum is refused, not
 * clamped: a client stops paging at a page shorter than the size it asked for (spec 4.1.3),
 * so clamping would end its reading after the first page.
 *
 * @example
 * ```ts
 * import { readQuery } from "./router.ts";
 * import { operation } from "../api/operations.ts";
 * const q = readQuery(operation("estate.computers"), new URL("http://x/?page_size=5"));
 * console.log(q.pageSize, q.pageNumber); // 5 1
 * ```
 */
export function readQuery(op: OperationSpec, url: URL): RequestQuery {
  const qs = op.query;
  const params = strictSearchParams(url);
  for (const name of SINGLE_PARAMS) {
    const count = params.getAll(name).length;
    if (count > 1) throw new HttpError(400, `${name} is given ${count} times; give it once.`);
  }
  const filterText = params.get("filter") ?? undefined;
  const hasFilter = filterText !== undefined && filterText.trim() !== "";
  if (hasFilter && qs !== "Q1") {
    throw new HttpError(400, `filter is not supported by this operation (${op.id}).`);
  }
  const paged = qs !== "none";
  const sizeRange = { min: 1, max: qs === "QC" ? Number.MAX_SAFE_INTEGER : PAGE_SIZE_MAX };
  const pageSize = paged
    ? integerParam(params, "page_size", sizeRange, PAGE_SIZE_DEFAULT)
    : PAGE_SIZE_DEFAULT;
  const numberRange = { min: 1, max: Number.MAX_SAFE_INTEGER };
  const pageNumber = paged ? integerParam(params, "page_number", numberRange, 1) : 1;
  let filter: FilterNode | undefined;
  if (hasFilter) {
    try {
      filter = parseFilter(filterText!);
    } catch (err) {
      throw asBadRequest(err);
    }
  }
  const sort = params.get("sort") ?? undefined;
  return {
    pageSize,
    pageNumber,
    ...(filter ? { filter, filterText } : {}),
    ...(sort !== undefined && sort.trim() !== "" ? { sort } : {}),
  };
}

/** What the generic handler needs for one request. */
export interface OperationRequest {
  /** The operation. */
  readonly op: OperationSpec;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The request URL. */
  readonly url: URL;
  /** The estate. */
  readonly store: EstateStore;
  /** The wire dialect (default `spec`). */
  readonly dialect?: Dialect;
}

/**
 * Operations the `real` dialect answers as a paged collection where the spec gives one object
 * (public-api.md: license transfers for a computer).
 */
const REAL_COLLECTIONS: ReadonlySet<string> = new Set(["licenses.computerTransfer"]);

/**
 * The shape an operation is answered in under a dialect.
 *
 * @example
 * ```ts
 * import { servedShape } from "./router.ts";
 * import { operation } from "../api/operations.ts";
 * const op = operation("licenses.computerTransfer");
 * console.log(servedShape(op, "spec"), servedShape(op, "real")); // "object" "collection"
 * ```
 */
export function servedShape(op: OperationSpec, dialect: Dialect = "spec"): OperationSpec["shape"] {
  return dialect === "real" && REAL_COLLECTIONS.has(op.id) ? "collection" : op.shape;
}

/** Item links of the real dialect point at the registry's public spelling. */
function registryRewrite(op: OperationSpec, dialect: Dialect) {
  if (dialect !== "real" || op.area !== "registry") return undefined;
  return { from: AREA_PREFIX.registry.slice(1), to: REGISTRY_ALIAS_PREFIX.slice(1) };
}

/** A path with paging, filter and sort in its query string, for links. */
function pageHref(path: string, q: RequestQuery, pageNumber: number): string {
  const parts = [`page_size=${q.pageSize}`, `page_number=${pageNumber}`];
  if (q.filterText !== undefined) parts.push(`filter=${encodeURIComponent(q.filterText)}`);
  if (q.sort !== undefined) parts.push(`sort=${encodeURIComponent(q.sort)}`);
  return `${path}?${parts.join("&")}`;
}

/** self/first/last and next/previous where they exist. */
function pageLinks(path: string, q: RequestQuery, totalPages: number): Link[] {
  const last = Math.max(1, totalPages);
  const links = [
    link("self", pageHref(path, q, q.pageNumber)),
    link("first", pageHref(path, q, 1)),
    link("last", pageHref(path, q, last)),
  ];
  if (q.pageNumber < totalPages) links.push(link("next", pageHref(path, q, q.pageNumber + 1)));
  if (q.pageNumber > 1) {
    links.push(link("previous", pageHref(path, q, Math.min(q.pageNumber - 1, last))));
  }
  return links;
}

/** Equality selections of an operation for a request: its scope and fixed selections. */
function selections(op: OperationSpec, params: Readonly<Record<string, string>>) {
  const where: Record<string, string> = { ...op.fixed };
  for (const [param, field] of Object.entries(op.scope)) where[field] = params[param];
  return where;
}

/**
 * Serve a read operation from the store: validate the query, check the parent (404), select by
 * scope and fixed selections, and answer in the operation's shape (collection envelope, one
 * object, or one flat object per page).
 *
 * @example
 * ```ts
 * import { handleRead } from "./router.ts";
 * import { EstateStore } from "./store.ts";
 * import { operation } from "../api/operations.ts";
 * const store = new EstateStore();
 * store.insert("policies", { id: "P1" });
 * const res = handleRead({
 *   op: operation("licenses.policies"),
 *   params: {},
 *   url: new URL("http://x/api/sam/v1/licenses-policies"),
 *   store,
 * });
 * console.log((await res.json()).items.length); // 1
 * ```
 */
export function handleRead(req: OperationRequest): Response {
  const { op, params, url, store } = req;
  const dialect = req.dialect ?? "spec";
  const shape = servedShape(op, dialect);
  const q = readQuery(op, url);
  if (op.parent) {
    const value = params[op.parent.param];
    if (!store.first(op.parent.resource, { [op.parent.field]: value })) {
      throw new HttpError(404, `${op.parent.resource} "${value}" was not found.`);
    }
  }
  const where = selections(op, params);
  const query = (limit: number, offset: number, counted: boolean): StoreQuery => ({
    resource: op.resource,
    where,
    ...(q.filter ? { filter: q.filter } : {}),
    ...(q.sort && shape !== "object" ? { sort: q.sort } : {}),
    limit,
    offset,
    noTotal: !counted,
  });
  const run = (limit: number, offset: number, counted: boolean) => {
    try {
      return store.query(query(limit, offset, counted));
    } catch (err) {
      throw asBadRequest(err);
    }
  };
  const path = url.pathname;
  const write = rowWriter(op.resource, dialect);
  const linksName = RESOURCES[op.resource].links;
  const linksTail = (links: Link[]) =>
    linksName === null ? undefined : `${JSON.stringify(linksName)}:${linksJson(links)}`;

  if (shape === "nodes") {
    // Every row at once, without links (the organisation tree, `{"nodes": [...]}`).
    const { rows } = run(Number.MAX_SAFE_INTEGER, 0, false);
    return jsonTextResponse(`{"nodes":[${rows.map((row) => write(row)).join(",")}]}`);
  }

  if (shape === "object") {
    const row = run(1, 0, false).rows[0];
    if (!row) throw new HttpError(404, `No ${op.resource} was found at ${path}.`);
    return jsonTextResponse(write(row, linksTail([link("self", path)])), op.status);
  }

  if (shape === "flatCollection") {
    const offset = Math.min(q.pageNumber - 1, Number.MAX_SAFE_INTEGER);
    const { rows, total } = run(1, offset, true);
    if (!rows[0]) throw new HttpError(404, `No ${op.resource} at page ${q.pageNumber} of ${path}.`);
    // Each page holds one object, so there are as many pages as objects.
    return jsonTextResponse(write(rows[0], linksTail(pageLinks(path, q, total))));
  }

  // A page asked for before (same request, store unchanged) is answered with the same bytes.
  const pages = pageCacheOf(store);
  const generation = store.generation;
  const pageKey = `${dialect}\u0000${op.id}\u0000${path}\u0000${url.search}`;
  const kept = pages.lookup(generation, pageKey);
  if (kept) return jsonBytesResponse(kept);
  const offset = (q.pageNumber - 1) * q.pageSize;
  const { items, total } = Number.isSafeInteger(offset)
    ? pageItems(req, badRequestOf(() => store.queryArrays(query(q.pageSize, offset, true))))
    : { items: [], total: run(1, 0, true).total };
  const totalPages = Math.ceil(total / q.pageSize);
  const body = ENCODER.encode(
    `{"items":[${items.join(",")}],"pagination":${
      JSON.stringify(pagination(op, q, total, totalPages))
    },${JSON.stringify(linksName ?? "links")}:${linksJson(pageLinks(path, q, totalPages))}}`,
  );
  pages.remember(generation, pageKey, body);
  return jsonBytesResponse(body);
}

const ENCODER = new TextEncoder();

/** The result of a store read, its filter and sort errors as 400s. */
function badRequestOf<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw asBadRequest(err);
  }
}

/** The written items of a collection page (each with its links), and the total. */
function pageItems(
  req: OperationRequest,
  page: StoreArrayResult,
): { items: readonly string[]; total: number } {
  const { op } = req;
  const dialect = req.dialect ?? "spec";
  const path = req.url.pathname;
  const { rows, columns } = page;
  const rewrite = registryRewrite(op, dialect);
  const write = arrayRowWriter(op.resource, dialect, columns);
  const linksName = RESOURCES[op.resource].links;
  const linksKey = linksName === null ? "" : `${JSON.stringify(linksName)}:`;
  const items: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const tail = linksName === null
      ? undefined
      : linksKey + itemLinksJson(op, row, path, rewrite, columns);
    items[i] = write(row, tail);
  }
  return { items, total: page.total };
}

/** The pagination member of a collection page, per area. */
function pagination(op: OperationSpec, q: RequestQuery, total: number, totalPages: number) {
  return op.area === "connectors"
    ? { page_number: q.pageNumber, page_size: q.pageSize }
    : op.area === "estate"
    ? {
      page_size: q.pageSize,
      page_number: q.pageNumber,
      total_pages: totalPages,
      total_items: total,
    }
    : { page_size: q.pageSize, page_number: q.pageNumber, total_pages: totalPages };
}
