/**
 * A set of item keys for a read's duplicate check that stays small however long the read: a
 * {@link stableKey} (a NUL and six 16-bit halves of a 96-bit hash) is kept as three numbers in
 * an open-addressing table of typed arrays, 13 to 26 bytes a key, not as a string in a `Set`
 * (about 70); any other key (an item's id, already held by the item) is kept in a `Set`.
 *
 * @module
 */

/** Whether `key` has the form of a stable key: 7 characters, the first a NUL. */
function isStableKey(key: string): boolean {
  return key.length === 7 && key.charCodeAt(0) === 0;
}

const FIRST_CAPACITY = 1 << 10;

/**
 * A set of string keys; stable keys are held as numbers.
 *
 * @example
 * ```ts
 * import { KeySet } from "./key_set.ts";
 * import { stableKey } from "./stable_key.ts";
 * const keys = new KeySet();
 * console.log(keys.add(stableKey({ a: 1 })), keys.add("C1")); // true true
 * console.log(keys.add(stableKey({ a: 1 })), keys.has("C1"), keys.size); // false true 2
 * ```
 */
export class KeySet {
  #others = new Set<string>();
  #lanes = new Uint32Array(FIRST_CAPACITY * 3);
  #used = new Uint8Array(FIRST_CAPACITY);
  #hashed = 0;

  /** How many keys are held. */
  get size(): number {
    return this.#hashed + this.#others.size;
  }

  /** Whether `key` is held. */
  has(key: string): boolean {
    if (!isStableKey(key)) return this.#others.has(key);
    return this.#used[this.#slotOf(key)] === 1;
  }

  /** Adds `key`; returns `false` when it was held already. */
  add(key: string): boolean {
    if (!isStableKey(key)) {
      const before = this.#others.size;
      this.#others.add(key);
      return this.#others.size > before;
    }
    const slot = this.#slotOf(key);
    if (this.#used[slot] === 1) return false;
    this.#put(slot, key);
    if (++this.#hashed * 2 > this.#used.length) this.#grow();
    return true;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  #slotOf(key: string): number {
    const a = (key.charCodeAt(1) << 16 | key.charCodeAt(2)) >>> 0;
    const b = (key.charCodeAt(3) << 16 | key.charCodeAt(4)) >>> 0;
    const c = (key.charCodeAt(5) << 16 | key.charCodeAt(6)) >>> 0;
    return this.#probe(a, b, c);
  }

  #probe(a: number, b: number, c: number): number {
    const mask = this.#used.length - 1;
    const lanes = this.#lanes;
    for (let slot = a & mask;; slot = (slot + 1) & mask) {
      if (this.#used[slot] === 0) return slot;
      const at = slot * 3;
      if (lanes[at] === a && lanes[at + 1] === b && lanes[at + 2] === c) return slot;
    }
  }

  #put(slot: number, key: string): void {
    const at = slot * 3;
    this.#lanes[at] = (key.charCodeAt(1) << 16 | key.charCodeAt(2)) >>> 0;
    this.#lanes[at + 1] = (key.charCodeAt(3) << 16 | key.charCodeAt(4)) >>> 0;
    this.#lanes[at + 2] = (key.charCodeAt(5) << 16 | key.charCodeAt(6)) >>> 0;
    this.#used[slot] = 1;
  }

  #grow(): void {
    const lanes = this.#lanes;
    const used = this.#used;
    this.#lanes = new Uint32Array(lanes.length * 2);
    this.#used = new Uint8Array(used.length * 2);
    for (let old = 0; old < used.length; old++) {
      if (used[old] === 0) continue;
      const at = old * 3;
      const slot = this.#probe(lanes[at]!, lanes[at + 1]!, lanes[at + 2]!);
      this.#lanes.set(lanes.subarray(at, at + 3), slot * 3);
      this.#used[slot] = 1;
    }
  }
}
