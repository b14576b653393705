/**
 * An adaptive concurrency limiter in the Vegas/gradient style of concurrency-limit libraries: it
 * starts small and grows its limit while the latency of its tasks holds near the lowest it has
 * seen (by one per success while the limit is in use, so it doubles every round trip), eases it
 * down by a tenth when latency rises past a tolerance, and halves it when the API signals
 * pressure (a 429 or a 503). It never exceeds the user's cap nor goes below its floor.
 *
 * A burst of signals from the same round trip counts once: a decrease is ignored until a task
 * started after the previous decrease has finished.
 *
 * @module
 */

/** Options of {@link AdaptiveLimiter}. */
export interface LimiterOptions {
  /** The user's cap: the most tasks in flight (default 64). */
  readonly max?: number;
  /** The floor: the fewest tasks in flight after backing off (default 1). */
  readonly min?: number;
  /** The limit to start from (default 4, within min and max). */
  readonly initial?: number;
  /** Latency above `tolerance` × the lowest seen counts as rising (default 2). */
  readonly tolerance?: number;
  /** Monotonic ms, for measuring tasks (default `performance.now`). */
  readonly now?: () => number;
}

/**
 * Bounds how many tasks run at once and adapts the bound to the latency it measures and to the
 * server's pressure.
 *
 * @example
 * ```ts
 * import { AdaptiveLimiter } from "./limiter.ts";
 * const limiter = new AdaptiveLimiter({ max: 16, initial: 4 });
 * const result = await limiter.run(() => Promise.resolve(42));
 * limiter.backOff(); // after a 429: the limit halves
 * console.log(result, limiter.limit); // 42 2
 * ```
 */
export class AdaptiveLimiter {
  #limit: number;
  #max: number;
  #min: number;
  #tolerance: number;
  #now: () => number;
  #active = 0;
  #minLatency = Infinity;
  /** When the last decrease happened; samples from tasks started before it do not decrease. */
  #decreasedAt = -Infinity;
  /** Whether a task started after the last decrease has finished (decreases are open again). */
  #settled = true;
  #waiting: (() => void)[] = [];

  /**
   * Starts a limiter at its start limit.
   *
   * @param options Cap, floor, start and latency tolerance.
   */
  constructor(options: LimiterOptions = {}) {
    this.#max = Math.max(1, Math.floor(options.max ?? 64));
    this.#min = Math.min(this.#max, Math.max(1, Math.floor(options.min ?? 1)));
    this.#limit = clamp(Math.floor(options.initial ?? 4), this.#min, this.#max);
    this.#tolerance = Math.max(1, options.tolerance ?? 2);
    this.#now = options.now ?? (() => performance.now());
  }

  /** The current bound (a whole number between the floor and the cap). */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  /** The user's cap. */
  get max(): number {
    return this.#max;
  }

  /** Tasks running now. */
  get active(): number {
    return this.#active;
  }

  /** Halves the bound (not below the floor): call it when the server signals pressure. */
  backOff(): void {
    this.#decrease(0.5);
  }

  /** Runs `task` when a slot is free; its latency steers the bound. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    while (this.#active >= this.limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#active++;
    const used = this.#active >= this.limit;
    const started = this.#now();
    try {
      const value = await task();
      this.#sample(this.#now() - started, started, used);
      return value;
    } finally {
      this.#active--;
      this.#wake();
    }
  }

  /** Steers the bound by one successful task's latency. */
  #sample(latency: number, started: number, used: boolean): void {
    if (started >= this.#decreasedAt) this.#settled = true;
    this.#minLatency = Math.min(this.#minLatency, latency);
    if (latency > this.#minLatency * this.#tolerance + 1) {
      if (started >= this.#decreasedAt) this.#decrease(0.9);
    } else if (used) {
      this.#limit = Math.min(this.#max, this.#limit + 1);
    }
  }

  #decrease(factor: number): void {
    if (!this.#settled) return;
    this.#limit = Math.max(this.#min, Math.floor(this.#limit * factor));
    this.#decreasedAt = this.#now();
    this.#settled = false;
    this.#wake();
  }

  #wake(): void {
    const wake = this.#waiting.splice(0, Math.max(0, this.limit - this.#active));
    for (const resolve of wake) resolve();
  }
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Number.isFinite(n) ? n : min));
}
