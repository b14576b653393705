/**
 * The idle installs unused-software lists per computer, held compactly until the last has come
 * so they can be put in computer order: ids interned to numbers, dates as epoch milliseconds,
 * flags as bits, in flat number arrays (about 50 bytes an install, where the read's objects
 * take ten times that). Each install is rebuilt, as a small object of the fields the list
 * shows, only as it is yielded.
 *
 * @module
 */

/** What the list per computer shows of an idle install. */
export interface ListedInstall {
  readonly computerId: string | null;
  readonly applicationId: string | null;
  readonly lastUsed: Date | null;
  readonly firstDiscovered: Date | null;
  readonly idleDays: number | null;
  readonly bucketLabel: string;
  readonly licensed: boolean;
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
  #computer: number[] = [];
  #application: number[] = [];
  #label: number[] = [];
  #flags: number[] = [];
  #idleDays: number[] = [];
  #lastUsed: number[] = [];
  #firstDiscovered: number[] = [];

  /** Installs held. */
  get length(): number {
    return this.#computer.length;
  }

  /** Holds one install. */
  push(install: ListedInstall): void {
    this.#computer.push(this.#computers.of(install.computerId));
    this.#application.push(this.#applications.of(install.applicationId));
    this.#label.push(this.#labels.of(install.bucketLabel));
    this.#flags.push((install.licensed ? 1 : 0) | (install.candidate ? 2 : 0));
    this.#idleDays.push(install.idleDays ?? NaN);
    this.#lastUsed.push(encodeDate(install.lastUsed));
    this.#firstDiscovered.push(encodeDate(install.firstDiscovered));
  }

  /** The installs in computer then application order, each rebuilt as it is yielded. */
  *inComputerOrder(): Generator<ListedInstall> {
    const computerRank = this.#computers.ranks(), applicationRank = this.#applications.ranks();
    const order = new Int32Array(this.length).map((_, i) => i).sort((a, b) =>
      computerRank[this.#computer[a]] - computerRank[this.#computer[b]] ||
      applicationRank[this.#application[a]] - applicationRank[this.#application[b]] || a - b
    );
    for (const i of order) yield this.#at(i);
  }

  #at(i: number): ListedInstall {
    const idleDays = this.#idleDays[i], flags = this.#flags[i];
    return {
      computerId: this.#computers.values[this.#computer[i]],
      applicationId: this.#applications.values[this.#application[i]],
      lastUsed: decodeDate(this.#lastUsed[i]),
      firstDiscovered: decodeDate(this.#firstDiscovered[i]),
      idleDays: Number.isNaN(idleDays) ? null : idleDays,
      bucketLabel: this.#labels.values[this.#label[i]]!,
      licensed: (flags & 1) !== 0,
      candidate: (flags & 2) !== 0,
    };
  }
}
