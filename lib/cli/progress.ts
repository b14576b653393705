/**
 * Progress on stderr while data is fetched and rendered: one updating line on a terminal,
 * nothing when stderr is not a terminal or with `--quiet`. Stage and log text pass through
 * {@link terminalText}, so a name from the server cannot move the cursor or recolour the screen.
 *
 * @module
 */

import type { ClientEvent } from "../api/client.ts";
import { printErr, terminalText } from "./terminal_text.ts";

/** Counters shown on the progress line. */
export interface ProgressCounters {
  /** Requests sent. */
  requests: number;
  /** Items fetched. */
  items: number;
  /** Rate-limit waits. */
  rateLimitWaits: number;
  /** Retries. */
  retries: number;
}

/**
 * A progress line writer.
 *
 * @example
 * ```ts
 * import { Progress } from "./progress.ts";
 * const p = new Progress({ enabled: false });
 * p.counters.requests++;
 * p.status("fetching");
 * p.done();
 * ```
 */
export class Progress {
  /** The counters the line shows (the client's events update them). */
  readonly counters: ProgressCounters = { requests: 0, items: 0, rateLimitWaits: 0, retries: 0 };
  #enabled: boolean;
  #stage = "";
  #last = 0;
  #write: (text: string) => void;

  /**
   * @param options `enabled` defaults to "stderr is a terminal"; `write` (default: to stderr)
   * receives the control sequences and the line.
   */
  constructor(options: { enabled?: boolean; write?: (text: string) => void } = {}) {
    this.#enabled = options.enabled ?? Deno.stderr.isTerminal();
    const encoder = new TextEncoder();
    this.#write = options.write ?? ((text) => Deno.stderr.writeSync(encoder.encode(text)));
  }

  /** Whether anything is printed. */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Sets the stage text and redraws (at most every 100 ms unless `force`). */
  status(stage: string, force = true): void {
    this.#stage = stage;
    this.tick(force);
  }

  /** Redraws the line at most every 100 ms. */
  tick(force = false): void {
    if (!this.#enabled) return;
    const now = Date.now();
    if (!force && now - this.#last < 100) return;
    this.#last = now;
    const c = this.counters;
    const line = `${this.#stage} · ${c.items} items · ${c.requests} requests` +
      (c.rateLimitWaits ? ` · ${c.rateLimitWaits} rate-limit waits` : "") +
      (c.retries ? ` · ${c.retries} retries` : "");
    const safe = terminalText(line).replaceAll("\n", " ").replaceAll("\t", " ");
    this.#write(`\r\x1b[2K${safe.slice(0, 150)}`);
  }

  /** Prints a permanent line (above the progress line). */
  log(message: string): void {
    if (!this.#enabled) return;
    this.#write(`\r\x1b[2K${terminalText(message)}\n`);
    this.tick(true);
  }

  /** Clears the line. */
  done(): void {
    if (this.#enabled) this.#write("\r\x1b[2K");
  }
}

/**
 * A client `onEvent` handler that counts requests, items, retries and rate-limit waits on the
 * progress line, and prints each filter warning once. Back-off under pressure is
 * `backOffOnPressure` (lib/query/context.ts), which wraps this handler.
 *
 * @example
 * ```ts
 * import { clientEvents, Progress } from "./progress.ts";
 * const progress = new Progress({ enabled: false });
 * const onEvent = clientEvents(progress);
 * onEvent({ type: "page", path: "/x", pageNumber: 1, items: 10 });
 * console.log(progress.counters.items); // 10
 * ```
 */
export function clientEvents(progress: Progress): (event: ClientEvent) => void {
  const warned = new Set<string>();
  return (event) => {
    if (event.type === "filterWarning") {
      // Said once per field and operation, whether or not progress is shown: it is about the data.
      if (!warned.has(event.message)) printErr(`samkit: warning: ${event.op}: ${event.message}`);
      warned.add(event.message);
      return;
    }
    const c = progress.counters;
    if (event.type === "request") c.requests++;
    else if (event.type === "page") c.items += event.items;
    else if (event.type === "retry") c.retries++;
    else if (event.type === "rateLimit") c.rateLimitWaits++;
    progress.tick();
  };
}
