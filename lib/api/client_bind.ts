/**
 * An area's typed functions, one per operation of `operations.ts`: path parameters by position,
 * then the call's options; a single object a promise, a collection a `Paged`. An area may give
 * some operations functions of its own (a write's body, a read that needs more than one call).
 *
 * @module
 */

import { collection } from "./client_collection.ts";
import type { ClientCore } from "./client_core.ts";
import type { CallOptions, FilterOptions } from "./client_options.ts";
import { object } from "./client_object.ts";
import { type Area, OPERATIONS, type OperationSpec } from "./operations.ts";

/** An area's own function for an operation, made from the operation. */
export type SpecialCall = (op: OperationSpec) => (...args: never[]) => unknown;

/**
 * The functions of an area's operations, by name (`computers`, `computer`, …), in the order of
 * the operation table; `special` replaces the generic function of the operations it names (by
 * id). A single-object function rejects (never throws) for a bad path parameter; a collection
 * function throws at once.
 *
 * @example
 * ```ts
 * import { bindOperations } from "./client_bind.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { createRequest } from "./request.ts";
 * const core = createClientCore({
 *   request: createRequest({ baseUrl: "http://127.0.0.1:8080" }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * });
 * const organizations = bindOperations(core, "organizations");
 * console.log(Object.keys(organizations)); // [ "tree", "node" ]
 * ```
 */
export function bindOperations(
  core: ClientCore,
  area: Area,
  special: Readonly<Record<string, SpecialCall>> = {},
): Record<string, unknown> {
  const functions: Record<string, unknown> = {};
  for (const op of OPERATIONS) {
    if (op.area !== area) continue;
    const name = op.id.slice(op.id.indexOf(".") + 1);
    functions[name] = special[op.id]?.(op) ?? generic(core, op);
  }
  return functions;
}

/** The generic function of an operation: path parameters by position, then the options. */
function generic(core: ClientCore, op: OperationSpec): (...args: unknown[]) => unknown {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const byPosition = (args: unknown[]) => {
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      const v = args[i];
      if (typeof v !== "string" && typeof v !== "number") {
        throw new TypeError(`${op.id}: path parameter "${n}" must be a string`);
      }
      params[n] = String(v);
    });
    return params;
  };
  if (op.shape === "object" && !op.eitherShape) {
    return (...args: unknown[]) => {
      try {
        return object(core, op, byPosition(args), args[names.length] as CallOptions | undefined);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return (...args: unknown[]) =>
    collection(core, op, byPosition(args), args[names.length] as FilterOptions | undefined);
}
