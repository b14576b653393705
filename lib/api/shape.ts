/**
 * Shape checks of API responses against the catalogue, before normalisation: a single object
 * or a collection item must be a JSON object carrying at least one of its resource's fields
 * (an answer such as `{"items":"oops"}` is not a costs summary with every cost unknown); an
 * object read by a path parameter must not name another one (a different non-null `id`, or
 * `computerId` for `/computers/{id}/costs`); a collection envelope must have an `items` array
 * and numeric pagination numbers. Each failure is a {@link ShapeError} naming the operation and
 * path, with what was received shortened and its sensitive values redacted.
 *
 * Wrong types of known fields are left to the normaliser (`NormalisationError`).
 *
 * @module
 */

import { type ResourceName, RESOURCES } from "./catalogue.ts";
import { ShapeError } from "./errors.ts";
import { redactValue } from "./redact.ts";

/** What a check needs to know about the call. */
export interface ShapeContext {
  /** The operation id (`licenses.costsSummary`). */
  readonly operation: string;
  /** The request path; a query string is dropped from messages. */
  readonly path: string;
  /** The resource the operation returns. */
  readonly resource: ResourceName;
  /** Path parameter → the resource field it selects on (the operation's `scope`). */
  readonly scope?: Readonly<Record<string, string>>;
  /** The path parameters of the call. */
  readonly params?: Readonly<Record<string, string>>;
  /** Scrubs known secret values from text (the client's redactor). */
  readonly scrub?: (text: string) => string;
  /**
   * Every object must carry its `id` (the items of an entity list, `/computers` or `/licenses`,
   * which everything joins on): one without is refused, not read as an item no join can find.
   */
  readonly idRequired?: boolean;
}

/** The pagination numbers of an envelope, as checked numbers. */
export interface PaginationNumbers {
  /** `page_size`, when sent. */
  readonly pageSize?: number;
  /** `page_number`, when sent. */
  readonly pageNumber?: number;
  /** `total_pages`, when sent. */
  readonly totalPages?: number;
  /** `total_items`, when sent. */
  readonly totalItems?: number;
}

const PAGINATION: readonly [keyof PaginationNumbers, string, number][] = [
  ["pageSize", "page_size", 1],
  ["pageNumber", "page_number", 1],
  ["totalPages", "total_pages", 0],
  ["totalItems", "total_items", 0],
];

/**
 * What was received, for a message: short JSON with sensitive values redacted.
 *
 * @example
 * ```ts
 * import { describeReceived } from "./shape.ts";
 * console.log(describeReceived({ items: "oops", secretKey: "k" }));
 * // '{"items":"oops","secretKey":"<redacted>"}'
 * console.log(describeReceived("x".repeat(200)).length); // 120
 * ```
 */
export function describeReceived(raw: unknown): string {
  let text: string;
  try {
    text = raw === undefined ? "nothing" : JSON.stringify(redactValue(raw)) ?? String(raw);
  } catch {
    text = String(raw);
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function fail(ctx: ShapeContext, problem: string, raw: unknown): ShapeError {
  const scrub = ctx.scrub ?? ((t: string) => t);
  return new ShapeError({
    operation: ctx.operation,
    path: ctx.path.split("?")[0]!,
    resource: ctx.resource,
    problem: scrub(problem),
    received: scrub(describeReceived(raw)),
  });
}

/** The field names (top-level, and nested prefixes) a resource's objects are sent with. */
function knownNames(resource: ResourceName): ReadonlySet<string> {
  let names = KNOWN.get(resource);
  if (!names) {
    names = new Set(
      RESOURCES[resource].fields.filter((f) => !f.hidden).map((f) => f.name.split(".")[0]!),
    );
    KNOWN.set(resource, names);
  }
  return names;
}
const KNOWN = new Map<ResourceName, ReadonlySet<string>>();

/**
 * Checks one object (a single-object answer, or `what` = `"item 3 of page 2"` of a collection):
 * a JSON object with at least one field of the resource, with an `id` when `ctx.idRequired`,
 * and, when `ctx.params` are given, no scoped field naming another value than the path asked for.
 * Returns it; throws {@link ShapeError}.
 *
 * @example
 * ```ts
 * import { checkObject } from "./shape.ts";
 * const ctx = {
 *   operation: "licenses.costsSummary",
 *   path: "/api/sam/v1/licenses/L1/costs-summary",
 *   resource: "LicenseCostSummary" as const,
 * };
 * try {
 *   checkObject(ctx, { items: "oops" });
 * } catch (e) {
 *   console.log((e as Error).message);
 *   // 'licenses.costsSummary /api/sam/v1/licenses/L1/costs-summary: the response has none of the fields of LicenseCostSummary; received {"items":"oops"}'
 * }
 * ```
 */
export function checkObject(
  ctx: ShapeContext,
  raw: unknown,
  what = "the response",
): Record<string, unknown> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw fail(ctx, `${what} is not a JSON object`, raw);
  }
  const object = raw as Record<string, unknown>;
  if (!hasKnownField(object, knownNames(ctx.resource))) {
    throw fail(ctx, `${what} has none of the fields of ${ctx.resource}`, raw);
  }
  if (ctx.idRequired && (object.id === null || object.id === undefined || object.id === "")) {
    const article = /^[AEIOU]/.test(ctx.resource) ? "an" : "a";
    throw fail(ctx, `${what} has no id (${article} ${ctx.resource} is known by its id)`, raw);
  }
  if (ctx.scope !== undefined) checkScope(ctx, object, what);
  return object;
}

/** Whether one of `object`'s own keys is in `known` (no array of keys made: once per item). */
function hasKnownField(object: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const k in object) if (known.has(k) && Object.hasOwn(object, k)) return true;
  return false;
}

function checkScope(ctx: ShapeContext, object: Record<string, unknown>, what: string): void {
  const spec = RESOURCES[ctx.resource];
  for (const [param, field] of Object.entries(ctx.scope ?? {})) {
    const asked = ctx.params?.[param];
    const f = spec.byName.get(field);
    const got = object[field];
    if (asked === undefined || !f || f.hidden || f.sensitive || got === null || got === undefined) {
      continue;
    }
    if (String(got).trim().toLowerCase() !== asked.trim().toLowerCase()) {
      throw fail(
        ctx,
        `${what} is for ${field} ${JSON.stringify(String(got))}, not the ${param} asked for ` +
          `(${JSON.stringify(asked)})`,
        object,
      );
    }
  }
}

/**
 * Checks a collection envelope: a JSON object whose `items` is an array (never `null`: spec 2.2
 * says an empty collection is `[]`) and whose pagination numbers, when sent, are whole numbers within the exact range of a
 * double, at most 2^53 − 1 (numeric text allowed; `"9007199254740993"` is refused, not rounded).
 * Returns the items and the numbers; throws {@link ShapeError}.
 *
 * @example
 * ```ts
 * import { checkEnvelope } from "./shape.ts";
 * const ctx = { operation: "estate.computers", path: "/api/sam/estate/v1/computers", resource: "Computer" as const };
 * const { items, pagination } = checkEnvelope(ctx, {
 *   items: [{ id: "C1" }], pagination: { page_size: 1000, total_items: "1" },
 * });
 * console.log(items.length, pagination); // 1 { pageSize: 1000, totalItems: 1 }
 * ```
 */
export function checkEnvelope(
  ctx: ShapeContext,
  body: unknown,
): { items: unknown[]; pagination: PaginationNumbers } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw fail(ctx, "the response is not a collection envelope (a JSON object)", body);
  }
  const b = body as Record<string, unknown>;
  const items = b.items;
  if (items === null) {
    // Spec 2.2: never null; an empty collection is []. A null is a page the service did not fill.
    throw fail(ctx, "the collection envelope's items is null, not an array (none is [])", body);
  }
  if (!Array.isArray(items)) {
    throw fail(ctx, "the collection envelope's items is not an array", body);
  }
  return { items, pagination: paginationOf(ctx, b.pagination, body) };
}

function paginationOf(ctx: ShapeContext, raw: unknown, body: unknown): PaginationNumbers {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw fail(ctx, "the collection envelope's pagination is not an object", body);
  }
  const p = raw as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const [key, name, min] of PAGINATION) {
    const v = p[name];
    if (v === undefined || v === null) continue;
    const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min) {
      throw fail(
        ctx,
        `pagination.${name} is not a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}`,
        raw,
      );
    }
    out[key] = n;
  }
  return out;
}
