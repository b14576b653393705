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
import { readLinks } from "./normalise.ts";

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
}

/**
 * A collection: iterate it for items (`for await`), or read `.pages()` or `.toArray()`. Each
 * iteration starts again from page 1.
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
  /** Every item, in order. */
  toArray(): Promise<T[]>;
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
   */
  readonly parallel?: ParallelOption;
  /** Cancels the paging and every request in flight. */
  readonly signal?: AbortSignal;
  /** Called with each page as it is yielded. */
  readonly onPage?: (page: Page<T>) => void;
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

class PagedCollection<T> implements Paged<T> {
  #source: () => AsyncGenerator<Page<T>>;

  constructor(source: () => AsyncGenerator<Page<T>>) {
    this.#source = source;
  }

  pages(): AsyncIterableIterator<Page<T>> {
    return this.#source();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.#source()) yield* page.items;
  }

  async toArray(): Promise<T[]> {
    const out: T[] = [];
    for await (const page of this.#source()) {
      for (const item of page.items) out.push(item);
    }
    return out;
  }
}

/** Whether paging stops after this page (spec 4.1 rule 3, and the reported page count). */
function isLast<T>(page: Page<T>, requested: number): boolean {
  const size = page.pageSize ?? requested;
  if (page.items.length === 0 || page.items.length < size) return true;
  return page.totalPages !== undefined && page.pageNumber >= page.totalPages;
}

function concurrencyOf(parallel: ParallelOption | undefined): number {
  if (!parallel) return 1;
  const n = parallel === true ? DEFAULT_CONCURRENCY : parallel.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(n) || n < 1) throw new RangeError("parallel concurrency must be >= 1");
  return n;
}

/**
 * A {@link Paged} collection over a page fetcher: sequential by default; in parallel mode, when
 * page 1 reports `totalPages`, pages 2… are fetched with at most `concurrency` requests in flight
 * and yielded strictly in order. Stopping early (a `break`) or an abort cancels what is in flight.
 *
 * @example Parallel mode keeps the order
 * ```ts
 * import { paginate } from "./paginate.ts";
 * const pages = paginate<string>({
 *   pageSize: 1,
 *   parallel: { concurrency: 3 },
 *   fetchPage: async (n) => {
 *     await new Promise((r) => setTimeout(r, 10 - n)); // later pages answer sooner
 *     return { pageNumber: n, items: [`item ${n}`], totalPages: 5 };
 *   },
 * });
 * console.log(await pages.toArray()); // ["item 1", "item 2", "item 3", "item 4", "item 5"]
 * ```
 */
export function paginate<T>(options: PaginateOptions<T>): Paged<T> {
  const { fetchPage, pageSize, signal, onPage } = options;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`page size must be a positive integer, not ${pageSize}`);
  }
  const concurrency = concurrencyOf(options.parallel);

  return new PagedCollection<T>(async function* () {
    const stop = new AbortController();
    const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    try {
      const first = await fetchPage(1, pageSize, combined);
      const total = first.totalPages;
      if (concurrency > 1 && total !== undefined && !isLast(first, pageSize)) {
        // Launch the window before handing out page 1, so its requests overlap its processing.
        const inFlight = new Map<number, Promise<Page<T>>>();
        let launched = 1;
        const fill = (next: number) => {
          while (launched < total && launched < next - 1 + concurrency) {
            launched++;
            const p = fetchPage(launched, pageSize, combined);
            p.catch(() => {}); // Awaited below in order; this only silences early failures.
            inFlight.set(launched, p);
          }
        };
        fill(2);
        onPage?.(first);
        yield first;
        for (let n = 2; n <= total; n++) {
          fill(n);
          const page = await inFlight.get(n)!;
          inFlight.delete(n);
          onPage?.(page);
          yield page;
          if (isLast(page, pageSize)) return;
        }
        return;
      }
      onPage?.(first);
      yield first;
      if (isLast(first, pageSize)) return;
      for (let n = 2;; n++) {
        combined.throwIfAborted();
        const page = await fetchPage(n, pageSize, combined);
        onPage?.(page);
        yield page;
        if (isLast(page, pageSize)) return;
      }
    } finally {
      stop.abort(new DOMException("paging stopped", "AbortError"));
    }
  });
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
  /** Turns one raw object into an item. */
  readonly toItem: (raw: Record<string, unknown>) => T;
  /** The page size requested (for envelopes paged by number). */
  readonly pageSize: number;
  /** Cancels the paging. */
  readonly signal?: AbortSignal;
  /** Called with each page as it is yielded. */
  readonly onPage?: (page: Page<T>) => void;
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
  return links?.find((l) => l.rel.toLowerCase() === "next")?.href;
}

/**
 * A {@link Paged} collection over responses that may be one flat object each (a "collection"
 * sent as an object): a response without `items` is one item, and its `next` link (`_links` or
 * `links`) leads to the following one. An envelope is accepted too, following `next` when it
 * has one and paging by number otherwise. A 404 (`null`) means no (more) items.
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
  return new PagedCollection<T>(async function* () {
    let href: string | undefined;
    const seen = new Set<string>();
    for (let pageNumber = 1;; pageNumber++) {
      signal?.throwIfAborted();
      const body = await options.fetch(href, pageNumber, signal);
      if (body === null) return;
      const links = readLinks(body._links ?? body.links);
      let page: Page<T>;
      let envelope = false;
      if (Array.isArray(body.items)) {
        envelope = true;
        const p = (body.pagination ?? {}) as Record<string, unknown>;
        page = {
          items: (body.items as Record<string, unknown>[]).map(options.toItem),
          pageNumber,
          ...numberField("pageSize", p.page_size),
          ...numberField("totalPages", p.total_pages),
          ...numberField("totalItems", p.total_items),
        };
      } else {
        const hasFields = Object.keys(body).some((k) => k !== "_links" && k !== "links");
        page = { items: hasFields ? [options.toItem(body)] : [], pageNumber };
      }
      onPage?.(page);
      yield page;
      const next = nextLink(links);
      if (next !== undefined) {
        if (seen.has(next)) return; // A link loop: stop rather than spin.
        seen.add(next);
        href = next;
        continue;
      }
      if (envelope && !isLast(page, pageSize)) {
        href = undefined;
        continue;
      }
      return;
    }
  });
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
