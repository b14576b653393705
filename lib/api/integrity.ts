/**
 * Integrity checks across the pages of one read of a collection, so that paging cannot lose or
 * repeat items quietly. A {@link PageChecker} is fed every page in order and says what is wrong:
 *
 * - the page number reported is not the one asked for;
 * - a page has more items than the page size in force, or the reported `page_size` changes;
 * - `total_items` or `total_pages` changes from one page to the next;
 * - an item key (`id`, or a stable hash of the item: `stable_key.ts`) appears twice;
 * - at the end: the count read is not `total_items`, or the read stopped (on a short or empty
 *   page) before page `total_pages`.
 *
 * A `total_pages` lower than the truth is accepted when the data follow the stop rule (spec 4.1
 * rule 3) and agree with `total_items` where it is given: the stop rule, not `total_pages`, ends
 * a read, and the count is the check that matters. A read with no `total_items` has no count to
 * check: the checker also keeps the multiset of the read's keys (while no page has stated a
 * count), and `verify_read.ts` compares it with a second read's at another page size.
 *
 * @module
 */

import type { Page } from "./paginate.ts";
import { KeyMultiset } from "./key_multiset.ts";
import { KeySet } from "./key_set.ts";
import { stableKey } from "./stable_key.ts";

export { stableKey };

/** What went wrong in one read, for `PagingIntegrityError`. */
export interface PagingProblem {
  /** What was inconsistent, in words. */
  readonly problem: string;
  /** The page where it showed. */
  readonly pageNumber: number;
  /** Items read so far. */
  readonly readItems: number;
  /** Items announced by `total_items`, when given. */
  readonly expectedItems?: number;
  /** Items seen twice so far. */
  readonly duplicates: number;
}

/**
 * The key of an item for the duplicate check: its `id` when `useId` and the item has a non-null
 * one, else {@link stableKey} of the item but its hypermedia `links`. An id that is a string is its own key (no
 * copy is made; a key never starts with a NUL unless it is a {@link stableKey}); a number id
 * keys as its text, so `7` and `"7"` are one id.
 *
 * @example
 * ```ts
 * import { itemKey } from "./integrity.ts";
 * console.log(itemKey({ id: "C1", hostName: "a" }, true)); // "C1"
 * console.log(itemKey({ id: 7 }, true) === itemKey({ id: "7" }, true)); // true
 * console.log(itemKey({ id: null, hostName: "a" }, true) === itemKey({ hostName: "a", id: null }, false));
 * // true
 * ```
 */
export function itemKey(item: unknown, useId: boolean): string {
  if (useId && item !== null && typeof item === "object") {
    const id = (item as Record<string, unknown>).id;
    if (id !== null && id !== undefined) {
      const text = typeof id === "string" ? id : String(id);
      const first = text.charCodeAt(0);
      // Ids starting with NUL or SOH are marked with an SOH, apart from stable keys (NUL).
      return first === 0 || first === 1 ? `\u0001${text}` : text;
    }
  }
  // Hypermedia links are not data: they repeat the row's ids (a metric-tracking row's self link
  // is its computer's), so they tell no two rows apart, and hashing them was half the work.
  return stableKey(item, { omit: "links" });
}

/** Whether a page ends a read by the stop rule: empty, or fewer items than the page size. */
export function isShortPage(page: Page<unknown>, pageSize: number): boolean {
  return page.items.length === 0 || page.items.length < pageSize;
}

/** Options of {@link PageChecker}. */
export interface PageCheckerOptions<T> {
  /** The page size requested. */
  readonly pageSize: number;
  /** The key of an item for the duplicate check (default {@link stableKey}). */
  readonly keyOf?: (item: T) => string;
  /** Equal keys on one page are not duplicates (items without ids); default `false`. */
  readonly sameOnPage?: boolean;
  /**
   * Keep every key to find duplicates (default `true`). A second read that verifies a first
   * does not: its multiset is compared with the first's, which shows a duplicate as well.
   */
  readonly trackKeys?: boolean;
  /**
   * Keep the multiset of the keys read even once a page states `total_items` (default `false`:
   * only until then). A second read that verifies a first keeps all of it, whatever it states.
   */
  readonly multisetAlways?: boolean;
  /**
   * Whether a key was in another read: the first key that was not is noted with its page
   * ({@link PageChecker.firstForeign}), to name an item a verified read had missed.
   */
  readonly inRead?: (key: string) => boolean;
  /**
   * The read follows `next` links rather than the stop rule (one flat object per page): a
   * short page that links on is then no fault (default `false`).
   */
  readonly followsLinks?: boolean;
}

/** A key that was not in another read, and the page it came on. */
export interface ForeignKey {
  /** The key (an item's id, or a stable key for an item without one). */
  readonly key: string;
  /** The page of this read it came on. */
  readonly pageNumber: number;
}

/**
 * Checks the pages of one read against each other. Feed it every page in order with
 * {@link PageChecker.check}, then call {@link PageChecker.finish} after the last one; each
 * returns the problem found, or `undefined`.
 *
 * @example A short page before the announced last page loses items
 * ```ts
 * import { PageChecker } from "./integrity.ts";
 * const checker = new PageChecker<number>({ pageSize: 2 });
 * console.log(checker.check({ pageNumber: 1, items: [1, 2], totalPages: 3, totalItems: 6 }, 1));
 * // undefined
 * console.log(checker.check({ pageNumber: 2, items: [3], totalPages: 3, totalItems: 6 }, 2));
 * // undefined
 * console.log(checker.finish()?.problem);
 * // "total_items is 6 but 3 items were read"
 * ```
 */
export class PageChecker<T> {
  #requested: number;
  #keyOf: (item: T) => string;
  #sameOnPage: boolean;
  #size?: number;
  #stopSize?: number;
  #totalItems?: number;
  #totalPages?: number;
  #keys = new KeySet();
  #trackKeys: boolean;
  #inRead?: (key: string) => boolean;
  #followsLinks: boolean;
  #multisetAlways: boolean;
  #multiset = new KeyMultiset();
  #foreign?: ForeignKey;
  #read = 0;
  #duplicates = 0;
  #last = 0;

  /**
   * `pageSize` is the size requested; `keyOf` gives each item's key for the duplicate check
   * (default {@link stableKey}); with `sameOnPage`, equal keys on one page are not duplicates
   * (identical rows of a resource without ids, such as a server's two identical processors:
   * one page is one answer of the server), only a key seen on an earlier page is.
   */
  constructor(options: PageCheckerOptions<T>) {
    this.#requested = options.pageSize;
    this.#keyOf = options.keyOf ?? stableKey;
    this.#sameOnPage = options.sameOnPage ?? false;
    this.#trackKeys = options.trackKeys ?? true;
    if (options.inRead) this.#inRead = options.inRead;
    this.#followsLinks = options.followsLinks ?? false;
    this.#multisetAlways = options.multisetAlways ?? false;
  }

  /**
   * The page size in force for the stop rule (spec 4.1 rule 3), set by the first page: the
   * `page_size` it reports (a service that caps the size, or ignores the one asked for and sends
   * more), else the one requested — and the one requested when the first page reports a larger
   * size but holds no more than was asked for (a service that pages at the size asked for and
   * reports another): a page full at the size asked for is then not the last.
   */
  get pageSize(): number {
    return this.#stopSize ?? this.#requested;
  }

  /** Items read so far. */
  get readItems(): number {
    return this.#read;
  }

  /** The last page checked (0 before the first). */
  get lastPage(): number {
    return this.#last;
  }

  /** Whether some page stated `total_items` (then the read is checked by its count). */
  get counted(): boolean {
    return this.#totalItems !== undefined;
  }

  /**
   * The multiset of the keys read, kept until a page states `total_items` (a counted read
   * needs no second read to compare with), or throughout with `multisetAlways`.
   */
  get multiset(): KeyMultiset {
    return this.#multiset;
  }

  /** The first key that was not in the other read (with `inRead`), if any. */
  get firstForeign(): ForeignKey | undefined {
    return this.#foreign;
  }

  /** Whether `key` was read (with `trackKeys`, the default). */
  has(key: string): boolean {
    return this.#keys.has(key);
  }

  /** Checks page `requested` (the number asked for); returns the problem, if any. */
  check(page: Page<T>, requested: number): PagingProblem | undefined {
    this.#last = requested;
    if (this.#size === undefined) {
      this.#size = page.pageSize ?? this.#requested;
      const pagedAsAsked = this.#size > this.#requested && page.items.length <= this.#requested;
      this.#stopSize = pagedAsAsked ? this.#requested : this.#size;
    }
    const before = this.#read;
    this.#read += page.items.length;
    this.#countKeys(page.items, requested);
    const problem = this.#numbers(page, requested) ?? this.#counts(page, requested, before);
    if (problem) return this.#problem(problem, requested);
    if (this.#duplicates > 0) {
      return this.#problem(`an item was repeated (${this.#duplicates} so far)`, requested);
    }
    return undefined;
  }

  /** Checks the read as a whole after its last page; returns the problem, if any. */
  finish(): PagingProblem | undefined {
    const total = this.#totalItems;
    if (total !== undefined && this.#read !== total) {
      return this.#problem(`total_items is ${total} but ${this.#read} items were read`, this.#last);
    }
    const pages = this.#totalPages;
    if (pages !== undefined && this.#last < pages) {
      return this.#problem(
        `the read stopped at short page ${this.#last} of ${pages} announced (total_pages)`,
        this.#last,
      );
    }
    return undefined;
  }

  /**
   * A problem found outside the checker (a page read again to verify the read, say) with the
   * read's counts so far, as {@link PageChecker.check} would return it.
   */
  problemAt(problem: string, pageNumber: number): PagingProblem {
    return this.#problem(problem, pageNumber);
  }

  /** Each key once: counted for duplicates, into the multiset, against the other read. */
  #countKeys(items: readonly T[], requested: number): void {
    const uncounted = this.#multisetAlways || this.#totalItems === undefined;
    if (!this.#trackKeys && !uncounted && !this.#inRead) return;
    const keys = items.map((item) => this.#keyOf(item));
    if (uncounted) { for (const key of keys) this.#multiset.add(key); }
    if (this.#inRead && !this.#foreign) {
      const key = keys.find((k) => !this.#inRead!(k));
      if (key !== undefined) this.#foreign = { key, pageNumber: requested };
    }
    if (!this.#trackKeys) return;
    if (!this.#sameOnPage) {
      for (const key of keys) if (!this.#keys.add(key)) this.#duplicates++;
      return;
    }
    // Equal keys on this page are one server answer's identical rows: only earlier pages count.
    for (const key of keys) if (this.#keys.has(key)) this.#duplicates++;
    for (const key of keys) this.#keys.add(key);
  }

  #numbers(page: Page<T>, requested: number): string | undefined {
    if (page.pageNumber !== requested) {
      return `page_number ${page.pageNumber} was answered for page ${requested}`;
    }
    if (page.pageSize !== undefined && page.pageSize !== this.#size) {
      return `page_size changed from ${this.#size} to ${page.pageSize}`;
    }
    return this.#same("total_items", page.totalItems, (v) => this.#totalItems ??= v) ??
      this.#same("total_pages", page.totalPages, (v) => this.#totalPages ??= v);
  }

  #same(name: string, value: number | undefined, first: (v: number) => number): string | undefined {
    if (value === undefined) return undefined;
    const was = first(value);
    return was === value ? undefined : `${name} changed from ${was} to ${value}`;
  }

  #counts(page: Page<T>, requested: number, before: number): string | undefined {
    // The most a page may hold: the size the service reports (one that ignores the size asked
    // for pages at it), else the one requested.
    const size = this.#size ?? this.#requested;
    if (page.items.length > size) {
      return `page ${requested} has ${page.items.length} items, more than page_size ${size}`;
    }
    const total = this.#totalItems;
    if (total !== undefined && this.#read > total) {
      return `total_items is ${total} but ${before} + ${page.items.length} items were read`;
    }
    return undefined;
  }

  #problem(problem: string, pageNumber: number): PagingProblem {
    return {
      problem,
      pageNumber,
      readItems: this.#read,
      duplicates: this.#duplicates,
      ...(this.#totalItems === undefined ? {} : { expectedItems: this.#totalItems }),
    };
  }
}
