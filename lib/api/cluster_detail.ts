/**
 * Reading `GET /dcc/{id}` ("Get datacenter/cluster") whichever shape it comes in.
 *
 * The public service's own document declares this read's answer as a paged envelope of
 * `HypervisorType` (`{id, name}`, the answer of `/dcc-hypervisors`), while its path and summary
 * name one cluster. samkit takes the declaration for a documentation slip and accepts:
 * - one cluster object (what the spec and the reference server send);
 * - an envelope whose items hold the cluster asked for (its id, with a field of a cluster beyond
 *   `id` and `name`);
 * - the document's shape, an envelope (or object) of hypervisor types: it says nothing about the
 *   cluster, so {@link clusterFromDetail} answers `undefined` and the client reads the cluster
 *   from the cluster list (`GET /dcc`, filtered by id) instead of failing with a `ShapeError`.
 *
 * Anything else (not an object, an envelope whose `items` is not an array) is still a
 * `ShapeError`.
 *
 * @module
 */

import { RESOURCES } from "./catalogue.ts";
import { checkEnvelope, checkObject, type ShapeContext } from "./shape.ts";

/** The fields of a cluster that a hypervisor type (`id`, `name`) does not have. */
const CLUSTER_ONLY: ReadonlySet<string> = new Set(
  RESOURCES.DataCenterCluster.fields
    .filter((f) => !f.hidden && f.name !== "id" && f.name !== "name")
    .flatMap((f) => (f.realName ? [f.name, f.realName] : [f.name])),
);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Whether an object is a cluster (a field only a cluster has) with the id asked for. */
function isCluster(raw: unknown, id: string): raw is Record<string, unknown> {
  if (!isRecord(raw)) return false;
  const sameId = raw.id === undefined || raw.id === null ||
    String(raw.id).trim().toLowerCase() === id.trim().toLowerCase();
  return sameId && Object.keys(raw).some((k) => CLUSTER_ONLY.has(k));
}

/**
 * The cluster object in an answer of `GET /dcc/{id}`, or `undefined` when the answer is the
 * vendor document's shape (hypervisor types) and the cluster must be read from the list. Throws
 * a `ShapeError` for an answer of neither shape, or for a cluster object naming another id.
 *
 * @param ctx The call (operation `estate.dataCenterCluster`, its path, scope and parameters).
 * @param body The parsed response body.
 * @param id The cluster id asked for.
 *
 * @example
 * ```ts
 * import { clusterFromDetail } from "./cluster_detail.ts";
 * const ctx = {
 *   operation: "estate.dataCenterCluster",
 *   path: "/api/sam/estate/v1/dcc/DCC01",
 *   resource: "DataCenterCluster" as const,
 * };
 * console.log(clusterFromDetail(ctx, { id: "DCC01", name: "CL01", hypervisor: "Other" }, "DCC01"));
 * // { id: "DCC01", name: "CL01", hypervisor: "Other" }
 * const documented = { items: [{ id: 1, name: "VMware" }], pagination: { page_number: 1 } };
 * console.log(clusterFromDetail(ctx, documented, "DCC01")); // undefined
 * ```
 */
export function clusterFromDetail(
  ctx: ShapeContext,
  body: unknown,
  id: string,
): Record<string, unknown> | undefined {
  if (isRecord(body) && ("items" in body || "pagination" in body)) {
    const { scope: _scope, params: _params, ...plain } = ctx;
    const { items } = checkEnvelope(plain, body);
    return items.find((item) => isCluster(item, id));
  }
  const typeLike = isRecord(body) && ("id" in body || "name" in body) &&
    !Object.keys(body).some((k) => CLUSTER_ONLY.has(k));
  if (typeLike) {
    // `{id, name}` alone: a hypervisor type, or a cluster too bare to tell. Neither is trusted
    // as the cluster when its id differs; with the same id it is read as the cluster.
    const sameId = body.id !== undefined && body.id !== null &&
      String(body.id).trim().toLowerCase() === id.trim().toLowerCase();
    if (!sameId) return undefined;
  }
  return checkObject(ctx, body);
}
