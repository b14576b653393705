/**
 * A stable key for a JSON-like value, for the duplicate checks of a read: equal values give equal
 * keys whatever their objects' key order, different values different keys but for a 96-bit hash
 * collision. The value is hashed as it is walked, with nothing built per value: an object's
 * fields are hashed one by one and summed (a sum does not depend on the order), an array's
 * elements are chained in order, a number is hashed by its bits and a date by its time. The key
 * is a 7-character string (a leading NUL and six 16-bit halves of the hash), so a large read
 * keeps small keys.
 *
 * @module
 */

// The three 32-bit lanes of the hash of the value last walked (set by `walk`, read at once).
let laneA = 0;
let laneB = 0;
let laneC = 0;

const FLOAT = new Float64Array(1);
const WORDS = new Uint32Array(FLOAT.buffer);

// Tags that tell the kinds of values apart.
const NULL = 0x1b873593;
const UNDEFINED = 0x2f8b3c4d;
const FALSE = 0x5bd1e995;
const TRUE = 0x68e31da4;
const STRING = 0x3c6ef372;
const NUMBER = 0x7f4a7c15;
const DATE = 0x1d8e4e27;
const ARRAY = 0x61c88647;
const OBJECT = 0x27d4eb2f;

/** murmur3's finaliser: a bijection of 32-bit integers that spreads every bit. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

function setLanes(a: number, b: number, c: number): void {
  laneA = fmix(a);
  laneB = fmix(b ^ 0x9e3779b9);
  laneC = fmix(c ^ 0x7feb352d);
}

function walkString(text: string): void {
  let a = STRING;
  let b = STRING ^ 0x01000193;
  let c = STRING ^ 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
    c = Math.imul(c ^ ch, 2246822519);
  }
  setLanes(a ^ text.length, b + text.length, c - text.length);
}

function walkNumber(value: number, tag: number): void {
  FLOAT[0] = value === 0 ? 0 : value; // -0 is 0, as in JSON
  const lo = WORDS[0]!;
  const hi = WORDS[1]!;
  setLanes(fmix(lo ^ tag) ^ hi, fmix(hi ^ tag) + lo, fmix(lo + hi) ^ tag);
}

function walkArray(items: readonly unknown[]): void {
  let a = ARRAY ^ items.length;
  let b = ARRAY + items.length;
  let c = ARRAY - items.length;
  for (const item of items) {
    walk(item);
    a = fmix(Math.imul(a, 31) ^ laneA);
    b = fmix(Math.imul(b, 37) + laneB);
    c = fmix(Math.imul(c, 41) ^ laneC);
  }
  setLanes(a, b, c);
}

/** The lanes of the property names met, so that a name is hashed once per run, not per item. */
const NAMES = new Map<string, readonly [number, number, number]>();
const MAX_NAMES = 4096;

function nameLanes(name: string): readonly [number, number, number] {
  let lanes = NAMES.get(name);
  if (lanes === undefined) {
    walkString(name);
    lanes = [laneA, laneB, laneC];
    if (NAMES.size < MAX_NAMES) NAMES.set(name, lanes);
  }
  return lanes;
}

function walkObject(object: Readonly<Record<string, unknown>>, omit?: string): void {
  let a = 0;
  let b = 0;
  let c = 0;
  let fields = 0;
  // In any order (the fields' hashes are added): `for…in` makes no array of the keys.
  for (const name in object) {
    const value = object[name];
    if (value === undefined || name === omit || !Object.hasOwn(object, name)) continue;
    const [na, nb, nc] = nameLanes(name); // Before `walk`: a new name is walked too.
    walk(value);
    a = (a + fmix(laneA + Math.imul(na, 0x2c1b3c6d))) | 0;
    b = (b + fmix(laneB ^ Math.imul(nb, 0x297a2d39))) | 0;
    c = (c + fmix(laneC - Math.imul(nc, 0x7ed55d16))) | 0;
    fields++;
  }
  setLanes(a ^ OBJECT ^ fields, b + OBJECT + fields, c ^ Math.imul(OBJECT, fields + 1));
}

function walk(value: unknown): void {
  switch (typeof value) {
    case "string":
      return walkString(value);
    case "number":
      return walkNumber(value, NUMBER);
    case "boolean":
      return value ? setLanes(TRUE, TRUE, TRUE) : setLanes(FALSE, FALSE, FALSE);
    case "undefined":
      return setLanes(UNDEFINED, UNDEFINED, UNDEFINED);
    case "object":
      if (value === null) return setLanes(NULL, NULL, NULL);
      if (value instanceof Date) return walkNumber(value.getTime(), DATE);
      if (Array.isArray(value)) return walkArray(value);
      return walkObject(value as Record<string, unknown>);
    default: // bigint, symbol, function: by their text, as nothing JSON sends.
      return walkString(`${typeof value}:${String(value)}`);
  }
}

/** Options of {@link stableKey}. */
export interface StableKeyOptions {
  /** A field of the (top-level) object left out of the key, as if it were not there. */
  readonly omit?: string;
}

/**
 * A stable key for a value: the same for equal values whatever their objects' key order, and
 * different for different values but for a 96-bit hash collision. A key starts with a NUL.
 * With `omit`, that field of an object is left out.
 *
 * @example
 * ```ts
 * import { stableKey } from "./stable_key.ts";
 * console.log(stableKey({ a: 1, b: [2] }) === stableKey({ b: [2], a: 1 })); // true
 * console.log(stableKey({ a: 1 }) === stableKey({ a: 2 })); // false
 * console.log(stableKey({ a: 1 }).length); // 7
 * console.log(stableKey({ a: 1, links: [] }, { omit: "links" }) === stableKey({ a: 1 })); // true
 * ```
 */
export function stableKey(value: unknown, options: StableKeyOptions = {}): string {
  const { omit } = options;
  if (
    omit !== undefined && value !== null && typeof value === "object" && !Array.isArray(value) &&
    !(value instanceof Date)
  ) {
    walkObject(value as Record<string, unknown>, omit);
  } else {
    walk(value);
  }
  return String.fromCharCode(
    0,
    laneA >>> 16,
    laneA & 0xffff,
    laneB >>> 16,
    laneB & 0xffff,
    laneC >>> 16,
    laneC & 0xffff,
  );
}
