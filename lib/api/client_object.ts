/**
 * Single-object operations over the client's core: one call at the operation's path (a write
 * with its body), the answer shape-checked against the operation's resource and scope, and
 * normalised.
 *
 * @module
 */

import type { Resource, ResourceName } from "./catalogue.ts";
import type { ClientCore } from "./client_core.ts";
import type { CallOptions } from "./client_options.ts";
import { createNormaliser } from "./normalise.ts";
import type { OperationSpec } from "./operations.ts";
import { checkObject } from "./shape.ts";

/** The body of a write: the value, its media type, and whether repeating it is safe. */
export interface WriteBody {
  readonly value: unknown;
  readonly contentType?: string;
  readonly idempotent: boolean;
}

/**
 * A single-object operation's answer, checked and normalised. Rejects with a `RangeError` for an
 * operation that returns a collection.
 *
 * @example
 * ```ts
 * import { object } from "./client_object.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { OPERATIONS } from "./operations.ts";
 * import { createRequest } from "./request.ts";
 * const core = createClientCore({
 *   request: createRequest({
 *     baseUrl: "http://127.0.0.1:8080",
 *     fetch: () => Promise.resolve(Response.json({ id: "L1", quantity: "5" })),
 *   }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * });
 * const op = OPERATIONS.find((o) => o.id === "licenses.get")!;
 * const license = await object<"LicenseDetail">(core, op, { id: "L1" });
 * console.log(license.quantity); // 5
 * ```
 */
export async function object<N extends ResourceName>(
  core: ClientCore,
  op: OperationSpec,
  params: Readonly<Record<string, string>>,
  options: CallOptions = {},
  body?: WriteBody,
): Promise<Resource<N>> {
  if (op.shape !== "object" || op.eitherShape) {
    throw new RangeError(`${op.id} returns a collection`);
  }
  return await core.atPath(op, params, async (path) => {
    const res = await core.request({
      method: op.method,
      path,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(body
        ? {
          body: body.value,
          idempotent: body.idempotent,
          ...(body.contentType ? { contentType: body.contentType } : {}),
        }
        : {}),
    });
    const ctx = { ...core.shapeContext(op, path), scope: op.scope, params };
    return createNormaliser(op.resource as N, { operation: op.id })(checkObject(ctx, res.body));
  });
}
