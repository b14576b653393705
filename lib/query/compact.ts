/**
 * Compact copies of the API's items for the rows a run keeps (the cached collections): an item
 * read from the API is built field by field and ends up in V8's dictionary mode, a hash table of
 * about 2 KB for a 28-field metric-tracking row; the same fields copied into an object literal of
 * a fixed shape take a third of that, all items of one shape sharing one hidden class. The copy
 * has the same own fields in the same order with the same values (nested plain objects and
 * arrays copied alike, anything else shared), so nothing that reads it can tell — except that
 * hypermedia links (a `links` field holding an array of `{ href }` objects) are left out: they
 * are navigation, not data, no report shows them, and at a third of a metric-tracking row's
 * memory they would be the largest part of a large estate's cached collections.
 *
 * @module
 */

type Plain = Record<string, unknown>;

/** The most shapes given a builder; further shapes are kept as they are. */
const MAX_SHAPES = 512;

/** How deep nested values are copied (API items nest two or three levels). */
const MAX_DEPTH = 8;

const builders = new Map<string, (item: Plain) => Plain>();

/** A key the literal could not carry as a plain field (`__proto__`, array indices). */
const awkward = (key: string) => key === "__proto__" || /^\d+$/.test(key);

/** The shapes met last, newest first: most items are of the shape of the item before. */
const recent: { keys: readonly string[]; build: (item: Plain) => Plain }[] = [];
const RECENT = 4;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The builder of a shape: one of the recent shapes compared key by key, else by signature. */
function builderFor(keys: readonly string[]): ((item: Plain) => Plain) | undefined {
  for (const shape of recent) if (sameKeys(shape.keys, keys)) return shape.build;
  const build = builderBySignature(keys);
  if (build !== undefined) {
    recent.unshift({ keys, build });
    if (recent.length > RECENT) recent.pop();
  }
  return build;
}

function builderBySignature(keys: readonly string[]): ((item: Plain) => Plain) | undefined {
  const signature = keys.join("\u0000");
  let build = builders.get(signature);
  if (build === undefined) {
    if (builders.size >= MAX_SHAPES || keys.some(awkward)) return undefined;
    const fields = keys.map((k) => `${JSON.stringify(k)}: item[${JSON.stringify(k)}]`);
    build = new Function("item", `return { ${fields.join(", ")} };`) as (item: Plain) => Plain;
    builders.set(signature, build);
  }
  return build;
}

/**
 * A compact copy of `item` when it is a plain object (prototype `Object.prototype`), its plain
 * objects and arrays of them copied alike (arrays are copied, not changed), hypermedia `links`
 * left out; anything else (dates, class instances, primitives) is returned as it is.
 *
 * @example
 * ```ts
 * import { compactItem } from "./compact.ts";
 * const item = { id: "C1", tags: [{ rel: "x" }], when: new Date(0), links: [{ href: "/c/C1" }] };
 * const copy = compactItem(item);
 * console.log(JSON.stringify(copy)); // {"id":"C1","tags":[{"rel":"x"}],"when":"1970-01-01T00:00:00.000Z"}
 * console.log(copy.when === item.when); // true
 * ```
 */
export function compactItem<T>(item: T): T {
  return copy(item, 0);
}

/** Whether `value` is a list of hypermedia links (`[{ href, … }, …]`). */
function isLinkList(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 &&
    value.every((l) => l !== null && typeof l === "object" && typeof l.href === "string");
}

/**
 * Repeated text values shared: a field whose values repeat (a model, an operating system, a
 * domain) keeps one string per distinct value instead of one per item. Each field name has its
 * own table; a field whose values turn out mostly distinct (host names, addresses) stops being
 * looked up. Short strings are left alone (V8 already shares the short strings it parses), and
 * every table is bounded, so a long-running worker's tables stop growing.
 */
class FieldStrings {
  #table: Map<string, string> | undefined = new Map();
  #asked = 0;

  of(value: string): string {
    const table = this.#table;
    if (table === undefined) return value;
    const hit = table.get(value);
    if (++this.#asked === TRIAL && table.size * 2 > TRIAL) {
      this.#table = undefined; // Mostly distinct: sharing would cost more than it saves.
    } else if (hit === undefined && table.size < MAX_STRINGS) {
      table.set(value, value);
    }
    return hit ?? value;
  }
}

/** Values of a field seen before deciding whether it repeats enough to share. */
const TRIAL = 2048;
/** The most distinct values a field's table holds, and the most fields with a table. */
const MAX_STRINGS = 16_384, MAX_FIELDS = 256;
/** Strings this short or longer than the limit are not shared. */
const SHORT = 10, LONG = 256;

const fieldStrings = new Map<string, FieldStrings>();

function shared(field: string, value: string): string {
  if (value.length <= SHORT || value.length > LONG) return value;
  let table = fieldStrings.get(field);
  if (table === undefined) {
    if (fieldStrings.size >= MAX_FIELDS) return value;
    fieldStrings.set(field, table = new FieldStrings());
  }
  return table.of(value);
}

function copy<T>(item: T, depth: number): T {
  if (depth > MAX_DEPTH) return item;
  if (Array.isArray(item)) return item.map((v) => copy(v, depth + 1)) as T;
  if (
    item === null || typeof item !== "object" || Object.getPrototypeOf(item) !== Object.prototype
  ) {
    return item;
  }
  let keys = Object.keys(item);
  const links = (item as Plain).links;
  if (links !== undefined && isLinkList(links)) keys = keys.filter((k) => k !== "links");
  const build = builderFor(keys);
  if (!build) return item;
  const out = build(item as Plain);
  for (const k of keys) {
    const v = out[k];
    if (typeof v === "string") out[k] = shared(k, v);
    else if (v !== null && typeof v === "object") out[k] = copy(v, depth + 1);
  }
  return out as T;
}
