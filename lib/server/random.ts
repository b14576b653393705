/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32) for the reference
 * server's estate generator. It uses 32-bit integer arithmetic only, so the same seed gives the
 * same sequence on every machine and engine; nothing here reads `Math.random` or the clock.
 *
 * @module
 */

/**
 * Hash a list of numbers and strings into one 32-bit seed (FNV-1a over the parts, then a
 * murmur3 finaliser). Used to derive independent streams such as "computer 123 of seed 7".
 *
 * @example
 * ```ts
 * import { hashSeed } from "./random.ts";
 * console.log(hashSeed(7, "computer", 123) === hashSeed(7, "computer", 123)); // true
 * ```
 */
export function hashSeed(...parts: readonly (number | string)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = typeof part === "number" ? `#${part}` : `$${part}`;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x2c;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX = "0123456789abcdef";

/**
 * A seeded generator of numbers, choices and identifiers.
 *
 * @example
 * ```ts
 * import { Random } from "./random.ts";
 * const a = new Random(42);
 * const b = new Random(42);
 * console.log(a.int(1, 6) === b.int(1, 6)); // true
 * ```
 */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  /**
   * @param seed Any number (its low 32 bits and, for large values, its high bits are mixed in)
   *   or a string.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(new Random("estate").next() < 1); // true
   * ```
   */
  constructor(seed: number | string) {
    let s = typeof seed === "string" ? hashSeed(seed) : hashSeed(seed >>> 0, Math.floor(seed));
    const split = () => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.#a = split();
    this.#b = split();
    this.#c = split();
    this.#d = split() | 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /**
   * The next unsigned 32-bit integer (sfc32).
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * const n = new Random(1).uint32();
   * console.log(n >= 0 && n < 2 ** 32); // true
   * ```
   */
  uint32(): number {
    const a = this.#a, b = this.#b, c = this.#c, d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    const r = (c << 21) | (c >>> 11);
    this.#c = (r + t) | 0;
    return t >>> 0;
  }

  /**
   * A float in [0, 1).
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * const x = new Random(1).next();
   * console.log(x >= 0 && x < 1); // true
   * ```
   */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /**
   * An integer in [min, max], both included.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * const die = new Random(3).int(1, 6);
   * console.log(die >= 1 && die <= 6); // true
   * ```
   */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /**
   * A float in [min, max).
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * const x = new Random(3).float(2, 4);
   * console.log(x >= 2 && x < 4); // true
   * ```
   */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /**
   * True with probability `p`.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(new Random(3).chance(1)); // true
   * ```
   */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /**
   * One item of a non-empty list, uniformly.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(["a", "b"].includes(new Random(3).pick(["a", "b"]))); // true
   * ```
   */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /**
   * The index of one weight, chosen in proportion to the weights (-1 when they sum to zero).
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(new Random(3).weightedIndex([0, 5, 0])); // 1
   * ```
   */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    if (total <= 0) return -1;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) return i;
    }
    for (let i = weights.length - 1; i >= 0; i--) if (weights[i] > 0) return i;
    return -1;
  }

  /**
   * One item of a list of `[item, weight]` pairs, chosen in proportion to the weights.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(new Random(3).weighted([["x", 0], ["y", 2]])); // "y"
   * ```
   */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    const i = this.weightedIndex(pairs.map((p) => p[1]));
    return pairs[i < 0 ? 0 : i][0];
  }

  /**
   * Shuffle an array in place (Fisher–Yates) and return it.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(new Random(3).shuffle([1, 2, 3]).length); // 3
   * ```
   */
  shuffle<A extends { length: number; [i: number]: unknown }>(array: A): A {
    for (let i = array.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = array[i];
      array[i] = array[j];
      array[j] = t;
    }
    return array;
  }

  /**
   * `length` characters drawn from `alphabet`.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(new Random(3).chars(5, "AB").length); // 5
   * ```
   */
  chars(length: number, alphabet: string): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  /**
   * `length` lowercase hexadecimal digits.
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(/^[0-9a-f]{8}$/.test(new Random(3).hex(8))); // true
   * ```
   */
  hex(length: number): string {
    return this.chars(length, HEX);
  }

  /**
   * A version-4-shaped GUID in lowercase (`8-4-4-4-12`).
   *
   * @example
   * ```ts
   * import { Random } from "./random.ts";
   * console.log(new Random(3).guid().length); // 36
   * ```
   */
  guid(): string {
    const variant = HEX[8 + Math.floor(this.next() * 4)];
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
}
