/**
 * The encoded bodies of collection pages, kept per request (operation, dialect, path and query)
 * until the store changes: a page asked for again is answered with the bytes sent before.
 *
 * @module
 */

import type { EstateStore } from "./store.ts";

/** Bytes of page bodies kept per store; the oldest bodies are dropped first beyond it. */
const LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Page bodies by request key, for one store generation, oldest dropped first once over the limit.
 *
 * @example
 * ```ts
 * import { PageBodyCache } from "./page_cache.ts";
 * const cache = new PageBodyCache();
 * cache.remember(0, "k", new Uint8Array([123, 125]));
 * console.log(cache.lookup(0, "k")?.length, cache.lookup(1, "k")); // 2 undefined
 * ```
 */
export class PageBodyCache {
  #generation = -1;
  #bodies = new Map<string, Uint8Array<ArrayBuffer>>();
  #bytes = 0;
  readonly #limit: number;

  /**
   * @param limitBytes Bytes kept at most.
   *
   * @example
   * ```ts
   * import { PageBodyCache } from "./page_cache.ts";
   * console.log(new PageBodyCache(1024).size); // 0
   * ```
   */
  constructor(limitBytes = LIMIT_BYTES) {
    this.#limit = limitBytes;
  }

  /**
   * Bytes kept.
   *
   * @example
   * ```ts
   * import { PageBodyCache } from "./page_cache.ts";
   * const cache = new PageBodyCache();
   * cache.remember(0, "k", new Uint8Array(3));
   * console.log(cache.size); // 3
   * ```
   */
  get size(): number {
    return this.#bytes;
  }

  /**
   * The body kept for a request key in this generation, if any.
   *
   * @example
   * ```ts
   * import { PageBodyCache } from "./page_cache.ts";
   * console.log(new PageBodyCache().lookup(0, "k")); // undefined
   * ```
   */
  lookup(generation: number, key: string): Uint8Array<ArrayBuffer> | undefined {
    return generation === this.#generation ? this.#bodies.get(key) : undefined;
  }

  /**
   * Keep a body for a request key (an older generation's bodies are dropped; a body larger than
   * the limit is not kept).
   *
   * @example
   * ```ts
   * import { PageBodyCache } from "./page_cache.ts";
   * const cache = new PageBodyCache(4);
   * cache.remember(0, "a", new Uint8Array(3));
   * cache.remember(0, "b", new Uint8Array(3));
   * console.log(cache.lookup(0, "a"), cache.lookup(0, "b")?.length); // undefined 3
   * ```
   */
  remember(generation: number, key: string, body: Uint8Array<ArrayBuffer>): void {
    if (generation !== this.#generation) {
      this.#generation = generation;
      this.#bodies.clear();
      this.#bytes = 0;
    }
    if (body.length > this.#limit || this.#bodies.has(key)) return;
    this.#bodies.set(key, body);
    this.#bytes += body.length;
    for (const [oldest, kept] of this.#bodies) {
      if (this.#bytes <= this.#limit) break;
      this.#bodies.delete(oldest);
      this.#bytes -= kept.length;
    }
  }
}

const CACHES = new WeakMap<EstateStore, PageBodyCache>();

/**
 * The page body cache of a store (one per store, made on first use).
 *
 * @example
 * ```ts
 * import { pageCacheOf } from "./page_cache.ts";
 * import { EstateStore } from "./store.ts";
 * const store = new EstateStore();
 * console.log(pageCacheOf(store) === pageCacheOf(store)); // true
 * ```
 */
export function pageCacheOf(store: EstateStore): PageBodyCache {
  let cache = CACHES.get(store);
  if (!cache) CACHES.set(store, cache = new PageBodyCache());
  return cache;
}
