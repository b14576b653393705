/**
 * The run's request cache: the same call is made once per run, however many reports or sections
 * ask for it, and concurrent askers share the one promise.
 *
 * @module
 */

/**
 * A keyed single-flight cache of promises.
 *
 * @example
 * ```ts
 * import { RunCache } from "./cache.ts";
 * const cache = new RunCache();
 * let calls = 0;
 * const load = () => cache.get("states", () => Promise.resolve(++calls));
 * await Promise.all([load(), load()]);
 * console.log(calls); // 1
 * ```
 */
export class RunCache {
  #entries = new Map<string, Promise<unknown>>();
  #hits = 0;

  /** Calls that were answered from the cache. */
  get hits(): number {
    return this.#hits;
  }

  /** Distinct calls made. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The cached value for `key`, loading it once with `load`. A failed load is forgotten so a
   * later ask can try again.
   */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#hits++;
      return hit as Promise<T>;
    }
    const value = load();
    this.#entries.set(key, value);
    value.catch(() => this.#entries.delete(key));
    return value;
  }
}
