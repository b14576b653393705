/**
 * Bounds on one read of a collection: the most pages it may take and the most items it may
 * hold, per kind of collection, so that a service answering full pages of new items, or a fresh
 * `next` link, forever cannot make a read run until memory runs out. The defaults are far above
 * any real estate:
 *
 * - `reference` collections, whose size is set by configuration or by one machine's hardware
 *   (license policies and their fields, extended-coverage and assignment types, entitlement
 *   states, connectors, hypervisor types, the registry's types, platforms, groups and a single
 *   application's metrics, a computer's drives, disks, adapters, monitors and processors): 10,000
 *   items in at most 1,000 pages;
 * - `purchase` collections, which grow with what was bought rather than with the estate (the
 *   license list, a license's costs and upgrades, maintenance periods, extended coverages,
 *   entitlement definitions): 1 million items in at most 10,000 pages, so an endless license
 *   list (read whole into memory by the reports) stops at about 0.6 GB rather than 6;
 * - `estate` collections, everything else (computers and what is installed or used on them,
 *   assignments, tracking and transfers, the registry's applications): 50 million items in at
 *   most 500,000 pages (an install list of 500,000 computers with 100 installs each).
 *
 * A read past a bound fails with {@link PagingLimitError}, naming the operation, the bound and
 * the client option that raises it (`limits: { estate: { maxItems } }`).
 *
 * @module
 */

import type { PagingSource } from "./errors.ts";
import { PagingLimitError, type PagingLimitName } from "./paging_limit_error.ts";

export { PagingLimitError, type PagingLimitName };

/** The kinds of collection, each with its own bounds. */
export type CollectionKind = "reference" | "purchase" | "estate";

/** The bounds of one read. */
export interface PagingLimit {
  /** The most pages a read may take (a page past it is not asked for). */
  readonly maxPages: number;
  /** The most items a read may hold. */
  readonly maxItems: number;
}

/**
 * Bounds per kind as the client options give them; a bound not given keeps its default.
 *
 * @example
 * ```ts
 * import type { PagingLimitsOption } from "./paging_limits.ts";
 * const limits: PagingLimitsOption = { estate: { maxItems: 50_000_000 } };
 * console.log(limits.estate?.maxItems); // 50000000
 * ```
 */
export type PagingLimitsOption = { readonly [K in CollectionKind]?: Partial<PagingLimit> };

/** The bounds of one read of one kind of collection. */
export interface ReadLimits extends PagingLimit {
  /** The kind whose bounds these are (named in the error). */
  readonly kind: CollectionKind;
}

/**
 * The default bounds per kind.
 *
 * @example
 * ```ts
 * import { DEFAULT_PAGING_LIMITS } from "./paging_limits.ts";
 * console.log(DEFAULT_PAGING_LIMITS.reference.maxItems, DEFAULT_PAGING_LIMITS.estate.maxItems);
 * // 10000 50000000
 * console.log(DEFAULT_PAGING_LIMITS.purchase); // { maxPages: 10000, maxItems: 1000000 }
 * ```
 */
export const DEFAULT_PAGING_LIMITS: { readonly [K in CollectionKind]: PagingLimit } = {
  reference: { maxPages: 1_000, maxItems: 10_000 },
  purchase: { maxPages: 10_000, maxItems: 1_000_000 },
  estate: { maxPages: 500_000, maxItems: 50_000_000 },
};

/** Collections that grow with what was bought, not with the estate. */
const PURCHASE_COLLECTIONS: ReadonlySet<string> = new Set([
  "licenses.list",
  "licenses.upgrades",
  "licenses.costs",
  "licenses.maintenancePeriods",
  "licenses.licenseMaintenancePeriods",
  "licenses.extendedCoverages",
  "licenses.entitlements",
]);

/** Collections sized by configuration or by one machine's hardware; all others are `estate`. */
const REFERENCE_COLLECTIONS: ReadonlySet<string> = new Set([
  "licenses.policies",
  "licenses.policyFields",
  "licenses.extendedCoverageTypes",
  "licenses.entitlementStates",
  "licenses.assignmentTypes",
  "licenses.complianceSummary",
  "licenses.complianceUsage",
  "connectors.list",
  "estate.hypervisorTypes",
  "estate.hardDrives",
  "estate.opticalDrives",
  "estate.logicalDisks",
  "estate.displayAdapters",
  "estate.monitors",
  "estate.processors",
  "estate.computerNetworkAdapters",
  "registry.applicationTypes",
  "registry.typesOfApplication",
  "registry.platforms",
  "registry.groups",
  "registry.store",
  "registry.metrics",
]);

/**
 * The kind of an operation's collection.
 *
 * @example
 * ```ts
 * import { collectionKind } from "./paging_limits.ts";
 * console.log(collectionKind("licenses.policies"), collectionKind("licenses.list"));
 * // "reference" "purchase"
 * console.log(collectionKind("estate.applications")); // "estate"
 * ```
 */
export function collectionKind(operation: string): CollectionKind {
  if (REFERENCE_COLLECTIONS.has(operation)) return "reference";
  return PURCHASE_COLLECTIONS.has(operation) ? "purchase" : "estate";
}

/**
 * The bounds of a read of `kind`: the option's where given, else the defaults. A bound that is
 * not a whole number of at least 1 is a `RangeError` naming the option.
 *
 * @example
 * ```ts
 * import { readLimits } from "./paging_limits.ts";
 * console.log(readLimits("estate", { estate: { maxItems: 20_000_000 } }));
 * // { kind: "estate", maxPages: 100000, maxItems: 20000000 }
 * ```
 */
export function readLimits(kind: CollectionKind, option?: PagingLimitsOption): ReadLimits {
  const given = option?.[kind] ?? {};
  const bound = (name: PagingLimitName): number => {
    const n = given[name] ?? DEFAULT_PAGING_LIMITS[kind][name];
    if (!Number.isSafeInteger(n) || n < 1) {
      throw new RangeError(`limits.${kind}.${name} must be a whole number of at least 1, not ${n}`);
    }
    return n;
  };
  return { kind, maxPages: bound("maxPages"), maxItems: bound("maxItems") };
}

/** Options of {@link ReadBudget}. */
export interface ReadBudgetOptions {
  /** The bounds (default: those of an `estate` collection). */
  readonly limits?: ReadLimits;
  /** Names the collection in the error. */
  readonly source?: PagingSource;
  /** Which read this is (the error says when it is the verifying second read). */
  readonly read?: "read" | "second read";
}

/**
 * The bounds of one read, checked as it goes: {@link ReadBudget.beforePage} before a page is
 * asked for, {@link ReadBudget.afterPage} once its items are counted; each throws
 * {@link PagingLimitError} when the read would go past a bound.
 *
 * @example
 * ```ts
 * import { ReadBudget, readLimits } from "./paging_limits.ts";
 * const budget = new ReadBudget({ limits: readLimits("reference", { reference: { maxPages: 2 } }) });
 * budget.beforePage(2, 100);
 * try {
 *   budget.beforePage(3, 200);
 * } catch (e) {
 *   console.log((e as Error).name); // "PagingLimitError"
 * }
 * ```
 */
export class ReadBudget {
  #limits: ReadLimits;
  #source: PagingSource;
  #read: "read" | "second read";

  constructor(options: ReadBudgetOptions = {}) {
    this.#limits = options.limits ?? readLimits("estate");
    this.#source = options.source ?? {};
    this.#read = options.read ?? "read";
  }

  /** The most pages the read may take. */
  get maxPages(): number {
    return this.#limits.maxPages;
  }

  /** Throws when page `pageNumber` would be past `maxPages` (`items` read so far). */
  beforePage(pageNumber: number, items: number): void {
    if (pageNumber > this.#limits.maxPages) this.#fail("maxPages", pageNumber - 1, items);
  }

  /** Throws when `items`, read in `pages` pages, are past `maxItems`. */
  afterPage(pages: number, items: number): void {
    if (items > this.#limits.maxItems) this.#fail("maxItems", pages, items);
  }

  /** A copy of this budget for the read that verifies it. */
  forSecondRead(): ReadBudget {
    return new ReadBudget({ limits: this.#limits, source: this.#source, read: "second read" });
  }

  #fail(limit: PagingLimitName, pages: number, items: number): never {
    const { operation, path, filter } = this.#source;
    throw new PagingLimitError({
      ...(operation === undefined ? {} : { operation }),
      ...(path === undefined ? {} : { path }),
      ...(filter === undefined ? {} : { filter }),
      kind: this.#limits.kind,
      limit,
      max: this.#limits[limit],
      pages,
      items,
      read: this.#read,
    });
  }
}
