/**
 * Stopping on SIGINT and SIGTERM, promptly, whatever the command is waiting on. A listener for a
 * signal replaces the default (the process ending), so a command that listens must end by
 * itself; this module makes sure it does:
 *
 * 1. The first signal aborts {@link StopSignals.signal}. The command stops where it is — a pack
 *    run settles its manifest as `interrupted` (`lib/pack/run_pack.ts`), a schedule stops
 *    waiting for the next time, a worker interrupts its packs — and returns
 *    {@link StopSignals.exitCode}: 130 for SIGINT, 143 for SIGTERM (128 + the signal's number,
 *    as a shell reports a process those signals ended).
 * 2. Whatever still waits after that (a browser, a mail server or tenant that never answers, a
 *    library that takes no signal) cannot keep the process: a second signal, or
 *    {@link DEFAULT_STOP_GRACE_MS} after the first, runs the `lastResort` hook (synchronous: each
 *    pack run still in progress is settled `interrupted` and its staging folder removed) and
 *    exits with the same code. Exiting removes the temp folders the process marked as its own
 *    (`lib/fs/owned_temp.ts`).
 *
 * @module
 */

/** The signals that stop a command. */
export type StopSignal = "SIGINT" | "SIGTERM";

/**
 * The exit code of a command stopped by each signal: 128 + the signal's number.
 *
 * @example
 * ```ts
 * import { STOP_EXIT_CODES } from "./stop_signals.ts";
 * console.log(STOP_EXIT_CODES.SIGTERM); // 143
 * ```
 */
export const STOP_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * How long after the first signal the process exits even if the command has not ended.
 *
 * @example
 * ```ts
 * import { DEFAULT_STOP_GRACE_MS } from "./stop_signals.ts";
 * console.log(DEFAULT_STOP_GRACE_MS); // 5000
 * ```
 */
export const DEFAULT_STOP_GRACE_MS = 5_000;

/**
 * The reason a stopped command's signal carries, and what {@link StopSignals.until} throws.
 *
 * @example
 * ```ts
 * import { StoppedError } from "./stop_signals.ts";
 * const e = new StoppedError("SIGTERM");
 * console.log(e.message, e.exitCode); // stopped by SIGTERM 143
 * ```
 */
export class StoppedError extends Error {
  /** The signal. */
  readonly signal: StopSignal;
  /** The exit code it calls for. */
  readonly exitCode: number;
  /** @param signal The signal received. */
  constructor(signal: StopSignal) {
    super(`stopped by ${signal}`);
    this.name = "StoppedError";
    this.signal = signal;
    this.exitCode = STOP_EXIT_CODES[signal];
  }
}

/** Options of {@link stopOnSignals}. */
export interface StopOnSignalsOptions {
  /** A line for the person at the terminal when the first signal arrives. */
  readonly log?: (line: string) => void;
  /** Milliseconds from the first signal to the forced exit (default {@link DEFAULT_STOP_GRACE_MS}). */
  readonly graceMs?: number;
  /** Run, synchronously, just before a forced exit (settle what the command leaves behind). */
  readonly lastResort?: () => void;
  /** Ends the process (default `Deno.exit`; tests). */
  readonly exit?: (code: number) => void;
}

/** The stop signals a command listens to, until disposed. */
export interface StopSignals extends Disposable {
  /** Aborted at the first signal (its reason a {@link StoppedError}). */
  readonly signal: AbortSignal;
  /** 130 or 143 once a signal arrived, else undefined. */
  readonly exitCode: number | undefined;
  /** Resolves at the first signal, with what it calls for. */
  readonly stopped: Promise<StoppedError>;
  /**
   * `work`, or a rejection with the {@link StoppedError} as soon as a signal arrives (the work
   * is left to the forced exit; its own later failure is ignored).
   */
  until<T>(work: Promise<T>): Promise<T>;
  /** Stops listening (and cancels a pending forced exit). */
  remove(): void;
}

/**
 * Listens for SIGINT and SIGTERM for the length of a command (see the module documentation).
 *
 * @example
 * ```ts ignore
 * import { stopOnSignals } from "./stop_signals.ts";
 * using stop = stopOnSignals({ lastResort: interruptLiveRunsSync });
 * try {
 *   await stop.until(runPack({ pack, signal: stop.signal }));
 * } catch (e) {
 *   if (stop.exitCode) return stop.exitCode;
 *   throw e;
 * }
 * ```
 */
export function stopOnSignals(options: StopOnSignalsOptions = {}): StopSignals {
  const controller = new AbortController();
  const exit = options.exit ?? ((code: number) => Deno.exit(code));
  let received: StoppedError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const forceExit = () => {
    try {
      options.lastResort?.();
    } finally {
      exit(received!.exitCode);
    }
  };
  const listeners = (["SIGINT", "SIGTERM"] as const).map((name) => {
    const listener = () => {
      if (received) return forceExit(); // a second signal: at once
      received = new StoppedError(name);
      const grace = options.graceMs ?? DEFAULT_STOP_GRACE_MS;
      options.log?.(
        `${name}: stopping; the run in progress is settled as interrupted (a second signal, ` +
          `or ${grace / 1000} s, ends it at once)`,
      );
      timer = setTimeout(forceExit, grace);
      controller.abort(received);
    };
    Deno.addSignalListener(name, listener);
    return [name, listener] as const;
  });
  const remove = () => {
    for (const [name, listener] of listeners) Deno.removeSignalListener(name, listener);
    clearTimeout(timer);
  };
  const stopped = new Promise<StoppedError>((resolve) => {
    controller.signal.addEventListener("abort", () => resolve(received!), { once: true });
  });
  return {
    signal: controller.signal,
    stopped,
    get exitCode() {
      return received?.exitCode;
    },
    until<T>(work: Promise<T>): Promise<T> {
      if (received) {
        work.catch(() => {});
        return Promise.reject(received);
      }
      return new Promise<T>((resolve, reject) => {
        const stop = () => {
          work.catch(() => {});
          reject(received);
        };
        controller.signal.addEventListener("abort", stop, { once: true });
        work.then(resolve, reject).finally(() => {
          controller.signal.removeEventListener("abort", stop);
        });
      });
    },
    remove,
    [Symbol.dispose]: remove,
  };
}
