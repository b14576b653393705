/**
 * The written JSON text of collection items, kept per row until the store changes: a page whose
 * rows were all written before (by any earlier page, filter or sort over the same operation and
 * path) is answered from their text, with only its rowids read from SQLite.
 *
 * @module
 */

import type { EstateStore } from "./store.ts";

/** Characters of item text kept per store (about 64 MB at most) before the cache starts over. */
const LIMIT_CHARS = 32 * 1024 * 1024;

/**
 * Item texts by cache key (operation, dialect and path) and rowid, for one store generation.
 *
 * @example
 * ```ts
 * import { ItemTextCache } from "./item_cache.ts";
 * const cache = new ItemTextCache();
 * cache.remember(0, "k", [1, 2], ['{"id":"a"}', '{"id":"b"}']);
 * console.log(cache.lookup(0, "k", [2, 1])); // ['{"id":"b"}', '{"id":"a"}']
 * console.log(cache.lookup(1, "k", [1])); // undefined: the store changed
 * ```
 */
export class ItemTextCache {
  #generation = -1;
  #maps = new Map<string, Map<number, string>>();
  #chars = 0;
  readonly #limit: number;

  /**
   * @param limitChars Characters kept before everything is dropped and kept anew.
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
   * The texts of the given rowids, in their order, if every one is kept for this generation.
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
   * Keep the texts of rowids for a generation (an older generation's texts are dropped).
   *
   * @example
   * ```ts
   * import { ItemTextCache } from "./item_cache.ts";
   * const cache = new ItemTextCache();
   * cache.remember(3, "k", [7], ['{"id":"x"}']);
   * console.log(cache.lookup(3, "k", [7])?.length); // 1
   * ```
   */
  remember(generation: number, key: string, ids: readonly number[], texts: readonly string[]) {
    if (generation !== this.#generation) this.#reset(generation);
    let map = this.#maps.get(key);
    if (!map) this.#maps.set(key, map = new Map());
    for (let i = 0; i < ids.length; i++) {
      if (map.has(ids[i])) continue;
      this.#chars += texts[i].length;
      map.set(ids[i], flat(texts[i]));
    }
    if (this.#chars > this.#limit) this.#reset(generation);
  }

  #reset(generation: number): void {
    this.#generation = generation;
    this.#maps.clear();
    this.#chars = 0;
  }
}

/**
 * The same text, made flat in memory: a string built by `+` is a tree of pieces that every later
 * join walks again; converting it to a number flattens it in place once.
 */
function flat(text: string): string {
  Number(text);
  return text;
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
