/**
 * Numbers for pairs of ids — a computer's install of an application, say — for the lookups a
 * large join keeps: each id is interned once to a small number and a pair is one number, so a
 * set or map over a million installs holds numbers, not a million joined strings (about 60 bytes
 * each, where a number in a `Map` takes a third of that).
 *
 * @module
 */

/** Room for the second id of a pair: 2^21 distinct second ids (applications, metrics). */
const SECOND = 2 ** 21;

/** Thrown when more distinct second ids are met than a pair number has room for. */
export class PairKeysFullError extends RangeError {
  /** @param limit The number of distinct second ids a {@link PairKeys} holds. */
  constructor(limit: number) {
    super(`more than ${limit} distinct second ids in pairs: too many to number`);
    this.name = "PairKeysFullError";
  }
}

/**
 * Interns ids and numbers pairs of them; `null` is an id of its own (distinct from `""`). The
 * same pair always gets the same number from one instance, and different pairs different
 * numbers (exactly: no hashing).
 *
 * @example
 * ```ts
 * import { PairKeys } from "./pair_keys.ts";
 * const installs = new PairKeys();
 * const licensed = new Set([installs.key("C1", "APP1")]);
 * console.log(licensed.has(installs.key("C1", "APP1")), licensed.has(installs.key("C1", "APP2")));
 * // true false
 * console.log(installs.find("C9", "APP1")); // undefined
 * ```
 */
export class PairKeys {
  #first = new Map<string | null, number>();
  #second = new Map<string | null, number>();

  /** The number of the pair (`first`, `second`), numbering either id when it is new. */
  key(first: string | null, second: string | null): number {
    return intern(this.#first, first, Infinity) * SECOND + intern(this.#second, second, SECOND);
  }

  /** The number of the pair when both ids were numbered before, else `undefined`. */
  find(first: string | null, second: string | null): number | undefined {
    const a = this.#first.get(first), b = this.#second.get(second);
    return a === undefined || b === undefined ? undefined : a * SECOND + b;
  }
}

function intern(ids: Map<string | null, number>, id: string | null, limit: number): number {
  let n = ids.get(id);
  if (n === undefined) {
    if (ids.size >= limit) throw new PairKeysFullError(limit);
    ids.set(id, n = ids.size);
  }
  return n;
}
