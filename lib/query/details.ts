/**
 * Per-item detail calls: one call per item through the run's fan-out (the shared limiter and
 * cache, so no request is made twice in a run), collected by id; a 404 becomes `null`.
 *
 * @module
 */

import { NotFoundError } from "../api/errors.ts";
import type { QueryContext } from "./context.ts";

/**
 * `load()`, or `null` when the API answers 404 (the item is gone or has no such detail).
 *
 * @example
 * ```ts
 * import { orNull } from "./details.ts";
 * import { NotFoundError } from "../api/errors.ts";
 * const gone = new NotFoundError({ method: "GET", path: "/x", status: 404, message: "gone" });
 * console.log(await orNull(() => Promise.reject(gone))); // null
 * ```
 */
export async function orNull<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * One detail call per item with an id, through the run's fan-out, cached per run under
 * `<key>:<id>`; the details by id, `null` where the API answered 404.
 *
 * @example
 * ```ts
 * import { detailsById } from "./details.ts";
 * import { createQueryContext } from "./context.ts";
 * const query = createQueryContext();
 * const details = await detailsById({ query }, [{ id: "a" }], "demo.detail", (id) =>
 *   Promise.resolve({ name: id.toUpperCase() }));
 * console.log(details.get("a")); // { name: "A" }
 * ```
 */
export async function detailsById<R>(
  ctx: { readonly query: QueryContext },
  items: Iterable<{ readonly id: string | null }>,
  key: string,
  load: (id: string) => Promise<R>,
): Promise<Map<string, R | null>> {
  const out = new Map<string, R | null>();
  const withId = [...items].filter((item) => item.id);
  for await (
    const [item, detail] of ctx.query.fanOut(
      withId,
      (item) => `${key}:${item.id}`,
      (item) => orNull(() => load(item.id!)),
    )
  ) out.set(item.id!, detail);
  return out;
}
