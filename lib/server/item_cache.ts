/**
 * The written JSON text of collection items, kept per row (UTF-8) until the store changes: a page
 * whose rows were all written before (by any earlier page, filter or sort over the same
 * operation and path) is answered from their bytes, with only its rowids read from SQLite.
 *
 * @module
 */

import type { EstateStore } from "./store.ts";

/**
 * Bytes of item text kept per store. Once full, nothing more is kept until the store changes:
 * what was kept first stays (a read larger than the cache, kept as it goes and dropped when full,
 * would leave nothing a second read from its start could use).
 */
const LIMIT_BYTES = 48 * 1024 * 1024;

const encoder = new TextEncoder();

/** The UTF-8 of each text, encoded at once (one buffer) where they are all ASCII. */
function encodeEach(texts: readonly string[]): Uint8Array[] {
  const joined = texts.join("");
  const bytes = encoder.encode(joined);
  if (bytes.length !== joined.length) return texts.map((t) => encoder.encode(t));
  const out: Uint8Array[] = new Array(texts.length);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    out[i] = bytes.subarray(at, at += texts[i].length);
  }
  return out;
}

/**
 * Item texts by cache key (operation, dialect and path) and rowid, for one store generation.
 *
 * @example
 * ```ts
 * import { ItemTextCache } from "./item_cache.ts";
 * const cache = new ItemTextCache();
 * cache.remember(0, "k", [1, 2], ['{"id":"a"}', '{"id":"b"}']);
 * const kept = cache.lookup(0, "k", [2, 1])!;
 * console.log(new TextDecoder().decode(kept[0])); // '{"id":"b"}'
 * console.log(cache.lookup(1, "k", [1])); // undefined: the store changed
 * ```
 */
export class ItemTextCache {
  #generation = -1;
  #maps = new Map<string, Map<number, Uint8Array>>();
  #bytes = 0;
  readonly #limit: number;

  /**
   * @param limitBytes Bytes kept at most; once full, no more until the store changes.
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * console.log(new ItemTextCache(1024).size); // 0
   * ```
   */
  constructor(limitBytes = LIMIT_BYTES) {
    this.#limit = limitBytes;
  }

  /**
   * Bytes of text kept.
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * const cache = new ItemTextCache();
   * cache.remember(0, "k", [1], ["{}"]);
   * console.log(cache.size); // 2
   * ```
   */
  get size(): number {
    return this.#bytes;
  }

  /**
   * Whether any text is kept for a key in this generation (if not, a lookup cannot succeed and
   * the rowids need not be read for it).
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * const cache = new ItemTextCache();
   * cache.remember(0, "k", [1], ["{}"]);
   * console.log(cache.holds(0, "k"), cache.holds(0, "j"), cache.holds(1, "k")); // true false false
   * ```
   */
  holds(generation: number, key: string): boolean {
    return generation === this.#generation && (this.#maps.get(key)?.size ?? 0) > 0;
  }

  /**
   * The bytes of the given rowids' texts, in their order, if every one is kept for this
   * generation.
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * console.log(new ItemTextCache().lookup(0, "k", [1])); // undefined
   * ```
   */
  lookup(generation: number, key: string, ids: readonly number[]): Uint8Array[] | undefined {
    if (generation !== this.#generation) return undefined;
    const map = this.#maps.get(key);
    if (!map) return undefined;
    const texts: Uint8Array[] = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const text = map.get(ids[i]);
      if (text === undefined) return undefined;
      texts[i] = text;
    }
    return texts;
  }

  /**
   * Keep the texts of rowids for a generation (an older generation's texts are dropped), as many
   * as fit; returns the bytes of all of them.
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * const cache = new ItemTextCache();
   * cache.remember(3, "k", [7], ['{"id":"x"}']);
   * console.log(cache.lookup(3, "k", [7])?.length); // 1
   * ```
   */
  remember(
    generation: number,
    key: string,
    ids: readonly number[],
    texts: readonly string[],
  ): Uint8Array[] {
    if (generation !== this.#generation) this.#reset(generation);
    const bytes = encodeEach(texts);
    let map = this.#maps.get(key);
    if (!map) this.#maps.set(key, map = new Map());
    for (let i = 0; i < ids.length && this.#bytes + bytes[i].length <= this.#limit; i++) {
      if (map.has(ids[i])) continue;
      this.#bytes += bytes[i].length;
      map.set(ids[i], bytes[i]);
    }
    return bytes;
  }

  #reset(generation: number): void {
    this.#generation = generation;
    this.#maps.clear();
    this.#bytes = 0;
  }
}

const CACHES = new WeakMap<EstateStore, ItemTextCache>();

/**
 * The item text cache of a store (one per store, made on first use).
 *
 * @example
 * ```ts
 * import { itemCacheOf } from "./item_cache.ts";
 * import { EstateStore } from "./store.ts";
 * const store = new EstateStore();
 * console.log(itemCacheOf(store) === itemCacheOf(store)); // true
 * ```
 */
export function itemCacheOf(store: EstateStore): ItemTextCache {
  let cache = CACHES.get(store);
  if (!cache) CACHES.set(store, cache = new ItemTextCache());
  return cache;
}
