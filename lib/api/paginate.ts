/**
 * Paging: every collection is a {@link Paged}, an `AsyncIterable` of items that reads page after
 * page (spec 4.1 rule 3: start at page 1, stop on a short or empty page), with `.pages()`,
 * `.toArray()` and a parallel mode that fetches the remaining pages with bounded concurrency once
 * the first page tells how many there are, still yielding items strictly in order.
 *
 * Collections announced as such but sent as one flat object per page (display adapters,
 * monitors, entitlement states) are read with {@link followPages}, which follows `next` links.
 *
 * This file knows nothing of HTTP: it is handed a function that fetches one page.
 *
 * @module
 */

import type { Link } from "./catalogue.ts";
import { PagingIntegrityError, type PagingSource } from "./errors.ts";
import { isShortPage, PageChecker, type PagingProblem, stableKey } from "./integrity.ts";
import { readLinks } from "./normalise.ts";
import { ReadBudget, type ReadLimits } from "./paging_limits.ts";
import { readDifference, verificationPageSize } from "./verify_read.ts";

/** One page of a collection. */
export interface Page<T> {
  /** The page's items, in order. */
  readonly items: T[];
  /** The page number, from 1. */
  readonly pageNumber: number;
  /** The page size in force, as the response reported it (or as requested). */
  readonly pageSize?: number;
  /** The number of pages, when the response reported it. */
  readonly totalPages?: number;
  /** The number of items, when the response reported it. */
  readonly totalItems?: number;
  /** Whether the response linked to a `next` page (a short page that does was cut short). */
  readonly hasNext?: boolean;
}

/**
 * A collection: iterate it (`for await`), or read `.pages()` or `.toArray()`. Each iteration
 * starts again from page 1. Every read is checked page by page (see `integrity.ts`): a
 * streaming read (`for await`, `.pages()`) throws {@link PagingIntegrityError} as soon as the
 * pages contradict each other, since its items were already handed out; `.toArray()` re-reads
 * the whole collection from page 1 (at most `rereads` times) and throws only if it never reads
 * consistently.
 *
 * @example
 * ```ts
 * import { paginate } from "./paginate.ts";
 * const numbers = paginate<number>({
 *   pageSize: 2,
 *   fetchPage: (n) => Promise.resolve({ pageNumber: n, items: n < 3 ? [n * 10, n * 10 + 1] : [] }),
 * });
 * console.log(await numbers.toArray()); // [10, 11, 20, 21]
 * ```
 */
export interface Paged<T> extends AsyncIterable<T> {
  /** The pages, in order. */
  pages(): AsyncIterableIterator<Page<T>>;
  /** Every item, in order, from one consistent read (re-read when a read is inconsistent). */
  toArray(): Promise<T[]>;
}

/**
 * Whether a value is a {@link Paged} collection (so it can be read again from page 1).
 *
 * @example
 * ```ts
 * import { isPaged, paginate } from "./paginate.ts";
 * const paged = paginate<number>({ pageSize: 1, fetchPage: (n) => Promise.resolve({ pageNumber: n, items: [] }) });
 * console.log(isPaged(paged), isPaged([1, 2])); // true false
 * ```
 */
export function isPaged<T>(value: unknown): value is Paged<T> {
  return value instanceof PagedCollection;
}

/** Fetches page `pageNumber` (from 1) of `pageSize` items; must honour the signal. */
export type PageFetcher<T> = (
  pageNumber: number,
  pageSize: number,
  signal?: AbortSignal,
) => Promise<Page<T>>;

/** Parallel mode: `true` for the default concurrency (4), or the concurrency wanted. */
export type ParallelOption = boolean | { readonly concurrency?: number };

/** Options of {@link paginate}. */
export interface PaginateOptions<T> {
  /** Fetches one page. */
  readonly fetchPage: PageFetcher<T>;
  /** Items per page requested. */
  readonly pageSize: number;
  /**
   * Fetch pages 2… concurrently once page 1 reports `total_pages` (sequential when it does not).
   * `total_pages` is only a hint for how many pages to launch: reading ends by the stop rule.
   */
  readonly parallel?: ParallelOption;
  /** Cancels the paging and every request in flight. */
  readonly signal?: AbortSignal;
  /** Called with each page as it is yielded. */
  readonly onPage?: (page: Page<T>) => void;
  /** The key of an item for the duplicate check (default: `stableKey` of the whole item). */
  readonly keyOf?: (item: T) => string;
  /**
   * Equal keys on one page are not duplicates, only a key seen on an earlier page is: for items
   * without ids, where identical rows are data (default `false`).
   */
  readonly sameOnPage?: boolean;
  /** How many times `toArray()` reads the collection again after an inconsistent read (2). */
  readonly rereads?: number;
  /** Names the collection in a {@link PagingIntegrityError}. */
  readonly source?: PagingSource;
  /**
   * When no page of a read reports `total_items`, read the collection again after the read at
   * another page size and compare the two multisets of item keys (see `verify_read.ts`): about
   * as many requests again, which shows a page cut short once, an item removed between two page
   * reads and an item skipped at a page boundary on every read (default `false`).
   */
  readonly verifyUntotalled?: boolean;
  /**
   * The most pages and items a read may take (default: an `estate` collection's, see
   * `paging_limits.ts`); past them the read fails with `PagingLimitError`.
   */
  readonly limits?: ReadLimits;
}

/**
 * The default concurrency of parallel mode.
 *
 * @example
 * ```ts
 * import { DEFAULT_CONCURRENCY } from "./paginate.ts";
 * console.log(DEFAULT_CONCURRENCY); // 4
 * ```
 */
export const DEFAULT_CONCURRENCY = 4;

/**
 * How many times `toArray()` reads a collection again after an inconsistent read, by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_REREADS } from "./paginate.ts";
 * console.log(DEFAULT_REREADS); // 2
 * ```
 */
export const DEFAULT_REREADS = 2;

/** One read of a collection: its pages, numbered by the read (1 = first read). */
type ReadFn<T> = (read: number) => AsyncGenerator<Page<T>>;

class PagedCollection<T> implements Paged<T> {
  #read: ReadFn<T>;
  #rereads: number;

  constructor(read: ReadFn<T>, rereads: number) {
    this.#read = read;
    this.#rereads = rereads;
  }

  pages(): AsyncIterableIterator<Page<T>> {
    return this.#read(1);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.#read(1)) yield* page.items;
  }

  async toArray(): Promise<T[]> {
    for (let read = 1;; read++) {
      try {
        const out: T[] = [];
        for await (const page of this.#read(read)) {
          for (const item of page.items) out.push(item);
        }
        return out;
      } catch (error) {
        if (!(error instanceof PagingIntegrityError) || read > this.#rereads) throw error;
      }
    }
  }
}

function concurrencyOf(parallel: ParallelOption | undefined): number {
  if (!parallel) return 1;
  const n = parallel === true ? DEFAULT_CONCURRENCY : parallel.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(n) || n < 1) throw new RangeError("parallel concurrency must be >= 1");
  return n;
}

function rereadsOf(rereads: number | undefined): number {
  const n = rereads ?? DEFAULT_REREADS;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`rereads must be >= 0, not ${n}`);
  return n;
}

/**
 * Pages 1, 2, 3… for as long as the consumer asks. In parallel mode, when page 1 reports
 * `totalPages` and is full, pages up to `totalPages` (and no further than `maxPages`) are fetched
 * ahead with at most `concurrency` in flight; past it (a `total_pages` lower than the truth) one
 * at a time. The consumer checks the read's bounds before it asks for a page past them.
 */
async function* pageSequence<T>(
  fetchPage: PageFetcher<T>,
  pageSize: number,
  concurrency: number,
  signal: AbortSignal,
  maxPages: number,
): AsyncGenerator<Page<T>> {
  const first = await fetchPage(1, pageSize, signal);
  const hint =
    concurrency > 1 && !isShortPage(first, Math.min(pageSize, first.pageSize ?? pageSize))
      ? Math.min(first.totalPages ?? 1, maxPages)
      : 1;
  const inFlight = new Map<number, Promise<Page<T>>>();
  let launched = 1;
  const fill = (next: number) => {
    while (launched < hint && launched < next - 1 + concurrency) {
      launched++;
      const p = fetchPage(launched, pageSize, signal);
      p.catch(() => {}); // Awaited below in order; this only silences early failures.
      inFlight.set(launched, p);
    }
  };
  fill(2); // Before handing out page 1, so its requests overlap its processing.
  yield first;
  for (let n = 2;; n++) {
    signal.throwIfAborted();
    fill(n);
    const pending = inFlight.get(n);
    inFlight.delete(n);
    yield await (pending ?? fetchPage(n, pageSize, signal));
  }
}

/**
 * A {@link Paged} collection over a page fetcher. Reading follows the spec's stop rule (4.1
 * rule 3): it ends on the first page with fewer items than the page size in force, or none —
 * never on `total_pages`. Each read is checked by a `PageChecker` (see `integrity.ts`) and
 * bounded by `limits` (see `paging_limits.ts`); with `verifyUntotalled`, a read whose pages
 * report no `total_items` ends by reading the collection again at another page size and
 * comparing the two reads' items as a whole (see `verify_read.ts`). In parallel mode, when page
 * 1 reports `totalPages`, pages 2… are fetched with at most `concurrency` requests in flight and
 * yielded strictly in order; a full last announced page is followed by the stop rule. Stopping
 * early (a `break`) or an abort cancels what is in flight.
 *
 * @example Parallel mode keeps the order
 * ```ts
 * import { paginate } from "./paginate.ts";
 * const pages = paginate<string>({
 *   pageSize: 1,
 *   parallel: { concurrency: 3 },
 *   fetchPage: async (n) => {
 *     await new Promise((r) => setTimeout(r, 10 - n)); // later pages answer sooner
 *     return { pageNumber: n, items: n <= 5 ? [`item ${n}`] : [], totalPages: 5 };
 *   },
 * });
 * console.log(await pages.toArray()); // ["item 1", "item 2", "item 3", "item 4", "item 5"]
 * ```
 *
 * @example A page cut short once, in a collection without totals, is read again
 * ```ts
 * import { paginate } from "./paginate.ts";
 * let firstAnswer = true;
 * const licenses = paginate<string>({
 *   pageSize: 1000,
 *   verifyUntotalled: true,
 *   fetchPage: (n) => {
 *     const items = firstAnswer ? ["L1", "L2"] : ["L1", "L2", "L3"]; // L3 left out once
 *     firstAnswer = false;
 *     return Promise.resolve({ pageNumber: n, items });
 *   },
 * });
 * console.log(await licenses.toArray()); // ["L1", "L2", "L3"]
 * ```
 */
export function paginate<T>(options: PaginateOptions<T>): Paged<T> {
  const { pageSize, signal, onPage } = options;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`page size must be a positive integer, not ${pageSize}`);
  }
  const concurrency = concurrencyOf(options.parallel);
  const keyOf = options.keyOf ?? stableKey;
  const budget = new ReadBudget({
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.source ? { source: options.source } : {}),
  });
  const read = { fetchPage: options.fetchPage, concurrency, ...(signal ? { signal } : {}) };
  return new PagedCollection<T>(async function* (reads) {
    const fail = (p: PagingProblem) => new PagingIntegrityError({ ...options.source, ...p, reads });
    const checker = new PageChecker<T>({
      pageSize,
      sameOnPage: options.sameOnPage ?? false,
      keyOf,
    });
    for await (const page of checkedRead({ ...read, pageSize, checker, budget, fail })) {
      onPage?.(page);
      yield page;
    }
    if (!options.verifyUntotalled || checker.counted) return;
    // No page stated a count: a second read at another page size must hold the same items.
    const size = verificationPageSize(checker.pageSize);
    const again = new PageChecker<T>({
      pageSize: size,
      keyOf,
      trackKeys: false,
      multisetAlways: true,
      inRead: (key) => checker.has(key),
    });
    const second = (p: PagingProblem) =>
      fail(
        checker.problemAt(`the second read, at page size ${size}: ${p.problem}`, checker.lastPage),
      );
    const secondBudget = budget.forSecondRead();
    for await (
      const _ of checkedRead({
        ...read,
        pageSize: size,
        checker: again,
        budget: secondBudget,
        fail: second,
      })
    );
    const differs = readDifference(checker, again);
    if (differs) throw fail(checker.problemAt(differs, checker.lastPage));
  }, rereadsOf(options.rereads));
}

/** Options of {@link checkedRead}. */
interface CheckedReadOptions<T> {
  readonly fetchPage: PageFetcher<T>;
  readonly pageSize: number;
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Checks each page against the read's others (and the whole read at its end). */
  readonly checker: PageChecker<T>;
  /** The read's bounds. */
  readonly budget: ReadBudget;
  /** The error of a problem the checker found. */
  readonly fail: (problem: PagingProblem) => Error;
}

/**
 * One read of a collection by the stop rule (4.1 rule 3), each page checked and counted against
 * the bounds before it is handed out, the whole read checked at its end. Stopping early (a
 * `break`) or an abort cancels the pages fetched ahead.
 */
async function* checkedRead<T>(o: CheckedReadOptions<T>): AsyncGenerator<Page<T>> {
  const { checker, budget } = o;
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  const fetchPage: PageFetcher<T> = async (n, size, s) => {
    budget.beforePage(n, checker.readItems);
    return await o.fetchPage(n, size, s);
  };
  try {
    let n = 0;
    for await (
      const page of pageSequence(fetchPage, o.pageSize, o.concurrency, signal, budget.maxPages)
    ) {
      const problem = checker.check(page, ++n);
      if (problem) throw o.fail(problem);
      budget.afterPage(n, checker.readItems);
      yield page;
      if (isShortPage(page, checker.pageSize)) break;
    }
  } finally {
    // Pages fetched ahead are cancelled before any page is read again.
    stop.abort(new DOMException("paging stopped", "AbortError"));
  }
  const problem = checker.finish();
  if (problem) throw o.fail(problem);
}

/** One response of a flat collection: a flat object, or an envelope; `null` means none (404). */
export type FlatResponse = Record<string, unknown> | null;

/** Options of {@link followPages}. */
export interface FollowPagesOptions<T> {
  /**
   * Fetches a page: `href` is `undefined` for page 1 (and for page N of an envelope without a
   * `next` link), else the `next` link to follow. Returns `null` for a 404.
   */
  readonly fetch: (
    href: string | undefined,
    pageNumber: number,
    signal?: AbortSignal,
  ) => Promise<FlatResponse>;
  /**
   * Turns one raw object into an item; `what` places an envelope's item (`item 2 of page 1`),
   * and is absent for a flat object (the response itself).
   */
  readonly toItem: (raw: Record<string, unknown>, what?: string) => T;
  /** The page size requested (for envelopes paged by number). */
  readonly pageSize: number;
  /** Cancels the paging. */
  readonly signal?: AbortSignal;
  /** Called with each page as it is yielded. */
  readonly onPage?: (page: Page<T>) => void;
  /** The key of a raw object for the duplicate check (default: `stableKey` of it). */
  readonly keyOf?: (raw: Record<string, unknown>) => string;
  /** How many times `toArray()` reads the collection again after an inconsistent read (2). */
  readonly rereads?: number;
  /** Names the collection in a {@link PagingIntegrityError}. */
  readonly source?: PagingSource;
  /**
   * When no page of a read reports `total_items` (a flat object never does), read the
   * collection again after the read, link by link, and compare the two multisets of object
   * keys (see `verify_read.ts`): as many requests again (default `false`).
   */
  readonly verify?: boolean;
  /**
   * The most pages and items a read may take (default: an `estate` collection's, see
   * `paging_limits.ts`); past them the read fails with `PagingLimitError`.
   */
  readonly limits?: ReadLimits;
}

/**
 * The `next` link of a link array, if any.
 *
 * @example
 * ```ts
 * import { nextLink } from "./paginate.ts";
 * console.log(nextLink([{ href: "api/x?page_number=2", method: "GET", rel: "next" }]));
 * // "api/x?page_number=2"
 * ```
 */
export function nextLink(links: readonly Link[] | undefined): string | undefined {
  return links?.find((l) => relTypes(l.rel).includes("next"))?.href;
}

/**
 * The relation types of a link's `rel`: a space-separated list, read case-insensitively (RFC
 * 8288 section 3.3), so `"self next"` and `" Next "` are both `next` links.
 *
 * @example
 * ```ts
 * import { relTypes } from "./paginate.ts";
 * console.log(relTypes(" Self\tNEXT ")); // ["self", "next"]
 * ```
 */
export function relTypes(rel: string): string[] {
  const text = rel.trim().toLowerCase();
  return text === "" ? [] : text.split(/[ \t\r\n]+/);
}

/**
 * Whether a raw link array (`_links` or `links`, an array or a HAL-style object keyed by rel)
 * holds a `next` link without a text `href`: a next page announced that cannot be followed.
 *
 * @example
 * ```ts
 * import { hasUnreadableNext } from "./paginate.ts";
 * console.log(hasUnreadableNext([{ rel: "next", href: 5 }]), hasUnreadableNext({ next: null })); // true false
 * ```
 */
export function hasUnreadableNext(raw: unknown): boolean {
  const unreadable = (link: unknown) =>
    link !== null && link !== undefined &&
    (typeof link !== "object" || typeof (link as Record<string, unknown>).href !== "string") &&
    typeof link !== "string";
  if (Array.isArray(raw)) {
    return raw.some((l) => {
      const rel = l !== null && typeof l === "object" ? (l as Record<string, unknown>).rel : "";
      return typeof rel === "string" && relTypes(rel).includes("next") && unreadable(l);
    });
  }
  if (raw === null || typeof raw !== "object") return false;
  return Object.entries(raw).some(([rel, v]) =>
    relTypes(rel).includes("next") && (Array.isArray(v) ? v : [v]).some(unreadable)
  );
}

/**
 * A {@link Paged} collection over responses that may be one flat object each (a "collection"
 * sent as an object): a response without `items` is one item, and its `next` link (`_links` or
 * `links`) leads to the following one. An envelope is accepted too, following `next` when it
 * has one and paging by number otherwise. A 404 (`null`) means no (more) items. A `next` link
 * back to a page already read is a link loop ({@link PagingIntegrityError}); a read is bounded
 * by `limits`, and with `verify` a read without `total_items` is read again and compared.
 *
 * @example
 * ```ts
 * import { followPages } from "./paginate.ts";
 * const monitors = followPages({
 *   pageSize: 1000,
 *   toItem: (raw) => raw.name,
 *   fetch: (href) => Promise.resolve(
 *     href === undefined
 *       ? { name: "A", _links: [{ href: "api/m?page_number=2", method: "GET", rel: "next" }] }
 *       : { name: "B", _links: [] },
 *   ),
 * });
 * console.log(await monitors.toArray()); // ["A", "B"]
 * ```
 */
export function followPages<T>(options: FollowPagesOptions<T>): Paged<T> {
  const { pageSize, signal, onPage } = options;
  const keyOf = options.keyOf ?? stableKey;
  const budget = new ReadBudget({
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.source ? { source: options.source } : {}),
  });
  const read = { fetch: options.fetch, toItem: options.toItem, ...(signal ? { signal } : {}) };
  return new PagedCollection<T>(async function* (reads) {
    const fail = (p: PagingProblem) => new PagingIntegrityError({ ...options.source, ...p, reads });
    const checker = new PageChecker<Raw>({ pageSize, keyOf, followsLinks: true });
    for await (const page of linkedRead({ ...read, checker, budget, fail })) {
      onPage?.(page);
      yield page;
    }
    if (!options.verify || checker.counted) return;
    // No page stated a count: a second read, link by link, must hold the same objects.
    const again = new PageChecker<Raw>({
      pageSize,
      keyOf,
      followsLinks: true,
      trackKeys: false,
      multisetAlways: true,
      inRead: (key) => checker.has(key),
    });
    const second = (p: PagingProblem) =>
      fail(checker.problemAt(`the second read: ${p.problem}`, checker.lastPage));
    const secondBudget = budget.forSecondRead();
    for await (
      const _ of linkedRead({ ...read, checker: again, budget: secondBudget, fail: second })
    );
    const differs = readDifference(checker, again);
    if (differs) throw fail(checker.problemAt(differs, checker.lastPage));
  }, rereadsOf(options.rereads));
}

/** A raw object of a flat collection's response. */
type Raw = Record<string, unknown>;

/** Options of {@link linkedRead}. */
interface LinkedReadOptions<T> {
  readonly fetch: FollowPagesOptions<T>["fetch"];
  readonly toItem: (raw: Raw, what?: string) => T;
  readonly signal?: AbortSignal;
  /** Checks each page's raw objects (and the whole read at its end). */
  readonly checker: PageChecker<Raw>;
  /** The read's bounds. */
  readonly budget: ReadBudget;
  /** The error of a problem found. */
  readonly fail: (problem: PagingProblem) => Error;
}

/**
 * One read of a flat collection: `next` links followed (a link back to a page already read is
 * a loop, and an error), an envelope without one paged by number until a short page, each page
 * checked and counted against the bounds before it is handed out.
 */
async function* linkedRead<T>(o: LinkedReadOptions<T>): AsyncGenerator<Page<T>> {
  const { checker, budget } = o;
  let href: string | undefined;
  const followed = new Map<string, number>();
  for (let pageNumber = 1;; pageNumber++) {
    o.signal?.throwIfAborted();
    budget.beforePage(pageNumber, checker.readItems);
    const body = await o.fetch(href, pageNumber, o.signal);
    if (body === null) break;
    const { page, raws, envelope } = flatPage(body, pageNumber, o.toItem);
    const problem = checker.check({ ...page, items: raws }, pageNumber);
    if (problem) throw o.fail(problem);
    budget.afterPage(pageNumber, checker.readItems);
    yield page;
    const rawLinks = body._links ?? body.links;
    const next = nextLink(readLinks(rawLinks));
    if (next === undefined && hasUnreadableNext(rawLinks)) {
      const problem = `the next link of page ${pageNumber} has no href to follow`;
      throw o.fail(checker.problemAt(problem, pageNumber));
    }
    if (next !== undefined) {
      const earlier = followed.get(next);
      if (earlier !== undefined) {
        const loop =
          `the next link of page ${pageNumber} leads back to page ${earlier}: a link loop`;
        throw o.fail(checker.problemAt(loop, pageNumber));
      }
      followed.set(next, pageNumber + 1);
      href = next;
      continue;
    }
    if (envelope && !isShortPage(page, checker.pageSize)) {
      href = undefined;
      continue;
    }
    break;
  }
  const problem = checker.finish();
  if (problem) throw o.fail(problem);
}

/** One flat-collection response as a page, with the raw objects it holds. */
function flatPage<T>(
  body: Record<string, unknown>,
  pageNumber: number,
  toItem: (raw: Record<string, unknown>, what?: string) => T,
): { page: Page<T>; raws: Record<string, unknown>[]; envelope: boolean } {
  if (Array.isArray(body.items) || body.items === null) {
    const raws = (body.items ?? []) as Record<string, unknown>[];
    const p = (body.pagination ?? {}) as Record<string, unknown>;
    const page = {
      items: raws.map((raw, i) => toItem(raw, `item ${i + 1} of page ${pageNumber}`)),
      pageNumber,
      ...numberField("pageSize", p.page_size),
      ...numberField("totalPages", p.total_pages),
      ...numberField("totalItems", p.total_items),
    };
    return { page, raws, envelope: true };
  }
  const hasFields = Object.keys(body).some((k) => k !== "_links" && k !== "links");
  const raws = hasFields ? [body] : [];
  return { page: { items: raws.map((raw) => toItem(raw)), pageNumber }, raws, envelope: false };
}

/**
 * `{[key]: n}` when `value` is a finite number (or numeric text), else `{}`: for reading the
 * optional numbers of a pagination object.
 *
 * @example
 * ```ts
 * import { numberField } from "./paginate.ts";
 * console.log(numberField("totalPages", "3"), numberField("totalPages", undefined)); // { totalPages: 3 } {}
 * ```
 */
export function numberField<K extends string>(
  key: K,
  value: unknown,
): { [P in K]?: number } {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? { [key]: n } as { [P in K]?: number } : {};
}

/**
 * The same collection with only the items `keep` accepts: the paging and its checks run on the
 * pages as the server sent them, and the filtering after, so a dropped item is never taken for
 * a short page.
 *
 * @example
 * ```ts
 * import { filterPaged, paginate } from "./paginate.ts";
 * const numbers = paginate<number>({
 *   pageSize: 2,
 *   fetchPage: (n) => Promise.resolve({ pageNumber: n, items: n < 3 ? [n * 10, n * 10 + 1] : [] }),
 * });
 * console.log(await filterPaged(numbers, (x) => x % 2 === 0).toArray()); // [10, 20]
 * ```
 */
export function filterPaged<T>(paged: Paged<T>, keep: (item: T) => boolean): Paged<T> {
  async function* pages(): AsyncIterableIterator<Page<T>> {
    for await (const page of paged.pages()) yield { ...page, items: page.items.filter(keep) };
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
    toArray: async () => (await paged.toArray()).filter(keep),
  };
}
