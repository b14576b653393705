/**
 * Test helper: run samkit as a user runs it — `deno run -P=<set> --no-prompt main.ts …` from the
 * project folder — with no colour and no connection settings leaking in from the developer's
 * shell, and read back its exit code and output.
 *
 * @module
 */

import { findBrowser } from "../../lib/render/browser.ts";

/**
 * The browser samkit picks on this machine (a headless shell before a full Chrome), or undefined
 * when there is none: tests that print PDFs name it to their CLI runs, so those runs print with
 * what a user's run would, whatever the shell running the tests sets.
 */
export const TEST_BROWSER: string | undefined = await findBrowser().catch(() => undefined);

/** {@link TEST_BROWSER} as the environment of a CLI run (empty when there is no browser). */
export const BROWSER_ENV: Readonly<Record<string, string>> = TEST_BROWSER
  ? { PUPPETEER_EXECUTABLE_PATH: TEST_BROWSER }
  : {};

/** The project folder (where `main.ts` and `deno.json` are). */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/**
 * What every run starts from: no colour, and every connection setting empty so that only what a
 * test passes reaches the CLI.
 */
export const CLEAN_ENV: Readonly<Record<string, string>> = {
  NO_COLOR: "1",
  SAM_BASE_URL: "",
  SAM_REGION: "",
  SAM_TOKEN: "",
  SAM_CLIENT_ID: "",
  SAM_CLIENT_SECRET: "",
};

/** What one CLI run gave back. */
export interface CliRun {
  /** The exit code. */
  readonly code: number;
  /** Everything printed on stdout. */
  readonly stdout: string;
  /** Everything printed on stderr but Deno's own notice about permissions in deno.json. */
  readonly stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /**
   * The permission set of deno.json to run under.
   *
   * @default {"report"}
   */
  readonly set?: string;
  /** Variables to set on top of {@link CLEAN_ENV}. */
  readonly env?: Readonly<Record<string, string>>;
}

const DENO_NOTICE = /^Warning Permissions in the config file.*\n/m;

/**
 * Runs samkit with `args` as its task would and returns its exit code and output.
 *
 * @example Usage
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { runCli } from "./cli.ts";
 *
 * const r = await runCli(["report", "nope"]);
 * assert.equal(r.code, 2, r.stderr);
 * ```
 */
export async function runCli(
  args: readonly string[],
  options: RunCliOptions = {},
): Promise<CliRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", `-P=${options.set ?? "report"}`, "--no-prompt", "main.ts", ...args],
    cwd: ROOT,
    env: { ...CLEAN_ENV, ...options.env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr).replace(DENO_NOTICE, ""),
  };
}
