/**
 * The installs unused-software reads, each with its idleness (`idle_buckets.ts`) and license
 * state (`reclaimable.ts`): every installed application (for the counts per application), or
 * only those idle for at least the first threshold, narrowed on the server and in computer order
 * (for the list per computer); and the counts per application by idle bucket, with their columns.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { EstateApi } from "../api/client.ts";
import type { Paged } from "../api/paginate.ts";
import { and, eq, exists, le, or } from "../api/filter_builder.ts";
import { parseFilter } from "../api/filter_parser.ts";
import type { Source } from "../query/collect.ts";
import { type Idleness, idlenessAt } from "./idle_buckets.ts";
import { isHarvestCandidate, type IsLicensed } from "./reclaimable.ts";
import { IdleList, type ListedInstall } from "./idle_list.ts";

const DAY = 86_400_000;

/**
 * An installed application's install (the fields the report reads) with its idleness and
 * license state: a small object of its own, as a million installs pass through.
 */
export type IdleInstall =
  & Pick<
    Resource<"ComputerApplication">,
    "computerId" | "applicationId" | "lastUsed" | "firstDiscovered"
  >
  & Idleness
  & {
    /** It consumes a license (its entitlement state). */
    readonly licensed: boolean;
    /** A harvest candidate: idle for at least the top threshold, or of unknown age. */
    readonly candidate: boolean;
  };

/** What reading installs needs of the run. */
export interface IdleInstallsContext {
  /** The client's estate area. */
  readonly client: { readonly estate: Pick<EstateApi, "applications"> };
  /** The user's `--filter` on computer applications. */
  readonly filter?: string;
  /** Cancels the reads. */
  readonly signal: AbortSignal;
  /** The run's clock. */
  readonly now: Date;
}

/** The rules installs are judged by. */
export interface IdleRules {
  /** Idle-day thresholds, ascending (see `readThresholds`). */
  readonly thresholds: readonly number[];
  /** Which installs consume a license (see `licensedInstalls`). */
  readonly isLicensed: IsLicensed;
}

/**
 * The installed applications (with an application id) in the user's filter, with their idleness;
 * with `onlyIdle`, only those idle for at least the first threshold (or never used and
 * discovered that long ago, or of unknown age), by computer then application.
 *
 * @example
 * ```ts
 * import { idleInstalls } from "./idle_installs.ts";
 * const rows = [{ computerId: "C1", applicationId: "A1", isInstalled: true, lastUsed: null, firstDiscovered: null }];
 * const ctx = { client: { estate: { applications: () => rows } } as never, signal: new AbortController().signal, now: new Date() };
 * for await (const i of idleInstalls(ctx, { thresholds: [30], isLicensed: () => true })) {
 *   console.log(i.never, i.candidate); // true true
 * }
 * ```
 */
export function idleInstalls(
  ctx: IdleInstallsContext,
  rules: IdleRules,
  onlyIdle?: false,
): AsyncGenerator<IdleInstall>;
/** With `onlyIdle`, the idle installs as the list per computer shows them. */
export function idleInstalls(
  ctx: IdleInstallsContext,
  rules: IdleRules,
  onlyIdle: true,
): AsyncGenerator<ListedInstall>;
export async function* idleInstalls(
  ctx: IdleInstallsContext,
  rules: IdleRules,
  onlyIdle = false,
): AsyncGenerator<IdleInstall | ListedInstall> {
  if (!onlyIdle) {
    for await (const page of idleInstallPages(ctx, rules)) yield* page;
    return;
  }
  const list = new IdleList();
  for await (const page of idleInstallPages(ctx, rules, true)) {
    for (const i of page) list.push(listed(i));
  }
  yield* list.inComputerOrder();
}

/**
 * The installs of {@link idleInstalls}, a page at a time (in the order the service sent them):
 * each page of the read judged in one synchronous pass, so a million installs take no
 * generator step each. A `PagingIntegrityError` of the read is passed on.
 *
 * @example
 * ```ts
 * import { idleInstallPages } from "./idle_installs.ts";
 * const rows = [{ computerId: "C1", applicationId: "A1", isInstalled: true, lastUsed: null, firstDiscovered: null }];
 * const ctx = { client: { estate: { applications: () => rows } } as never, signal: new AbortController().signal, now: new Date() };
 * for await (const page of idleInstallPages(ctx, { thresholds: [30], isLicensed: () => true })) {
 *   console.log(page.length, page[0].candidate); // 1 true
 * }
 * ```
 */
export async function* idleInstallPages(
  ctx: IdleInstallsContext,
  rules: IdleRules,
  onlyIdle = false,
): AsyncGenerator<IdleInstall[]> {
  const { thresholds } = rules;
  const first = thresholds[0];
  const cutoff = new Date(ctx.now.getTime() - first * DAY);
  const idle = or(le("lastUsed", cutoff), exists("lastUsed", false));
  const user = ctx.filter ? [parseFilter(ctx.filter)] : [];
  const filter = onlyIdle || user.length
    ? and(eq("isInstalled", true), ...onlyIdle ? [idle] : [], ...user)
    : eq("isInstalled", true);
  // No public document declares `sort` on this read, so none is sent: the list per computer is
  // put in order here, from a compact copy of the idle installs (`IdleList`).
  // A test's fake may give a plain array: read as any source of installs.
  const read: Source<Resource<"ComputerApplication">> = ctx.client.estate.applications({
    filter,
    signal: ctx.signal,
  });
  const judge = judgeWith(ctx.now, rules, onlyIdle);
  if (isPaged(read)) {
    for await (const page of read.pages()) yield judge(page.items);
    return;
  }
  const all: Resource<"ComputerApplication">[] = [];
  for await (const i of read) all.push(i);
  yield judge(all);
}

/** Whether a read offers its pages (the client's collections do; a test's array does not). */
function isPaged<T>(read: Source<T>): read is Paged<T> {
  return typeof (read as Partial<Paged<T>>).pages === "function";
}

/**
 * Judges a page of installs: the installed ones with an application id, with idleness and
 * license state (with `onlyIdle`, those idle for at least the first threshold or of unknown age).
 */
function judgeWith(
  now: Date,
  { thresholds, isLicensed }: IdleRules,
  onlyIdle: boolean,
): (page: readonly Resource<"ComputerApplication">[]) => IdleInstall[] {
  const first = thresholds[0], top = thresholds[thresholds.length - 1];
  const idlenessOf = idlenessAt(now, thresholds);
  return (page) => {
    const out: IdleInstall[] = [];
    for (const i of page) {
      if (i.isInstalled !== true || !i.applicationId) continue;
      const state = idlenessOf(i);
      if (onlyIdle && state.idleDays !== null && state.idleDays < first) continue;
      out.push({
        computerId: i.computerId,
        applicationId: i.applicationId,
        lastUsed: i.lastUsed,
        firstDiscovered: i.firstDiscovered,
        idleDays: state.idleDays,
        never: state.never,
        recent: state.recent,
        bucket: state.bucket,
        bucketLabel: state.bucketLabel,
        licensed: isLicensed(i),
        candidate: isHarvestCandidate(state.idleDays, top),
      });
    }
    return out;
  };
}

/** The fields of an install the list per computer shows. */
const listed = (i: IdleInstall): ListedInstall => ({
  computerId: i.computerId,
  applicationId: i.applicationId,
  lastUsed: i.lastUsed,
  firstDiscovered: i.firstDiscovered,
  idleDays: i.idleDays,
  bucketLabel: i.bucketLabel,
  licensed: i.licensed,
  candidate: i.candidate,
});

/**
 * Installs in computer then application order (ids compared by code unit, as the reference
 * server's `sort=computerId:asc,applicationId:asc` ordered them); stable, so installs of one
 * computer and application keep the order they came in. Holds the installs it is given (the
 * idle ones) until the last has come.
 *
 * @example
 * ```ts
 * import { inComputerOrder } from "./idle_installs.ts";
 * async function* sent() {
 *   yield { computerId: "C2", applicationId: "A1" };
 *   yield { computerId: "C1", applicationId: "A2" };
 *   yield { computerId: "C1", applicationId: "A1" };
 * }
 * for await (const i of inComputerOrder(sent())) console.log(i.computerId, i.applicationId);
 * // C1 A1, then C1 A2, then C2 A1
 * ```
 */
export async function* inComputerOrder<
  T extends { readonly computerId: string | null; readonly applicationId: string | null },
>(installs: AsyncIterable<T>): AsyncGenerator<T> {
  const all: T[] = [];
  for await (const i of installs) all.push(i);
  const unit = (a: string | null, b: string | null) => {
    const x = a ?? "", y = b ?? "";
    return x < y ? -1 : x > y ? 1 : 0;
  };
  all.sort((a, b) => unit(a.computerId, b.computerId) || unit(a.applicationId, b.applicationId));
  yield* all;
}

/**
 * Passes installs through, keeping in `list` those idle for at least the first threshold (or of
 * unknown age): the installs the list per computer shows, by the rule `idleInstalls(…, true)`
 * applies, so one read of the installs serves the counts and the list.
 *
 * @example
 * ```ts
 * import { keepingIdle } from "./idle_installs.ts";
 * import { IdleList } from "./idle_list.ts";
 * const list = new IdleList();
 * const base = { computerId: "C1", applicationId: "A1", lastUsed: null, firstDiscovered: null,
 *   bucketLabel: "", licensed: false, candidate: false };
 * const installs = [{ ...base, idleDays: 3 }, { ...base, idleDays: 45 }, { ...base, idleDays: null }];
 * const passed = await Array.fromAsync(keepingIdle(installs as never, list, 30));
 * console.log(passed.length, list.length); // 3 2
 * ```
 */
export async function* keepingIdle(
  installs: AsyncIterable<IdleInstall> | Iterable<IdleInstall>,
  list: IdleList,
  first: number,
): AsyncGenerator<IdleInstall> {
  for await (const i of installs) {
    if (i.idleDays === null || i.idleDays >= first) list.push(i); // It reads the listed fields.
    yield i;
  }
}

/** The counts of one application's installs (`idle<t>`: one per threshold's bucket). */
export type IdleCounts = {
  readonly id: string;
  readonly installations: number;
  readonly recent: number;
  readonly never: number;
  readonly candidates: number;
} & Readonly<Record<`idle${number}`, number>>;

/**
 * Per application: its installs, those used within the first threshold, those in each idle
 * bucket (`idle30`, `idle90`, … by threshold), never used, and harvest candidates; in
 * first-seen order.
 *
 * @example
 * ```ts
 * import { idleCounts } from "./idle_installs.ts";
 * const installs = [{ applicationId: "A1", recent: false, bucket: 0, never: false, candidate: true }];
 * console.log(await idleCounts(installs as never, [30]));
 * // [{ id: "A1", installations: 1, recent: 0, idle30: 1, never: 0, candidates: 1 }]
 * ```
 */
export async function idleCounts(
  installs: AsyncIterable<IdleInstall> | Iterable<IdleInstall>,
  thresholds: readonly number[],
): Promise<IdleCounts[]> {
  const counter = new IdleCounter(thresholds);
  for await (const i of installs) counter.add(i);
  return counter.counts();
}

/**
 * {@link idleCounts} as installs are added one at a time (synchronously, a page's installs in
 * one loop).
 *
 * @example
 * ```ts
 * import { IdleCounter } from "./idle_installs.ts";
 * const counter = new IdleCounter([30]);
 * counter.add({ applicationId: "A1", recent: true, bucket: -1, never: false, candidate: false } as never);
 * console.log(counter.counts());
 * // [{ id: "A1", installations: 1, recent: 1, idle30: 0, never: 0, candidates: 0 }]
 * ```
 */
export class IdleCounter {
  readonly #thresholds: readonly number[];
  /** Per application: installations, recent, one per bucket, never, candidates. */
  readonly #counts = new Map<string, number[]>();

  /**
   * A counter with no installation counted yet.
   *
   * @param thresholds Idle-day thresholds, ascending.
   */
  constructor(thresholds: readonly number[]) {
    this.#thresholds = thresholds;
  }

  /** Counts one install. */
  add(i: IdleInstall): void {
    const buckets = this.#thresholds.length;
    let c = this.#counts.get(i.applicationId!);
    if (c === undefined) this.#counts.set(i.applicationId!, c = new Array(buckets + 4).fill(0));
    c[0]++;
    if (i.recent) c[1]++;
    if (i.bucket >= 0 && i.bucket < buckets) c[2 + i.bucket]++;
    if (i.never) c[2 + buckets]++;
    if (i.candidate) c[3 + buckets]++;
  }

  /** The counts per application, in first-seen order. */
  counts(): IdleCounts[] {
    const keys = countKeys(this.#thresholds);
    return [...this.#counts].map(([id, c]) => {
      const out: Record<string, unknown> = { id };
      keys.forEach((key, k) => out[key] = c[k]);
      return out as IdleCounts;
    });
  }
}

/**
 * Reads the installs once (a page at a time, see {@link idleInstallPages}): counts them per
 * application ({@link idleCounts}), keeps the idle ones for the list per computer (those idle
 * for at least the first threshold or of unknown age, as `idleInstalls(…, true)` gives them),
 * and hands each install to `each` (a tally, say).
 *
 * @example
 * ```ts
 * import { readIdleInstalls } from "./idle_installs.ts";
 * const rows = [{ computerId: "C1", applicationId: "A1", isInstalled: true, lastUsed: null, firstDiscovered: null }];
 * const ctx = { client: { estate: { applications: () => rows } } as never, signal: new AbortController().signal, now: new Date() };
 * const { counts, idle } = await readIdleInstalls(ctx, { thresholds: [30], isLicensed: () => false });
 * console.log(counts[0].never, idle.length); // 1 1
 * ```
 */
export async function readIdleInstalls(
  ctx: IdleInstallsContext,
  rules: IdleRules,
  each?: (install: IdleInstall) => void,
): Promise<{ counts: IdleCounts[]; idle: IdleList }> {
  const first = rules.thresholds[0];
  const counter = new IdleCounter(rules.thresholds);
  const idle = new IdleList();
  for await (const page of idleInstallPages(ctx, rules)) {
    for (const i of page) {
      each?.(i);
      if (i.idleDays === null || i.idleDays >= first) idle.push(i); // It reads the listed fields.
      counter.add(i);
    }
  }
  return { counts: counter.counts(), idle };
}

/**
 * The count keys of {@link idleCounts}, in column order (for totals).
 *
 * @example
 * ```ts
 * import { countKeys } from "./idle_installs.ts";
 * console.log(countKeys([30, 90])); // ["installations", "recent", "idle30", "idle90", "never", "candidates"]
 * ```
 */
export function countKeys(thresholds: readonly number[]): string[] {
  return ["installations", "recent", ...thresholds.map((t) => `idle${t}`), "never", "candidates"];
}
