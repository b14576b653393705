/**
 * Fault injection, request counters and the rate limiter of the reference server, so tests can
 * make it misbehave on cue and check how many requests a client sent.
 *
 * @module
 */

/** One planned fault. Without `status`, `reset` or `truncate` (and no `delayMs`), it sends 500. */
export interface FaultSpec {
  /** Which request paths it applies to: a substring of the path, or a pattern. All when absent. */
  readonly match?: string | RegExp;
  /** It fires on the Nth matching request from now (1-based, default 1). */
  readonly nth?: number;
  /** How many consecutive matching requests it fires on, from the Nth (default 1). */
  readonly times?: number;
  /** Answer with this status and the error body. */
  readonly status?: number;
  /** Send `Retry-After` with this many seconds. */
  readonly retryAfter?: number;
  /** Drop the connection: headers are sent, then the body is aborted. */
  readonly reset?: true;
  /** Send the real body cut in half, with 200. */
  readonly truncate?: true;
  /** Wait this long before answering (alone: the request is then served normally). */
  readonly delayMs?: number;
}

/** A fault that fired for a request: what to do. */
export interface FiredFault {
  /** The fault's spec. */
  readonly spec: FaultSpec;
  /** How the server acts on it. */
  readonly action: "status" | "reset" | "truncate" | "delay";
}

/** A planned fault with its progress. */
export interface FaultHandle {
  /** The spec it was added with. */
  readonly spec: FaultSpec;
  /** Matching requests seen since it was added. */
  readonly seen: number;
  /** Times it fired. */
  readonly fired: number;
  /** Whether it will fire again. */
  readonly pending: boolean;
}

class Fault implements FaultHandle {
  readonly spec: FaultSpec;
  seen = 0;
  fired = 0;
  constructor(spec: FaultSpec) {
    this.spec = spec;
  }
  get pending(): boolean {
    return this.fired < (this.spec.times ?? 1);
  }
  matches(path: string): boolean {
    const m = this.spec.match;
    if (m === undefined) return true;
    if (typeof m === "string") return path.includes(m);
    m.lastIndex = 0;
    return m.test(path);
  }
}

/**
 * The fault plan: faults tests add at runtime, consumed by matching requests.
 *
 * @example Fail the second request to /computers with 503
 * ```ts
 * import { FaultPlan } from "./faults.ts";
 * const faults = new FaultPlan();
 * faults.add({ match: "/computers", nth: 2, status: 503, retryAfter: 1 });
 * console.log(faults.take("/api/sam/estate/v1/computers")); // undefined
 * console.log(faults.take("/api/sam/estate/v1/computers")?.action); // "status"
 * ```
 */
export class FaultPlan {
  #faults: Fault[] = [];

  /**
   * Plan a fault; returns a handle that shows its progress.
   *
   * @example
   * ```ts
   * import { FaultPlan } from "./faults.ts";
   * const handle = new FaultPlan().add({ status: 500, times: 2 });
   * console.log(handle.pending); // true
   * ```
   */
  add(spec: FaultSpec): FaultHandle {
    for (const [k, v] of Object.entries({ nth: spec.nth, times: spec.times })) {
      if (v !== undefined && !(v >= 1)) throw new RangeError(`Fault ${k} must be at least 1`);
    }
    const fault = new Fault(spec);
    this.#faults.push(fault);
    return fault;
  }

  /**
   * Remove every planned fault.
   *
   * @example
   * ```ts
   * import { FaultPlan } from "./faults.ts";
   * const faults = new FaultPlan();
   * faults.add({ status: 500 });
   * faults.clear();
   * console.log(faults.pending); // 0
   * ```
   */
  clear(): void {
    this.#faults = [];
  }

  /** How many faults will still fire. */
  get pending(): number {
    return this.#faults.filter((f) => f.pending).length;
  }

  /**
   * Count a request against the plan and return the fault that fires for it, if any (the
   * earliest added among those due).
   *
   * @example
   * ```ts
   * import { FaultPlan } from "./faults.ts";
   * const faults = new FaultPlan();
   * faults.add({ reset: true });
   * console.log(faults.take("/x")?.action, faults.take("/x")); // "reset" undefined
   * ```
   */
  take(path: string): FiredFault | undefined {
    let fired: Fault | undefined;
    for (const f of this.#faults) {
      if (!f.pending || !f.matches(path)) continue;
      f.seen++;
      if (!fired && f.seen >= (f.spec.nth ?? 1)) fired = f;
    }
    if (!fired) return undefined;
    fired.fired++;
    this.#faults = this.#faults.filter((f) => f.pending);
    const s = fired.spec;
    const action = s.reset
      ? "reset"
      : s.truncate
      ? "truncate"
      : s.status === undefined && s.delayMs !== undefined
      ? "delay"
      : "status";
    return { spec: s, action };
  }
}

/**
 * Request counters of a running server.
 *
 * @example
 * ```ts
 * import { ServerStats } from "./faults.ts";
 * const stats = new ServerStats();
 * stats.record("/api/sam/v1/licenses");
 * console.log(stats.total, stats.path("/api/sam/v1/licenses")); // 1 1
 * ```
 */
export class ServerStats {
  /** Every request received. */
  total = 0;
  /** Requests refused with 429 by the rate limiter. */
  rateLimited = 0;
  /** Requests per URL path. */
  readonly byPath: Map<string, number> = new Map();
  /** Requests per operation id (`estate.computers`, `token`). */
  readonly byOperation: Map<string, number> = new Map();
  /** Responses per status. */
  readonly byStatus: Map<number, number> = new Map();

  /**
   * Count a request.
   *
   * @example
   * ```ts
   * import { ServerStats } from "./faults.ts";
   * const stats = new ServerStats();
   * stats.record("/a");
   * console.log(stats.byPath.get("/a")); // 1
   * ```
   */
  record(path: string): void {
    this.total++;
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
  }

  /**
   * Count a request routed to an operation (`token` for the token endpoint).
   *
   * @example
   * ```ts
   * import { ServerStats } from "./faults.ts";
   * const stats = new ServerStats();
   * stats.recordOperation("estate.computers");
   * console.log(stats.operation("estate.computers")); // 1
   * ```
   */
  recordOperation(id: string): void {
    this.byOperation.set(id, (this.byOperation.get(id) ?? 0) + 1);
  }

  /**
   * Count a response status.
   *
   * @example
   * ```ts
   * import { ServerStats } from "./faults.ts";
   * const stats = new ServerStats();
   * stats.status(404);
   * console.log(stats.byStatus.get(404)); // 1
   * ```
   */
  status(code: number): void {
    this.byStatus.set(code, (this.byStatus.get(code) ?? 0) + 1);
  }

  /**
   * Requests seen for a path (0 when none).
   *
   * @example
   * ```ts
   * import { ServerStats } from "./faults.ts";
   * console.log(new ServerStats().path("/nothing")); // 0
   * ```
   */
  path(path: string): number {
    return this.byPath.get(path) ?? 0;
  }

  /**
   * Requests seen for an operation id (0 when none).
   *
   * @example
   * ```ts
   * import { ServerStats } from "./faults.ts";
   * console.log(new ServerStats().operation("estate.computers")); // 0
   * ```
   */
  operation(id: string): number {
    return this.byOperation.get(id) ?? 0;
  }

  /**
   * Set every counter back to zero.
   *
   * @example
   * ```ts
   * import { ServerStats } from "./faults.ts";
   * const stats = new ServerStats();
   * stats.record("/a");
   * stats.reset();
   * console.log(stats.total); // 0
   * ```
   */
  reset(): void {
    this.total = 0;
    this.rateLimited = 0;
    this.byPath.clear();
    this.byOperation.clear();
    this.byStatus.clear();
  }
}

/**
 * A fixed-window limiter: at most N requests per wall-clock second; the others are told how many
 * whole seconds to wait.
 *
 * @example
 * ```ts
 * import { RateLimiter } from "./faults.ts";
 * let now = 5_000;
 * const limiter = new RateLimiter(2, () => now);
 * console.log(limiter.admit(), limiter.admit(), limiter.admit()); // 0 0 1
 * now = 6_000;
 * console.log(limiter.admit()); // 0
 * ```
 */
export class RateLimiter {
  #limit: number;
  #now: () => number;
  #window = -1;
  #count = 0;

  /**
   * @param perSecond Requests admitted per second; 0 turns the limiter off.
   * @param now The clock in epoch milliseconds.
   */
  constructor(perSecond: number, now: () => number = Date.now) {
    this.#limit = perSecond;
    this.#now = now;
  }

  /**
   * Admit a request: 0 when admitted, else the seconds to wait (for `Retry-After`, at least 1).
   *
   * @example
   * ```ts
   * import { RateLimiter } from "./faults.ts";
   * console.log(new RateLimiter(0).admit()); // 0
   * ```
   */
  admit(): number {
    if (this.#limit <= 0) return 0;
    const now = this.#now();
    const window = Math.floor(now / 1000);
    if (window !== this.#window) {
      this.#window = window;
      this.#count = 0;
    }
    if (this.#count < this.#limit) {
      this.#count++;
      return 0;
    }
    return Math.max(1, Math.ceil(((window + 1) * 1000 - now) / 1000));
  }
}
