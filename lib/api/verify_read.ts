/**
 * Verifying a read of a collection that carries no `total_items` (license and connector
 * collections, spec 2.2). With no count to check against, two faults leave no trace in the read
 * itself:
 *
 * - a page cut short once ends the read early: the stop rule takes it for the last page (for a
 *   one-page collection, such as a license list, it is the whole read);
 * - an item removed between two page reads moves the item after the page boundary onto a page
 *   already read, so it is never seen; the read counts the removed item instead, so its count is
 *   the collection's count after the removal, and neither a count read afterwards nor the last
 *   page read again shows anything.
 *
 * Both show when every page is read a second time: the cut page comes back whole, and the pages
 * from the removal on come back shifted. So {@link ReadSample} keeps, per page of the read, its
 * item count and a digest of its item keys (in any order: a page re-ordered loses nothing), and
 * {@link ReadSample.verify} reads the same pages again and compares. That costs one request per
 * page of the read; memory stays one digest per page. An item seen twice is caught by the
 * duplicate check of `integrity.ts`, as in any read.
 *
 * @module
 */

import { stableKey } from "./integrity.ts";
import type { Page, PageFetcher } from "./paginate.ts";

/** A page of a read: how many items, and a digest of their keys in any order. */
interface SampledPage {
  readonly count: number;
  readonly digest: string;
}

/** Options of {@link ReadSample.verify}. */
export interface VerifyReadOptions<T> {
  /** Fetches one page, as the read did. */
  readonly fetchPage: PageFetcher<T>;
  /** The page size the read asked for. */
  readonly pageSize: number;
  /** Pages fetched at once (default 1). */
  readonly concurrency?: number;
  /** Cancels the verification's requests. */
  readonly signal?: AbortSignal;
}

/** A difference between a page as read and as read again. */
export interface ReadDifference {
  /** What differs, in words. */
  readonly problem: string;
  /** The page that differs. */
  readonly pageNumber: number;
}

/**
 * What one read saw of its pages, and whether any page reported `total_items` (a read with a
 * count is checked by its count, not here). Feed it every page in order with
 * {@link ReadSample.add}; after the last one, {@link ReadSample.verify} reads the pages again
 * and says where they differ.
 *
 * @example A page cut short once shows when it is read again
 * ```ts
 * import { ReadSample } from "./verify_read.ts";
 * let calls = 0;
 * const fetchPage = (n: number) =>
 *   Promise.resolve({ pageNumber: n, items: ++calls === 1 ? ["a", "b"] : ["a", "b", "c"] });
 * const sample = new ReadSample<string>({ keyOf: (s) => s });
 * sample.add(await fetchPage(1));
 * const difference = await sample.verify({ fetchPage, pageSize: 10 });
 * console.log(difference?.problem);
 * // "page 1 read again has 3 items, the read had 2"
 * ```
 */
export class ReadSample<T> {
  #keyOf: (item: T) => string;
  #pages: SampledPage[] = [];
  #totalled = false;

  /** `keyOf` gives an item's key, as the read's duplicate check does. */
  constructor(options: { readonly keyOf: (item: T) => string }) {
    this.#keyOf = options.keyOf;
  }

  /** Whether some page reported `total_items` (then there is nothing to verify here). */
  get totalled(): boolean {
    return this.#totalled;
  }

  /** How many pages the read had so far. */
  get pages(): number {
    return this.#pages.length;
  }

  /** Notes the next page of the read. */
  add(page: Page<T>): void {
    if (page.totalItems !== undefined) this.#totalled = true;
    this.#pages.push(this.#sample(page));
  }

  /**
   * Reads every page of the read again (in order, `concurrency` at a time) and returns the
   * first page that differs; `undefined` when all agree, or when the read had a count.
   */
  async verify(options: VerifyReadOptions<T>): Promise<ReadDifference | undefined> {
    if (this.#totalled || this.#pages.length === 0) return undefined;
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const width = Math.max(1, options.concurrency ?? 1);
    const inFlight = new Map<number, Promise<Page<T>>>();
    let launched = 0;
    try {
      for (let n = 1; n <= this.#pages.length; n++) {
        signal.throwIfAborted();
        while (launched < this.#pages.length && launched < n - 1 + width) {
          const p = options.fetchPage(++launched, options.pageSize, signal);
          p.catch(() => {}); // Awaited below in order; this only silences early failures.
          inFlight.set(launched, p);
        }
        const again = await inFlight.get(n)!;
        inFlight.delete(n);
        const problem = differs(n, this.#pages[n - 1]!, this.#sample(again));
        if (problem) return { problem, pageNumber: n };
      }
      return undefined;
    } finally {
      stop.abort(new DOMException("verification stopped", "AbortError"));
    }
  }

  #sample(page: Page<T>): SampledPage {
    const keys = page.items.map(this.#keyOf).sort();
    return { count: keys.length, digest: stableKey(keys) };
  }
}

/** What differs between page `n` as read and as read again, in words. */
function differs(n: number, read: SampledPage, again: SampledPage): string | undefined {
  if (again.count !== read.count) {
    return `page ${n} read again has ${again.count} items, the read had ${read.count}`;
  }
  if (again.digest !== read.digest) {
    return `page ${n} read again has ${again.count} items, as the read, but not the same ones`;
  }
  return undefined;
}
