/**
 * The headless browser that prints PDFs: found on the machine (never downloaded), launched once
 * per run on first use with a locked-down set of flags and a throw-away profile, and shared by
 * every report of the run.
 *
 * Where the browser comes from, in order:
 * 1. `PUPPETEER_EXECUTABLE_PATH`, when set (it must exist; `bin/samkit-chromium` starts it only
 *    when it is a system browser or the one named in `bin/browser-path`);
 * 2. a headless shell: Debian's `chromium-headless-shell` package
 *    (`/usr/lib/chromium/chromium-headless-shell`, `/usr/bin/chromium-headless-shell`) or Chrome
 *    for Testing's `/usr/bin/chrome-headless-shell`. It is Chrome's own headless build for
 *    printing and screenshots, with no browser UI behind it: measured here it starts in half the
 *    time and prints the demo's four PDFs with under half the CPU of the full browser, to the
 *    same pages;
 * 3. a system Chrome or Chromium: `/usr/bin/chromium`, `/usr/bin/chromium-browser`,
 *    `/usr/bin/google-chrome`, `/usr/bin/google-chrome-stable` (then the same names on `PATH`).
 *
 * When none is found, {@link BrowserNotFoundError} says how to get one.
 *
 * Puppeteer is imported as `puppeteer-core` (the library the `puppeteer` package wraps): the
 * `puppeteer` package searches for a configuration file (`package.json`, `.puppeteerrc*`,
 * `puppeteer.config.*`, `.config/…`) in the working folder and in every parent folder up to
 * `$HOME` — up to `/` when the project is not under `$HOME` — as soon as it is imported. Those are
 * reads outside the permission sets (Deno would prompt for each in a terminal), and a
 * `.puppeteerrc.cjs` there would be code run by the report. samkit fixes the browser and its flags
 * itself, so it needs none of that.
 *
 * @module
 */

import type { Browser, Page } from "puppeteer-core";
import { join } from "node:path";
import { makeOwnedTempDir } from "../fs/owned_temp.ts";
import { fileURLToPath as fromFileUrl } from "node:url";

/**
 * The system browsers looked for, in order.
 *
 * @example
 * ```ts
 * import { SYSTEM_BROWSERS } from "./browser.ts";
 * console.log(SYSTEM_BROWSERS[0]); // /usr/lib/chromium/chromium-headless-shell
 * ```
 */
export const SYSTEM_BROWSERS: readonly string[] = [
  "/usr/lib/chromium/chromium-headless-shell",
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chrome-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/**
 * The flags every launch uses (a fresh `--user-data-dir` is added per launch).
 *
 * @example
 * ```ts
 * import { BROWSER_FLAGS } from "./browser.ts";
 * console.log(BROWSER_FLAGS.includes("--no-sandbox")); // true
 * ```
 */
export const BROWSER_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--metrics-recording-only",
  "--mute-audio",
  "--disable-dev-shm-usage",
  // No name resolves: a DNS prefetch hint cannot leak a lookup (requests are aborted anyway).
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--dns-prefetch-disable",
];

/**
 * The flags Puppeteer would add by default (taken from its launcher, without
 * `--enable-automation`), written out so that the browser's command line is fixed by samkit and
 * not by Puppeteer's version or its environment variables.
 *
 * @example
 * ```ts
 * import { PUPPETEER_FLAGS } from "./browser.ts";
 * console.log(PUPPETEER_FLAGS.includes("--enable-automation")); // false
 * ```
 */
export const PUPPETEER_FLAGS: readonly string[] = [
  "--allow-pre-commit-input",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-breakpad",
  "--disable-component-extensions-with-background-pages",
  "--disable-crash-reporter",
  "--disable-hang-monitor",
  "--disable-infobars",
  "--disable-ipc-flooding-protection",
  "--disable-popup-blocking",
  "--disable-prompt-on-repost",
  "--disable-renderer-backgrounding",
  "--disable-search-engine-choice-screen",
  "--export-tagged-pdf",
  "--force-color-profile=srgb",
  "--generate-pdf-document-outline",
  "--password-store=basic",
  "--use-mock-keychain",
  "--hide-scrollbars",
  "--disable-features=Translate,AcceptCHFrame,MediaRouter,OptimizationHints,WebUIReloadButton," +
  "WebUIOmniboxPopup,WebUIOmniboxAimPopup,ProcessPerSiteUpToMainFrameThreshold," +
  "IsolateSandboxedIframes",
  "--enable-features=PdfOopif",
];

/**
 * The whole command line of a launch but the profile folder: {@link PUPPETEER_FLAGS}, then
 * {@link BROWSER_FLAGS}, the DevTools pipe and the first page. `bin/samkit-chromium` accepts
 * exactly these (and `--user-data-dir=<…>/samkit-chrome-*`) and refuses any other flag.
 *
 * @example
 * ```ts
 * import { launchArgs } from "./browser.ts";
 * const args = launchArgs("/tmp/samkit-chrome-x");
 * console.log(args.at(-1)); // --user-data-dir=/tmp/samkit-chrome-x
 * ```
 */
export function launchArgs(profileDir: string): string[] {
  return [
    ...PUPPETEER_FLAGS,
    ...BROWSER_FLAGS,
    "--remote-debugging-pipe",
    "about:blank",
    `--user-data-dir=${profileDir}`,
  ];
}

/**
 * The launcher script that starts the browser with samkit's fixed flags only (see
 * `bin/samkit-chromium`), or undefined when samkit does not run from a checkout that has it.
 *
 * @example
 * ```ts
 * import { chromiumWrapper } from "./browser.ts";
 * console.log(chromiumWrapper()?.endsWith("bin/samkit-chromium")); // true in a checkout
 * ```
 */
export function chromiumWrapper(): string | undefined {
  const url = new URL("../../bin/samkit-chromium", import.meta.url);
  if (url.protocol !== "file:") return undefined;
  const path = fromFileUrl(url);
  try {
    return Deno.statSync(path).isFile ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Thrown when no Chrome or Chromium can be found; the message says how to get one.
 *
 * @example
 * ```ts
 * import { BrowserNotFoundError, findBrowser } from "./browser.ts";
 * try {
 *   await findBrowser({ env: () => undefined, candidates: [], exists: () => false });
 * } catch (error) {
 *   if (error instanceof BrowserNotFoundError) console.error(error.message);
 * }
 * ```
 */
export class BrowserNotFoundError extends Error {
  /**
   * Builds the error from the places looked at.
   *
   * @param looked The places that were looked at.
   */
  constructor(readonly looked: readonly string[]) {
    super(
      "No Chrome or Chromium found for PDF output (looked at " + looked.join(", ") + "). " +
        "Install Chrome's headless shell (Debian/Ubuntu: " +
        "`apt-get install -y chromium-headless-shell fonts-liberation`) or a Chrome/Chromium, " +
        "or set PUPPETEER_EXECUTABLE_PATH to a Chrome/Chromium executable.",
    );
    this.name = "BrowserNotFoundError";
  }
}

/**
 * Thrown when a browser was found but would not start.
 *
 * @example
 * ```ts
 * import { BrowserLaunchError, launchBrowser } from "./browser.ts";
 * const browser = launchBrowser({ executablePath: "/bin/false" });
 * try {
 *   await browser.newPage();
 * } catch (error) {
 *   console.log(error instanceof BrowserLaunchError); // true
 * } finally {
 *   await browser.close();
 * }
 * ```
 */
export class BrowserLaunchError extends Error {
  /**
   * Builds the error from the browser that failed and why.
   *
   * @param executablePath The browser that failed.
   * @param cause Why.
   */
  constructor(readonly executablePath: string, cause: unknown) {
    super(
      `Could not start the browser at ${executablePath}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.name = "BrowserLaunchError";
  }
}

/**
 * Where {@link findBrowser} looks (injectable for tests).
 *
 * @example
 * ```ts
 * import { findBrowser } from "./browser.ts";
 * const path = await findBrowser({
 *   env: () => undefined,
 *   candidates: ["/opt/chrome/chrome"],
 *   exists: (p) => p === "/opt/chrome/chrome",
 * });
 * console.log(path); // /opt/chrome/chrome
 * ```
 */
export interface FindBrowserOptions {
  /** Reads an environment variable (default `Deno.env.get`). */
  readonly env?: (name: string) => string | undefined;
  /** System paths to try (default {@link SYSTEM_BROWSERS}). */
  readonly candidates?: readonly string[];
  /** Whether a path is an existing file (default a `Deno.stat`). */
  readonly exists?: (path: string) => boolean | Promise<boolean>;
}

function defaultEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no env permission
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Finds a Chrome or Chromium executable (see the module doc for the order).
 *
 * @example
 * ```ts
 * import { findBrowser } from "./browser.ts";
 * const path = await findBrowser();
 * console.log(path); // e.g. /usr/bin/chromium
 * ```
 */
export async function findBrowser(options: FindBrowserOptions = {}): Promise<string> {
  const env = options.env ?? defaultEnv;
  const exists = options.exists ?? isFile;
  const looked: string[] = [];

  const fromEnv = env("PUPPETEER_EXECUTABLE_PATH")?.trim();
  if (fromEnv) {
    if (await exists(fromEnv)) return fromEnv;
    looked.push(`PUPPETEER_EXECUTABLE_PATH=${fromEnv} (missing)`);
  }
  const candidates = options.candidates ?? SYSTEM_BROWSERS;
  for (const path of candidates) {
    looked.push(path);
    if (await exists(path)) return path;
  }
  if (!options.candidates) {
    const names = [...new Set(candidates.map((p) => p.slice(p.lastIndexOf("/") + 1)))];
    for (const dir of (env("PATH") ?? "").split(":").filter((d) => d !== "")) {
      for (const name of names) {
        const path = join(dir, name);
        if (!candidates.includes(path) && await exists(path)) return path;
      }
    }
    if (names.length > 0) looked.push(`${names.join("/")} on PATH`);
  }
  throw new BrowserNotFoundError(looked);
}

/**
 * A browser shared by a run: launched on the first {@link BrowserHandle.newPage}, or earlier
 * with {@link BrowserHandle.start}.
 *
 * @example
 * ```ts
 * import { launchBrowser } from "./browser.ts";
 * await using browser = launchBrowser();
 * console.log(browser.launched); // false: nothing started yet
 * browser.start(); // Chrome starts while the run does something else
 * ```
 */
export interface BrowserHandle {
  /**
   * Opens a new tab (launching the browser first if needed): a Puppeteer `Page`, for samkit's
   * own renderers; Puppeteer's types are not part of samkit's documented API.
   *
   * @ignore
   */
  newPage(): Promise<Page>;
  /**
   * Starts launching the browser now, in the background, so that it is up by the first
   * {@link BrowserHandle.newPage} (a run calls it before it reads its data: Chrome starts while
   * samkit fetches). Does nothing when it is running or starting, or the handle is closed; a
   * launch that fails here is tried again, and its error thrown, by the next `newPage()`.
   */
  start(): void;
  /** The browser's version string (launches it if needed). */
  version(): Promise<string>;
  /** Whether the browser process is running. */
  readonly launched: boolean;
  /** How many times the browser process was started (a crash causes a relaunch). */
  readonly launches: number;
  /** Closes the browser and removes its temp profile. Safe to call twice or before a launch. */
  close(): Promise<void>;
  /** Same as {@link BrowserHandle.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Options of {@link launchBrowser}.
 *
 * @example
 * ```ts
 * import { launchBrowser } from "./browser.ts";
 * const browser = launchBrowser({ executablePath: "/usr/bin/chromium", timeoutMs: 60_000 });
 * await browser.close();
 * ```
 */
export interface LaunchBrowserOptions {
  /** The executable (default: {@link findBrowser}). */
  readonly executablePath?: string;
  /**
   * The program spawned with {@link launchArgs}: default {@link chromiumWrapper} (which runs
   * `executablePath` with those flags only), `null` to spawn `executablePath` itself.
   */
  readonly launcher?: string | null;
  /** Launch time-out in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Protocol time-out per command in milliseconds (default 300 000: big chunks print slowly). */
  readonly protocolTimeoutMs?: number;
  /** Where the throw-away profile folder is made (default the system temp folder). */
  readonly tempDir?: string;
}

/**
 * Returns a handle on a browser that is launched lazily, once, on the first `newPage()` and
 * reused for every report of the run. Each launch gets a fresh `--user-data-dir` that `close()`
 * removes. If the browser dies, the next `newPage()` starts a new one.
 *
 * @example
 * ```ts
 * import { launchBrowser } from "./browser.ts";
 * const browser = launchBrowser();
 * try {
 *   const page = await browser.newPage();
 *   await page.setContent("<p>hello</p>");
 *   await page.close();
 * } finally {
 *   await browser.close();
 * }
 * ```
 */
export function launchBrowser(options: LaunchBrowserOptions = {}): BrowserHandle {
  let browser: Browser | undefined;
  let starting: Promise<Browser> | undefined;
  let profile: string | undefined;
  let launches = 0;
  let closed = false;

  const removeProfile = async (dir: string | undefined) => {
    if (!dir) return;
    // Chrome may still be writing to its profile for a moment after exit.
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await Deno.remove(dir, { recursive: true });
        return;
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  const start = async (): Promise<Browser> => {
    const executablePath = options.executablePath ?? await findBrowser();
    const dir = await makeOwnedTempDir({ dir: options.tempDir, prefix: "samkit-chrome-" });
    try {
      const launcher = options.launcher === undefined ? chromiumWrapper() : options.launcher;
      // Puppeteer is imported when a browser is first launched, not when this module loads.
      const { default: puppeteer } = await import("puppeteer-core");
      const b = await puppeteer.launch({
        executablePath: launcher ?? executablePath,
        env: launcher ? { ...Deno.env.toObject(), SAMKIT_CHROMIUM: executablePath } : undefined,
        headless: true,
        pipe: true,
        // Every flag is samkit's own: Puppeteer adds none (its defaults are in PUPPETEER_FLAGS).
        args: launchArgs(dir),
        ignoreDefaultArgs: true,
        timeout: options.timeoutMs ?? 30_000,
        protocolTimeout: options.protocolTimeoutMs ?? 300_000,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      launches++;
      profile = dir;
      b.on("disconnected", () => {
        if (browser === b) {
          browser = undefined;
          const old = profile;
          profile = undefined;
          void removeProfile(old);
        }
      });
      return b;
    } catch (error) {
      await removeProfile(dir);
      throw new BrowserLaunchError(executablePath, error);
    }
  };

  const get = async (): Promise<Browser> => {
    if (closed) throw new Error("the browser handle is closed");
    if (browser?.connected) return browser;
    if (!starting) {
      starting = start().then((b) => {
        browser = b;
        return b;
      }).finally(() => {
        starting = undefined;
      });
    }
    return await starting;
  };

  const close = async () => {
    closed = true;
    const b = browser ?? await starting?.catch(() => undefined);
    browser = undefined;
    const dir = profile;
    profile = undefined;
    if (b) {
      try {
        await b.close();
      } catch {
        b.process()?.kill("SIGKILL");
      }
    }
    await removeProfile(dir);
  };

  return {
    async newPage() {
      return await (await get()).newPage();
    },
    start() {
      if (closed || browser?.connected || starting) return;
      get().catch(() => {}); // the next newPage() launches again and throws the error
    },
    async version() {
      return await (await get()).version();
    },
    get launched() {
      return browser?.connected ?? false;
    },
    get launches() {
      return launches;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
