/**
 * The written JSON text of collection items, kept per row until the store changes: a page whose
 * rows were all written before (by any earlier page, filter or sort over the same operation and
 * path) is answered from their texts, with only its rowids read from SQLite. Texts are kept as
 * strings: a page is their join, encoded once as the response is sent.
 *
 * @module
 */

import type { EstateStore } from "./store.ts";

/**
 * Characters of item text kept per store (a character is a byte for the ASCII text items mostly
 * are). Once full, nothing more is kept until the store changes:
 * what was kept first stays (a read larger than the cache, kept as it goes and dropped when full,
 * would leave nothing a second read from its start could use).
 */
const LIMIT_CHARS = 48 * 1024 * 1024;

/**
 * The texts as slices of one flat string. A text built piece by piece is a rope, which every
 * later join walks piece by piece again (measured: 8x the time of joining flat strings). JSON
 * text never holds a raw U+0001 (JSON escapes control characters), so the split gives back
 * exactly the texts.
 */
function flatTexts(texts: readonly string[]): readonly string[] {
  return texts.join("\u0001").split("\u0001");
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
  #maps = new Map<string, Map<number, string>>();
  #chars = 0;
  readonly #limit: number;

  /**
   * @param limitChars Characters kept at most; once full, no more until the store changes.
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * console.log(new ItemTextCache(1024).size); // 0
   * ```
   */
  constructor(limitChars = LIMIT_CHARS) {
    this.#limit = limitChars;
  }

  /**
   * Characters of text kept.
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
    return this.#chars;
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
   * The given rowids' texts, in their order, if every one is kept for this generation.
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * console.log(new ItemTextCache().lookup(0, "k", [1])); // undefined
   * ```
   */
  lookup(generation: number, key: string, ids: readonly number[]): string[] | undefined {
    if (generation !== this.#generation) return undefined;
    const map = this.#maps.get(key);
    if (!map) return undefined;
    const texts: string[] = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const text = map.get(ids[i]);
      if (text === undefined) return undefined;
      texts[i] = text;
    }
    return texts;
  }

  /**
   * Keep the texts of rowids for a generation (an older generation's texts are dropped), as many
   * as fit; returns the texts.
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
  ): readonly string[] {
    if (generation !== this.#generation) this.#reset(generation);
    texts = flatTexts(texts);
    let map = this.#maps.get(key);
    if (!map) this.#maps.set(key, map = new Map());
    for (let i = 0; i < ids.length && this.#chars + texts[i].length <= this.#limit; i++) {
      if (map.has(ids[i])) continue;
      this.#chars += texts[i].length;
      map.set(ids[i], texts[i]);
    }
    return texts;
  }

  #reset(generation: number): void {
    this.#generation = generation;
    this.#maps.clear();
    this.#chars = 0;
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
