/**
 * Test helper: run a command as a person types it, in a pseudo-terminal. Deno asks for a missing
 * permission only when a terminal is attached, and then waits for an answer forever; scripts and
 * CI, with no terminal, never see the question. {@link inTerminal} runs a command under `script`
 * (util-linux) with its input open and silent, and fails at once if Deno asks anything.
 *
 * @module
 */

import { CLEAN_ENV, ROOT } from "./cli.ts";

const dec = new TextDecoder();

/**
 * Whether `script` (util-linux) is here to make a pseudo-terminal.
 *
 * @example Usage
 * ```ts
 * import { HAS_SCRIPT } from "./terminal.ts";
 * console.log(typeof HAS_SCRIPT); // "boolean"
 * ```
 */
export const HAS_SCRIPT: boolean = await new Deno.Command("script", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
}).output().then((o) => o.success, () => false);

/** What a run in a terminal gave back. */
export interface TerminalRun {
  /** The exit code. */
  readonly code: number;
  /** Everything the terminal showed (stdout and stderr together, as a person sees them). */
  readonly text: string;
}

/** Options of {@link inTerminal}. */
export interface InTerminalOptions {
  /**
   * The folder to run in.
   *
   * @default {ROOT}
   */
  readonly cwd?: string;
  /**
   * How long the run may take before it is killed and the call rejects.
   *
   * @default {240_000}
   */
  readonly limitMs?: number;
}

/** Deno's permission prompt, as it appears in a terminal. */
const PROMPT = /Deno requests|Allow\? \[y\/n/;

/**
 * Runs `words` (a command and its arguments; a leading `deno` is this Deno) in a pseudo-terminal
 * with no colour and no connection settings. Resolves with the exit code and the terminal's text;
 * rejects as soon as Deno prompts, or after `limitMs`.
 *
 * @example Usage
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { inTerminal } from "./terminal.ts";
 *
 * const { code, text } = await inTerminal(["deno", "task", "reports"]);
 * assert.equal(code, 0, text);
 * ```
 */
export async function inTerminal(
  words: readonly string[],
  options: InTerminalOptions = {},
): Promise<TerminalRun> {
  const limitMs = options.limitMs ?? 240_000;
  const [program, ...args] = words;
  const command = [program === "deno" ? Deno.execPath() : program, ...args].map(shellWord)
    .join(" ");
  const child = new Deno.Command("script", {
    args: ["-q", "-e", "-c", command, "/dev/null"],
    cwd: options.cwd ?? ROOT,
    env: CLEAN_ENV,
    stdin: "piped", // open and silent: a prompt would wait here for ever
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${command}: still running after ${limitMs} ms:\n${text}`)),
      limitMs,
    );
  });
  const read = (async () => {
    for await (const chunk of child.stdout) {
      text += dec.decode(chunk, { stream: true });
      if (PROMPT.test(text)) {
        throw new Error(
          `${command}: Deno asked for a permission in a terminal:\n${text.slice(-1500)}`,
        );
      }
    }
  })();
  try {
    await Promise.race([read, limit]);
    const status = await Promise.race([child.status, limit]);
    return { code: status.code, text };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    throw error;
  } finally {
    clearTimeout(timer);
    await child.stdin.close().catch(() => {});
    await child.stderr.cancel().catch(() => {});
    await child.status;
  }
}

/** `word` quoted for `sh -c` when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
