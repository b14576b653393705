/**
 * Test helper: run a child process that may hang (a FIFO read, a signal ignored) with a limit,
 * so a test that would wait forever fails instead: past the limit the child is killed with
 * SIGKILL and the result says `timedOut`. The limit is a guard against hanging, never the thing
 * a test asserts about time.
 *
 * @module
 */

import { CLEAN_ENV, ROOT } from "./cli.ts";

/** What a bounded child gave back. */
export interface BoundedRun {
  /** The exit code (137 when killed by the guard). */
  readonly code: number;
  /** The signal that ended it, if any. */
  readonly signal: Deno.Signal | null;
  /** Whether the guard had to kill it. */
  readonly timedOut: boolean;
  /** Everything printed on stdout. */
  readonly stdout: string;
  /** Everything printed on stderr (Deno's notice about config permissions removed). */
  readonly stderr: string;
}

const DENO_NOTICE = /^Warning Permissions in the config file.*\n/m;

/** A spawned child whose output is collected and which a guard kills after `limitSeconds`. */
export interface BoundedChild {
  /** The child. */
  readonly child: Deno.ChildProcess;
  /** stderr so far (for waiting on a line). */
  stderrSoFar(): string;
  /** Waits until stderr holds `text` (or the child ends); whether it does. */
  waitForStderr(text: string | RegExp): Promise<boolean>;
  /** Waits for the end (killing the child when the limit passes) and returns what it gave. */
  result(): Promise<BoundedRun>;
}

/**
 * Spawns `command` (stdout and stderr piped) with a guard that kills it after `limitSeconds`.
 *
 * @example Usage
 * ```ts ignore
 * import { spawnBounded } from "./bounded.ts";
 * const run = spawnBounded(new Deno.Command("cat", { args: ["/tmp/fifo"] }), 10);
 * console.log((await run.result()).timedOut);
 * ```
 */
export function spawnBounded(command: Deno.Command, limitSeconds: number): BoundedChild {
  const child = command.spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, limitSeconds * 1000);
  let drained = false;
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  const pump = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      add(chunk);
      for (const w of waiters) w();
    }
  };
  const pumped = Promise.all([
    pump(child.stdout, (s) => out += s),
    pump(child.stderr, (s) => err += s),
  ]).finally(() => {
    drained = true;
    for (const w of waiters) w();
  });
  const status = child.status.finally(() => clearTimeout(timer));
  return {
    child,
    stderrSoFar: () => err,
    waitForStderr(text) {
      const has = () => typeof text === "string" ? err.includes(text) : text.test(err);
      return new Promise((resolve) => {
        const check = () => {
          if (!has() && !drained) return;
          waiters.delete(check);
          resolve(has());
        };
        waiters.add(check);
        check();
      });
    },
    async result() {
      const s = await status;
      await pumped.catch(() => {});
      return {
        code: s.code,
        signal: s.signal,
        timedOut,
        stdout: out,
        stderr: err.replace(DENO_NOTICE, ""),
      };
    },
  };
}

/**
 * Runs samkit (`deno run -P=<set> --no-prompt main.ts …` from the project folder, clean env) with
 * a guard that kills it after `limitSeconds`.
 *
 * @example Usage
 * ```ts ignore
 * import { runCliBounded } from "./bounded.ts";
 * const r = await runCliBounded(["pack", "/tmp/fifo"], { set: "pack", limitSeconds: 60 });
 * console.log(r.timedOut, r.code);
 * ```
 */
export function spawnCliBounded(
  args: readonly string[],
  options: { set: string; env?: Record<string, string>; limitSeconds: number },
): BoundedChild {
  return spawnBounded(
    new Deno.Command(Deno.execPath(), {
      args: ["run", `-P=${options.set}`, "--no-prompt", "main.ts", ...args],
      cwd: ROOT,
      env: { ...CLEAN_ENV, ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }),
    options.limitSeconds,
  );
}

/**
 * {@link spawnCliBounded} and its result.
 *
 * @example Usage
 * ```ts ignore
 * import { runCliBounded } from "./bounded.ts";
 * const r = await runCliBounded(["pack", "/tmp/fifo"], { set: "pack", limitSeconds: 60 });
 * ```
 */
export function runCliBounded(
  args: readonly string[],
  options: { set: string; env?: Record<string, string>; limitSeconds: number },
): Promise<BoundedRun> {
  return spawnCliBounded(args, options).result();
}

/**
 * Makes a FIFO at `path` with the system's `mkfifo` (Deno has none).
 *
 * @example Usage
 * ```ts ignore
 * import { mkfifo } from "./bounded.ts";
 * await mkfifo("/tmp/x.fifo");
 * ```
 */
export async function mkfifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path], stderr: "piped" }).output();
  if (!out.success) throw new Error(`mkfifo ${path}: ${new TextDecoder().decode(out.stderr)}`);
}
