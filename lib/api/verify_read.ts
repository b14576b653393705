/**
 * Verifying a read of a collection whose pages state no `total_items` (license, registry and
 * connector collections on the spec's service, spec 2.2; any collection a service or a proxy
 * sends without them). With no count to check against, three faults leave no trace in the read
 * itself:
 *
 * - a page cut short ends the read early: the stop rule takes it for the last page (for a
 *   one-page collection, such as a license list, it is the whole read);
 * - an item removed between two page reads moves the item after the page boundary onto a page
 *   already read, so it is never seen; the read counts the removed item instead, so its count is
 *   the collection's count after the removal;
 * - a service whose offset paging skips the same item at a page boundary on every read (an
 *   unstable sort order does this) gives the same wrong read every time at that page size.
 *
 * All three show when the collection is read a second time at another page size
 * ({@link verificationPageSize}) and the two reads' multisets of item keys are compared whole,
 * not page by page: the cut page and the removal come back whole, and the second read's page
 * boundaries fall elsewhere, so the skipped item is read. Each read's `PageChecker` keeps its
 * multiset in constant memory (`key_multiset.ts`); {@link readDifference} compares them and
 * names an item the first read missed. The second read costs about as many requests as the
 * first; a read whose pages state `total_items` is checked by its count instead and costs none.
 *
 * @module
 */

import type { PageChecker } from "./integrity.ts";
import { quoted } from "./one_line.ts";

/**
 * The page size of the read that verifies a read at `pageSize`: one less (two for a read one item
 * a page), so that no page boundary of the two reads falls at the same item before the
 * `pageSize × (pageSize − 1)`-th.
 *
 * @example
 * ```ts
 * import { verificationPageSize } from "./verify_read.ts";
 * console.log(verificationPageSize(1000), verificationPageSize(1)); // 999 2
 * ```
 */
export function verificationPageSize(pageSize: number): number {
  return pageSize > 1 ? pageSize - 1 : 2;
}

const COUNT = new Intl.NumberFormat("en-US");

/**
 * What differs between a read and the second read that verifies it, in words; `undefined` when
 * they hold the same items, as often each. `again` must have been checked with
 * `multisetAlways` and `inRead: (key) => read.has(key)`, so that an item the read missed can be
 * named.
 *
 * @example A page cut short shows in the counts, and the item it lost is named
 * ```ts
 * import { PageChecker } from "./integrity.ts";
 * import { readDifference } from "./verify_read.ts";
 * const keyOf = (s: string) => s;
 * const read = new PageChecker<string>({ pageSize: 3, keyOf });
 * read.check({ pageNumber: 1, items: ["a", "b"] }, 1); // "c" cut off
 * const again = new PageChecker<string>({
 *   pageSize: 2,
 *   keyOf,
 *   trackKeys: false,
 *   multisetAlways: true,
 *   inRead: (k) => read.has(k),
 * });
 * again.check({ pageNumber: 1, items: ["a", "b"] }, 1);
 * again.check({ pageNumber: 2, items: ["c"] }, 2);
 * console.log(readDifference(read, again));
 * // 'a second read at page size 2 holds 3 items, the read at page size 3 held 2; item "c" (page 2 of the second read) was not in the read'
 * ```
 */
export function readDifference<T>(read: PageChecker<T>, again: PageChecker<T>): string | undefined {
  if (read.multiset.equals(again.multiset)) return undefined;
  const [n, m] = [again.multiset.count, read.multiset.count];
  const sizes = `a second read at page size ${again.pageSize} holds ${COUNT.format(n)} items`;
  const counts = n === m
    ? `${sizes}, as many as the read at page size ${read.pageSize}, but not the same ones`
    : `${sizes}, the read at page size ${read.pageSize} held ${COUNT.format(m)}`;
  const missed = again.firstForeign;
  if (!missed) return counts;
  return `${counts}; ${describeKey(missed.key)} (page ${missed.pageNumber} of the second read) ` +
    "was not in the read";
}

/**
 * An item by its key: its id (JSON-quoted, every line break and bidi control escaped, cut to 80
 * characters), or "an item without an id".
 */
function describeKey(key: string): string {
  if (key.length === 7 && key.charCodeAt(0) === 0) return "an item without an id";
  const id = key.charCodeAt(0) === 1 ? key.slice(1) : key;
  return `item ${quoted(id.length > 80 ? `${id.slice(0, 80)}…` : id)}`;
}
