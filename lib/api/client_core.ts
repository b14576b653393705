/**
 * What every area of the client shares: the one request function, and an operation's path under
 * its area's prefix (a registry call under the detected prefix), the 403 that names the
 * operation, the context of its shape checks and the `page` event of each page read.
 *
 * @module
 */

import type { RegistryPrefix } from "./base_url.ts";
import { PermissionError, RefusedResponseError } from "./errors.ts";
import { type Area, AREA_PREFIX, expandPath, type OperationSpec } from "./operations.ts";
import type { Page, ParallelOption } from "./paginate.ts";
import type { PagingLimitsOption } from "./paging_limits.ts";
import type { RequestFn } from "./request.ts";
import type { ShapeContext } from "./shape.ts";

/** The operations' shared layer over the one request function. */
export interface ClientCore {
  /** The one request function. */
  readonly request: RequestFn;
  /** The registry prefix in use (detected on the first registry read). */
  readonly registry: RegistryPrefix;
  /** Items per page when a call does not say. */
  readonly defaultPageSize: number;
  /** Parallel mode when a call does not say. */
  readonly defaultParallel?: ParallelOption;
  /** The bounds of collection reads per kind, where they differ from the defaults. */
  readonly limits?: PagingLimitsOption;
  /** The operation's path with its parameters, under `prefix` (default its area's in use). */
  pathOf(op: OperationSpec, params: Readonly<Record<string, string>>, prefix?: string): string;
  /** Runs one call at the operation's path (a registry call under the detected prefix). */
  atPath<T>(
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    call: (path: string) => Promise<T>,
  ): Promise<T>;
  /**
   * Rethrows an error: a 403 naming the operation and the scope it needs, a refused answer
   * (link elsewhere, too large, too deep) naming the operation.
   */
  naming(op: OperationSpec): (error: unknown) => never;
  /** The context of the operation's shape checks, messages scrubbed of secrets. */
  shapeContext(op: OperationSpec, path: string): ShapeContext;
  /** Counts a page's items and reports the page. */
  emitPage<T>(op: OperationSpec, path: string, page: Page<T>): void;
}

/** Options of {@link createClientCore}. */
export interface ClientCoreOptions {
  readonly request: RequestFn;
  /** The path prefix of each area (the registry's comes from `registry`). */
  readonly prefixes: Readonly<Record<Area, string>>;
  readonly registry: RegistryPrefix;
  readonly defaultPageSize: number;
  readonly defaultParallel?: ParallelOption;
  readonly limits?: PagingLimitsOption;
}

/**
 * The shared layer of the client's areas over one request function.
 *
 * @example
 * ```ts
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { OPERATIONS } from "./operations.ts";
 * import { createRequest } from "./request.ts";
 * const core = createClientCore({
 *   request: createRequest({ baseUrl: "http://127.0.0.1:8080" }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * });
 * const op = OPERATIONS.find((o) => o.id === "licenses.get")!;
 * console.log(core.pathOf(op, { id: "L1" })); // "/api/sam/v1/licenses/L1"
 * ```
 */
export function createClientCore(options: ClientCoreOptions): ClientCore {
  const { request, prefixes, registry } = options;
  const pathOf = (
    op: OperationSpec,
    params: Readonly<Record<string, string>>,
    prefix = op.area === "registry" ? registry.current : prefixes[op.area],
  ): string => {
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && v !== null) clean[k] = String(v);
    }
    const full = expandPath(op, clean);
    return prefix + full.slice(AREA_PREFIX[op.area].length);
  };
  const naming = (op: OperationSpec) => (error: unknown): never => {
    throw error instanceof PermissionError || error instanceof RefusedResponseError
      ? error.forOperation(op)
      : error;
  };
  return {
    request,
    registry,
    defaultPageSize: options.defaultPageSize,
    ...(options.defaultParallel === undefined ? {} : { defaultParallel: options.defaultParallel }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    pathOf,
    naming,
    atPath: (op, params, call) =>
      (op.area === "registry"
        ? registry.use((prefix) => call(pathOf(op, params, prefix)))
        : call(pathOf(op, params))).catch(naming(op)),
    shapeContext: (op, path) => ({
      operation: op.id,
      path,
      resource: op.resource,
      scrub: (text) => request.redactor.scrub(text),
    }),
    emitPage: (op, path, page) => {
      request.stats.itemsFetched += page.items.length;
      request.emit({
        type: "page",
        op: op.id,
        path,
        pageNumber: page.pageNumber,
        items: page.items.length,
        ...(page.totalPages === undefined ? {} : { totalPages: page.totalPages }),
        ...(page.totalItems === undefined ? {} : { totalItems: page.totalItems }),
      });
    },
  };
}
