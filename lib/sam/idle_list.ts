/**
 * The idle installs unused-software lists per computer, held compactly until the last has come
 * so they can be put in computer order: ids interned to numbers, dates as epoch milliseconds,
 * the bucket and flags in one byte, in typed arrays (33 bytes an install, 45 with the room kept
 * for growth, where the read's objects take ten times that). Each install is rebuilt, as a
 * small object of the fields the list shows, only as it is yielded.
 *
 * @module
 */

import { rankBy } from "../report/rank.ts";
import { compareGroupValues } from "../report/totals.ts";

/** What the list per computer shows of an idle install. */
export interface ListedInstall {
  /** The computer. */
  readonly computerId: string | null;
  /** The application. */
  readonly applicationId: string | null;
  /** When it was last used; null: never. */
  readonly lastUsed: Date | null;
  /** When it was first discovered; null: unknown. */
  readonly firstDiscovered: Date | null;
  /** Whole days unused; null: unknown. */
  readonly idleDays: number | null;
  /** The idleness bucket's label. */
  readonly bucketLabel: string;
  /** Whether a license covers the application. */
  readonly licensed: boolean;
  /** Whether it is a harvest candidate. */
  readonly candidate: boolean;
}

/** Date time values are finite or NaN, so the infinities can stand for a missing date. */
const NULL_DATE = -Infinity, NO_DATE = Infinity;

const encodeDate = (value: Date | null | undefined): number =>
  value === null ? NULL_DATE : value === undefined ? NO_DATE : value.getTime();

/** A date as it came: a field the service left out comes back left out (undefined). */
const decodeDate = (value: number): Date | null =>
  value === NULL_DATE ? null : value === NO_DATE ? undefined! : new Date(value);

/** Strings interned to small numbers, in first-seen order. */
class Interned {
  readonly values: (string | null)[] = [];
  #index = new Map<string | null, number>();

  of(value: string | null): number {
    let i = this.#index.get(value);
    if (i === undefined) {
      this.#index.set(value, i = this.values.length);
      this.values.push(value);
    }
    return i;
  }

  /** Each value's rank in code-unit order (`null` as `""`); equal text, equal rank. */
  ranks(): Int32Array {
    const text = (i: number) => this.values[i] ?? "";
    const order = this.values.map((_, i) => i).sort((a, b) => {
      const x = text(a), y = text(b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const out = new Int32Array(this.values.length);
    let rank = 0;
    order.forEach((v, k) => {
      if (k > 0 && text(v) !== text(order[k - 1])) rank++;
      out[v] = rank;
    });
    return out;
  }
}

/** A growable column of numbers in a typed array (doubling, so appends stay cheap). */
class Column<A extends Float64Array | Int32Array | Uint8Array> {
  #data: A;
  #make: (length: number) => A;
  length = 0;

  constructor(make: (length: number) => A) {
    this.#make = make;
    this.#data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.#data.length) {
      const next = this.#make(this.length * 2);
      next.set(this.#data);
      this.#data = next;
    }
    this.#data[this.length++] = value;
  }

  at(i: number): number {
    return this.#data[i];
  }
}

const int32 = () => new Column((n) => new Int32Array(n));
const float64 = () => new Column((n) => new Float64Array(n));

/** The flag bits beside the bucket label's number in one byte. */
const LICENSED = 1, CANDIDATE = 2, LABEL_SHIFT = 2, MAX_LABELS = 1 << 6;

/**
 * The indices 0…n−1 ordered by `major` then `minor` rank, ties in index order: a counting sort
 * by the major rank (a computer's; one pass, however many installs), then each run of one major
 * rank ordered by the minor rank (an application's; a computer has few installs).
 */
function stableOrder(
  n: number,
  major: (i: number) => number,
  minor: (i: number) => number,
): Int32Array {
  let top = 0;
  for (let i = 0; i < n; i++) top = Math.max(top, major(i));
  const start = new Int32Array(top + 2);
  for (let i = 0; i < n; i++) start[major(i) + 1]++;
  for (let r = 1; r < start.length; r++) start[r] += start[r - 1];
  const order = new Int32Array(n);
  const next = start.slice(0, top + 1);
  for (let i = 0; i < n; i++) order[next[major(i)]++] = i;
  for (let r = 0; r <= top; r++) {
    const run = order.subarray(start[r], start[r + 1]);
    if (run.length > 1) run.sort((a, b) => minor(a) - minor(b) || a - b);
  }
  return order;
}

/**
 * Idle installs held compactly, yielded back in computer then application order (ids compared
 * by code unit; stable, so installs of one computer and application keep their arrival order).
 *
 * @example
 * ```ts
 * import { IdleList } from "./idle_list.ts";
 * const list = new IdleList();
 * const base = { lastUsed: null, firstDiscovered: null, idleDays: null, bucketLabel: "Never used" };
 * list.push({ ...base, computerId: "C2", applicationId: "A1", licensed: false, candidate: true });
 * list.push({ ...base, computerId: "C1", applicationId: "A2", licensed: true, candidate: true });
 * for (const i of list.inComputerOrder()) console.log(i.computerId, i.licensed);
 * // C1 true, then C2 false
 * ```
 */
export class IdleList {
  #computers = new Interned();
  #applications = new Interned();
  #labels = new Interned();
  #computer = int32();
  #application = int32();
  /** The bucket label's number, shifted, with the LICENSED and CANDIDATE bits. */
  #labelAndFlags = new Column((n) => new Uint8Array(n));
  #idleDays = float64();
  #lastUsed = float64();
  #firstDiscovered = float64();

  /** Installs held. */
  get length(): number {
    return this.#computer.length;
  }

  /** Holds one install. */
  push(install: ListedInstall): void {
    const label = this.#labels.of(install.bucketLabel);
    if (label >= MAX_LABELS) throw new RangeError(`more than ${MAX_LABELS} idle bucket labels`);
    this.#computer.push(this.#computers.of(install.computerId));
    this.#application.push(this.#applications.of(install.applicationId));
    this.#labelAndFlags.push(
      (label << LABEL_SHIFT) | (install.licensed ? LICENSED : 0) |
        (install.candidate ? CANDIDATE : 0),
    );
    this.#idleDays.push(install.idleDays ?? NaN);
    this.#lastUsed.push(encodeDate(install.lastUsed));
    this.#firstDiscovered.push(encodeDate(install.firstDiscovered));
  }

  /** The installs in computer then application order, each rebuilt as it is yielded. */
  *inComputerOrder(): Generator<ListedInstall> {
    yield* this.#ordered(this.#computers.ranks());
  }

  /**
   * The installs grouped by `groupOf` their computer, groups in `compareGroupValues` order
   * (the order a report's spool sorts a grouped section in), each group in computer then
   * application order: what a stable sort by group of {@link inComputerOrder} gives, without
   * the rows ever being sorted.
   */
  *inGroupOrder(groupOf: (computerId: string | null) => string): Generator<ListedInstall> {
    const computerRank = this.#computers.ranks();
    const groups = new Interned();
    const groupOfComputer = Int32Array.from(this.#computers.values, (c) => groups.of(groupOf(c)));
    const groupRank = rankBy(groups.values, compareGroupValues);
    // One rank per computer: by its group's rank, then its own.
    const byGroup = Array.from(computerRank.keys()).sort((a, b) =>
      groupRank[groupOfComputer[a]] - groupRank[groupOfComputer[b]] ||
      computerRank[a] - computerRank[b]
    );
    const rank = new Int32Array(byGroup.length);
    byGroup.forEach((c, k) => rank[c] = k);
    yield* this.#ordered(rank);
  }

  /** The installs by their computer's `rank`, then application, ties in arrival order. */
  *#ordered(computerRank: Int32Array): Generator<ListedInstall> {
    const applicationRank = this.#applications.ranks();
    const computer = this.#computer, application = this.#application;
    const order = stableOrder(
      this.length,
      (i) => computerRank[computer.at(i)],
      (i) => applicationRank[application.at(i)],
    );
    for (const i of order) yield this.#at(i);
  }

  #at(i: number): ListedInstall {
    const idleDays = this.#idleDays.at(i), byte = this.#labelAndFlags.at(i);
    return {
      computerId: this.#computers.values[this.#computer.at(i)],
      applicationId: this.#applications.values[this.#application.at(i)],
      lastUsed: decodeDate(this.#lastUsed.at(i)),
      firstDiscovered: decodeDate(this.#firstDiscovered.at(i)),
      idleDays: Number.isNaN(idleDays) ? null : idleDays,
      bucketLabel: this.#labels.values[byte >> LABEL_SHIFT]!,
      licensed: (byte & LICENSED) !== 0,
      candidate: (byte & CANDIDATE) !== 0,
    };
  }
}
