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
  #columns: () => number;

  /**
   * @param options `enabled` defaults to "stderr is a terminal"; `write` (default: to stderr)
   * receives the control sequences and the line; `columns` (default: the terminal's width) is
   * the widest line drawn: a wider one would wrap, and clearing the line would leave its start.
   */
  constructor(
    options: { enabled?: boolean; write?: (text: string) => void; columns?: number } = {},
  ) {
    this.#enabled = options.enabled ?? Deno.stderr.isTerminal();
    const encoder = new TextEncoder();
    this.#write = options.write ?? ((text) => Deno.stderr.writeSync(encoder.encode(text)));
    const columns = options.columns;
    this.#columns = columns === undefined ? terminalColumns : () => columns;
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
    const line =
      `${this.#stage} · ${counted(c.items, "item")} · ${counted(c.requests, "request")}` +
      (c.rateLimitWaits ? ` · ${counted(c.rateLimitWaits, "rate-limit wait")}` : "") +
      (c.retries ? ` · ${c.retries} ${c.retries === 1 ? "retry" : "retries"}` : "");
    const safe = terminalText(line).replaceAll("\n", " ").replaceAll("\t", " ");
    this.#write(`\r\x1b[2K${fitted(safe, this.#columns() - 1)}`);
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

/**
 * A count with its noun, singular for one and grouped by thousands.
 *
 * @example
 * ```ts
 * import { counted } from "./progress.ts";
 * console.log(counted(1, "request"), counted(1200, "item")); // 1 request 1,200 items
 * ```
 */
export function counted(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

/** The terminal's width in columns (80 when it cannot be read, 150 at most). */
function terminalColumns(): number {
  try {
    return Math.min(150, Deno.consoleSize().columns || 80);
  } catch {
    return 80;
  }
}

/** The line cut to `width` characters (code points), ending in "…" when cut. */
function fitted(line: string, width: number): string {
  const chars = [...line];
  if (chars.length <= width) return line;
  return `${chars.slice(0, Math.max(1, width - 1)).join("")}…`;
}
