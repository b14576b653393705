/**
 * Shared pieces of the contract tests: which operation of `lib/api/operations.ts` serves a mock
 * route, calling it through the client, and checking that items came out typed.
 *
 * @module
 */

import { type ResourceName, RESOURCES } from "../../lib/api/catalogue.ts";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { AREA_PREFIX, OPERATIONS, type OperationSpec } from "../../lib/api/operations.ts";
import type { Row } from "./fixtures/tenant.ts";
import type { MockRoute } from "./mock_routes.ts";
import { type Dialect, type MockService, NEUTRAL_NAMES } from "./mock_service.ts";

/** The type a field must have once normalised. */
export type Kind = "number" | "boolean" | "date" | "string";

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/** A template with its parameter names blanked and the registry spelt one way. */
function shapeOf(path: string): string {
  return path.replace("/softwareregistry/", "/software-registry/").replace(/\{\w+\}/g, "{}");
}

/** The full GET path template of an operation (area prefix + path), if its area has a prefix. */
function fullTemplate(op: OperationSpec): string | undefined {
  const prefix = (AREA_PREFIX as Readonly<Record<string, string>>)[op.area];
  return prefix === undefined ? undefined : prefix + op.path;
}

/**
 * The GET operations whose path is the route's (registry spelling and parameter names aside).
 *
 * @example
 * ```ts ignore
 * const [op] = operationsFor(route);
 * ```
 */
export function operationsFor(route: MockRoute): OperationSpec[] {
  const want = shapeOf(route.template);
  return OPERATIONS.filter((op) => {
    const t = fullTemplate(op);
    return op.method === "GET" && t !== undefined && shapeOf(t) === want;
  });
}

/**
 * The operation's path parameters filled from the route's sample, by position.
 *
 * @example
 * ```ts ignore
 * const params = paramsFor(op, route); // { id: "…" }
 * ```
 */
export function paramsFor(op: OperationSpec, route: MockRoute): Record<string, string> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const values = [...route.template.matchAll(/\{(\w+)\}/g)].map((m) => route.sample[m[1]!]!);
  return Object.fromEntries(names.map((n, i) => [n, values[i]!]));
}

/**
 * A client for a mock, with no registry prefix (the default must work) unless one is given.
 *
 * @example
 * ```ts ignore
 * const client = contractClient(mock);
 * ```
 */
export function contractClient(
  mock: MockService,
  extra: { registryPrefix?: string } = {},
): SamClient {
  return createClient({
    baseUrl: mock.url,
    clientId: mock.clientId,
    clientSecret: mock.clientSecret,
    retries: 0,
    env: () => undefined,
    ...extra,
  });
}

/**
 * Every item an operation yields for a route (a collection read whole, an object as one item).
 *
 * @example
 * ```ts ignore
 * const items = await readOperation(client, op, route);
 * ```
 */
export async function readOperation(
  client: SamClient,
  op: OperationSpec,
  route: MockRoute,
): Promise<Record<string, unknown>[]> {
  const params = paramsFor(op, route);
  if (op.shape === "object" && !op.eitherShape) {
    return [await client.object(op.id, params) as Record<string, unknown>];
  }
  return await client.collection(op.id, params).toArray() as Record<string, unknown>[];
}

function kindOf(value: unknown): Kind | undefined {
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return RFC3339.test(value) ? "date" : "string";
  return undefined;
}

/**
 * Field → type the real service declares, read from the route's fixture rows (first non-null
 * value of each field); arrays, objects and `_links` left out. Names as the dialect sends them.
 *
 * @example
 * ```ts ignore
 * const kinds = expectedKinds(route, "real"); // Map { "quantity" => "number", … }
 * ```
 */
export function expectedKinds(route: MockRoute, dialect: Dialect): Map<string, Kind> {
  const kinds = new Map<string, Kind>();
  for (const row of route.rows(route.sample) as Row[]) {
    for (const [k, v] of Object.entries(row)) {
      const name = dialect === "spec" ? NEUTRAL_NAMES[k] ?? k : k;
      const kind = kindOf(v);
      if (kind && !kinds.has(name)) kinds.set(name, kind);
    }
  }
  for (const hidden of ["hostId", "dccId", "scopeAppId", "_links"]) kinds.delete(hidden);
  return kinds;
}

/**
 * Problems of one normalised item: fields the catalogue knows for the resource that are not of
 * the declared type (`onlyKnown`), or, without `onlyKnown`, any real field missing from the
 * catalogue or not typed. With `raw` (the item as sent), fields sent as null or not sent are
 * left out.
 *
 * @example
 * ```ts ignore
 * assert.deepEqual(typingProblems(item, "License", kinds, { onlyKnown: true }), []);
 * ```
 */
export function typingProblems(
  item: Record<string, unknown>,
  resource: ResourceName,
  kinds: ReadonlyMap<string, Kind>,
  options: { onlyKnown: boolean; raw?: Readonly<Record<string, unknown>> },
): string[] {
  const spec = RESOURCES[resource];
  const problems: string[] = [];
  for (const [field, kind] of kinds) {
    if (options.raw && (options.raw[field] === undefined || options.raw[field] === null)) continue;
    const known = spec.byName.has(field);
    if (!known) {
      if (!options.onlyKnown) problems.push(`${field}: not in the ${resource} catalogue`);
      continue;
    }
    const value = item[field];
    if (value === null || value === undefined) {
      problems.push(`${field}: null after normalising (sent as ${kind})`);
      continue;
    }
    // A flag enum is sent as a bitmask or names and always read as the list of its names.
    const ok = spec.byName.get(field)?.flags
      ? Array.isArray(value) && value.every((n) => typeof n === "string")
      : kind === "date"
      ? value instanceof Date
      : kindOf(value) === kind;
    if (!ok) problems.push(`${field}: ${JSON.stringify(value)} is not a ${kind}`);
  }
  return problems;
}

/**
 * The raw items a mock answers on a path: envelope items (first page), the tree's nodes, or
 * one object, following `next` links of flat objects.
 *
 * @example
 * ```ts ignore
 * const raw = await rawItems(mock, "/api/sam/v1/licenses");
 * ```
 */
export async function rawItems(
  mock: MockService,
  path: string,
): Promise<Record<string, unknown>[]> {
  const tok = await fetch(`${mock.url}/idp/api/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: mock.clientId,
      client_secret: mock.clientSecret,
    }),
  }).then((r) => r.json());
  const out: Record<string, unknown>[] = [];
  for (let url: string | undefined = `${mock.url}${path}`; url;) {
    const res: Response = await fetch(url, {
      headers: { authorization: `Bearer ${tok.access_token}` },
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      return out;
    }
    const body = await res.json();
    if (Array.isArray(body.items)) return [...out, ...body.items];
    if (Array.isArray(body.nodes)) return body.nodes;
    const links: { rel: string; href: string }[] = body._links ?? [];
    out.push({ ...body, _links: links.filter((l) => l.rel !== "next") });
    const next = links.find((l) => l.rel === "next")?.href;
    url = next ? `${mock.url}/${next.replace(/^\//, "")}` : undefined;
  }
  return out;
}

/**
 * A route's path with its sample parameters filled in, in the dialect's spelling.
 *
 * @example
 * ```ts ignore
 * const path = samplePath(route, "spec");
 * ```
 */
export function samplePath(route: MockRoute, dialect: Dialect): string {
  const path = route.template.replace(/\{(\w+)\}/g, (_, n: string) => route.sample[n]!);
  return dialect === "spec" ? path.replace("/software-registry/", "/softwareregistry/") : path;
}
