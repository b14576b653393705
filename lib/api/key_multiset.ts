/**
 * The multiset of a read's item keys in constant memory: how many keys, and three 32-bit sums of
 * a 96-bit hash of each key. Sums do not depend on the order the keys came in, nor on how they
 * were split into pages, and count a key as often as it came: two reads of one collection at
 * different page sizes give equal multisets exactly when they read the same items (but for a
 * 96-bit hash collision), whatever their page boundaries.
 *
 * @module
 */

import { stableKey } from "./stable_key.ts";

/**
 * A multiset of string keys held as a count and three hash sums.
 *
 * @example Order and page boundaries do not matter; multiplicity does
 * ```ts
 * import { KeyMultiset } from "./key_multiset.ts";
 * const read = new KeyMultiset();
 * for (const key of ["a", "b", "b"]) read.add(key);
 * const again = new KeyMultiset();
 * for (const key of ["b", "a", "b"]) again.add(key);
 * const other = new KeyMultiset();
 * for (const key of ["a", "a", "b"]) other.add(key);
 * console.log(read.equals(again), read.equals(other), other.count); // true false 3
 * ```
 */
export class KeyMultiset {
  #count = 0;
  #a = 0;
  #b = 0;
  #c = 0;

  /** How many keys were added (each as often as it was added). */
  get count(): number {
    return this.#count;
  }

  /** Adds one key. */
  add(key: string): void {
    // A stable key (a NUL and six 16-bit halves) is a hash already; any other key is hashed.
    const h = key.length === 7 && key.charCodeAt(0) === 0 ? key : stableKey(key);
    this.#a = (this.#a + ((h.charCodeAt(1) << 16) | h.charCodeAt(2))) | 0;
    this.#b = (this.#b + ((h.charCodeAt(3) << 16) | h.charCodeAt(4))) | 0;
    this.#c = (this.#c + ((h.charCodeAt(5) << 16) | h.charCodeAt(6))) | 0;
    this.#count++;
  }

  /** Whether `other` holds the same keys, as often each. */
  equals(other: KeyMultiset): boolean {
    return this.#count === other.#count && this.#a === other.#a && this.#b === other.#b &&
      this.#c === other.#c;
  }
}
