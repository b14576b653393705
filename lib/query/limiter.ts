/**
 * An adaptive concurrency limiter (additive increase, multiplicative decrease): it halves its
 * limit when the API signals pressure (a 429 or a 503) and grows it back by one after a run of
 * successes, never beyond its maximum.
 *
 * @module
 */

/** Options of {@link AdaptiveLimiter}. */
export interface LimiterOptions {
  /** The most tasks in flight (default 8). */
  readonly max?: number;
  /** The fewest tasks in flight after backing off (default 1). */
  readonly min?: number;
  /** Successes in a row before the limit grows by one (default 8). */
  readonly growAfter?: number;
}

/**
 * Bounds how many tasks run at once and adapts the bound to the server's pressure.
 *
 * @example
 * ```ts
 * import { AdaptiveLimiter } from "./limiter.ts";
 * const limiter = new AdaptiveLimiter({ max: 4 });
 * const result = await limiter.run(() => Promise.resolve(42));
 * limiter.backOff(); // after a 429: the limit halves
 * console.log(result, limiter.limit); // 42 2
 * ```
 */
export class AdaptiveLimiter {
  #limit: number;
  #max: number;
  #min: number;
  #growAfter: number;
  #active = 0;
  #streak = 0;
  #waiting: (() => void)[] = [];

  /** @param options Bounds and growth. */
  constructor(options: LimiterOptions = {}) {
    this.#max = Math.max(1, options.max ?? 8);
    this.#min = Math.min(this.#max, Math.max(1, options.min ?? 1));
    this.#growAfter = Math.max(1, options.growAfter ?? 8);
    this.#limit = this.#max;
  }

  /** The current bound. */
  get limit(): number {
    return this.#limit;
  }

  /** Tasks running now. */
  get active(): number {
    return this.#active;
  }

  /** Halves the bound (not below the minimum): call it when the server signals pressure. */
  backOff(): void {
    this.#limit = Math.max(this.#min, Math.floor(this.#limit / 2));
    this.#streak = 0;
  }

  /** Runs `task` when a slot is free; counts its success towards growing the bound. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    while (this.#active >= this.#limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#active++;
    try {
      const value = await task();
      if (++this.#streak >= this.#growAfter && this.#limit < this.#max) {
        this.#limit++;
        this.#streak = 0;
      }
      return value;
    } finally {
      this.#active--;
      const wake = this.#waiting.splice(0, Math.max(0, this.#limit - this.#active));
      for (const resolve of wake) resolve();
    }
  }
}
